"""Full scripted games (tests/game/scripts, written by make_scripts.py) for RULES.md's situations.

Each test checks the situation from the game's own record against the rules core, not against
numbers copied from a run."""

import copy
from dataclasses import replace

import pytest

from companion.game import ScriptError
from companion.game.script import run_script
from companion.rules import Card, score

from tests.game.conftest import SCRIPTS, played, script

ALL = sorted(p.stem for p in SCRIPTS.glob("*.json"))


def moving(game):
    return [line for line in game.log if line.points]


@pytest.mark.parametrize("name", ALL)
def test_every_script_ends_once_at_the_target_and_scores_add_up(name):
    run = played(name)
    game = run.session.game
    assert game.phase == "match over"
    for result in game.results:
        lines = [l for l in game.log if l.game == result.number]
        totals = [sum(l.points for l in lines if l.side == s) for s in range(len(game.sides))]
        assert list(result.scores) == totals
        reached = [s for s, total in enumerate(totals) if total >= game.rules.target]
        assert reached == [result.pegged_out]
        assert totals[result.pegged_out] == game.rules.target
        # the game ended on the last peg movement: nothing moved after it in that game
        assert lines[-1].side == result.pegged_out or lines[-1].points <= 0


def test_pone_pegs_out_in_the_show_before_the_dealer_counts():
    for name in ("pone_pegs_out_in_show", "short_pone_pegs_out_in_show"):
        run = played(name)
        game = run.session.game
        last = moving(game)[-1]
        pone = (game.dealer + 1) % game.n
        assert last.kind == "hand" and last.seat == pone and game.results[-1].winner == game.side_of[pone]
        assert run.skipped and "show[1]" in run.skipped[0]  # the dealer's hand and crib were never counted
        assert not any(l.deal == game.deal_number and l.kind in ("crib",) for l in game.log)
        dealer_side = game.side_of[game.dealer]
        assert not any(l.deal == game.deal_number and l.kind == "hand" and l.side == dealer_side for l in game.log)


def test_short_game_goes_to_61_with_its_skunk_line():
    game = played("short_pone_pegs_out_in_show").session.game
    assert game.rules.target == 61 and game.rules.skunk_line == 30
    loser = 1 - game.results[-1].winner
    assert game.results[-1].kind == ("skunk" if game.scores[loser] <= 30 else "win")


def test_peg_out_during_the_play_skips_the_show():
    run = played("peg_out_in_play")
    game = run.session.game
    assert moving(game)[-1].kind == "play"
    assert not [l for l in game.log if l.deal == game.deal_number and l.kind in ("hand", "crib")]
    assert len(game.deal.pegging.events) < 8


def test_heels_not_mugginsable():
    game = played("heels_not_mugginsable").session.game
    heels_deals = [d for d in script("heels_not_mugginsable")["deals"] if d.get("heels") == 0]
    assert heels_deals
    lost = [l for l in game.log if l.kind == "lost" and "his heels" in l.text]
    assert len(lost) == len(heels_deals)
    assert not [l for l in game.log if l.kind == "muggins" and "heels" in l.text]


def test_overclaims_are_corrected_without_penalty():
    game = played("overclaim_corrected").session.game
    over = [l for l in game.log if l.claimed is not None and l.claimed > l.entitled]
    assert len(over) >= 3
    for line in over:
        assert line.points == line.entitled or line.side == game.results[-1].pegged_out
        assert "no penalty" in line.text
    assert not [l for l in game.log if l.kind == "penalty"]


def test_muggins_taken_and_declined():
    data = script("muggins_taken_and_declined")
    game = run_script(data).session.game
    takes = [l for l in game.log if l.kind == "muggins"]
    declines = [l for l in game.log if l.kind == "lost" and "declined" in l.text]
    calls = [item.get("muggins") for d in data["deals"] for item in d["play"] + d["show"] if isinstance(item, dict)]
    assert len(takes) == sum(1 for c in calls if c and c != "decline")
    assert len(declines) == sum(1 for c in calls if c == "decline")
    for take in takes:
        claim = next(l for l in game.log if l.entry == take.ref and l.kind != "muggins")
        assert take.points == claim.entitled - claim.claimed and take.side != claim.side


def test_three_player_deals_have_a_blind_card_and_three_tracks():
    data = script("three_players")
    game = run_script(data).session.game
    assert all("blind" in d for d in data["deals"])
    assert len(game.sides) == 3 and len(run_script(data).session.view().board.pegs) == 3
    crib_counts = [s for s in game.shows if s.kind == "crib"]
    for record, deal in zip(crib_counts, data["deals"]):
        crib = [c for cards in deal["discards"].values() for c in cards] + [deal["blind"]]
        assert sorted(record.cards) == sorted(crib)
        assert record.entitled == score([Card.parse(c) for c in crib], Card.parse(deal["cut"]), crib=True).total


def test_four_players_two_partnerships_on_two_tracks():
    session = played("four_players").session
    game = session.game
    assert game.sides == ((0, 2), (1, 3)) and len(session.view().board.pegs) == 2
    for side, seats in enumerate(game.sides):
        assert {l.seat for l in game.log if l.side == side and l.seat is not None} <= set(seats)


def test_skunk_and_double_skunk_lines():
    skunk = played("skunk").session.game
    loser = 1 - skunk.results[-1].winner
    assert skunk.results[-1].kind == "skunk" and 60 < skunk.scores[loser] <= 90
    assert skunk.results[-1].game_points == 3  # ACC
    double = played("double_skunk").session.game
    loser = 1 - double.results[-1].winner
    assert double.results[-1].kind == "double skunk" and double.scores[loser] <= 60
    assert double.results[-1].game_points == 3  # home: a double skunk counts three games
    board = played("double_skunk").session.view().board
    assert (board.skunk_line, board.double_skunk_line) == (90, 60)


def test_lowball_the_first_to_121_loses():
    game = played("lowball").session.game
    result = game.results[-1]
    assert game.rules.lowball and result.pegged_out != result.winner
    assert result.kind == ("skunk" if game.scores[result.winner] <= 90 else "win")


def test_pub_best_of_three():
    session = played("pub_best_of_three").session
    game = session.game
    assert [r.number for r in game.results] == [1, 2, 3]
    winner = session.view().wins.index(2)
    assert game.results[-1].winner == winner and session.view().match_over
    assert session.view().match_points[winner] == sum(r.game_points for r in game.results if r.winner == winner)
    # each later game is dealt first by the previous game's loser
    for previous, first in zip(game.results, game.first_dealers[1:]):
        assert first == 1 - previous.winner


def test_undo_across_a_deal_boundary_and_redo_restores_it():
    data = script("pone_pegs_out_in_show")
    first_two = copy.deepcopy(data)
    first_two["deals"] = data["deals"][:2]
    session = run_script(first_two).session
    after_two = session.view()
    session.discard(None)   # the third deal starts (discards not typed)
    session.undo()          # back across the deal boundary
    assert replace(session.view(), can_redo=0) == after_two and session.view().can_redo == 1
    session.undo()          # the crib count of deal 2
    assert session.view().phase == "show" and session.view().next_show.kind == "crib"
    assert session.view().deal_number == 2
    session.redo()
    session.redo()
    assert session.view().phase == "cut" and session.view().deal_number == 3


def bad(data, path, value):
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("path, value, message", [
    (("deals", 2, "cut"), "XX", "deal 3, cut: "),
    (("deals", 0, "play", 3), "ZZ", "deal 1, play[3]: "),
    (("deals", 1, "show", 0), {"cards": ["AS", "2S", "3S", "4S"]}, "deal 2, show[0]: "),
    (("deals", 1, "discards"), {"Ann": ["TH"], "Ben": ["7S", "JC"]}, "deal 2, discards: "),
    (("deals", 0, "show", 1), {"claim": -3}, "deal 1, show[1].claim: "),
    (("deals", 0, "play", 0), {"card": "6H", "muggins": "Ben"}, "deal 1, play[0].muggins: "),
    (("rules",), "casino", "rules.preset: unknown rule set"),
    (("deals", 0, "shwo"), [], "deal 1, shwo: unknown field"),
])
def test_a_bad_script_names_the_first_wrong_entry(path, value, message):
    data = bad(script("short_pone_pegs_out_in_show"), path, value)
    with pytest.raises(ScriptError) as caught:
        run_script(data)
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_deal_after_the_end_is_refused():
    data = script("short_pone_pegs_out_in_show")
    data["deals"].append(data["deals"][0])
    with pytest.raises(ScriptError, match="deal 7: the game is already over"):
        run_script(data)
