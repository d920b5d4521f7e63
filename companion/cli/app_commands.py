"""``crib app [--demo]``: start the tablet app (Kivy). With no display: one line saying so.
``crib app --check``: build the app without a screen (its window, root and first screen, offscreen),
say which screen it opened on, and stop: proof that an install can run the app (CI does this)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from contextlib import contextmanager

from companion.cli.common import CliError


def register(sub) -> None:
    p = sub.add_parser("app", help="start the tablet app (Kivy)",
                       description="Start the tablet app. --demo: a simulated board connected and the "
                                   "sample photos as the camera.")
    p.add_argument("--demo", action="store_true", help="simulated board (sim://) and sample photos as the camera")
    p.add_argument("--data", metavar="FOLDER", help="where games and settings live (default: the user data folder)")
    p.add_argument("--size", metavar="WxH", type=_size, help="window size, e.g. 1280x800 or 800x1280")
    p.add_argument("--check", action="store_true",
                   help="start the app offscreen (no display needed), print its first screen and stop")
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
    from companion.paths import install_advice
    from companion.ui import has_display, no_display

    if importlib.util.find_spec("kivy") is None:
        raise CliError(f"kivy is not installed: {install_advice('app')}")
    with _stderr_kept():
        if args.check:
            return check_app(args)
        if not has_display():
            print(f"crib app: {no_display()}", file=sys.stderr)
            return 2
        from companion.ui import run

        return run(demo=args.demo, folder=args.data, size=args.size or (1280, 800))


@contextmanager
def _stderr_kept():
    """Importing Kivy points sys.stderr at Kivy's log (kept off the console): stray output while
    the app runs goes there, but the command's own error line must reach the stderr it was given."""
    given = sys.stderr
    try:
        yield
    finally:
        sys.stderr = given


def check_app(args) -> int:
    """Build the app offscreen (real rendering: Kivy's window, the app's root, its first screen),
    let it settle, and close it."""
    import os

    from companion.paths import data_dir

    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    from companion.ui.headless import Headless

    folder = args.data or data_dir()
    size = args.size or (1280, 800)
    app = Headless(folder, demo=args.demo, size=size)
    try:
        try:
            app.wait(timeout=60, what="the first screen")
        except TimeoutError as exc:
            raise CliError(str(exc)) from None
        screen = app.current
        if app.app.root is None or not app.screen().children:
            raise CliError(f"the app started but its {screen!r} screen is empty")
    finally:
        app.close()
    print(f"crib app: the app starts ({screen!r} screen, {size[0]}x{size[1]}, offscreen); games and settings in {folder}")
    return 0
