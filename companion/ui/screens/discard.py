"""Discard help: the advisor's ranking of every discard for a 6-card (2 players) or 5-card
deal, typed with the picker or photographed, for the dealer's crib or the opponent's."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty

from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.picker import CardPicker

load_kv(__file__)


class DiscardScreen(CribScreen):
    title = "Discard help"
    dealt = ListProperty([])
    my_crib = BooleanProperty(True)

    def show(self) -> None:
        recognition = self.context.get("recognition")
        if recognition is not None:
            hands = [g for g in recognition.groups if len(g.cards) in (5, 6)]
            cards = list(hands[0].cards) if hands else [c.card for c in recognition.cards]
            if len(cards) not in (5, 6):
                self.app.show_error(f"The photo shows {len(cards)} cards: a deal is 6 (2 players) or 5. "
                                    "Type the deal instead.")
                return
            self.set_cards(cards)
        elif self.dealt:
            self.ask()

    def pick(self, size: int) -> None:
        CardPicker(f"Your {size} cards", multi=size, on_done=self.set_cards).open()

    def set_cards(self, cards) -> None:
        self.dealt = list(cards)
        self.ask()

    def set_crib(self, mine: bool) -> None:
        self.my_crib = mine
        if self.dealt:
            self.ask()

    def ask(self) -> None:
        self.ids.options.clear_widgets()
        self.ids.options.add_widget(Factory.Body(text="Working out every discard..."))
        self.companion.advise(list(self.dealt), self.my_crib, self._advice, self.app.show_error)

    def _advice(self, advice) -> None:
        box = self.ids.options
        box.clear_widgets()
        head = Factory.Body(text="[b]discard        keep                    hand    crib    net[/b]")
        box.add_widget(head)
        for rank, option in enumerate(advice.options[:8], start=1):
            discard = " ".join(T.card_text(str(c)) for c in option.discard)
            keep = " ".join(T.card_text(str(c)) for c in option.keep)
            sign = "+" if advice.dealer else "-"
            text = (f"{rank}. [b]{discard}[/b]   keep {keep}   {option.expected_hand:.2f}   "
                    f"{sign}{option.expected_crib:.2f}   [color=#f8c840]{option.expected_net:+.2f}[/color]")
            box.add_widget(Factory.Body(text=text, font_name=T.CARD_FONT,
                                        color=T.ACCENT if rank == 1 else T.TEXT))
        self.ids.dealt_line.text = "Dealt: " + "  ".join(T.card_text(c) for c in self.dealt)


SCREEN_CLASS = DiscardScreen
