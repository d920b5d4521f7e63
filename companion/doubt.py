"""Doubt where it matters: which unsure readings of a photo could change a count.

The starter decides every count, so a starter read unsure, or taken from the photo while some of
its cards were not read (the real starter may be one of them), is a doubt. So is a hand (or the
crib) whose total changes when an unsure card, or the starter, is read as its runner-up instead:
the player hears which card and both totals ("hand 1 counts 8 with 5H, 6 if it is 6H: confirm 5H").
An unsure card whose other reading counts the same is no doubt: it cannot change a score.

    from companion.doubt import doubts
    for doubt in doubts(count_show("table.jpg")):
        print(doubt.message)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.counted import STARTER_GIVEN, STARTER_FROM_PHOTO, GroupShow, PhotoShow
from companion.rules.cards import Card, CardParseError
from companion.rules.show import score
from vision import percent_sure

STARTER = "starter"  # about the starter itself, or a count that changes with it
CARD = "card"        # a count that changes with one card of its group


@dataclass(frozen=True)
class Doubt:
    """One thing the player should confirm before the counts are pegged: ``card`` as read,
    ``message`` one line saying why. A count that depends on it names the ``group`` ("hand 1",
    "crib"), its ``total`` as read, and the ``alternative`` reading with its ``alternative_total``.
    The starter's own doubt (no group) says whether it was read ``unsure`` (``alternative``: its
    runner-up, if any) and how many cards were ``unread`` when it was taken."""

    kind: str  # STARTER | CARD
    card: str
    message: str
    group: str | None = None
    total: int | None = None
    alternative: str | None = None
    alternative_total: int | None = None
    unsure: bool = True
    unread: int = 0

    def as_json(self) -> dict:
        data: dict = {"kind": self.kind, "card": self.card, "message": self.message}
        if self.group is not None:
            data.update(group=self.group, total=self.total, alternative=self.alternative,
                        alternative_total=self.alternative_total)
        else:
            data.update(unsure=self.unsure, alternative=self.alternative, unread=self.unread)
        return data


def doubts(shown: PhotoShow) -> tuple[Doubt, ...]:
    """Every doubt in a counted photo: the starter's first, then each count's, in group order."""
    return _starter_doubts(shown) + tuple(d for group in shown.groups for d in _card_doubts(shown, group))


def _starter_doubts(shown: PhotoShow) -> tuple[Doubt, ...]:
    if shown.starter_source != STARTER_FROM_PHOTO:  # none, or the player gave it
        return ()
    starter = shown.starter
    read = shown.recognition.card(starter)
    reasons = []
    if read is not None and read.confirm:
        also = f", or {read.runner_up}" if read.runner_up else ""
        reasons.append(f"read as {starter}, {percent_sure(read.confidence)} sure{also}")
    unread = len(shown.recognition.unread_boxes)
    if unread:
        cards = "1 card" if unread == 1 else f"{unread} cards"
        reasons.append(f"taken while {cards} of the photo could not be read: the real starter may be one of them")
    if not reasons:
        return ()
    other = _other_reading(shown, read)
    unsure = read is not None and read.confirm
    found = [Doubt(STARTER, starter, f"check the starter {starter}: " + "; ".join(reasons),
                   alternative=read.runner_up if unsure else None, unsure=unsure, unread=unread)]
    if other is not None:
        for group in shown.groups:
            if group.show is None:
                continue
            total = _total(_counted(shown, group), other, group.crib)
            if total is not None and total != group.show.total:
                found.append(Doubt(STARTER, starter,
                                   f"{group.label} counts {group.show.total} with the starter {starter}, "
                                   f"{total} if it is {other}: confirm the starter {starter}",
                                   group.label, group.show.total, str(other), total))
    return tuple(found)


def _card_doubts(shown: PhotoShow, group: GroupShow) -> list[Doubt]:
    if group.show is None:
        return []
    starter = Card.parse(shown.starter)
    counted = _counted(shown, group)
    found = []
    for i, card in enumerate(counted):
        other = _other_reading(shown, shown.recognition.card(str(card)))
        if other is None:
            continue
        total = _total(counted[:i] + [other] + counted[i + 1:], starter, group.crib)
        if total is not None and total != group.show.total:
            found.append(Doubt(CARD, str(card), f"{group.label} counts {group.show.total} with {card}, "
                                                f"{total} if it is {other}: confirm {card}",
                               group.label, group.show.total, str(other), total))
    return found


def _counted(shown: PhotoShow, group: GroupShow) -> list[Card]:
    """The 4 cards the group was counted with (a starter given is not one of them)."""
    codes = group.cards
    if shown.starter_source == STARTER_GIVEN:
        codes = tuple(c for c in codes if c != shown.starter)
    return [Card.parse(c) for c in codes]


def _other_reading(shown: PhotoShow, read) -> Card | None:
    """An unsure card's runner-up, when it could be the card: a card, and not one already in
    the photo (one deck) or the starter."""
    if read is None or not read.confirm or not read.runner_up:
        return None
    try:
        other = Card.parse(read.runner_up)
    except CardParseError:
        return None
    taken = {c.card for c in shown.recognition.cards} | {shown.starter}
    return None if str(other) in taken else other


def _total(cards: list[Card], starter: Card, crib: bool) -> int | None:
    try:
        return score(cards, starter, crib=crib).total
    except ValueError:
        return None
