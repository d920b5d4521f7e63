"""Review: the photo with every recognised card boxed and named. Tap a card to correct it
(the 13 x 4 picker), confirm it, or move it to a hand, the crib or the starter. Only what changes
a count is asked (``Review``, ``companion.doubt``): the cards that change a count the most first
(a starter chosen while cards were unread, a count that changes with an unsure card: its totals
named), then unread and duplicate cards; they stay red and listed until resolved, and "Count"
waits for them. An unsure card that counts the same either way is marked ("K♥ or K♦: 4 either
way"), not asked; "The rest are right" keeps every unsure card left as read, unconfirmed."""

from __future__ import annotations

from kivy.factory import Factory

from companion.ui import theme as T
from companion.ui.review import IGNORED, STARTER, Review
from companion.ui.screens import CribScreen, load_kv
from companion.ui.widgets.photo_view import PhotoView, cards_region  # noqa: F401  (PhotoView: review.kv)
from companion.ui.widgets.picker import CardPicker
from companion.words import plural

load_kv(__file__)


class ReviewScreen(CribScreen):
    title = "Check the cards"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.review: Review | None = None
        self.reviewed = None  # the recognition self.review was made from
        self.picker: CardPicker | None = None

    def show(self) -> None:
        recognition = self.context.get("recognition")
        if recognition is None:
            return
        if self.review is not None and recognition is self.reviewed:
            # the same photo again (the show's "Check the cards", a disagreement to correct): the
            # player's corrections stand; only what it is counted with may have changed
            self.review.count_with(*self.companion.count_terms())
        else:
            view = self.companion.view  # the game's players: no hand offered that it cannot have
            self.review = Review(recognition, *self.companion.count_terms(),
                                 players=len(view.players) if view is not None else None)
            self.reviewed = recognition
        photo = self.context.get("photo")
        boxes = [c.box for c in recognition.cards] + list(recognition.unread_boxes)
        self.ids.photo.set_photo(photo, cards_region(boxes, recognition.width, recognition.height))
        self.refresh()

    def refresh(self) -> None:
        review = self.review
        self.ids.photo.boxes = [self._box(i, c) for i, c in enumerate(review.cards)]
        groups = self.ids.groups
        groups.clear_widgets()
        for label, codes in review.groups().items():
            groups.add_widget(Factory.Body(text=f"[b]{label}[/b]: " + "  ".join(T.card_text(c) for c in codes),
                                           font_name=T.CARD_FONT))
        problems = review.problems()
        marked = [text for i in range(len(review.cards)) if (text := review.marked(i))]
        quality = self.context.get("quality")
        advice = [quality.advice] if quality is not None and quality.advice else []
        self.ids.problems.text = ("\n".join(advice + problems) if advice or problems else
                                  "Every card checked. Tap a card to change it, or count.")
        self.ids.problems.color = T.WARN if advice or problems else T.OK
        self.ids.marked.text = "\n".join(f"Kept as read: {text}" for text in marked)
        self.ids.count.disabled = bool(problems)
        self.ids.count.text = f"Check {plural(len(problems), 'card')} first" if problems else "Count"
        rest = review.rest() if problems else []  # nothing asked: the marked cards need no tap
        self.ids.rest.disabled = not rest
        self.ids.rest.opacity = 1 if rest else 0
        self.ids.rest.text = "The rest are right" if rest else ""

    def accept_rest(self) -> None:
        """One tap: every unsure card not yet answered is kept as read (unconfirmed)."""
        self._change(self.review.accept_rest)

    def _box(self, index: int, card) -> dict:
        """How card ``index`` is drawn: its group's colour and name, red while flagged; a box left
        out (no card) grey and dashed, said, so it can still be tapped back."""
        if card.group == IGNORED:
            return {"box": card.box, "label": "left out", "colour": T.MUTED, "left_out": True}
        flagged = bool(self.review.flagged(index))
        mark = "?" if flagged else "*" if self.review.marked(index) else ""  # *: kept as read, counts the same
        return {"box": card.box, "label": (T.card_text(card.code) if card.code else "?") + mark,
                "flagged": flagged, "colour": T.ROLE_COLOURS.get(card.group.role, T.OK)}

    def tap_card(self, index: int) -> None:
        review = self.review
        card = review.cards[index]
        actions = []
        if card.code and review.flagged(index):
            yes = "Yes, the starter is" if card.group == STARTER else "Yes, it is"
            actions.append((f"{yes} {T.card_text(card.code)}", lambda: self._change(review.confirm, index)))
        for group in review.group_choices():
            if group == IGNORED:  # the same as crib show --card N none
                if card.group != IGNORED:
                    actions.append(("Leave out: not a card", lambda: self._change(review.not_a_card, index)))
            elif group != card.group:
                actions.append((f"To {group}", lambda g=group: self._change(review.move, index, g)))
        taken = {c.code for j, c in enumerate(review.cards) if j != index and c.code and c.group != IGNORED}
        what = T.card_text(card.code) if card.code else "an unread card"
        self.picker = CardPicker(f"{what} ({card.group}): tap the right card", lambda code: self._change(
            review.correct, index, code), actions=actions, unavailable=taken, selected=card.code)
        self.picker.open()

    def _change(self, method, *args) -> None:
        try:
            method(*args)
        except ValueError as exc:
            self.app.show_error(exc)
        self.refresh()

    def count(self) -> None:
        try:
            recognition = self.review.recognition()
        except ValueError as exc:
            self.app.show_error(exc)
            return
        path, photo = self.context.get("path"), self.context.get("photo")

        def done(photo_show):
            self.app.go("show", photo_show=photo_show, path=path, photo=photo, recognition=self.context["recognition"])
        self.companion.count(recognition, done, self.app.show_error)


SCREEN_CLASS = ReviewScreen
