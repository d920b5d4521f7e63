"""The table: the drawn board (the LED board's shape: lying held wide, standing held tall), each
side's score in big numbers (the dealer marked, and before Deal the side about to deal), the
phase, whose turn, and the next thing to do (deal, cut, play, count, next game); open muggins
offers; undo / redo; as many of the newest peg movements as the room left holds."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp

from companion.game.phase import Phase
from companion.game.session import GameSession
from companion.ui import present
from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.board import BoardWidget  # noqa: F401  (used in table.kv)
from companion.ui.widgets.picker import CardPicker
from companion.words import plural

load_kv(__file__)

SCORE_CARD = dp(150)  # a score card's height held tall (held wide the cards share the room)


class TableScreen(CribScreen):
    title = "Table"

    def on_kv_post(self, base_widget) -> None:
        ids = self.ids
        # held here: each is moved between containers as the tablet turns (ids are weak)
        self._parts = {name: ids[name].__self__ for name in ("frame", "column", "scores", "board", "info")}
        self._log: list[str] = []
        self.bind(size=self._arrange)
        ids.frame.bind(size=self._fit_board)
        ids.column.bind(width=self._fit_board)
        ids.scores.bind(minimum_height=self._fit_scores)
        ids.log.bind(size=self._fit_log)
        self._arrange()

    @property
    def wide(self) -> bool:
        return self.width >= self.height

    def _arrange(self, *_args) -> None:
        """Held wide: [the scores side by side over the board | words, buttons, log]. Held tall:
        [the board standing | the scores one above the other, words, buttons, log]."""
        p = self._parts
        order = {"frame": ["column", "info"], "column": ["scores", "board"]} if self.wide else \
            {"frame": ["board", "column"], "column": ["scores", "info"]}
        if [c for c in reversed(p["frame"].children)] != [p[n] for n in order["frame"]]:
            for name in ("frame", "column"):
                p[name].clear_widgets()
            for parent in ("column", "frame"):
                for child in order[parent]:
                    p[parent].add_widget(p[child])
        p["scores"].orientation = "horizontal" if self.wide else "vertical"
        p["column"].size_hint_x = 0.58 if self.wide else 1
        p["info"].size_hint_x = 0.42 if self.wide else 1
        self._fit_scores()
        self._fit_board()

    def _fit_scores(self, *_args) -> None:
        """Held wide the score cards take the room the board leaves; held tall each its own height."""
        scores = self._parts["scores"]
        scores.size_hint_y = 1 if self.wide else None
        for card in scores.children:
            card.size_hint_y = 1 if self.wide else None
            card.height = SCORE_CARD
        if not self.wide:
            scores.height = scores.minimum_height

    def _fit_board(self, *_args) -> None:
        """The board keeps the LED board's proportions: held wide as wide as its column (at most
        half the height), held tall standing the whole height, as wide as that makes it (at most
        45 % of the width)."""
        p = self._parts
        board, frame = p["board"], p["frame"]
        if self.wide:
            board.size_hint = (1, None)
            board.height = min(p["column"].width / board.aspect, self.height * 0.5)
        else:
            board.size_hint = (None, 1)
            room = frame.height - frame.padding[1] - frame.padding[3]
            board.width = min(room / board.aspect, (frame.width - frame.padding[0] - frame.padding[2]) * 0.45)

    def _fit_log(self, *_args) -> None:
        """The newest lines of the log that fit its room, whole."""
        log = self.ids.log
        lines = list(self._log)
        while True:
            log.text = "\n".join(lines)
            log.texture_update()
            if len(lines) <= 1 or log.texture_size[1] <= log.height:
                return
            lines.pop()

    def show(self) -> None:
        if self.companion.view is not None:
            self.on_game_view(self.companion.view)

    def on_game_view(self, view) -> None:
        self.ids.board.show_view(view.board, dealer=self._about_to_deal(view))
        self._scores(view)
        self.ids.phase.text = present.phase_line(view, self.companion.game_id)
        self.ids.turn.text = present.turn_line(view)
        # the starter of the deal in hand: before Deal the one the game holds is the last deal's
        dealt = view.starter and view.phase is not Phase.DISCARD
        self.ids.starter.text = f"Starter [b]{T.card_text(view.starter)}[/b]" if dealt else ""
        self._actions(view)
        self._offers(self.ids.offers, view)
        self._log = present.log_lines(view, 40)
        self._fit_log()
        self.ids.undo.disabled = not view.can_undo
        self.ids.redo.disabled = not view.can_redo

    @staticmethod
    def _about_to_deal(view):
        """Before Deal: the side of the player who deals it (None once dealt, or not known)."""
        if view.phase is not Phase.DISCARD or view.next_dealer is None:
            return None
        return next(i for i, seats in enumerate(view.sides) if view.next_dealer in seats)

    def _scores(self, view) -> None:
        box = self.ids.scores
        box.clear_widgets()
        dealer_side, word = view.board.dealer, "dealer"
        if self._about_to_deal(view) is not None:  # before Deal: who deals it
            dealer_side, word = self._about_to_deal(view), "deals"
        for side, name in enumerate(view.side_names):
            card = Factory.ScoreCard()
            card.name = name + (f"  ({word})" if side == dealer_side else "")
            card.score = str(view.scores[side])
            card.colour = T.TRACKS[side % len(T.TRACKS)]
            card.text_colour = T.TRACK_TEXT[side % len(T.TRACK_TEXT)]
            card.extra = f"games won {view.wins[side]}" if any(view.wins) else ""
            box.add_widget(card)
        self._fit_scores()

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
        if phase is Phase.DISCARD:
            self._button(box, "Deal: cards dealt and discarded", lambda: self.act(GameSession.discard), "deal")
            self._button(box, "Discard help", lambda: self.app.go("discard"))
        elif phase is Phase.CUT:
            self._button(box, "Cut: tap the starter", self.pick_starter, "cut")
        elif phase is Phase.PLAY:
            self._button(box, "Pegging", lambda: self.app.go("pegging"), "pegging")
        elif phase is Phase.SHOW:
            self._button(box, "Photograph the show", lambda: self.app.go("capture", purpose="show"), "photograph")
            self._button(box, "Count without a photo", lambda: self.app.go("show"), "count")
        elif phase is Phase.GAME_OVER:
            self._button(box, "Next game", lambda: self.act(GameSession.next_game), "next_game")
        elif phase is Phase.MATCH_OVER:
            self._button(box, "Home", lambda: self.app.go("home"), "home")
        if view.can_redo:  # a new move needs the undone ones redone or dropped
            self._button(box, f"Drop {view.can_redo} undone {plural(view.can_redo, 'move', number=False)}", lambda: self.act(GameSession.forget_undone),
                         "forget")

    def _offers(self, box, view) -> None:
        box.clear_widgets()
        for offer in view.offers:
            box.add_widget(Factory.Body(text=present.offer_line(view, offer), color=T.WARN))
            row = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            for seat in offer.callers:
                self._button(row, f"{view.players[seat]} takes {offer.points}",
                             lambda s=seat, o=offer.entry: self.act(GameSession.muggins, s, o))
            self._button(row, "Let it go", lambda o=offer.entry: self.act(GameSession.decline, o))
            box.add_widget(row)

    def pick_starter(self) -> None:
        CardPicker("The starter: tap the card cut", lambda code: self.act(GameSession.cut, code)).open()


SCREEN_CLASS = TableScreen
