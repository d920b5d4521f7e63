"""The player's review of a recognised photo, as plain data (no Kivy): every card with its
box, what it was read as, whether it is flagged (unsure, unread or a duplicate) and whether the
player has confirmed it; corrections, and moving a card to a hand, the crib or the starter.

Only what changes a count is asked (``companion.doubt``): ``problems()`` lists what is left, the
cards that change a count the most first (the starter taken while cards were unread, a total
that changes with an unsure card's other readings: which count, and its totals, "hand 1 counts
12, or 14 if it is 6♥"), then unread boxes, cards read twice and unsure cards no count was made
with. An unsure card that counts the same either way is ``marked()`` ("K♥ or K♦: 12 either way"),
not asked; ``accept_rest()`` takes every unsure card left as read in one tap. A card kept as read
without the player's check stays flagged in ``recognition()`` (the game marks it unconfirmed),
which refuses while problems remain.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from companion.doubt import Doubt, counts_said, doubts, readings_said
from companion.photo import count_recognition, name_unread
from companion.ui.cardtext import card_text
from companion.words import plural
from vision import (ROLE_ORDER, CardGroup, RecognizedCard, Recognition, Role, as_the_player_says,
                    percent_sure, placed)


class ReviewError(ValueError):
    """The review is not finished (flagged cards left) or a change makes no sense."""


@dataclass(frozen=True)
class Place:
    """Where a card stands in the review: a group of the table, by its role and, for hands and
    unknown groups, its number from 1 (``str()``: "hand 2", "crib"); or left out (``IGNORED``, no
    role: "not counted")."""

    role: Role | None
    number: int = 1

    @classmethod
    def of(cls, role: Role, number: int = 1) -> "Place":
        """The place of the ``number``-th group of ``role`` (one crib, one starter: no number)."""
        return cls(role, number if role in (Role.HAND, Role.UNKNOWN) else 1)

    def order(self) -> tuple[int, int]:
        """How groups are listed: hands first, then the crib, the starter, the rest; by number."""
        return (ROLE_ORDER.index(self.role) if self.role is not None else len(ROLE_ORDER), self.number)

    def __str__(self) -> str:
        if self.role is None:
            return "not counted"
        return f"{self.role.value} {self.number}" if self.role in (Role.HAND, Role.UNKNOWN) else self.role.value


MOST_HANDS = 4  # the most players a game has: a hand each
IGNORED = Place(None, 0)  # left out: no card, or not counted
STARTER = Place.of(Role.STARTER)
CRIB = Place.of(Role.CRIB)


def hand(number: int) -> Place:
    return Place.of(Role.HAND, number)


@dataclass(frozen=True)
class ReviewCard:
    code: str | None            # None: a card whose index could not be read
    box: tuple[float, float, float, float]
    confidence: float
    group: Place                # hand 1, hand 2, the crib, the starter, unknown 1, or IGNORED
    unsure: bool = False        # recognition asked for a check
    confirmed: bool = False     # the player confirmed or corrected it
    read_as: str | None = None  # what recognition read, when the player changed it
    runner_up: str | None = None
    alternatives: tuple = ()    # the other cards it may be, with their chances (``RecognizedCard.alternatives``)
    accepted: bool = False      # kept as read without the player's check (unconfirmed)
    evidence: object = field(default=None, compare=False, repr=False)

    @property
    def open(self) -> bool:
        """Unsure, and neither checked by the player nor kept as read: the count doubts it."""
        return self.unsure and not self.confirmed and not self.accepted


class Review:
    def __init__(self, recognition: Recognition, starter: str | None = None, all_crib: bool = False,
                 players: int | None = None) -> None:
        """``starter``, ``all_crib``: what the photo will be counted with (the game's starter once
        cut; every group as a crib), so that the doubts are the coming count's. ``players``: the
        game's (a hand each: no card moves to a hand the game cannot have; None: no game, up to
        4). The groups are the trusted cards' (``vision.table``: a flagged card sitting on
        another waits apart)."""
        recognition = as_the_player_says(recognition)
        self.source = recognition
        self.starter, self.all_crib = starter, all_crib
        self.players = players
        self.cards: list[ReviewCard] = []
        counters: Counter = Counter()
        group_of: dict[str, Place] = {}
        for group in recognition.groups:
            counters[group.role] += 1
            for code in group.cards:
                group_of[code] = Place.of(group.role, counters[group.role])
        unknown = Place.of(Role.UNKNOWN, 1)
        for card in recognition.cards:
            self.cards.append(ReviewCard(card.card, card.box, card.confidence, group_of.get(card.card, unknown),
                                         unsure=card.confirm, runner_up=card.runner_up,
                                         alternatives=card.alternatives, evidence=card.evidence))
        for box in recognition.unread_boxes:
            self.cards.append(ReviewCard(None, tuple(box), 0.0, unknown, unsure=True))
        self.chosen_starter = next((i for i, c in enumerate(self.cards) if c.group == STARTER), None)
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
        """Why card ``index`` needs the player, or None (a card marked, not asked, included)."""
        card = self.cards[index]
        if card.group == IGNORED:
            return None
        if card.code is None:
            return "unread: tap it to name it, or leave it out"
        if card.code in self.duplicates():
            return self._twice(index)
        if about := self.doubts(index):
            return _doubt_text(card, about, self._taken(index))
        if card.open and not self._marked_doubts(index):
            return f"{_read_as(card, self._taken(index))}: tap to confirm or correct"
        return None

    def _taken(self, index: int) -> set[str]:
        """The cards card ``index`` cannot be (one deck): the others on the table, the game's starter."""
        return {c.code for j, c in enumerate(self.cards) if j != index and c.code and c.group != IGNORED} | \
            {self.starter} - {None}

    def _twice(self, index: int) -> str:
        """A card read twice (one deck: one read is wrong): which read is likelier wrong, the one
        the player has not checked, else the less sure, and what it may be."""
        card = self.cards[index]
        twins = [j for j, c in enumerate(self.cards) if c.code == card.code and c.group != IGNORED]
        sure = {j: (self.cards[j].confirmed, self.cards[j].confidence) for j in twins}
        if len(twins) != 2 or len(set(sure.values())) == 1:
            return f"{card_text(card.code)} is in the photo twice: correct one of them"
        if sure[index] > min(sure.values()):
            return f"{card_text(card.code)} read twice: the other is likelier wrong; correct it, or this one"
        others = [card_text(code) for code, _ in card.alternatives if code not in self._taken(index)]
        maybe = f"; it may be {' or '.join(others)}" if others else ""
        return (f"{card_text(card.code)} read twice: this one is likelier wrong ({percent_sure(card.confidence)} "
                f"sure){maybe}; correct it")

    def marked(self, index: int) -> str | None:
        """What card ``index``'s count says when it counts the same either way ("K♥ or K♦: 12
        either way"): shown marked, not asked; None otherwise."""
        if self.flagged(index) is not None:
            return None
        about = self._marked_doubts(index)
        if not about:
            return None
        own = next((d for d in about if d.group is None), None)
        if own is not None:
            return f"the starter {readings_said(own, card_text)}: every count the same either way"
        return "; ".join(f"{readings_said(d, card_text)}: {counts_said(d, card_text)}" for d in about)

    def doubts(self, index: int) -> list[Doubt]:
        """What the count to come asks about card ``index`` while the player has not confirmed it."""
        return [d for d in self._doubts_of(index) if d.asked]

    def _marked_doubts(self, index: int) -> list[Doubt]:
        return [d for d in self._doubts_of(index) if not d.asked]

    def _doubts_of(self, index: int) -> list[Doubt]:
        card = self.cards[index]
        if card.code is None or card.confirmed or card.accepted or card.group == IGNORED:
            return []
        return [d for d in self._all_doubts() if d.card == card.code]

    def _all_doubts(self) -> tuple[Doubt, ...]:
        if self._doubts_for is None or self._doubts_for[0] != self.cards:
            self._doubts_for = (list(self.cards), self._count_doubts())
        return self._doubts_for[1]

    def _count_doubts(self) -> tuple[Doubt, ...]:
        """The doubts of the photo counted as it stands: cards not yet confirmed still unsure, and
        the unread cards still weighing on the starter recognition chose until it is confirmed."""
        chosen = self.chosen_starter
        starter_unchecked = (chosen is not None and self.cards[chosen].group == STARTER
                             and not self.cards[chosen].confirmed)
        cards = tuple(RecognizedCard(c.code, c.confidence, c.box, c.open, c.runner_up, evidence=c.evidence,
                                     alternatives=c.alternatives)
                      for c in self.cards if c.code and c.group != IGNORED)
        draft = placed(self.source, cards, self.card_groups(),
                       unread_boxes=self.source.unread_boxes if starter_unchecked else ())
        try:
            return doubts(count_recognition(draft, self.starter, all_crib=self.all_crib))
        except ValueError:  # nothing left to count
            return ()

    def problems(self) -> list[str]:
        """What the player must answer, the cards that change a count the most first."""
        order: dict[str, int] = {}
        for i, d in enumerate(self._all_doubts()):
            if d.asked:
                order.setdefault(d.card, i)
        found = [(i, text) for i in range(len(self.cards)) if (text := self.flagged(i))]
        found.sort(key=lambda it: order.get(self.cards[it[0]].code, len(order)))
        return [text for _, text in found]

    def rest(self) -> list[int]:
        """The unsure cards the player has not answered that one tap may keep as read
        (``accept_rest``): not unread, not read twice."""
        twice = self.duplicates()
        return [i for i, c in enumerate(self.cards)
                if c.open and c.code and c.group != IGNORED and c.code not in twice]

    def accept_rest(self) -> int:
        """Keep every card of ``rest()`` as read, unconfirmed (the game marks it so); how many."""
        rest = self.rest()
        for i in rest:
            self.cards[i] = replace(self.cards[i], accepted=True)
        return len(rest)

    def groups(self) -> dict[Place, list[str]]:
        """Each group's place -> its card codes, hands first, then the crib, the starter, the rest."""
        out: dict[Place, list[str]] = {}
        for card in self.cards:
            if card.code and card.group != IGNORED:
                out.setdefault(card.group, []).append(card.code)
        return dict(sorted(out.items(), key=lambda kv: kv[0].order()))

    def card_groups(self) -> tuple[CardGroup, ...]:
        """The groups as the player has them, in ``groups()``'s order."""
        return tuple(CardGroup(place.role, tuple(codes)) for place, codes in self.groups().items())

    def group_choices(self) -> list[Place]:
        """Where a card may go: the hands on the table, one more while the game has a player
        without one (``players``), the crib, the starter, left out."""
        hands = sorted({c.group for c in self.cards if c.group.role == Role.HAND}, key=Place.order)
        most = MOST_HANDS if self.players is None else self.players
        more = [hand(len(hands) + 1)] if len(hands) < most else []
        return [*hands, *more, CRIB, STARTER, IGNORED]

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

    def move(self, index: int, group: Place) -> None:
        if group == STARTER:  # one starter: the old one goes back to the unknown cards
            for i, c in enumerate(self.cards):
                if c.group == STARTER and i != index:
                    self.cards[i] = replace(c, group=Place.of(Role.UNKNOWN, 1))
        self.cards[index] = replace(self.cards[index], group=group)

    # --- the result --------------------------------------------------------------------------------
    def recognition(self) -> Recognition:
        """The photo as the player confirmed it (ReviewError while problems remain); the unsure
        cards kept as read (marked, or accepted with the rest) still flagged: unconfirmed."""
        problems = self.problems()
        if problems:
            raise ReviewError(f"{plural(len(problems), 'card')} to check first: {problems[0]}")
        # a card kept as read without the player's check stays flagged: unconfirmed
        cards = tuple(RecognizedCard(c.code, c.confidence, c.box, True, c.runner_up, alternatives=c.alternatives)
                      if c.unsure and not c.confirmed else RecognizedCard(c.code, c.confidence, c.box)
                      for c in self.cards if c.code and c.group != IGNORED)
        # every unread box is named or left out by now; the cards checked, corrected or left out answered
        checked = {code for c in self.cards if c.confirmed or c.group == IGNORED for code in (c.code, c.read_as) if code}
        return placed(self.source, cards, self.card_groups(), checked=checked)


def _read_as(card: ReviewCard, taken: set[str]) -> str:
    """What recognition made of a flagged card, as its chance: "read as 10♣, 62 % sure, or 9♣"
    (its best other reading that is not on the table: one deck)."""
    others = [code for code, _ in card.alternatives] or ([card.runner_up] if card.runner_up else [])
    other = next((code for code in others if code not in taken), None)
    also = f", or {card_text(other)}" if other else ""
    return f"read as {card_text(card.code)}, {percent_sure(card.confidence)} sure{also}"


def _doubt_text(card: ReviewCard, about: list[Doubt], taken: set[str]) -> str:
    """The card's question, e.g. "read as 10♣, 62 % sure, or 9♣: hand 1 counts 8, or 6 if it is
    9♣: tap to confirm or correct"."""
    own = next((d for d in about if d.group is None), None)  # the starter's own doubt
    if own is None:
        head = _read_as(card, taken) if card.unsure else f"{card_text(card.code)} read unsure"
    else:
        why = [_read_as(card, taken)] if own.unsure else [card_text(card.code)]
        if own.unread:
            cards = "1 card was" if own.unread == 1 else f"{own.unread} cards were"
            why.append(f"chosen while {cards} unread (the starter may be one of them)")
        head = "Starter " + (", " if own.unsure else " ").join(why)
    counts = [f"{d.group} counts {counts_said(d, card_text)}" for d in about if d.group is not None]
    return ": ".join([head, *(["; ".join(counts)] if counts else []), "tap to confirm or correct"])
