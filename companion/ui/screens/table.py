"""The table: the drawn board, each side's score in big numbers (dealer marked), the phase,
whose turn, and the next thing to do (deal, cut, play, count, next game); open muggins offers;
undo / redo; the newest peg movements."""

from __future__ import annotations

from kivy.factory import Factory

from companion.ui import present
from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.board import BoardWidget  # noqa: F401  (used in table.kv)
from companion.ui.widgets.picker import CardPicker

load_kv(__file__)


class TableScreen(CribScreen):
    title = "Table"

    def show(self) -> None:
        if self.companion.view is not None:
            self.on_game_view(self.companion.view)

    def on_game_view(self, view) -> None:
        self.ids.board.show_view(view.board)
        self._scores(view)
        self.ids.phase.text = present.phase_line(view)
        self.ids.turn.text = present.turn_line(view)
        self.ids.starter.text = f"Starter [b]{T.card_text(view.starter)}[/b]" if view.starter else ""
        self._actions(view)
        self._offers(self.ids.offers, view)
        self.ids.log.text = "\n".join(present.log_lines(view, 5))
        self.ids.undo.disabled = not view.can_undo
        self.ids.redo.disabled = not view.can_redo

    def _scores(self, view) -> None:
        box = self.ids.scores
        box.clear_widgets()
        dealer_side, word = view.board.dealer, "dealer"
        if view.phase == "discard" and view.next_dealer is not None:  # before Deal: who deals it
            dealer_side, word = next(i for i, seats in enumerate(view.sides) if view.next_dealer in seats), "deals"
        for side, name in enumerate(view.side_names):
            card = Factory.ScoreCard()
            card.name = name + (f"  ({word})" if side == dealer_side else "")
            card.score = str(view.scores[side])
            card.colour = T.TRACKS[side % len(T.TRACKS)]
            card.text_colour = T.TRACK_TEXT[side % len(T.TRACK_TEXT)]
            card.extra = f"games won {view.wins[side]}" if any(view.wins) else ""
            box.add_widget(card)

    def _button(self, box, text: str, callback, name: str | None = None) -> None:
        button = Factory.BigButton(text=text)
        button.bind(on_release=lambda _b: callback())
        if name:
            self.ids[name] = button
        box.add_widget(button)

    def _actions(self, view) -> None:
        box = self.ids.actions
        box.clear_widgets()
        phase = view.phase
        if phase == "discard":
            self._button(box, "Deal: cards dealt and discarded", lambda: self.act("discard"), "deal")
            self._button(box, "Discard help", lambda: self.app.go("discard"))
        elif phase == "cut":
            self._button(box, "Cut: tap the starter", self.pick_starter, "cut")
        elif phase == "play":
            self._button(box, "Pegging", lambda: self.app.go("pegging"), "pegging")
        elif phase == "show":
            self._button(box, "Photograph the show", lambda: self.app.go("capture", purpose="show"), "photograph")
            self._button(box, "Count without a photo", lambda: self.app.go("show"), "count")
        elif phase == "game over":
            self._button(box, "Next game", lambda: self.act("next_game"), "next_game")
        elif phase == "match over":
            self._button(box, "Home", lambda: self.app.go("home"), "home")
        if view.can_redo:  # a new move needs the undone ones redone or dropped
            self._button(box, f"Drop {view.can_redo} undone move(s)", lambda: self.act("forget_undone"), "forget")

    def _offers(self, box, view) -> None:
        box.clear_widgets()
        for offer in view.offers:
            box.add_widget(Factory.Body(text=present.offer_line(view, offer), color=T.WARN))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            for seat in offer["callers"]:
                self._button(row, f"{view.players[seat]} takes {offer['points']}",
                             lambda s=seat, o=offer["entry"]: self.act("muggins", s, o))
            self._button(row, "Let it go", lambda o=offer["entry"]: self.act("decline", o))
            box.add_widget(row)

    def pick_starter(self) -> None:
        CardPicker("The starter: tap the card cut", lambda code: self.act("cut", code)).open()


SCREEN_CLASS = TableScreen
