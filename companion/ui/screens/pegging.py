"""The play: tap each card as it is laid (or say go); the running count, whose turn, each
card's points with the reason; the points claimed may be typed and a missed point is offered
as muggins. Blank: the count is accepted when the game shows it before the claim; when it shows
it only after (muggins on, by default), a player who types nothing pegs nothing.

A go the game knows cannot be right (a card fits under 31 whatever the hand: the session's
``go_doubt``) is asked about once, naming the card that fits, as the terminal asks; the player
lays a card, or insists and the go stands (a renege the opponent may peg).

Pegging by points (most tables keep the play's count in their heads): a keypad per player of
the points just pegged, the go and the 31 one tap each; the board lights each peg; "Play over"
goes on to the show. A game switches between the two ways with the button at the top."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.utils import get_hex_from_color

from companion.game.events import PeggingMode
from companion.game.phase import Phase
from companion.game.records import LogKind
from companion.game.session import GameSession
from companion.ui import present
from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.choice import ChoicePopup
from companion.ui.widgets.picker import RANKS, SUITS

load_kv(__file__)

# The keys of each player's points keypad: the go (1) and 31 (2) by name, then the points one
# card most often scores (a rarer 11, 13, 14 or 15 is two taps: 12 and 2, ...).
POINT_KEYS = ("go", "31", 2, 3, 4, 5, 6, 7, 8, 9, 10, 12)
KEY_COLUMNS = {"wide": 4, "tall": 6}  # held wide the keys share the height: 3 rows of 4


class PeggingScreen(CribScreen):
    title = "The play"
    count_text = StringProperty("0")
    turn = StringProperty("")
    scores_text = StringProperty("")
    by_points = BooleanProperty(False)    # the play pegged by points (else card by card)
    mode_line = StringProperty("")
    switch_text = StringProperty("")
    players = NumericProperty(2)
    keypad_height = NumericProperty(dp(36) + dp(56) * 2 + dp(8) * 2)

    card_buttons: dict[str, Button]
    point_buttons: dict[tuple[int, object], Button]  # (seat, key) -> its button
    _keypad_players: tuple[str, ...] = ()
    question: ChoicePopup | None = None  # the go being questioned, while it is asked

    def on_kv_post(self, base_widget) -> None:
        # both ways of entering the play, held here: the one not in use is out of the layout
        self._bodies = {"points": self.ids.by_points.__self__, "cards": self.ids.by_cards.__self__}
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
        self._mode(view)
        if self.by_points:
            self._points_view(view)
            return
        playing = view.phase is Phase.PLAY
        self.ids.claim.hint_text = ("points claimed (blank: as counted)" if view.count_first
                                    else "points you claim (blank: none)")
        self.count_text = str(view.count) if playing and view.count is not None else "-"
        self.turn = present.turn_line(view)
        self.scores_text = "\n".join(
            f"[color={get_hex_from_color(T.TRACK_TEXT[side % len(T.TRACK_TEXT)])}]{name}[/color]  [b]{view.scores[side]}[/b]"
            for side, name in enumerate(view.side_names))
        seen = {p.card for p in view.play if p.card != "go"} | ({view.starter} if view.starter else set())
        for code, button in self.card_buttons.items():
            button.disabled = code in seen or not playing
        lines = []
        for p in view.play:
            who = view.players[p.seat]
            card = "go" if p.card == "go" else T.card_text(p.card)
            points = f"  +{p.points} ({', '.join(p.reasons)})" if p.points else ""
            lines.append(f"{who}: {card}  count {p.count}{points}")
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
            for seat in offer.callers:
                button = Factory.BigButton(text=f"{view.players[seat]} takes {offer.points}")
                button.bind(on_release=lambda _b, s=seat, o=offer.entry: self.act(GameSession.muggins, s, o,
                                                                                                then=self._said))
                row.add_widget(button)
            let_go = Factory.BigButton(text="Let it go")
            let_go.bind(on_release=lambda _b, o=offer.entry: self.act(GameSession.decline, o, then=self._said))
            row.add_widget(let_go)
            box.add_widget(row)

    # --- how the play is entered ------------------------------------------------------------------
    def _mode(self, view) -> None:
        self.by_points = view.pegging is PeggingMode.POINTS
        self.players = len(view.players)
        self.mode_line = ("Pegging by points: tap what each player pegs" if self.by_points
                          else "Card by card: tap each card as it is laid")
        self.switch_text = "Enter the cards instead" if self.by_points else "Peg by points instead"
        body, shown = self.ids.body.__self__, self._bodies[view.pegging]
        if body.children != [shown]:
            body.clear_widgets()
            body.add_widget(shown)

    @property
    def showing(self) -> str:
        """The way of entering the play on the screen: "points" or "cards"."""
        return next(mode for mode, widget in self._bodies.items() if widget.parent is not None)

    def switch_mode(self) -> None:
        """Switch how this game's play is entered (kept in the game; new games start the same way)."""
        mode = PeggingMode.CARDS if self.by_points else PeggingMode.POINTS
        self.act(GameSession.peg_by, mode, then=lambda _lines: self.companion.save_settings(pegging=mode.value))

    # --- pegging by points ---------------------------------------------------------------------------
    def _points_view(self, view) -> None:
        playing = view.phase is Phase.PLAY
        self.count_text = "-"
        self.turn = ("Tap the points as each player pegs them" if playing else present.turn_line(view))
        self.scores_text = self._scores(view)
        if view.players != self._keypad_players:
            self._build_keypads(view)
        for button in self.point_buttons.values():
            button.disabled = not playing
        pegged = [line.text for line in view.log
                  if line.deal == view.deal_number and line.kind in (LogKind.PLAY, LogKind.HEELS)]
        self.ids.pegged.text = "\n".join(pegged[-10:]) or "Nothing pegged yet in this deal."
        self.ids.points_undo.disabled = not view.can_undo
        words = "Play over: " if playing else ""
        self.ids.play_over_type.text = f"{words}count the hands"
        self.ids.play_over_photo.text = f"{words}photograph the show"
        for button in (self.ids.play_over_type, self.ids.play_over_photo):
            button.disabled = view.phase not in (Phase.PLAY, Phase.SHOW)

    def _scores(self, view) -> str:
        return "\n".join(
            f"[color={get_hex_from_color(T.TRACK_TEXT[side % len(T.TRACK_TEXT)])}]{name}[/color]  [b]{view.scores[side]}[/b]"
            for side, name in enumerate(view.side_names))

    def _build_keypads(self, view) -> None:
        box = self.ids.keypads
        box.clear_widgets()
        self.point_buttons, self._key_grids = {}, []
        self._keypad_players = view.players
        for seat, name in enumerate(view.players):
            side = next(i for i, seats in enumerate(view.sides) if seat in seats)
            panel = Factory.BoxLayout(orientation="vertical", spacing=T.GAP)
            panel.add_widget(Factory.Label(text=f"{name} pegs", bold=True, font_size=T.TEXT_SP,
                                           color=T.TRACK_TEXT[side % len(T.TRACK_TEXT)], size_hint_y=None,
                                           height=dp(36), text_size=(None, None), halign="left"))
            keys = Factory.GridLayout(cols=self._key_columns(), spacing=dp(4))
            self._key_grids.append(keys)
            for key in POINT_KEYS:
                button = Factory.BigButton(text=str(key), font_size=T.BIG_SP * 0.8, size_hint_y=1,
                                           size_hint_min_y=T.TOUCH)
                button.bind(on_release=lambda _b, s=seat, k=key: self.peg(s, k))
                self.point_buttons[(seat, key)] = button
                keys.add_widget(button)
            panel.add_widget(keys)
            box.add_widget(panel)

    def _key_columns(self) -> int:
        return KEY_COLUMNS["tall" if self.portrait else "wide"]

    def on_size(self, *_args) -> None:
        for grid in getattr(self, "_key_grids", ()):
            grid.cols = self._key_columns()

    def peg(self, seat: int, key) -> None:
        """``seat`` pegs the points of ``key`` (a number, "go" or "31")."""
        self.act(GameSession.peg, seat, key, then=lambda lines: setattr(self.ids.points_last, "text",
                                                                         "; ".join(line.text for line in lines)))

    def play_over(self, then: str) -> None:
        """The play is over: on to the show, photographed (``capture``) or counted here (``show``)."""
        def go(_lines=None) -> None:
            if then == "capture":
                self.app.go("capture", purpose="show")
            else:
                self.app.go("show")
        if self.companion.view.phase is Phase.PLAY:
            self.act(GameSession.play_done, then=go)
        else:
            go()

    def _reneges(self, box, view) -> None:
        """A go said while holding a playable card: the opponent may peg the penalty (once each)."""
        taken = sum(1 for line in view.log if line.kind is LogKind.PENALTY and line.deal == view.deal_number
                    and "renege" in line.text and line.points > 0)
        for renege in view.reneges[taken:]:
            seat = renege.seat
            box.add_widget(Factory.Body(text=f"Renege: {view.players[seat]} said go holding a card that could "
                                             f"be played. Penalty {renege.penalty}.", color=T.WARN))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            sides = view.sides
            mine = next(side for side in sides if seat in side)
            for other in (s for side in sides if side is not mine for s in side[:1]):
                button = Factory.BigButton(text=f"{view.players[other]} pegs {renege.penalty}")
                button.bind(on_release=lambda _b, o=other, r=renege: self.act(
                    GameSession.penalty, "renege", r.seat, o, r.cards))
                row.add_widget(button)
            box.add_widget(row)

    def _claim(self) -> int | None:
        text = self.ids.claim.text.strip()
        self.ids.claim.text = ""
        return self.companion.view.said(int(text) if text.isdigit() else None)

    def _said(self, lines) -> None:
        self.ids.last.text = "; ".join(line.text for line in lines)

    def lay(self, code: str) -> None:
        self.act(GameSession.lay, code, self._claim(), then=self._said)

    def go(self) -> None:
        """Asks the session first whether this go can be right; records it when it may be."""
        self.act(GameSession.go_doubt, then=lambda doubt: self._question_go(doubt) if doubt else self.insist_go())

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
        self.act(GameSession.go, self._claim(), then=self._said)


SCREEN_CLASS = PeggingScreen
