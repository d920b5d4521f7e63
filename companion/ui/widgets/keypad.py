"""A number keypad for claims and points: big keys, the value shown above."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.ui import theme as T


class Keypad(GridLayout):
    value = StringProperty("")  # digits typed ("" = nothing typed)

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

    @property
    def number(self) -> int | None:
        return int(self.value) if self.value else None
