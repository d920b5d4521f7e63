"""The screens, one module and one .kv each. ``CribScreen`` is their common base: ``show()``
when entered (with ``context`` from ``app.go``), ``on_game_view(view)`` when the game changes,
``act(GameSession.lay, ...)``: a move on the game whose errors go to the message banner."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion.game.session import GameSession

HERE = Path(__file__).resolve().parent
SCREENS = ("home", "new_game", "table", "capture", "review", "show", "pegging", "discard", "history", "settings")


def load_kv(module_file: str) -> None:
    """Load the .kv beside a screen's module (once)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


class CribScreen(Screen):
    title = "Crib Companion"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.context: dict = {}

    @property
    def app(self):
        return App.get_running_app()

    @property
    def companion(self):
        return self.app.companion

    def show(self) -> None:
        """Called each time the screen is entered."""

    def act(self, move, *args, then=None, **kwargs) -> None:
        """``move``: a ``GameSession`` method, called with ``args`` on the game lane; ``then`` gets
        its result on the UI thread."""
        self.companion.act(move, *args, done=then, failed=self.app.show_error, **kwargs)

    def undo(self) -> None:
        self.act(GameSession.undo)

    def redo(self) -> None:
        self.act(GameSession.redo)

    @property
    def portrait(self) -> bool:
        return self.height > self.width


def build_screens() -> list[CribScreen]:
    from companion.ui.screens import (capture, discard, history, home, new_game, pegging, review, settings, show,
                                      table)

    modules = {"home": home, "new_game": new_game, "table": table, "capture": capture, "review": review,
               "show": show, "pegging": pegging, "discard": discard, "history": history, "settings": settings}
    return [modules[name].SCREEN_CLASS(name=name) for name in SCREENS]
