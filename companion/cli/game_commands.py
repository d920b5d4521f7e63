"""``crib game ...``: keep a game from a terminal with the same GameSession the app uses.

replay SCRIPT.json   play a game script, print the final state (``--json`` for the contract)
new / list / show / resume / undo / export / import / stats
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.rules import PRESETS, MugginsMode
from companion.words import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    game = subparsers.add_parser("game", help="keep a game: new, resume, replay a script, export, stats",
                                 description="Keep a game of cribbage (2, 3 or 4 players) safely on disk. "
                                             "Games live in the user data folder ($CRIB_DATA_DIR overrides it).")
    sub = game.add_subparsers(dest="game_command", metavar="ACTION", parser_class=type(game))
    sub.required = True

    replay = sub.add_parser("replay", help="play a game script and print the final state")
    replay.add_argument("script", help="game script (JSON; schema in the README)")
    replay.add_argument("--json", action="store_true", help="print JSON")
    replay.add_argument("--save", action="store_true", help="also store the game (crib game list shows it)")
    replay.set_defaults(handler=run_replay)

    new = sub.add_parser("new", help="start a game")
    new.add_argument("players", nargs="+", help="2, 3 or 4 names in seating order (clockwise); "
                                                 "with 4, partners sit opposite (1st & 3rd, 2nd & 4th)")
    new.add_argument("--rules", default="acc", help=f"preset: {', '.join(PRESETS)} (default acc)")
    new.add_argument("--muggins", choices=[mode.value for mode in MugginsMode], help="change the preset's muggins")
    new.add_argument("--short", action="store_true", help="short game to 61")
    new.add_argument("--count-first", action=argparse.BooleanOptionalAction, default=None,
                     help="show each count before the player claims it (default: only with muggins off; "
                          "with muggins on, the player claims first and the count is shown after)")
    new.add_argument("--lowball", action="store_true", help="lowball: the first to the target loses")
    new.add_argument("--dealer", help="who deals first (name); default the first player")
    new.add_argument("--cut", nargs="+", metavar="CARD", help="cards cut for deal, one per player: lowest deals")
    new.add_argument("--json", action="store_true", help="print JSON")
    new.set_defaults(handler=run_new)

    listing = sub.add_parser("list", help="the stored games")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=run_list)

    show = sub.add_parser("show", help="a game's state")
    show.add_argument("id", type=int)
    show.add_argument("--json", action="store_true", help="print JSON (the replay contract plus the view)")
    show.set_defaults(handler=run_show)

    resume = sub.add_parser("resume", help="continue a game: read moves from the terminal (help lists them)")
    resume.add_argument("id", type=int)
    resume.add_argument("--board", metavar="URL", help="drive an LED board (serial port or sim://)")
    resume.set_defaults(handler=run_resume)

    undo = sub.add_parser("undo", help="take back a game's latest entry (redo it from resume)")
    undo.add_argument("id", type=int)
    undo.set_defaults(handler=run_undo)

    export = sub.add_parser("export", help="write a game as JSON")
    export.add_argument("id", type=int)
    export.add_argument("out", help="file to write")
    export.set_defaults(handler=run_export)

    imported = sub.add_parser("import", help="store a game exported as JSON (checked first)")
    imported.add_argument("file")
    imported.set_defaults(handler=run_import)

    stats = sub.add_parser("stats", help="statistics per player over the stored games")
    stats.add_argument("--csv", metavar="OUT", help="write them as CSV ('-' for standard output)")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(handler=run_stats)


def _state(session, skipped=()) -> dict:
    from companion.game.report import final_state

    return final_state(session.view(), [line.as_json() for line in session.game.log], skipped)


def run_replay(args: argparse.Namespace) -> int:
    from companion.game import Store
    from companion.game.report import format_text
    from companion.game.script import load_script, run_script

    store = Store() if args.save else None
    run = run_script(load_script(args.script), store=store)
    try:
        state = _state(run.session, run.skipped)
        if run.session.game_id is not None:
            state["id"] = run.session.game_id
        print(json.dumps(state, indent=1) if args.json else format_text(state))
    finally:
        run.session.close()  # a saved game's lock goes: it can be resumed at once
    return 0


def run_new(args: argparse.Namespace) -> int:
    from companion.game import GameSession, Store
    from companion.game.setup import rules_as_json

    rules: dict = {"preset": args.rules}
    if args.muggins:
        rules["muggins"] = args.muggins
    if args.lowball:
        rules["lowball"] = True
    session = GameSession.new(args.players, rules, first_dealer=args.dealer, dealer_cut=args.cut,
                              short=args.short, count_first=args.count_first, store=Store())
    view = session.view()
    if args.json:
        print(json.dumps({"id": session.game_id, "players": list(view.players), "rules": rules_as_json(view.rules),
                          "first_dealer": view.players[session.game.first_dealer],
                          "count_first": view.count_first}))
    else:
        print(f"game {session.game_id}: {' v '.join(view.side_names)} ({view.rules.name}, to "
              f"{view.rules.target}); {view.players[session.game.first_dealer]} deals first. "
              f"Continue with: crib game resume {session.game_id}")
    session.close()
    return 0


def run_list(args: argparse.Namespace) -> int:
    from companion.game import Store

    rows = Store().games()
    if args.json:
        print(json.dumps([{"id": r.id, "created": r.created, "players": list(r.players), "rules": r.rules,
                           "entries": r.entries, "summary": r.summary} for r in rows]))
        return 0
    if not rows:
        print("no games yet (crib game new NAME NAME)")
    for r in rows:
        summary = r.summary or {}
        scores = "-".join(str(s) for s in summary.get("scores", []))
        state = summary.get("phase", "?")
        print(f"{r.id:>4}  {r.created}  {', '.join(r.players)}  {r.rules}  {scores}  {state}")
    return 0


def _open(game_id: int, write: bool):
    from companion.game import GameSession, Store

    store = Store()
    return GameSession.open(store, game_id) if write else GameSession.read(store, game_id)


def run_show(args: argparse.Namespace) -> int:
    from companion.game.report import format_text

    session = _open(args.id, write=False)
    state = _state(session)
    if args.json:
        state["view"] = session.view().as_json()
        print(json.dumps(state, indent=1))
    else:
        print(format_text(state))
        print(_prompt_line(session))
    return 0


def run_undo(args: argparse.Namespace) -> int:
    from companion.game.terminal import entry_words

    session = _open(args.id, write=True)
    try:
        session.undo()
        undone = session.history.undone[-1]  # the player's move (a step the app took after it goes with it)
        waiting = session.view().can_redo
        print(f"undone: {entry_words(undone, session.view())} ({waiting} waiting for redo: "
              f"'redo' in crib game resume {args.id}; a new move there forgets them)")
        print(_prompt_line(session))
    finally:
        session.close()
    return 0


def run_export(args: argparse.Namespace) -> int:
    from companion.game.transfer import write_export

    session = _open(args.id, write=False)
    write_export(session.export(), args.out)
    print(f"game {args.id} written to {args.out} ({plural(len(session.journal), 'entry', 'entries')})")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from companion.game import Store
    from companion.game.transfer import import_game

    game_id = import_game(Store(), args.file)
    print(f"imported as game {game_id}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from companion.game import Store
    from companion.game.stats import collect, format_table, write_csv

    table = collect(Store())
    if args.csv:
        if args.csv == "-":
            write_csv(table, sys.stdout)
        else:
            with open(args.csv, "w", newline="", encoding="utf-8") as out:
                write_csv(table, out)
            print(f"statistics for {plural(len(table), 'player')} written to {args.csv}")
    elif args.json:
        print(json.dumps([row.as_json() for row in table], indent=1))
    else:
        print(format_table(table))
    return 0


def run_resume(args: argparse.Namespace) -> int:
    from companion.game.terminal import Terminal, typed_lines

    session = _open(args.id, write=True)
    board = None
    try:
        if args.board:
            board = _board_following(args.board, session)
        # typed at a terminal: a prompt, and arrow keys that edit and recall (readline); piped in:
        # each move written after the prompt, so the output reads as the session it was
        typed = sys.stdin.isatty()
        Terminal(session, typed_lines() if typed else sys.stdin, sys.stdout, echo=not typed).run()
    finally:
        if board is not None:
            board.close()
        session.close()
    return 0


def _board_following(url: str, session):
    """The LED board following the game, checked first and said: a port that is not there, or a
    simulated board whose tracks do not match the game's sides, is refused (exit 2); otherwise
    one line says whether the board answered."""
    import os

    from hardware import timeouts
    from hardware.endpoint import SIM_SCHEME, parse_sim_url
    from hardware.geometry import Geometry

    from companion.cli.common import CliError
    from companion.game.board import BoardSync

    sides = len(session.view().side_names)
    if url.startswith(SIM_SCHEME):
        tracks = Geometry.load(parse_sim_url(url)["geometry"]).tracks
        if tracks != sides:
            raise CliError(f"--board {url}: a simulated {tracks}-track board for a game of {sides} sides: "
                           f"use sim://{sides}-track")
    elif "://" not in url and not os.path.exists(url):
        raise CliError(f"--board {url}: no such port (crib board ports lists the serial ports; "
                       f"sim://{sides}-track is a simulated board)")
    board = BoardSync.open(url, session)
    if not board.driver.wait_connected(timeouts.RESET_WAIT_S + 1.0):
        print(f"board: no answer on {url} yet ({board.driver.last_error or 'waiting'}); "
              "the game goes on and the board follows once it answers")
        return board
    info = board.driver.info
    if info.tracks < sides:
        board.close()
        raise CliError(f"--board {url}: the board has {info.tracks} tracks for a game of {sides} sides")
    spare = f"; the game uses tracks 1-{sides}" if info.tracks > sides else ""
    print(f"board: connected on {url}: {info.format()}{spare}")
    return board


def _prompt_line(session) -> str:
    from companion.game.terminal import prompt_line

    return prompt_line(session)

