"""``crib board ...``: find, simulate, set, peg, demonstrate and picture the LED board.

Thin over the ``hardware`` library: parse, call, format. Tracks and players are numbered from 1
here (what a person types and reads); the library numbers them from 0.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time

from hardware import (
    Animation,
    BoardDriver,
    BoardState,
    LinkTimeoutError,
    Simulator,
    find_ports,
    open_link,
    play_demo,
)
from hardware import timeouts
from hardware.geometry import Geometry, GeometryError
from hardware.link import Link


class BoardArgumentError(ValueError):
    pass


def register(subparsers) -> None:
    board = subparsers.add_parser("board", help="the LED cribbage board (real or simulated)",
                                  description="Drive the LED cribbage board over serial.")
    sub = board.add_subparsers(dest="board_command", metavar="ACTION", parser_class=type(board))
    sub.required = True

    p = sub.add_parser("ports", help="list serial ports, likely boards first")
    p.set_defaults(handler=_ports)

    p = sub.add_parser("simulate", help="run the firmware in simavr and print its port (until Ctrl-C)")
    p.add_argument("--geometry", default="3-track", help="2-track or 3-track (default 3-track)")
    p.add_argument("--link", help="path of the pty symlink to create (default: a unique /tmp name)")
    p.add_argument("--seconds", type=float, help="stop after this long instead of waiting for Ctrl-C")
    p.set_defaults(handler=_simulate)

    p = sub.add_parser("set", help="show one state on the board and wait for its acknowledgement")
    _port_argument(p)
    _state_arguments(p, required=True)
    p.set_defaults(handler=_set)

    p = sub.add_parser("demo", help="play a short random game on the board, ending with a win")
    _port_argument(p)
    p.add_argument("--seconds", type=float, default=8.0, help="length of the demo (default 8)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(handler=_demo)

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
    p.add_argument("--skunk", type=int, default=90, help="skunk line (loser at or below), 0 for none; default 90")
    p.add_argument("--double-skunk", type=int, default=0, help="double-skunk line, e.g. 60; default none")
    p.add_argument("--animate", help="an animation KIND:TRACK, e.g. win:2")


def _state(args) -> BoardState:
    if args.dealer is not None and args.dealer < 1:
        raise BoardArgumentError(f"--dealer {args.dealer}: tracks are numbered from 1")
    return BoardState(
        pegs=BoardState.parse_pegs(args.pegs),
        dealer=None if args.dealer is None else args.dealer - 1,
        brightness=args.brightness,
        animation=Animation.parse(args.animate) if args.animate else None,
        skunk_line=args.skunk or None,
        double_skunk_line=args.double_skunk or None,
    )


def _ports(args) -> int:
    ports = find_ports()
    if not ports:
        print("no serial ports (crib board simulate gives a simulated one)")
    for port in ports:
        mark = f"likely board ({port.chip})" if port.likely else "other"
        print(f"{port.device}\t{mark}\t{port.description}")
    return 0


class _Terminated(Exception):
    """SIGTERM: stop the simulator as Ctrl-C would, so no harness or link is left behind."""


def _raise_terminated(signum, frame) -> None:
    raise _Terminated()


def _simulate(args) -> int:
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    sim = None
    try:
        sim = Simulator(geometry=args.geometry, link_path=args.link).start()
        print(f"simulated {args.geometry} board on {sim.url} (pty {sim.pty}); Ctrl-C stops it", flush=True)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while sim.running and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.2)
        if not sim.running:
            print("crib board simulate: the simulator stopped", file=sys.stderr)
            return 1
    except (_Terminated, KeyboardInterrupt):
        print("crib board simulate: stopped", file=sys.stderr)
    finally:
        if sim is not None:
            sim.stop()
        signal.signal(signal.SIGTERM, previous)
    return 0


def _checked(link: Link) -> str:
    return ", checked against this host's picture" if link.geometry is not None else ""


def _set(args) -> int:
    state = _state(args)
    with open_link(args.port) as link:
        info = link.hello()
        ack = link.set_state(state)
        print(info.format())
        print(f"shown: pegs {state.format_pegs(state.pegs)}, LED buffer CRC 0x{ack.led_crc:04X}{_checked(link)}")
    return 0


def _demo(args) -> int:
    if not args.seconds > 0:
        raise BoardArgumentError(f"--seconds {args.seconds:g}: the demo needs a positive length")
    rng = random.Random(args.seed)
    with BoardDriver(args.port) as driver:
        if not driver.wait_connected(timeouts.RESET_WAIT_S + 1.0, fail_fast=True):
            raise LinkTimeoutError(f"no board answered on {args.port}: {driver.last_error}")
        result = play_demo(driver, args.seconds, rng)
        stats = driver.stats
        print(f"track {result.winner + 1} wins after {result.turns} turns; "
              f"pegs {result.final.format_pegs(result.final.pegs)}")
        print(f"driver: {stats['sends']} states sent, {stats['acks']} acknowledged, "
              f"{stats['connects']} connection(s), {stats['retries']} retries")
    return 0


def _render(args) -> int:
    from hardware.render import save_png   # PIL: only this command needs it

    with open_link(args.port) as link:
        info = link.hello()
        if args.pegs:
            link.set_state(_state(args))
        grb = link.read_leds()
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
