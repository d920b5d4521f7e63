"""The 13 x 4 card picker (a popup): tap a card; optional action buttons below (confirm as
read, move to a hand / the crib / the starter). ``multi``: pick several (a hand, a deal)."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup

from companion.ui import theme as T

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ACTION_PAD = dp(12)   # room either side of an action's words


def _text_width(text: str) -> float:
    """The width of an action's words on its button, unwrapped."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_name=T.CARD_FONT, font_size=T.BUTTON_SP)
    label.refresh()
    return label.texture.width


class CardPicker(Popup):
    def __init__(self, title: str, on_pick: Callable[[str], None] | None = None, *,
                 actions: Sequence[tuple[str, Callable[[], None]]] = (), unavailable: Iterable[str] = (),
                 multi: int = 0, on_done: Callable[[list[str]], None] | None = None, selected: str | None = None,
                 **kwargs) -> None:
        self.on_pick_card, self.multi, self.on_done = on_pick, multi, on_done
        self.chosen: list[str] = []
        body = BoxLayout(orientation="vertical", spacing=T.GAP)
        self.info = Label(text=self._info_text(), size_hint_y=None, height=dp(32), color=T.MUTED)
        body.add_widget(self.info)
        grid = GridLayout(cols=13, spacing=dp(3))
        self.buttons: dict[str, Button] = {}
        unavailable = set(unavailable)
        for suit in SUITS:
            for rank in RANKS:
                code = rank + suit
                button = Button(text=T.card_text(code), font_name=T.CARD_FONT, font_size=T.BUTTON_SP,
                                background_normal="", color=T.SUIT_COLOURS[suit],
                                background_color=(1, 0.85, 0.3, 1) if code == selected else (0.96, 0.96, 0.92, 1),
                                disabled=code in unavailable, size_hint_min=(T.TOUCH_MIN, T.TOUCH_MIN))
                button.code = code
                button.bind(on_release=lambda b: self._tap(b.code))
                self.buttons[code] = button
                grid.add_widget(button)
        body.add_widget(grid)
        # The actions, as many to a row as fit whole (a review's card has up to seven: confirm,
        # leave out, to each hand, the crib, the starter, Cancel), each label whole
        self.actions = GridLayout(cols=1, size_hint_y=None, spacing=T.GAP)
        for text, callback in actions:
            self.actions.add_widget(self._action(text, callback))
        if multi:
            self.done_button = self._action(f"Done ({multi} of {multi})", self._finish, close=False)
            self.actions.add_widget(self.done_button)
        self.actions.add_widget(self._action("Cancel", lambda: None))
        self._widest = max(_text_width(b.text) for b in self.actions.children) + 2 * ACTION_PAD
        if multi:
            self.done_button.text = f"Done (0 of {multi})"
            self.done_button.disabled = True
        self.actions.bind(width=self._arrange_actions)
        body.add_widget(self.actions)
        kwargs.setdefault("size_hint", (0.96, 0.9))
        super().__init__(title=title, content=body, title_size=T.HEADING_SP, auto_dismiss=False, **kwargs)

    def _info_text(self) -> str:
        if self.multi:
            return f"Tap {self.multi} cards: " + " ".join(T.card_text(c) for c in self.chosen)
        return "Tap the card"

    def _arrange_actions(self, grid, width: float) -> None:
        count = len(grid.children)
        cols = max(1, min(count, int((width + T.GAP) // (self._widest + T.GAP))))
        rows = -(-count // cols)
        grid.cols = cols
        grid.height = rows * T.TOUCH + (rows - 1) * T.GAP

    def _action(self, text: str, callback, close: bool = True) -> Button:
        button = Button(text=text, font_name=T.CARD_FONT, font_size=T.BUTTON_SP, background_normal="",
                        background_color=T.BUTTON, color=T.TEXT, size_hint_y=None, height=T.TOUCH,
                        halign="center", valign="middle")
        button.bind(width=lambda b, w: setattr(b, "text_size", (max(w - ACTION_PAD, 1), None)))

        def run(_b):
            if close:
                self.dismiss()
            callback()
        button.bind(on_release=run)
        return button

    def _tap(self, code: str) -> None:
        if not self.multi:
            self.dismiss()
            if self.on_pick_card:
                self.on_pick_card(code)
            return
        if code in self.chosen:
            self.chosen.remove(code)
            self.buttons[code].background_color = (0.96, 0.96, 0.92, 1)
        elif len(self.chosen) < self.multi:
            self.chosen.append(code)
            self.buttons[code].background_color = (1, 0.85, 0.3, 1)
        self.info.text = self._info_text()
        self.done_button.text = f"Done ({len(self.chosen)} of {self.multi})"
        self.done_button.disabled = len(self.chosen) != self.multi

    def _finish(self) -> None:
        self.dismiss()
        if self.on_done:
            self.on_done(list(self.chosen))
