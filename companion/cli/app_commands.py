"""``crib app [--demo]``: start the tablet app (Kivy). With no display: one line saying so."""

from __future__ import annotations

import argparse
import importlib.util
import sys

from companion.cli.common import CliError


def register(sub) -> None:
    p = sub.add_parser("app", help="start the tablet app (Kivy)",
                       description="Start the tablet app. --demo: a simulated board connected and the "
                                   "sample photos as the camera.")
    p.add_argument("--demo", action="store_true", help="simulated board (sim://) and sample photos as the camera")
    p.add_argument("--data", metavar="FOLDER", help="where games and settings live (default: the user data folder)")
    p.add_argument("--size", metavar="WxH", type=_size, help="window size, e.g. 1280x800 or 800x1280")
    p.set_defaults(handler=run_app)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, got {text!r}") from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"window size {text} out of range (200..8000 each side)")
    return w, h


def run_app(args) -> int:
    from companion.ui import NO_DISPLAY, has_display

    if importlib.util.find_spec("kivy") is None:
        raise CliError("kivy is not installed: `make app` installs it (pip install -e '.[app]')")
    if not has_display():
        print(f"crib app: {NO_DISPLAY}", file=sys.stderr)
        return 2
    from companion.ui import run

    return run(demo=args.demo, folder=args.data, size=args.size or (1280, 800))
