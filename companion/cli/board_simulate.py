"""``crib board simulate``: the firmware in simavr until Ctrl-C, SIGTERM or --seconds, with
button presses typed on standard input (``press 2 +1``)."""

from __future__ import annotations

import signal
import sys
import time

from hardware import Simulator

SIMULATE_POLL_S = 0.2         # how often `simulate` checks its harness and reads typed commands


class _Terminated(Exception):
    """SIGTERM: stop the simulator as Ctrl-C would, so no harness or link is left behind."""


def _raise_terminated(signum, frame) -> None:
    raise _Terminated()


def _typed_press(sim: Simulator, line: str) -> None:
    """``press 2 +1``: a button of the simulated board, tracks numbered from 1."""
    words = line.split()
    if len(words) != 3 or words[0] != "press" or not words[1].isdigit() or int(words[1]) < 1:
        print("type: press TRACK +1|+2|undo  (e.g. press 1 +2)", file=sys.stderr, flush=True)
        return
    try:
        sim.press(int(words[1]) - 1, words[2])
        print(f"pressed {words[2]} on track {words[1]}", flush=True)
    except OSError as exc:
        print(f"crib board simulate: {exc}", file=sys.stderr, flush=True)


def run_simulate(args) -> int:
    import select

    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    sim = None
    try:
        sim = Simulator(geometry=args.geometry, link_path=args.link, reset_on_open=args.reset_on_open,
                        eeprom=args.eeprom).start()
        print(f"simulated {args.geometry} board on {sim.url} (pty {sim.pty}); Ctrl-C stops it", flush=True)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        typed = sys.stdin if sys.stdin is not None and not sys.stdin.closed and _selectable(sys.stdin) else None
        while sim.running and (deadline is None or time.monotonic() < deadline):
            if typed is None:
                time.sleep(SIMULATE_POLL_S)
            elif select.select([typed], [], [], SIMULATE_POLL_S)[0]:
                line = typed.readline()
                if not line:
                    typed = None          # end of input: keep running until Ctrl-C or --seconds
                elif line.strip():
                    _typed_press(sim, line.strip())
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


def _selectable(stream) -> bool:
    try:
        stream.fileno()
        return True
    except (OSError, ValueError, AttributeError):
        return False
