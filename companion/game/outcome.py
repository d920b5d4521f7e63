"""The end of a game: who won, skunks and game points (RULES.md "Winning and game points")."""

from __future__ import annotations

from companion.rules import RuleSet, game_outcome

from companion.game.records import GameResult


def outcome(scores: list[int], pegged_out: int, rules: RuleSet, number: int, deals: int) -> GameResult:
    """The game's result (RULES.md "Winning and game points"); 3 players: each loser is judged
    against the skunk lines and the winner takes the game points of each."""
    if len(scores) == 2:
        result = game_outcome((scores[0], scores[1]), pegged_out, rules)
        loser = 1 - result.winner
        losers = ((loser, scores[loser], result.kind, result.game_points),)
        return GameResult(number, result.winner, pegged_out, result.kind, result.game_points,
                          tuple(scores), losers, deals)
    losers = []
    for side, value in enumerate(scores):
        if side != pegged_out:
            judged = game_outcome((rules.target, value), 0, rules)
            losers.append((side, value, judged.kind, judged.game_points))
    worst = min(losers, key=lambda loser: loser[1])
    return GameResult(number, pegged_out, pegged_out, worst[2], sum(l[3] for l in losers),
                      tuple(scores), tuple(losers), deals)
