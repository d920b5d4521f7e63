"""Counting the show in a photo: recognise the cards, take the starter, count every hand and the
crib with the full breakdown, and judge the players' claims (muggins).

    from companion.photo import count_show
    show = count_show("sample_images/hand_starter_spread_large.jpg", claims=[1])
    for hand in show.groups:
        print(hand.label, hand.cards, hand.show.total, hand.show.spoken, hand.claim.describe())
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from companion.counted import NO_STARTER, STARTER_FROM_PHOTO, STARTER_GIVEN, GroupShow, PhotoShow
from companion.doubt import chance_right, doubts
from companion.rules.cards import Card, CardParseError
from companion.rules.muggins import evaluate
from companion.rules.rulesets import DEFAULT, RuleSet
from companion.rules.show import Show, score
from vision import (PhotoSource, RecognizedCard, Recognition, Recognizer, Role, as_the_player_says, assess_photo,
                    shared_recognizer)

# The results (GroupShow, PhotoShow, the STARTER_* values) live in companion.counted, which
# companion.doubt reads too; they are imported from here as before.


class StarterError(ValueError):
    """The starter given is not a card; ``reason`` says why."""

    def __init__(self, reason: str):
        super().__init__(f"starter: {reason}")
        self.reason = reason


class NoCardsError(ValueError):
    """Nothing to count: the photo shows no readable card."""


class ClaimCountError(ValueError):
    """More claims than hands to count in the photo."""


class UnreadCardError(ValueError):
    """A card named for an unread box that cannot be: no such unread card, or not a card."""


def count_show(photo: PhotoSource | Recognition, starter: str | Card | None = None,
               claims: Sequence[int] | None = None, rules: RuleSet = DEFAULT, *, all_crib: bool = False,
               recognizer: Recognizer | None = None, named: Mapping[int, str | None] | None = None,
               confirmed: Sequence[str] = ()) -> PhotoShow:
    """Count every hand (and the crib, with crib rules) in a photo of the show.

    ``photo``: a path, encoded bytes, BGR pixels, a ``vision.Photo``, or a ``Recognition``
    already made (say, corrected by the player). ``starter``: the cut card when it is not in the
    photo (or overrides it). ``claims``: the counts the players announced, one per countable
    group in order, judged under ``rules``. ``all_crib``: count every group as a crib.
    ``recognizer``: the one to use (default: one kept per process by ``vision.recognize``).
    ``named``: cards the player named for unread cards, by their number (see ``name_unread``).
    ``confirmed``: flagged cards the player confirmed (``confirm_cards``): trusted like any other.
    """
    if isinstance(photo, Recognition):
        return count_recognition(as_answered(photo, named, confirmed), starter, claims, rules, all_crib=all_crib)
    recognizer = recognizer or shared_recognizer()
    decoded, recognition = recognizer.read_and_recognize(photo)
    recognition = as_answered(recognition, named, confirmed)
    quality = assess_photo(decoded.pixels) if decoded is not None else None
    try:
        shown = count_recognition(recognition, starter, claims, rules, all_crib=all_crib)
    except NoCardsError as exc:
        if quality is not None and quality.advice:  # nothing read, and the photo says why: ask for another one
            raise NoCardsError(f"{exc}: {quality.advice}") from None
        raise
    return replace(shown, photo=decoded, quality=quality)


def count_recognition(recognition: Recognition, starter: str | Card | None = None,
                      claims: Sequence[int] | None = None, rules: RuleSet = DEFAULT, *,
                      all_crib: bool = False) -> PhotoShow:
    """``count_show`` on a recognition already made."""
    if not recognition.cards:
        raise NoCardsError(f"{recognition.image}: no card found in the photo")
    in_photo = next((g.cards[0] for g in recognition.groups_of(Role.STARTER) if g.cards), None)
    starter_card, source = _starter(starter, in_photo)
    confirm_cards = {c.card for c in recognition.cards if c.confirm}
    groups = []
    for label, group in _countable_groups(recognition):
        cards = [c for c in group.cards if c != str(starter_card)] if source == STARTER_GIVEN else list(group.cards)
        crib = all_crib or group.role == Role.CRIB
        show, problem = _count(cards, starter_card, crib)
        confirm = tuple(c for c in group.cards if c in confirm_cards)
        groups.append(GroupShow(label, group.role, tuple(group.cards), crib, show, problem, confirm))
    if claims:
        groups = _judge(groups, list(claims), rules)
    count_warnings = () if groups else ("no hand to count in the photo",)
    shown = PhotoShow(recognition, str(starter_card) if starter_card else None, source, tuple(groups),
                      count_warnings, in_photo)
    shown = replace(shown, groups=tuple(replace(g, chance=chance_right(shown, g)) for g in shown.groups))
    return replace(shown, doubts=doubts(shown))


def as_answered(recognition: Recognition, named: Mapping[int, str | None] | None = None,
                confirmed: Sequence[str] = ()) -> Recognition:
    """The recognition with the player's answers checked and applied: ``named``, the cards named
    for unread boxes by number (see ``name_unread``), and ``confirmed``, the flagged cards the
    player confirmed (see ``confirm_cards``). The table is ``vision.table``'s: the groups built
    from the cards the player can trust."""
    codes = _confirmable(recognition, confirmed)
    cards, left_out = _named(recognition, named or {})
    return as_the_player_says(recognition, named=cards, left_out=left_out, confirmed=codes)


def confirm_cards(recognition: Recognition, codes: Sequence[str]) -> Recognition:
    """The recognition with the flagged cards ``codes`` confirmed by the player: no longer flagged,
    so they are trusted (a flagged card sitting on another joins the groups again)."""
    return as_answered(recognition, confirmed=codes)


def _confirmable(recognition: Recognition, codes: Sequence[str]) -> set[str]:
    """The codes of the cards the player confirms, each a card read in the photo (UnreadCardError)."""
    wanted = set()
    for text in codes:
        try:
            code = str(Card.parse(text))
        except CardParseError as exc:
            raise UnreadCardError(f"confirm {text}: {exc}") from None
        if recognition.card(code) is None:
            raise UnreadCardError(f"confirm {code}: no {code} was read in the photo")
        wanted.add(code)
    return wanted


# What a player types for an unread box that is no card (a printed page, a coin, a card back):
# the box is left out of the count, and its warning goes.
NOT_A_CARD = ("none", "-", "x", "skip", "not")


def is_not_a_card(text: str | None) -> bool:
    """Whether the player's answer for an unread box says it is no card (None, or a NOT_A_CARD word)."""
    return text is None or text.strip().lower() in NOT_A_CARD


def name_unread(recognition: Recognition, named: Mapping[int, str | None]) -> Recognition:
    """The recognition with unread cards named by the player. ``named``: unread card number
    (from 1, the order of ``unread_boxes``, as the warnings number them) -> the card it is, or
    None / a ``NOT_A_CARD`` word ("none", "-", "x", "skip", "not") for a box that is no card: it
    is left out. Each named card joins the group it lies in (the cards are laid out again with it,
    ``vision.table``); the named boxes' warnings go (by code and box, never by the words: a review
    may leave out one box, then another, counting from the boxes left). The groups are built from
    the cards the player can trust (a flagged card sitting on another card waits for the player)."""
    return as_answered(recognition, named)


def _named(recognition: Recognition, named: Mapping[int, str | None]) -> tuple[list[RecognizedCard], list]:
    """The cards the player named for unread boxes, each with its box, and the boxes left out (no
    card); UnreadCardError for a number that is no unread box, an answer that is no card, or a card
    already in the photo."""
    unread = recognition.unread_boxes
    taken = {c.card for c in recognition.cards}
    cards, left_out = [], []
    for number, text in sorted(named.items()):
        if not 1 <= number <= len(unread):
            have = "no unread card" if not unread else "one unread card (1)" if len(unread) == 1 else \
                f"unread cards 1-{len(unread)}"
            raise UnreadCardError(f"unread card {number}: the photo has {have}")
        if is_not_a_card(text):
            left_out.append(unread[number - 1])
            continue
        try:
            code = str(Card.parse(text))
        except CardParseError as exc:
            words = ", ".join(repr(w) for w in NOT_A_CARD)
            raise UnreadCardError(f"unread card {number}: {exc} (for no card at all: {words})") from None
        if code in taken:
            raise UnreadCardError(f"unread card {number}: {code} is already in the photo")
        taken.add(code)
        cards.append(RecognizedCard(code, 1.0, unread[number - 1]))
    return cards, left_out


def _starter(given: str | Card | None, in_photo: str | None) -> tuple[Card | None, str]:
    if given is not None:
        try:
            return (given if isinstance(given, Card) else Card.parse(given)), STARTER_GIVEN
        except CardParseError as exc:
            raise StarterError(str(exc)) from exc
    if in_photo is None:
        return None, NO_STARTER
    return Card.parse(in_photo), STARTER_FROM_PHOTO


def _countable_groups(recognition: Recognition):
    """(label, group) for the hands ("hand 1", "hand 2", ...) and the crib, in order."""
    hand_number = 0
    for group in recognition.groups:
        if group.role == Role.HAND:
            hand_number += 1
            yield f"hand {hand_number}", group
        elif group.role == Role.CRIB:
            yield "crib", group


def _count(cards: list[str], starter: Card | None, crib: bool) -> tuple[Show | None, str | None]:
    """The group's count, or why it cannot be counted."""
    if len(cards) == 6:
        return None, "6 cards: a deal, discard 2 to the crib before the show"
    if len(cards) == 5:
        return None, "5 cards: a three-player deal (discard 1 to the crib before the show), or a card was not found"
    if len(cards) != 4:
        return None, f"{len(cards)} readable cards: a hand has 4"
    if starter is None:
        return None, "no starter to count with"
    try:
        return score([Card.parse(c) for c in cards], starter, crib=crib), None
    except ValueError as exc:
        return None, str(exc)


def _judge(groups: list[GroupShow], claims: list[int], rules: RuleSet) -> list[GroupShow]:
    """Each claim judged against the countable group it belongs to, in order."""
    countable = [i for i, g in enumerate(groups) if g.show is not None]
    if len(claims) > len(countable):
        said = "1 claim" if len(claims) == 1 else f"{len(claims)} claims"
        hands = {0: "no hand", 1: "1 hand"}.get(len(countable), f"{len(countable)} hands")
        why = "; ".join(f"{g.label}: {g.problem}" for g in groups if g.show is None)
        raise ClaimCountError(f"{said} but {hands} to count in the photo" + (f" ({why})" if why else ""))
    judged = list(groups)
    for claimed, i in zip(claims, countable):
        group = groups[i]
        kind = "crib" if group.role == Role.CRIB else "hand"
        judged[i] = replace(group, claim=evaluate(claimed, group.show.total, rules, kind))
    return judged
