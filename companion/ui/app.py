"""The Kivy app: a status bar (back, title, board), a message banner (errors in words with
what to do; tap to dismiss) and a ScreenManager with one screen per job. Screens call
``app.companion`` (services.Companion) and render the plain data it returns."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition

from companion.ui.services import Companion

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
# Where "back" goes from each screen (the table is home while a game is open).
BACK = {"new_game": "home", "table": "home", "capture": "table", "review": "capture", "show": "table",
        "pegging": "table", "discard": "table", "history": "home", "settings": "home", "home": "home"}


class Root(BoxLayout):
    pass


def explain(error: Exception | str) -> str:
    """An error in words with what to do (the message's first line; known kinds get advice)."""
    if isinstance(error, str):
        return error
    text = str(error).splitlines()[0] if str(error) else error.__class__.__name__
    name = error.__class__.__name__
    if name == "RedoPendingError":  # the session's wording names its API; say it with the buttons
        return "Moves you undid are waiting: tap Redo to bring them back, or Drop undone moves on the table."
    advice = {
        "JournalBusyError": "",
        "NoCardsError": " Lay the cards face up in the guide and shoot again, or pick another photo.",
        "ImageNotFoundError": " Pick another photo.",
        "NotAnImageError": " Pick a JPEG or PNG photo.",
        "ModelFileError": " Reinstall the app: its recognition models are missing.",
        "BackendUnavailableError": " Reinstall the app: its recognition runtime is missing.",
        "LinkError": " Check the board's cable, or choose 'no board' in Settings.",
    }.get(name, "")
    return text[0].upper() + text[1:] + advice if text else name


class CribApp(App):
    screen_title = StringProperty("Crib Companion")
    screen_name = StringProperty("")   # the screen showing (home has no "< Back")
    board_line = StringProperty("")
    message = StringProperty("")
    message_is_error = BooleanProperty(False)
    companion = ObjectProperty(None, allownone=True)

    def __init__(self, companion: Companion | None = None, demo: bool = False, folder=None, camera="auto",
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.title = "Crib Companion"
        self.demo = demo
        if companion is None:
            from companion.ui.camera import open_camera

            cam = open_camera(demo) if camera == "auto" else camera
            companion = Companion(folder or _default_folder(self), demo=demo, camera=cam)
        self.companion = companion
        self._history: list[str] = []

    def build(self):
        from companion.ui.screens import build_screens

        if str(HERE / "app.kv") not in Builder.files:
            Builder.load_file(str(HERE / "app.kv"))
        root = Root()
        sm = root.ids.sm
        sm.transition = NoTransition()
        for screen in build_screens():
            sm.add_widget(screen)
        self.companion.on_view(self._view_changed)
        self._board_poll = Clock.schedule_interval(lambda _dt: self._poll_board(), 0.5)
        Window.bind(on_keyboard=self._on_key)
        return root

    def on_start(self) -> None:
        self.go("home")

    # --- navigation -------------------------------------------------------------------------------
    @property
    def sm(self):
        return self.root.ids.sm

    def screen(self, name: str):
        return self.sm.get_screen(name)

    def go(self, name: str, **context) -> None:
        """Show screen ``name``; a message shown on the screen left answered that moment, not this one."""
        screen = self.screen(name)
        if self.sm.current != name:
            self.dismiss_message()
        screen.context = context
        if self.sm.current != name:
            self._history.append(self.sm.current)
        self.sm.current = name
        self.screen_name = name
        self.screen_title = screen.title
        screen.show()

    def back(self) -> None:
        current = self.sm.current
        target = BACK.get(current, "home")
        if target == "table" and self.companion.view is None:
            target = "home"
        self.go(target)

    def _on_key(self, _window, key, *_args) -> bool:
        if key == 27 and self.sm.current != "home":  # Android back / Escape
            self.back()
            return True
        return False

    # --- messages -----------------------------------------------------------------------------------
    # A message answers one moment: it goes when the game changes (the next move was taken) or
    # another screen is shown, as well as when tapped. One set after the change stays.
    def show_error(self, error: Exception | str) -> None:
        self.message_is_error = True
        self.message = explain(error)
        log.info("shown to the player: %s", self.message)

    def notify(self, text: str) -> None:
        self.message_is_error = False
        self.message = text

    def dismiss_message(self) -> None:
        self.message = ""

    # --- the game ----------------------------------------------------------------------------------
    def _view_changed(self, view) -> None:
        self.dismiss_message()  # the game moved on: what the message answered is past
        current = self.sm.get_screen(self.sm.current)
        if hasattr(current, "on_game_view"):
            current.on_game_view(view)

    def _poll_board(self) -> None:
        try:
            self.board_line = self.companion.board_state()
        except Exception as exc:  # the status line must never break the app
            self.board_line = f"board: {exc}"

    def on_stop(self) -> None:
        Window.unbind(on_keyboard=self._on_key)
        if getattr(self, "_board_poll", None) is not None:
            self._board_poll.cancel()
        if self.root is not None:
            self.screen("capture").stop_live()  # its thread may be inside the model runtime
        self.companion.shutdown()


def _default_folder(app: App) -> Path:
    if os.environ.get("CRIB_DATA_DIR"):
        return Path(os.environ["CRIB_DATA_DIR"])
    from kivy.utils import platform

    if platform == "android":
        return Path(app.user_data_dir)
    from companion.game.journal import data_dir

    return data_dir()
