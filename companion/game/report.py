"""The final state of a game as ``crib game replay`` and ``crib game show`` print it."""

from __future__ import annotations

from companion.rules import GameEnd

from companion.game.records import LogKind
from companion.game.setup import rules_as_json
from companion.game.view import GameView

NOTED_KINDS = (LogKind.MUGGINS, LogKind.LOST, LogKind.PENALTY)


def notes(view: GameView, all_games: list[dict]) -> list[dict]:
    """Each muggins, correction, lost point and penalty with its reason."""
    return [line for line in all_games
            if line["kind"] in NOTED_KINDS or (line["claimed"] is not None and line["claimed"] != line["entitled"])]


def final_state(view: GameView, log: list[dict], skipped: list[str] = ()) -> dict:
    result = view.result
    winner = view.side_names[result.winner] if result else None
    return {
        "players": list(view.players), "sides": [list(s) for s in view.sides],
        "side_names": list(view.side_names), "rules": rules_as_json(view.rules), "phase": view.phase,
        "game": view.game_number, "deal": view.current_deal,
        "scores": list(view.scores),
        "pegs": [{"front": f, "back": b} for f, b in view.pegs],
        "winner": winner, "skunk": result.kind if result else None,
        "game_points": result.game_points if result else None,
        "games": [result.as_json() for result in view.results],
        "match": {"best_of": view.rules.match_games, "wins": list(view.wins),
                  "match_points": list(view.match_points), "over": view.match_over,
                  "winner": _match_winner(view)},
        "notes": [{"game": n["game"], "deal": n["deal"], "kind": n["kind"], "points": n["points"],
                   "text": n["text"]} for n in notes(view, log)],
        "skipped": list(skipped),
    }


def _match_winner(view: GameView) -> str | None:
    if not view.match_over or view.rules.match_games == 1 and not view.results:
        return None
    return view.side_names[max(range(len(view.wins)), key=lambda s: view.wins[s])]


def result_words(kind: GameEnd | str, game_points: int) -> str:
    """A game's result as said at the table: "wins with a skunk (3 game points)"."""
    how = "" if kind == GameEnd.WIN else f" with a {kind}"
    return f"wins{how} ({game_points} game point{'' if game_points == 1 else 's'})"


def format_text(state: dict) -> str:
    lines = []
    result_side = state["winner"]
    for side, name in enumerate(state["side_names"]):
        pegs = state["pegs"][side]
        line = f"{name}: {state['scores'][side]} (front peg {pegs['front']}, back peg {pegs['back']})"
        if name == result_side:
            line += f": {result_words(state['skunk'], state['game_points'])}"
        lines.append(line)
    if not result_side:
        lines.append(f"game {state['game']}, deal {state['deal']}: at the {state['phase']}")
    match = state["match"]
    if match["best_of"] > 1:
        wins = ", ".join(f"{n} {w}" for n, w in zip(state["side_names"], match["wins"]))
        points = ", ".join(f"{n} {p}" for n, p in zip(state["side_names"], match["match_points"]))
        done = f": {match['winner']} wins the match" if match["over"] else ""
        lines.append(f"match (best of {match['best_of']}): games won {wins}; match points {points}{done}")
    if state["notes"]:
        lines.append("muggins, corrections and penalties:")
        lines += [f"  game {n['game']} deal {n['deal']}: {n['text']}" for n in state["notes"]]
    lines += [f"  {s}" for s in state["skipped"]]
    return "\n".join(lines)
