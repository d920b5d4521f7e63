"""``crib board ...``: find, simulate, set, peg, demonstrate and picture the LED board.

Thin over the ``hardware`` library: parse, call, format. Tracks and players are numbered from 1
here (what a person types and reads); the library numbers them from 0.
"""

from __future__ import annotations

import argparse
import random
import sys

from hardware import (
    Animation,
    BoardDriver,
    BoardState,
    LinkTimeoutError,
    find_ports,
    open_link,
    play_demo,
)
from hardware import timeouts
from hardware.geometry import Geometry, GeometryError
from hardware.link import Link
from hardware.messages import BoardStatus, StateReply
from hardware.protocol import BoardFlags
from hardware.state import GAME_HOLE, SHORT_GAME

from companion.cli.board_simulate import run_simulate
from companion.words import plural

DEFAULT_SKUNK_LINE = 90       # RULES.md: every preset's skunk line
DEMO_PORT = "sim://3-track"   # the demo needs no hardware: the simulated board by default
PROGRESS_WIDTH = 30           # characters of one track's bar in the demo's progress
PROGRESS_EVERY = 10           # turns between progress lines when the output is not a terminal


class BoardArgumentError(ValueError):
    pass


def register(subparsers) -> None:
    board = subparsers.add_parser("board", help="the LED cribbage board (real or simulated)",
                                  description="Drive the LED cribbage board over serial.")
    sub = board.add_subparsers(dest="board_command", metavar="ACTION", parser_class=type(board))
    sub.required = True

    p = sub.add_parser("ports", help="list serial ports, likely boards first")
    p.set_defaults(handler=_ports)

    p = sub.add_parser("simulate", help="run the firmware in simavr and print its port (until Ctrl-C)",
                       description="Run the board firmware in simavr. While it runs, type "
                                   "'press TRACK +1|+2|undo' to press one of its buttons.")
    p.add_argument("--geometry", default="3-track", help="2-track or 3-track (default 3-track)")
    p.add_argument("--link", help="path of the pty symlink to create (default: a unique /tmp name)")
    p.add_argument("--seconds", type=float, help="stop after this long instead of waiting for Ctrl-C")
    p.add_argument("--reset-on-open", type=int, metavar="MS",
                   help="reset the board whenever a host opens the port and boot for MS ms (a real Uno/Nano: 1600)")
    p.add_argument("--eeprom", help="keep the board's EEPROM in this file across simulator runs")
    p.set_defaults(handler=run_simulate)

    p = sub.add_parser("set", help="show one state on the board and wait for its acknowledgement")
    _port_argument(p)
    _state_arguments(p, required=True)
    p.set_defaults(handler=_set)

    p = sub.add_parser("peg", help="peg points on a track: the back peg leapfrogs the front one")
    _port_argument(p)
    p.add_argument("track", type=_track_number, help="the track, from 1")
    p.add_argument("points", type=_points, help="+POINTS, e.g. +6")
    p.set_defaults(handler=_peg)

    p = sub.add_parser("undo", help="take back the last peg (of TRACK, or of the track pegged last)")
    _port_argument(p)
    p.add_argument("track", type=_track_number, nargs="?", help="the track, from 1 (default: the last pegged)")
    p.set_defaults(handler=_undo)

    p = sub.add_parser("status", help="what the board shows and how it is: state, link, EEPROM, buttons")
    _port_argument(p)
    p.set_defaults(handler=_status)

    p = sub.add_parser("demo", help="play a short random game on the board, ending with a win",
                       description="A random game on the board, shown here as it goes. Without --port it "
                                   "runs on a simulated 3-track board.")
    p.add_argument("--port", default=DEMO_PORT,
                   help=f"device or URL: /dev/ttyUSB0, socket://host:port, sim://2-track (default {DEMO_PORT})")
    p.add_argument("--seconds", type=float, default=8.0, help="length of the demo (default 8)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(handler=_demo)

    p = sub.add_parser("template", help="the drilling template at 1:1: every hole, LED and button (SVG, PDF)",
                       description="Draw the board's drilling template at 1:1 in millimetres: every hole, "
                                   "LED and button, hole numbers every 5, the strip's order with arrows and "
                                   "each track's colour. The PDF is tiled over A4 or Letter pages, each with "
                                   "a 100 mm scale bar to check the print.")
    p.add_argument("--geometry", default="3-track", help="2-track or 3-track (default 3-track)")
    p.add_argument("--svg", help="write the SVG here (width and height in mm)")
    p.add_argument("--pdf", help="write the PDF here, tiled over --paper pages")
    p.add_argument("--paper", default="a4", choices=("a4", "letter"), help="paper for the PDF (default a4)")
    p.set_defaults(handler=_template)

    p = sub.add_parser("selftest", help="check a freshly built board: every LED in wiring order, colours, buttons",
                       description="Walk one LED at a time along the strip in wiring order (naming the hole it "
                                   "should be under), show red, green, blue and each track's colour on every "
                                   "track, then ask for each button. Button presses are reported, not applied. "
                                   "On sim://GEOMETRY the simulator presses each button itself.")
    _port_argument(p)
    p.add_argument("--step", type=float, default=0.2, help="seconds each LED of the walk stays lit (default 0.2)")
    p.add_argument("--button-timeout", type=float, default=20.0,
                   help="seconds to wait for each button (default 20); Enter skips a button")
    p.add_argument("--no-buttons", action="store_true", help="a board built without buttons: skip part 3")
    p.set_defaults(handler=_selftest)

    p = sub.add_parser("render", help="read back the LED buffer and save a picture of the lit board")
    _port_argument(p)
    p.add_argument("--png", required=True, help="output PNG path")
    _state_arguments(p, required=False)
    p.set_defaults(handler=_render)


def _port_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True,
                   help="device or URL: /dev/ttyUSB0, socket://host:port, a simulator's pty, sim://3-track")


def _state_arguments(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("--pegs", required=required,
                   help="front/back per track, tracks numbered from 1 in order: 12/8,30/25[,0/0]")
    p.add_argument("--dealer", type=int, help="the dealer's track (1..3)")
    p.add_argument("--brightness", type=int, default=4, help="1 (dim room) .. 8 (daylight), default 4")
    p.add_argument("--skunk", type=int, help="skunk line (loser at or below), 0 for none; default 90 "
                                               "(none in the short game)")
    p.add_argument("--double-skunk", type=int, default=0, help="double-skunk line, e.g. 60; default none")
    p.add_argument("--animate", help="an animation KIND:TRACK: win, skunk or double_skunk, e.g. skunk:2")
    p.add_argument("--games", help="games won per track, shown on the games LEDs: 1,0[,2]")
    p.add_argument("--short", action="store_true", help="the 61-hole short game: once round, then the game hole")


def _track_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"track {text!r}: tracks are numbered from 1")
    return int(text)


def _points(text: str) -> int:
    digits = text[1:] if text.startswith("+") else text
    if not digits.isdigit() or not 1 <= int(digits) <= 121:
        raise argparse.ArgumentTypeError(f"points {text!r}: give +1 .. +121 (undo takes a peg back)")
    return int(digits)


def _state(args) -> BoardState:
    if args.dealer is not None and args.dealer < 1:
        raise BoardArgumentError(f"--dealer {args.dealer}: tracks are numbered from 1")
    target = SHORT_GAME if args.short else GAME_HOLE
    skunk = args.skunk if args.skunk is not None else (None if args.short else DEFAULT_SKUNK_LINE)
    pegs = BoardState.parse_pegs(args.pegs)
    return BoardState(
        pegs=pegs,
        dealer=None if args.dealer is None else args.dealer - 1,
        brightness=args.brightness,
        animation=Animation.parse(args.animate) if args.animate else None,
        skunk_line=skunk or None,
        double_skunk_line=args.double_skunk or None,
        games=BoardState.parse_games(args.games) if args.games else (),
        target=target,
    )


PORT_HEADINGS = ("port", "what it is", "description")


def _ports(args) -> int:
    ports = find_ports()
    if not ports:
        print("no serial ports (crib board simulate gives a simulated one)")
        return 0
    rows = [(port.device, f"likely board ({port.chip})" if port.likely else "other", port.description)
            for port in ports]
    widths = [max(len(row[i]) for row in [PORT_HEADINGS, *rows]) for i in range(2)]
    for device, kind, description in [PORT_HEADINGS, *rows]:
        print(f"{device:<{widths[0]}}  {kind:<{widths[1]}}  {description}".rstrip())
    return 0


def _checked(link: Link) -> str:
    return ", checked against this host's picture" if link.geometry is not None else ""


def _set(args) -> int:
    state = _state(args)
    with open_link(args.port) as link:
        info = link.hello()
        ack = link.set_state(state)
        link.bye()      # a one-shot command: the board keeps the state and looks idle, not lost
        print(info.format())
        print(f"shown: pegs {state.format_pegs(state.pegs)}, LED buffer CRC 0x{ack.led_crc:04X}{_checked(link)}")
    return 0


def _format_state(state: BoardState | None) -> str:
    if state is None:
        return "no state"
    parts = [f"pegs {state.format_pegs(state.pegs)}"]
    if state.target != GAME_HOLE:
        parts.append(f"short game to {state.target}")
    if state.dealer is not None:
        parts.append(f"dealer track {state.dealer + 1}")
    if any(state.games):
        parts.append("games " + ",".join(map(str, state.games)))
    if state.animation is not None:
        parts.append(f"{state.animation.kind.replace('_', ' ')} on track {state.animation.track + 1}")
    return ", ".join(parts)


def _report(link: Link, what: str, reply: StateReply) -> None:
    print(f"{what}: {_format_state(reply.state)}{_checked(link)}")


def _peg(args) -> int:
    with open_link(args.port) as link:
        link.hello()
        reply = link.peg(args.track - 1, args.points)
        link.bye()
    _report(link, f"track {args.track} pegged +{args.points}", reply)
    return 0


def _undo(args) -> int:
    with open_link(args.port) as link:
        link.hello()
        reply = link.undo(None if args.track is None else args.track - 1)
        link.bye()
    _report(link, "undone" if args.track is None else f"track {args.track} undone", reply)
    return 0


def _describe_status(status: BoardStatus) -> str:
    flags = status.flags
    look = ("restored from EEPROM, not yet confirmed" if flags & BoardFlags.RESTORED
            else "host lost" if flags & BoardFlags.HOST_LOST
            else "idle (the last host said goodbye)" if flags & BoardFlags.HOST_LEFT
            else "connected")
    return look


def _status(args) -> int:
    with open_link(args.port) as link:
        info = link.hello()
        status = link.status()
        link.bye()
    print(info.format())
    print(f"showing: {_format_state(status.state)} [{_describe_status(status)}]")
    print(f"up {status.uptime_ms / 1000:.1f} s; EEPROM records {status.eeprom_records} "
          f"({status.eeprom_saves} since power-up); button presses {status.events}; "
          f"errors: {status.crc_errors} CRC, {status.format_errors} framing, {status.naks} refused")
    return 0


def _demo(args) -> int:
    if not args.seconds > 0:
        raise BoardArgumentError(f"--seconds {args.seconds:g}: the demo needs a positive length")
    rng = random.Random(args.seed)
    with BoardDriver(args.port) as driver:
        if not driver.wait_connected(timeouts.RESET_WAIT_S + 1.0, fail_fast=True):
            raise LinkTimeoutError(f"no board answered on {args.port}: {driver.last_error}")
        print(f"connected on {args.port}: {driver.info.format()}", flush=True)
        live = sys.stdout.isatty()
        result = play_demo(driver, args.seconds, rng, on_state=lambda turn, state: _progress(turn, state, live))
        if live:
            print()
        stats = driver.stats
        print(f"track {result.winner + 1} wins after {plural(result.turns, 'turn')}; "
              f"pegs {result.final.format_pegs(result.final.pegs)}")
        print(f"driver: {plural(stats['sends'], 'state')} sent, {stats['acks']} acknowledged, "
              f"{plural(stats['connects'], 'connection')}, {plural(stats['retries'], 'retry', 'retries')}")
    return 0


def _progress(turn: int, state: BoardState, live: bool) -> None:
    """The demo as it goes: a bar per track (rewritten in place at a terminal, else a line every
    PROGRESS_EVERY turns and at the win)."""
    if not live and turn % PROGRESS_EVERY and state.animation is None:
        return
    bars = []
    for track, (front, _) in enumerate(state.pegs):
        filled = min(PROGRESS_WIDTH, front * PROGRESS_WIDTH // GAME_HOLE)
        bars.append(f"{track + 1} [{'#' * filled}{'.' * (PROGRESS_WIDTH - filled)}] {front:>3}")
    line = f"turn {turn:>3}  " + "  ".join(bars)
    if state.animation is not None:
        line += f"  track {state.animation.track + 1} wins"
    if live:
        print("\r" + line, end="", flush=True)
    else:
        print(line, flush=True)


def _render(args) -> int:
    from hardware.render import save_png   # PIL: only this command needs it

    with open_link(args.port) as link:
        info = link.hello()
        if args.pegs:
            link.set_state(_state(args))
        grb = link.read_leds()
        link.bye()
    try:
        geometry = Geometry.load(info.geometry_name)
    except GeometryError as exc:
        raise BoardArgumentError(f"the board reports geometry {info.geometry_name!r}, unknown here") from exc
    if geometry.geometry_id != info.geometry_id:
        raise BoardArgumentError(f"the board's wiring differs from geometry {geometry.name} on this host")
    path = save_png(geometry, grb, args.png)
    lit = sum(1 for i in range(0, len(grb), 3) if any(grb[i:i + 3]))
    print(f"{path}: {lit} of {info.led_count} LEDs lit ({info.geometry_name})")
    return 0


def _template(args) -> int:
    from hardware import pdf, template

    if not args.svg and not args.pdf:
        raise BoardArgumentError("give --svg OUT and/or --pdf OUT")
    geometry = Geometry.load(args.geometry)
    drawing = template.drawing(geometry)
    holes = f"{geometry.led_count} holes, {len(geometry.buttons)} buttons"
    if args.svg:
        _write_output(args.svg, template.svg(drawing).encode())
        x, y, w, h = drawing.box
        print(f"{args.svg}: {geometry.name} template, {w:g} x {h:g} mm at 1:1, {holes}")
    if args.pdf:
        pages = len(pdf.tiles(drawing, args.paper))
        _write_output(args.pdf, pdf.pdf_bytes(drawing, args.paper))
        paper = args.paper.upper() if args.paper == 'a4' else 'Letter'
        print(f"{args.pdf}: {pages} {paper} {plural(pages, 'page', number=False)} at 1:1, "
              f"a 100 mm scale bar on each; {holes}")
    return 0


def _write_output(path: str, data: bytes) -> None:
    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        raise BoardArgumentError(f"{path}: is a folder; give a file name")
    if not target.parent.is_dir():
        raise BoardArgumentError(f"{path}: no folder {target.parent}")
    target.write_bytes(data)


def _selftest(args) -> int:
    import queue
    import threading

    from hardware import selftest
    from hardware.simulator import BUTTON_ACTIONS
    from hardware.template import BUTTON_PINS

    if args.step < 0 or not args.button_timeout > 0:
        raise BoardArgumentError("--step must be 0 or more and --button-timeout more than 0 seconds")
    typed: queue.Queue[str] = queue.Queue()
    if sys.stdin is not None and not sys.stdin.closed and sys.stdin.isatty():
        threading.Thread(target=_read_lines, args=(typed,), daemon=True).start()

    def skip() -> bool:
        try:
            typed.get_nowait()
            return True
        except queue.Empty:
            return False

    with open_link(args.port) as link:
        info = link.hello()
        print(info.format(), flush=True)
        if link.geometry is None:
            raise BoardArgumentError(f"the board reports geometry {info.geometry_name!r} "
                                     f"(id 0x{info.geometry_id:04X}), unknown here: no hole names to check against")
        simulator = getattr(link, "simulator", None)
        asked = None
        if simulator is not None:
            print("(a simulated board: the simulator presses each button when asked)")
            def asked(index, name):  # noqa: E306 - only for the simulated board
                simulator.press(index // len(BUTTON_ACTIONS), BUTTON_ACTIONS[index % len(BUTTON_ACTIONS)])
        result = selftest.run(link, link.geometry, lambda line: print(line, flush=True), step_s=args.step,
                              button_timeout=args.button_timeout, skip=skip, asked=asked,
                              do_buttons=not args.no_buttons, pins=BUTTON_PINS)
        link.bye()
    print(result.format())
    return 0 if result.buttons_ok else 1


def _read_lines(typed) -> None:
    for line in sys.stdin:
        typed.put(line)
