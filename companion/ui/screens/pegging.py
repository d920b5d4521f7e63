"""The play: tap each card as it is laid (or say go); the running count, whose turn, each
card's points with the reason; the points claimed may be typed and a missed point is offered
as muggins. Blank: the count is accepted when the game shows it before the claim; when it shows
it only after (muggins on, by default), a player who types nothing pegs nothing.

A go the game knows cannot be right (a card fits under 31 whatever the hand: the session's
``go_doubt``) is asked about once, naming the card that fits, as the terminal asks; the player
lays a card, or insists and the go stands (a renege the opponent may peg)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.utils import get_hex_from_color

from companion.ui import present
from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.choice import ChoicePopup
from companion.ui.widgets.picker import RANKS, SUITS

load_kv(__file__)


class PeggingScreen(CribScreen):
    title = "The play"
    count_text = StringProperty("0")
    turn = StringProperty("")
    scores_text = StringProperty("")

    card_buttons: dict[str, Button]
    question: ChoicePopup | None = None  # the go being questioned, while it is asked

    def on_kv_post(self, base_widget) -> None:
        grid = self.ids.cards
        self.card_buttons = {}
        for suit in SUITS:
            for rank in RANKS:
                code = rank + suit
                button = Button(text=T.card_text(code), font_name=T.CARD_FONT, font_size=T.BUTTON_SP,
                                background_normal="", background_color=(0.96, 0.96, 0.92, 1),
                                color=T.SUIT_COLOURS[suit], size_hint_min=(T.TOUCH_MIN, T.TOUCH_MIN))
                button.bind(on_release=lambda _b, c=code: self.lay(c))
                self.card_buttons[code] = button
                grid.add_widget(button)

    def show(self) -> None:
        if self.companion.view is not None:
            self.on_game_view(self.companion.view)

    def on_game_view(self, view) -> None:
        playing = view.phase == "play"
        self.ids.claim.hint_text = ("points claimed (blank: as counted)" if view.count_first
                                    else "points you claim (blank: none)")
        self.count_text = str(view.count) if playing and view.count is not None else "-"
        self.turn = present.turn_line(view)
        self.scores_text = "\n".join(
            f"[color={get_hex_from_color(T.TRACK_TEXT[side % len(T.TRACK_TEXT)])}]{name}[/color]  [b]{view.scores[side]}[/b]"
            for side, name in enumerate(view.side_names))
        seen = {p["card"] for p in view.play if p["card"] != "go"} | ({view.starter} if view.starter else set())
        for code, button in self.card_buttons.items():
            button.disabled = code in seen or not playing
        lines = []
        for p in view.play:
            who = view.players[p["seat"]]
            card = "go" if p["card"] == "go" else T.card_text(p["card"])
            points = f"  +{p['points']} ({', '.join(p['reasons'])})" if p["points"] else ""
            lines.append(f"{who}: {card}  count {p['count']}{points}")
        self.ids.plays.text = "\n".join(lines[-12:]) or "No card laid yet."
        self.ids.go.disabled = not playing
        self.ids.to_show.opacity = 0 if playing else 1
        self.ids.to_show.disabled = playing
        box = self.ids.offers
        box.clear_widgets()
        self._reneges(box, view)
        for offer in view.offers:
            box.add_widget(Factory.Body(text=present.offer_line(view, offer), color=T.WARN))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            for seat in offer["callers"]:
                button = Factory.BigButton(text=f"{view.players[seat]} takes {offer['points']}")
                button.bind(on_release=lambda _b, s=seat, o=offer["entry"]: self.act("muggins", s, o,
                                                                                     then=self._said))
                row.add_widget(button)
            let_go = Factory.BigButton(text="Let it go")
            let_go.bind(on_release=lambda _b, o=offer["entry"]: self.act("decline", o, then=self._said))
            row.add_widget(let_go)
            box.add_widget(row)

    def _reneges(self, box, view) -> None:
        """A go said while holding a playable card: the opponent may peg the penalty (once each)."""
        taken = sum(1 for line in view.log if line["kind"] == "penalty" and line["deal"] == view.deal_number
                    and "renege" in line["text"] and line["points"] > 0)
        for renege in view.reneges[taken:]:
            seat = renege["seat"]
            box.add_widget(Factory.Body(text=f"Renege: {view.players[seat]} said go holding a card that could "
                                             f"be played. Penalty {renege['penalty']}.", color=T.WARN))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            sides = view.sides
            mine = next(side for side in sides if seat in side)
            for other in (s for side in sides if side is not mine for s in side[:1]):
                button = Factory.BigButton(text=f"{view.players[other]} pegs {renege['penalty']}")
                button.bind(on_release=lambda _b, o=other, r=renege: self.act(
                    "penalty", "renege", r["seat"], o, r["cards"]))
                row.add_widget(button)
            box.add_widget(row)

    def _claim(self) -> int | None:
        text = self.ids.claim.text.strip()
        self.ids.claim.text = ""
        return self.companion.view.said(int(text) if text.isdigit() else None)

    def _said(self, lines) -> None:
        self.ids.last.text = "; ".join(line.text for line in lines)

    def lay(self, code: str) -> None:
        self.act("lay", code, self._claim(), then=self._said)

    def go(self) -> None:
        """Asks the session first whether this go can be right; records it when it may be."""
        self.act("go_doubt", then=lambda doubt: self._question_go(doubt) if doubt else self.insist_go())

    def _question_go(self, doubt: str) -> None:
        who = self.companion.view.players[self.companion.view.to_act]
        self.question = ChoicePopup("A go that cannot be right", f"{doubt}.",
                                    [("Lay a card", self._keep_playing), (f"Go stands: {who} insists", self.insist_go)])
        self.question.open()

    def _keep_playing(self) -> None:
        self.question = None

    def insist_go(self) -> None:
        """The go as said (questioned or not): recorded, with the points claimed."""
        self.question = None
        self.act("go", self._claim(), then=self._said)


SCREEN_CLASS = PeggingScreen
