"""The tablet app (Kivy), thin over the product's libraries.

app        CribApp: status bar, message banner, ScreenManager; ``run(demo)`` starts it
services   Companion: what screens call (game store and session, board, camera, recognition)
           on background lanes (background.py), results back through Clock.schedule_once
screens/   one module and one .kv per screen: home, new_game, table, capture, review, show,
           pegging, discard, history, settings
widgets/   the drawn board, the photo with boxes, the 13 x 4 card picker, keypad, bar charts
camera     FrameSource: Kivy's camera, FakeCamera (sample photos: demo and tests)
live       LiveView: recognition on preview frames in a thread
review     Review: the player's corrections of a recognised photo (plain data)
settings   Settings saved as JSON beside the games
screenshots  ``python -m companion.ui.screenshots`` (``make screenshots``)

Importing this package loads no Kivy; ``has_display()`` says whether a window can open.
"""

from __future__ import annotations

import os
import sys

def no_display() -> str:
    """Why no window opens, and what works without one (``make`` targets only in a checkout)."""
    from companion.paths import checkout

    why = "no display to open a window on (no DISPLAY or WAYLAND_DISPLAY): "
    if checkout() is not None:
        return why + "`make screenshots` renders every screen to docs/screenshots/, `make demo` counts the sample photos"
    return why + "`crib samples` counts the sample photos, `crib show PHOTO` counts a photo of yours"


def has_display() -> bool:
    """A window can open: a desktop session, an SDL driver chosen on purpose, or not Linux."""
    if os.environ.get("SDL_VIDEODRIVER") or os.environ.get("KIVY_WINDOW") == "":
        return True
    if not sys.platform.startswith("linux") or "ANDROID_ARGUMENT" in os.environ:
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def quiet_kivy(folder=None) -> None:
    """Kivy must not read our command line nor log to the console (its log file stays), and keeps
    its own files (settings, logs) beside the games in the app's data folder (``folder``, else the
    user data folder), not in ~/.kivy. Call it before Kivy is imported: Kivy makes its folder with
    a bare mkdir (no parents) after taking over sys.stderr, so a fresh install's missing data
    folder failed unseen. Both folders are made here; one that cannot be is a DataFolderError."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if "ANDROID_ARGUMENT" in os.environ:  # Android gives Kivy the app's own folder
        return
    from companion.paths import DataFolderError, data_dir, writable_folder

    try:
        data = writable_folder(folder if folder is not None else data_dir())
    except DataFolderError as exc:
        raise DataFolderError(f"{exc} (choose another with --data FOLDER or $CRIB_DATA_DIR)") from None
    if os.environ.get("KIVY_HOME"):
        writable_folder(os.path.expanduser(os.environ["KIVY_HOME"]), "Kivy's folder $KIVY_HOME")
    else:
        os.environ["KIVY_HOME"] = str(writable_folder(data / "kivy", "Kivy's folder"))


def run(demo: bool = False, folder: str | None = None, size: tuple[int, int] | None = None) -> int:
    quiet_kivy(folder)
    if size:
        from kivy.config import Config

        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    from companion.ui.app import CribApp

    app = CribApp(demo=demo, folder=folder)
    _keep_running_on_errors(app)
    app.run()
    return 0


def _keep_running_on_errors(app) -> None:
    """A bug in a screen must not close the app: the error is logged and shown in the banner
    (the game itself is safe in its journal). Tests pump the loop themselves and see it raised."""
    import logging

    from kivy.base import ExceptionHandler, ExceptionManager

    class ShowAndGoOn(ExceptionHandler):
        def handle_exception(self, exc):
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                return ExceptionManager.RAISE
            logging.getLogger("companion.ui").exception("unexpected error")
            app.show_error(f"Something went wrong ({exc.__class__.__name__}: {exc}). The game is saved: "
                           "go back and try again.")
            return ExceptionManager.PASS
    ExceptionManager.add_handler(ShowAndGoOn())
