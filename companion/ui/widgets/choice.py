"""A question with two or more answers (a popup): what disagrees, in words, and one button per
way to settle it. It stays open until the player chooses."""

from __future__ import annotations

from typing import Callable, Sequence

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup

from companion.ui import theme as T


class ChoicePopup(Popup):
    def __init__(self, title: str, text: str, choices: Sequence[tuple[str, Callable[[], None]]], **kwargs) -> None:
        body = BoxLayout(orientation="vertical", spacing=T.GAP, padding=T.GAP)
        self.question = Label(text=text, font_name=T.CARD_FONT, halign="center", valign="middle")
        self.question.bind(size=lambda label, size: setattr(label, "text_size", (size[0], None)))
        body.add_widget(self.question)
        self.buttons: list[Button] = []
        for words, chosen in choices:
            button = Button(text=words, font_name=T.CARD_FONT, size_hint_y=None, height=T.TOUCH,
                            halign="center")
            button.bind(size=lambda b, size: setattr(b, "text_size", (size[0] - 2 * T.GAP, None)))
            button.bind(on_release=lambda _b, chosen=chosen: self._choose(chosen))
            body.add_widget(button)
            self.buttons.append(button)
        super().__init__(title=title, content=body, auto_dismiss=False, size_hint=(0.8, 0.6), **kwargs)

    def _choose(self, chosen: Callable[[], None]) -> None:
        self.dismiss()
        chosen()
