"""Export and import a game as JSON: the whole journal (undo and redo included) plus a summary.

An import is checked completely before anything is stored: the file's format and version,
every entry's fields, the undo/redo history and the replay of the game. A refused file says
why (naming the entry) and leaves the data folder untouched.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion.game.engine import Game, replay
from companion.game.errors import EntryError, GameFileError
from companion.game.events import Entry, entry_from_json
from companion.game.history import walk
from companion.game.journal import Store

FORMAT, VERSION = "crib-companion-game", 1


def export_game(journal: list[Entry], game: Game) -> dict:
    return {
        "format": FORMAT, "version": VERSION,
        "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "players": list(game.players), "rules": game.setup.as_json()["rules"],
        "summary": {"phase": game.phase, "game": game.game_number, "scores": list(game.scores),
                    "results": [r.as_json() for r in game.results]},
        "entries": [entry.as_json() for entry in journal],
    }


def parse_export(data: Any) -> list[Entry]:
    """The journal of an export, fully checked (GameFileError says what is wrong)."""
    if not isinstance(data, dict):
        raise GameFileError("not a game export: expected a JSON object")
    if data.get("format") != FORMAT:
        raise GameFileError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise GameFileError(f"version: this program reads version {VERSION}, the file is {data.get('version')!r}")
    raw = data.get("entries")
    if not isinstance(raw, list) or not raw:
        raise GameFileError("entries: expected the game's list of entries")
    entries = []
    for index, item in enumerate(raw):
        try:
            entries.append(entry_from_json(item))
        except EntryError as exc:
            raise GameFileError(f"entries[{index}]: {exc}") from None
    try:
        history = walk(entries)
        game = replay(history.in_force)
    except EntryError as exc:
        raise GameFileError(f"the game does not replay: {exc}") from None
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or players != list(game.players)):
        raise GameFileError(f"players: {players} does not match the game's {list(game.players)}")
    rules = data.get("rules")
    if rules is not None and rules != game.setup.as_json()["rules"]:
        raise GameFileError(f"rules: {rules!r} does not match the game's (its new-game entry)")
    return entries


def read_export(path: str | Path) -> list[Entry]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GameFileError(f"{path}: not a text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return parse_export(data)


def import_game(store: Store, path: str | Path) -> int:
    """Store a checked export as a new game (one transaction: all of it or nothing); its id."""
    entries = read_export(path)
    game = replay(walk(entries).in_force)
    summary = {"phase": game.phase, "game": game.game_number, "deal": game.deal_number,
               "scores": list(game.scores), "wins": game.wins(),
               "result": game.results[-1].as_json() if game.results else None}
    return store.create(entries[0], summary, entries[1:])


def write_export(data: dict, path: str | Path) -> None:
    """Write next to the target and rename: a crash never leaves half a file."""
    path = Path(path)
    temporary = path.with_name(path.name + ".part")
    try:
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot write: {exc.strerror or exc}") from None
