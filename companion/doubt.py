"""Doubt where it matters: which unsure readings of a photo could change a count, and how likely
each count is right.

A card recognition flagged may be another card: one of its ``alternatives`` (the reader's other
readings, ``vision``'s one-deck rule leaving out the cards already in the photo; here the starter
the player gave goes too), or no card at all where no card box was seen (a phantom). For each
group counted with it, its total under each of them (the rules core's ``score``):

- a card whose alternatives all leave its group's total as it is, is no question: it is marked
  ("hand 1: KH or KD: 12 either way", ``asked`` False) and kept as read;
- one that changes a total is asked, saying by how much ("hand 1 counts 12 with 5H, or 14 if it is
  6H: confirm 5H"); the asked doubts come first, those that change a count the most first.

The starter decides every count, so a starter read unsure, or taken from the photo while some of
its cards were not read (the real starter may be one of them), is asked with every count it
changes. Each group's chance of being counted right (``chance_right``) is the product, over its
cards and the starter, of the chance that the card is right or is another card that counts the same.

    from companion.doubt import doubts
    for doubt in doubts(count_show("table.jpg")):
        print(doubt.message)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.counted import STARTER_GIVEN, STARTER_FROM_PHOTO, GroupShow, PhotoShow
from companion.rules.cards import RANK_CHARS, SUITS, Card, CardParseError
from companion.rules.show import score
from vision import percent_sure

STARTER = "starter"  # about the starter itself, or a count that changes with it
CARD = "card"        # a count that changes with one card of its group

UNKNOWN_CHANGE = 30  # how much a count "changes" when it cannot be counted at all (more than any hand)


@dataclass(frozen=True)
class Alternative:
    """Another card a doubtful card may be (``card``; None: no card at all), its ``chance``, and
    its group's ``total`` with it (None: the group could not be counted)."""

    card: str | None
    chance: float
    total: int | None

    def as_json(self) -> dict:
        return {"card": self.card, "chance": round(self.chance, 4), "total": self.total}


@dataclass(frozen=True)
class Doubt:
    """One card the player may be asked about before the counts are pegged: ``card`` as read,
    ``message`` one line saying why. A count that depends on it names the ``group`` ("hand 1",
    "crib"), its ``total`` as read, and the ``alternatives`` with the total under each; the
    ``alternative`` that changes the count the most, with its ``alternative_total``; ``change``:
    by how much at most. ``asked``: whether any alternative changes the count (else the card is
    marked, "12 either way", and kept as read). The starter's own doubt (no group) says whether it
    was read ``unsure`` and how many cards were ``unread`` when it was taken."""

    kind: str  # STARTER | CARD
    card: str
    message: str
    group: str | None = None
    total: int | None = None
    alternative: str | None = None
    alternative_total: int | None = None
    unsure: bool = True
    unread: int = 0
    asked: bool = True
    alternatives: tuple[Alternative, ...] = ()
    change: int = 0

    def as_json(self) -> dict:
        data: dict = {"kind": self.kind, "card": self.card, "message": self.message, "asked": self.asked}
        if self.group is not None:
            data.update(group=self.group, total=self.total, alternative=self.alternative,
                        alternative_total=self.alternative_total)
        else:
            data.update(unsure=self.unsure, alternative=self.alternative, unread=self.unread)
        data["alternatives"] = [a.as_json() for a in self.alternatives]
        return data


def doubts(shown: PhotoShow) -> tuple[Doubt, ...]:
    """Every doubt in a counted photo: the asked ones first, those that change a count the most
    first (the starter's own before the counts it changes), then the marked ones in group order."""
    found = _starter_doubts(shown) + tuple(d for group in shown.groups for d in _card_doubts(shown, group))
    asked = sorted((d for d in found if d.asked), key=lambda d: -d.change)  # stable: the starter's first
    return tuple(asked) + tuple(d for d in found if not d.asked)


def chance_right(shown: PhotoShow, group: GroupShow) -> float | None:
    """The chance that ``group`` is counted right (None: it is not counted): over its cards and the
    starter, the product of each one's chance of being right or another card that counts the same."""
    if group.show is None:
        return None
    counted = _counted(shown, group)
    starter = Card.parse(shown.starter)
    chance = 1.0
    for i, card in enumerate(counted):
        read = shown.recognition.card(str(card))
        if read is not None:
            same = sum(a.chance for a in _alternatives(shown, read, counted, i, starter, group.crib)
                       if a.total == group.show.total)
            chance *= min(1.0, read.confidence + same)
    read = shown.recognition.card(shown.starter) if shown.starter_source == STARTER_FROM_PHOTO else None
    if read is not None:
        same = sum(a.chance for a in _starter_alternatives(shown, read)
                   if _total(counted, Card.parse(a.card), group.crib) == group.show.total)
        chance *= min(1.0, read.confidence + same)
    return chance


def _starter_doubts(shown: PhotoShow) -> tuple[Doubt, ...]:
    if shown.starter_source != STARTER_FROM_PHOTO:  # none, or the player gave it
        return ()
    starter = shown.starter
    read = shown.recognition.card(starter)
    unsure = read is not None and read.confirm
    unread = len(shown.recognition.unread_boxes)
    if not unsure and not unread:
        return ()
    others = _starter_alternatives(shown, read) if unsure else ()
    changed = []
    for group in shown.groups:
        if group.show is None:
            continue
        counted = _counted(shown, group)
        options = tuple(Alternative(a.card, a.chance, _total(counted, Card.parse(a.card), group.crib)) for a in others)
        if any(o.total != group.show.total for o in options):
            changed.append(_group_doubt(STARTER, starter, group, options, f"the starter {starter}"))
    counted_any = any(g.show is not None for g in shown.groups)
    asked = bool(unread) or bool(changed) or not counted_any or not others  # no other reading: it may be any
    reasons = []
    if unsure:
        reasons.append(f"read as {starter}, {percent_sure(read.confidence)} sure" + _or(a.card for a in others))
    if unread:
        cards = "1 card" if unread == 1 else f"{unread} cards"
        spans = _unread_spans(shown)
        then = ", ".join(f"{label} counts {low}" + (f" to {high}" if high != low else "") for label, _, low, high in spans)
        reasons.append(f"taken while {cards} of the photo could not be read: the real starter may be one of them"
                       + (f" (then {then})" if then else ""))
    if asked:
        message = f"check the starter {starter}: " + "; ".join(reasons)
    else:
        message = f"the starter {_either(starter, (a.card for a in others))}: every count the same either way"
    change = max([d.change for d in changed] + [max(total - low, high - total) for _, total, low, high in
                                                   (_unread_spans(shown) if unread else ())], default=0)
    own = Doubt(STARTER, starter, message, alternative=others[0].card if others else None, unsure=unsure,
                unread=unread, asked=asked, alternatives=others, change=change)
    return (own, *changed)


def _unread_spans(shown: PhotoShow) -> list[tuple[str, int, int, int]]:
    """For a starter that may be one of the unread cards: each counted group's label, its total,
    and the least and most it would count with any card not read in the photo as the starter."""
    taken = {c.card for c in shown.recognition.cards}
    others = [Card.parse(rank + suit) for rank in RANK_CHARS for suit in SUITS if rank + suit not in taken]
    spans = []
    for group in shown.groups:
        if group.show is None:
            continue
        counted = _counted(shown, group)
        totals = [t for other in others if (t := _total(counted, other, group.crib)) is not None]
        if totals:
            spans.append((group.label, group.show.total, min(totals), max(totals)))
    return spans


def _card_doubts(shown: PhotoShow, group: GroupShow) -> list[Doubt]:
    if group.show is None:
        return []
    starter = Card.parse(shown.starter)
    counted = _counted(shown, group)
    found = []
    for i, card in enumerate(counted):
        read = shown.recognition.card(str(card))
        if read is None or not read.confirm:
            continue
        options = _alternatives(shown, read, counted, i, starter, group.crib)
        if options:
            found.append(_group_doubt(CARD, str(card), group, options, str(card)))
    return found


def _group_doubt(kind: str, card: str, group: GroupShow, options: tuple[Alternative, ...], named: str) -> Doubt:
    """The doubt on ``group``'s count from ``card`` (``named`` so in the words): asked with every
    total it could have, or marked when they are all its total as read."""
    total = group.show.total
    changes = [o for o in options if o.total != total]
    if not changes:
        doubt = Doubt(kind, card, "", group.label, total, options[0].card, total, asked=False, alternatives=options)
        return replace(doubt, message=f"{group.label}: {readings_said(doubt)}: {counts_said(doubt)}")
    worst = max(changes, key=_change_of(total))
    doubt = Doubt(kind, card, "", group.label, total, worst.card, worst.total, alternatives=options,
                  change=_change_of(total)(worst))
    said = counts_said(doubt).split(", ", 1)[1]
    return replace(doubt, message=f"{group.label} counts {total} with {named}, {said}: confirm {named}")


def counts_said(doubt: Doubt, text=str) -> str:
    """What a count doubt says of its group's total, the cards worded by ``text``: "7, or 2 if it
    is 6H" (asked), "7 either way" (marked)."""
    if not doubt.asked:
        return f"{doubt.total} either way"
    # the totals that change the most first, "not counted" (no card) last
    changes = sorted((a for a in doubt.alternatives if a.total != doubt.total),
                     key=lambda a: (a.total is None, -_change_of(doubt.total)(a)))
    by_total: dict[int | None, list[str | None]] = {}
    for a in changes:
        by_total.setdefault(a.total, []).append(None if a.card is None else text(a.card))
    return ", ".join([str(doubt.total), *(_if_it_is(t, cards) for t, cards in by_total.items())])


def readings_said(doubt: Doubt, text=str) -> str:
    """The card as read and what else it may be, worded by ``text``: "KH or KD", "9H, 9D or 9S"."""
    return _either(text(doubt.card), (text(a.card) for a in doubt.alternatives if a.card is not None))


def _change_of(total: int):
    return lambda o: UNKNOWN_CHANGE if o.total is None else abs(o.total - total)


def _if_it_is(total: int | None, cards: list[str | None]) -> str:
    """"or 14 if it is 6H or 6D", "or not counted if it is no card"."""
    named = [c for c in cards if c is not None]
    what = ([_either(named[0], named[1:])] if named else []) + (["no card"] * (None in cards))
    return f"or {'not counted' if total is None else total} if it is {' or '.join(what)}"


def _either(first: str, rest) -> str:
    """"9H or 9D", "9H, 9D or 9S"."""
    codes = [first, *rest]
    return codes[0] if len(codes) == 1 else ", ".join(codes[:-1]) + " or " + codes[-1]


def _or(codes) -> str:
    codes = list(codes)
    return "" if not codes else ", or " + _either(codes[0], codes[1:])


def _alternatives(shown: PhotoShow, read, counted: list[Card], i: int, starter: Card,
                  crib: bool) -> tuple[Alternative, ...]:
    """The other cards ``counted[i]`` may be, each with the group's total with it, and "no card"
    (the group not counted) for a flagged card no card box was seen around."""
    options = []
    for code, chance in _readings(shown, read):
        other = Card.parse(code)
        options.append(Alternative(code, chance, _total(counted[:i] + [other] + counted[i + 1:], starter, crib)))
    if read.confirm and read.evidence is not None and read.evidence.card_score <= 0.0:
        options.append(Alternative(None, 0.0, None))
    return tuple(options)


def _starter_alternatives(shown: PhotoShow, read) -> tuple[Alternative, ...]:
    return tuple(Alternative(code, chance, None) for code, chance in _readings(shown, read))


def _readings(shown: PhotoShow, read) -> list[tuple[str, float]]:
    """A card's other readings with their chances, each a card not already in the photo (one
    deck) nor the starter; a card read before the alternatives were kept offers its runner-up."""
    if read is None:
        return []
    readings = read.alternatives or (((read.runner_up, read.runner_up_confidence),) if read.runner_up else ())
    taken = {c.card for c in shown.recognition.cards} | {shown.starter}
    out = []
    for code, chance in readings:
        try:
            code = str(Card.parse(code))
        except CardParseError:
            continue
        if code not in taken:
            out.append((code, chance))
    return out


def _counted(shown: PhotoShow, group: GroupShow) -> list[Card]:
    """The 4 cards the group was counted with (a starter given is not one of them)."""
    codes = group.cards
    if shown.starter_source == STARTER_GIVEN:
        codes = tuple(c for c in codes if c != shown.starter)
    return [Card.parse(c) for c in codes]


def _total(cards: list[Card], starter: Card, crib: bool) -> int | None:
    try:
        return score(cards, starter, crib=crib).total
    except ValueError:
        return None
