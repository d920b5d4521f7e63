"""The player's review of a recognised photo, as plain data (no Kivy): every card with its
box, what it was read as, whether it is flagged (unsure, unread or a duplicate) and whether the
player has confirmed it; corrections, and moving a card to a hand, the crib or the starter.

Nothing flagged is scored until the player confirms or corrects it: ``problems()`` lists what
is left, and ``recognition()`` (the corrected ``vision.Recognition`` that ``count_show``
counts) refuses while any remain. Where the count to come doubts a card (``companion.doubt``: the
starter taken while cards were unread, a total that changes with an unsure card's other
reading), its flag says so: which count, and both totals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from companion.doubt import Doubt, doubts
from companion.grouping import LAYOUT_CODES, trusted_groups
from companion.photo import answered, count_recognition, name_unread
from companion.ui.cardtext import card_text
from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role, percent_sure

IGNORED = "not counted"


class ReviewError(ValueError):
    """The review is not finished (flagged cards left) or a change makes no sense."""


@dataclass(frozen=True)
class ReviewCard:
    code: str | None            # None: a card whose index could not be read
    box: tuple[float, float, float, float]
    confidence: float
    group: str                  # "hand 1", "hand 2", "crib", "starter", "unknown 1", IGNORED
    unsure: bool = False        # recognition asked for a check
    confirmed: bool = False     # the player confirmed or corrected it
    read_as: str | None = None  # what recognition read, when the player changed it
    runner_up: str | None = None


def group_label(role: Role, number: int) -> str:
    return f"{role.value} {number}" if role in (Role.HAND, Role.UNKNOWN) else role.value


class Review:
    def __init__(self, recognition: Recognition, starter: str | None = None, all_crib: bool = False) -> None:
        """``starter``, ``all_crib``: what the photo will be counted with (the game's starter once
        cut; every group as a crib), so that the doubts are the coming count's. The groups are the
        trusted cards' (``companion.grouping``: a flagged card sitting on another waits apart)."""
        recognition = trusted_groups(recognition)
        self.source = recognition
        self.starter, self.all_crib = starter, all_crib
        self.cards: list[ReviewCard] = []
        counters: Counter = Counter()
        group_of: dict[str, str] = {}
        for group in recognition.groups:
            counters[group.role] += 1
            for code in group.cards:
                group_of[code] = group_label(group.role, counters[group.role])
        for card in recognition.cards:
            self.cards.append(ReviewCard(card.card, card.box, card.confidence, group_of.get(card.card, "unknown 1"),
                                         unsure=card.confirm, runner_up=card.runner_up))
        for box in recognition.unread_boxes:
            self.cards.append(ReviewCard(None, tuple(box), 0.0, "unknown 1", unsure=True))
        self.chosen_starter = next((i for i, c in enumerate(self.cards) if c.group == "starter"), None)
        self._doubts_for: tuple[list[ReviewCard], tuple[Doubt, ...]] | None = None

    def count_with(self, starter: str | None, all_crib: bool) -> None:
        """What the photo will be counted with now (the game's cut corrected, the crib next): the
        player's corrections stand, the doubts are worked out again."""
        self.starter, self.all_crib = starter, all_crib
        self._doubts_for = None

    # --- what the screen shows ----------------------------------------------------------------
    def duplicates(self) -> set[str]:
        counts = Counter(c.code for c in self.cards if c.code and c.group != IGNORED)
        return {code for code, n in counts.items() if n > 1}

    def flagged(self, index: int) -> str | None:
        """Why card ``index`` needs the player, or None."""
        card = self.cards[index]
        if card.group == IGNORED:
            return None
        if card.code is None:
            return "unread: tap it to name it, or leave it out"
        if card.code in self.duplicates():
            return f"{card_text(card.code)} is in the photo twice: correct one of them"
        if about := self.doubts(index):
            return _doubt_text(card, about)
        if card.unsure and not card.confirmed:
            return f"{_read_as(card)}: tap to confirm or correct"
        return None

    def doubts(self, index: int) -> list[Doubt]:
        """What the count to come doubts about card ``index`` while the player has not confirmed it."""
        card = self.cards[index]
        if card.code is None or card.confirmed or card.group == IGNORED:
            return []
        if self._doubts_for is None or self._doubts_for[0] != self.cards:
            self._doubts_for = (list(self.cards), self._count_doubts())
        return [d for d in self._doubts_for[1] if d.card == card.code]

    def _count_doubts(self) -> tuple[Doubt, ...]:
        """The doubts of the photo counted as it stands: cards not yet confirmed still unsure, and
        the unread cards still weighing on the starter recognition chose until it is confirmed."""
        chosen = self.chosen_starter
        starter_unchecked = (chosen is not None and self.cards[chosen].group == "starter"
                             and not self.cards[chosen].confirmed)
        cards = tuple(RecognizedCard(c.code, c.confidence, c.box, c.unsure and not c.confirmed, c.runner_up)
                      for c in self.cards if c.code and c.group != IGNORED)
        groups = tuple(CardGroup(_role(label), tuple(codes)) for label, codes in self.groups().items())
        draft = Recognition(self.source.image, self.source.width, self.source.height, cards, groups, (),
                            unread_boxes=self.source.unread_boxes if starter_unchecked else ())
        try:
            return doubts(count_recognition(draft, self.starter, all_crib=self.all_crib))
        except ValueError:  # nothing left to count
            return ()

    def problems(self) -> list[str]:
        return [text for i in range(len(self.cards)) if (text := self.flagged(i))]

    def groups(self) -> dict[str, list[str]]:
        """Group label -> card codes, hands first, then the crib, the starter, the rest."""
        out: dict[str, list[str]] = {}
        for card in self.cards:
            if card.code and card.group != IGNORED:
                out.setdefault(card.group, []).append(card.code)
        order = {"hand": 0, "crib": 1, "starter": 2, "unknown": 3}
        return dict(sorted(out.items(), key=lambda kv: (order.get(kv[0].split()[0], 4), kv[0])))

    def group_choices(self) -> list[str]:
        hands = sorted({c.group for c in self.cards if c.group.startswith("hand")})
        nxt = f"hand {len(hands) + 1}"
        return [*hands, nxt, "crib", "starter", IGNORED]

    # --- the player's changes -------------------------------------------------------------------
    def correct(self, index: int, code: str) -> None:
        from companion.rules import Card

        code = str(Card.parse(code))
        card = self.cards[index]
        read_as = card.read_as or (card.code if card.code != code else None)
        self.cards[index] = replace(card, code=code, confirmed=True, read_as=read_as)

    def confirm(self, index: int) -> None:
        card = self.cards[index]
        if card.code is None:
            raise ReviewError("an unread card cannot be confirmed: name it (tap a rank and a suit)")
        self.cards[index] = replace(card, confirmed=True)

    def not_a_card(self, index: int) -> None:
        """The player says card ``index`` is no card (a page, a coin, a card back): it is left out.
        An unread box leaves the photo as ``crib show --card N none`` leaves it (``name_unread``),
        so it no longer weighs on the starter."""
        card = self.cards[index]
        boxes = [tuple(b) for b in self.source.unread_boxes]
        if card.code is None and tuple(card.box) in boxes:
            self.source = name_unread(self.source, {boxes.index(tuple(card.box)) + 1: None})
        self.cards[index] = replace(card, group=IGNORED)

    def move(self, index: int, group: str) -> None:
        if group == "starter":  # one starter: the old one goes back to the unknown cards
            for i, c in enumerate(self.cards):
                if c.group == "starter" and i != index:
                    self.cards[i] = replace(c, group="unknown 1")
        self.cards[index] = replace(self.cards[index], group=group)

    # --- the result --------------------------------------------------------------------------------
    def recognition(self) -> Recognition:
        """The photo as the player confirmed it (ReviewError while flagged cards remain)."""
        problems = self.problems()
        if problems:
            raise ReviewError(f"{len(problems)} card(s) to check first: {problems[0]}")
        cards = tuple(RecognizedCard(c.code, c.confidence, c.box) for c in self.cards
                      if c.code and c.group != IGNORED)
        groups = tuple(CardGroup(_role(label), tuple(codes)) for label, codes in self.groups().items())
        return Recognition(self.source.image, self.source.width, self.source.height, cards, groups,
                           self._warnings_left(), dict(self.source.ms))

    def _warnings_left(self) -> tuple:
        """Recognition's warnings still true after the player's review: the groups are the player's
        (the layout's notices go), every unread box is named or left out, and the cards checked,
        corrected or left out were answered."""
        checked = {code for c in self.cards if c.confirmed or c.group == IGNORED
                   for code in (c.code, c.read_as) if code}
        still = tuple(w for w in self.source.warnings
                      if not (isinstance(w, Notice) and (w.code in LAYOUT_CODES or w.code == Code.UNREAD_CARD)))
        return answered(still, checked)


def _role(label: str) -> Role:
    return Role(label.split()[0])


def _read_as(card: ReviewCard) -> str:
    """What recognition made of a flagged card, as its chance: "read as 10♣, 62 % sure, or 9♣"."""
    also = f", or {card_text(card.runner_up)}" if card.runner_up else ""
    return f"read as {card_text(card.code)}, {percent_sure(card.confidence)} sure{also}"


def _doubt_text(card: ReviewCard, about: list[Doubt]) -> str:
    """The card's flag, e.g. "read as 10♣, 62 % sure, or 9♣: hand 1 counts 8 with it, 6 if it is 9♣:
    tap to confirm or correct"."""
    own = next((d for d in about if d.group is None), None)  # the starter's own doubt
    if own is None:
        head = _read_as(card) if card.unsure else f"{card_text(card.code)} read unsure"
    else:
        why = [_read_as(card)] if own.unsure else [card_text(card.code)]
        if own.unread:
            cards = "1 card was" if own.unread == 1 else f"{own.unread} cards were"
            why.append(f"chosen while {cards} unread (the starter may be one of them)")
        head = "Starter " + (", " if own.unsure else " ").join(why)
    counts = [f"{d.group} counts {d.total} with it, {d.alternative_total} if it is {card_text(d.alternative)}"
              for d in about if d.group is not None]
    return ": ".join([head, *(["; ".join(counts)] if counts else []), "tap to confirm or correct"])
