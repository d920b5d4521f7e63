"""Driving the app without a screen (tests, ``make screenshots``, bench/app.py): the app is
built into Kivy's window (``SDL_VIDEODRIVER=offscreen`` renders real pixels), the event loop
is pumped by hand, taps are real touch events at a widget's place on the window."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Callable

from companion.game.phase import Phase
from companion.game.session import GameSession
from companion.ui import quiet_kivy


def _touch_class():
    from kivy.input.motionevent import MotionEvent

    class Tap(MotionEvent):
        def __init__(self, x: float, y: float, window) -> None:
            super().__init__("headless", 77, {"x": x / (window.width - 1.0), "y": y / (window.height - 1.0)},
                             is_touch=True, type_id="touch")
            self.profile = ["pos"]

        def depack(self, args) -> None:
            self.sx, self.sy = args["x"], args["y"]
            super().depack(args)
    return Tap


def _inside(widget, ancestor) -> bool:
    while widget is not None:
        if widget is ancestor:
            return True
        widget = widget.parent if widget.parent is not widget else None
    return False


class Headless:
    def __init__(self, folder, camera=None, demo: bool = False, size: tuple[int, int] = (1280, 800)) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        quiet_kivy(folder)
        from kivy.config import Config

        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
        from kivy.base import EventLoop
        from kivy.core.window import Window

        from companion.ui.app import CribApp
        from companion.ui.services import Companion

        EventLoop.ensure_window()
        self.window, self.loop = Window, EventLoop
        Window.size = size
        self.companion = Companion(folder, demo=demo, camera=camera)
        self.app = CribApp(companion=self.companion)
        self.app._run_prepare()
        self._tap = _touch_class()
        self.pump(0.05)

    # --- the event loop ---------------------------------------------------------------------------------
    def pump(self, seconds: float = 0.0, frames: int = 2) -> None:
        end = time.monotonic() + seconds
        count = 0
        while count < frames or time.monotonic() < end:
            self.loop.idle()
            count += 1

    def wait(self, until: Callable[[], bool] | None = None, timeout: float = 30.0, what: str = "") -> None:
        """Pump until the background lanes are idle (and ``until()`` holds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump(frames=1)
            if self.companion.idle and (until is None or until()):
                self.pump(frames=3)  # deliveries scheduled on the clock run now
                if self.companion.idle and (until is None or until()):
                    return
            time.sleep(0.005)
        raise TimeoutError(f"the app did not settle in {timeout:.0f} s" + (f": {what}" if what else ""))

    def resize(self, size: tuple[int, int]) -> None:
        self.window.size = size
        self.pump(0.1, frames=4)

    # --- the player's hands -------------------------------------------------------------------------------
    def tap_at(self, x: float, y: float) -> None:
        touch = self._tap(x, y, self.window)
        self.loop.post_dispatch_input("begin", touch)
        self.loop.post_dispatch_input("end", touch)
        self.pump(frames=2)

    def tap(self, widget) -> None:
        """A touch at the middle of ``widget`` (it must be on the screen and enabled)."""
        if widget.disabled:
            raise AssertionError(f"{widget!r} ({getattr(widget, 'text', '')!r}) is disabled")
        from kivy.uix.scrollview import ScrollView

        self.pump(frames=2)  # the layout is done on the next frame: a screen just entered has none yet
        popup = self.popup()
        if popup is not None and not _inside(widget, popup):  # a closing popup still takes touches
            deadline = time.monotonic() + 5
            while self.popup() is not None and time.monotonic() < deadline:
                self.pump(frames=1)
        parent = widget.parent
        while parent is not None and parent is not parent.parent:
            if isinstance(parent, ScrollView):  # scrolled into view first, as a player would
                parent.scroll_to(widget, padding=0, animate=False)
                self.pump(frames=3)
                break
            parent = parent.parent
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)

    def play_out(self, hands: dict[int, list[str]]) -> None:
        """Finish the play as the players would: each in turn lays the first card of ``hands[seat]``
        that keeps the count within 31, or says go; the cards laid leave ``hands``."""
        from companion.rules import Card

        self.wait()
        while self.companion.view.phase is Phase.PLAY:
            view = self.companion.view
            playable = [c for c in hands[view.to_act] if view.count + Card.parse(c).value <= 31]
            if playable:
                hands[view.to_act].remove(playable[0])
                self.companion.act(GameSession.lay, playable[0])
            else:
                self.companion.act(GameSession.go)
            self.wait()

    def screen(self, name: str | None = None):
        sm = self.app.root.ids.sm
        return sm.get_screen(name or sm.current)

    @property
    def current(self) -> str:
        return self.app.root.ids.sm.current

    def popup(self):
        """The open popup (a card picker), if any."""
        from kivy.uix.modalview import ModalView

        return next((w for w in self.window.children if isinstance(w, ModalView)), None)

    # --- pictures -------------------------------------------------------------------------------------------
    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.pump(frames=3)
        made = self.window.screenshot(name=str(path.with_suffix("")) + "-shot.png")
        try:
            from PIL import Image

            with Image.open(made) as image:  # a smaller file for the repository (same pixels)
                image.convert("RGB").save(path, optimize=True)
            os.remove(made)
        except ImportError:
            shutil.move(made, path)
        return path

    def close(self) -> None:
        from kivy.app import App

        self.app.dispatch("on_stop")  # shuts the services down; kv's `app` forgets this app
        for child in list(self.window.children):
            self.window.remove_widget(child)
        App._running_app = None
        self.pump(frames=2)
