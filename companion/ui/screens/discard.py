"""Discard help: the advisor's ranking of every discard for a 6-card (2 players) or 5-card
deal, typed with the picker or photographed, for the dealer's crib or the opponent's."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty

from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.picker import CardPicker
from companion.words import plural

load_kv(__file__)
COLUMNS = ("", "discard", "keep", "hand", "crib", "net")
ALIGN = ("right", "left", "left", "right", "right", "right")
WIDTHS = (0.06, 0.2, 0.32, 0.14, 0.14, 0.14)


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
                self.app.show_error(f"The photo shows {plural(len(cards), 'card')}: a deal is 6 (2 players) or 5. "
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

    def advice_rows(self) -> list[list[str]]:
        """The table as shown, headings first (markup left out); [] while working it out."""
        table = getattr(self, "table", None)
        if table is None or table.parent is None:
            return []
        cells = [c.text.replace("[b]", "").replace("[/b]", "") for c in reversed(table.children)]
        return [cells[i:i + len(COLUMNS)] for i in range(0, len(cells), len(COLUMNS))]

    def ask(self) -> None:
        self.ids.options.clear_widgets()
        self.ids.options.add_widget(Factory.Body(text="Working out every discard..."))
        self.companion.advise(list(self.dealt), self.my_crib, self._advice, self.app.show_error)

    def _advice(self, advice) -> None:
        box = self.ids.options
        box.clear_widgets()
        table = Factory.AdviceTable()
        for column, heading in enumerate(COLUMNS):  # the headings in the same grid: each over its column
            table.add_widget(Factory.AdviceCell(text=f"[b]{heading}[/b]", halign=ALIGN[column],
                                                size_hint_x=WIDTHS[column], color=T.MUTED))
        sign = "+" if advice.dealer else "-"
        for rank, option in enumerate(advice.options[:8], start=1):
            cells = (f"{rank}.", " ".join(T.card_text(str(c)) for c in option.discard),
                     " ".join(T.card_text(str(c)) for c in option.keep), f"{option.expected_hand:.2f}",
                     f"{sign}{option.expected_crib:.2f}", f"{option.expected_net:+.2f}")
            for column, text in enumerate(cells):
                table.add_widget(Factory.AdviceCell(
                    text=f"[b]{text}[/b]" if column == 1 else text, halign=ALIGN[column], size_hint_x=WIDTHS[column],
                    color=T.ACCENT if rank == 1 or column == len(cells) - 1 else T.TEXT))
        box.add_widget(table)
        self.table = table
        self.ids.dealt_line.text = "Dealt: " + "  ".join(T.card_text(c) for c in self.dealt)

SCREEN_CLASS = DiscardScreen
