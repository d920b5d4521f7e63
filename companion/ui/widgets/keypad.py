"""A number keypad for claims and points: big keys, the value shown above."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.ui import theme as T


class Keypad(GridLayout):
    """Digits typed into ``value``; ``on_complete`` fires once no further digit can make a number
    up to ``most`` (0 and 3 to 9 at once with ``most`` 29: one tap; 1 and 2 wait for a second
    digit, or the screen's own button)."""

    value = StringProperty("")  # digits typed ("" = nothing typed)
    most = NumericProperty(99)  # the largest number that may be typed
    __events__ = ("on_complete",)

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("cols", 3)
        kwargs.setdefault("spacing", T.GAP)
        super().__init__(**kwargs)
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "del"):
            button = Button(text=key, font_size=T.BIG_SP if key.isdigit() else T.BUTTON_SP, background_normal="",
                            background_color=T.BUTTON, color=T.TEXT, size_hint_min_y=T.TOUCH_MIN)
            button.key = key
            button.bind(on_release=lambda b: self.press(b.key))
            self.add_widget(button)

    def press(self, key: str) -> None:
        if key == "clear":
            self.value = ""
        elif key == "del":
            self.value = self.value[:-1]
        elif len(self.value) < 2:
            self.value += key
            if key.isdigit() and self.complete:
                self.dispatch("on_complete", int(self.value))

    @property
    def complete(self) -> bool:
        """No digit more can make a number up to ``most`` (a leading 0 makes none)."""
        value = self.value
        return bool(value) and (len(value) >= 2 or value == "0" or int(value) * 10 > self.most)

    def on_complete(self, number: int) -> None:
        pass

    @property
    def number(self) -> int | None:
        return int(self.value) if self.value else None
