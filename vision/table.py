"""The table: a photo's cards in groups with roles, and the notices that go with them. This module
is the one owner of card groups (issue 49): recognition lays the table out by where the cards lie
(``vision.layout.arrange``; ``laid_out`` and ``with_cards`` when the cards change after the
reader, ``vision.amend``), and the player's answers lay it out again (``as_the_player_says``). A
caller outside ``vision`` uses ``as_the_player_says``, ``answered`` and the notice codes below,
never ``vision.layout``.

What the player says, or could not yet say, changes the groups:

- A card the player names for an unread box joins the group it lies in, found by laying the
  cards out again with it (never the nearest card's group: a printed page far from the hand stays
  apart). A named card lying apart from every group while the photo already has its starter is
  kept apart (an unknown group, said: ``Code.NAMED_APART``), so it never takes the starter's
  place.
- A flagged card sitting on a trusted card (its box mostly inside that card's box: a second,
  unsure reading of the card's corner) does not change the groups until the player confirms it:
  the cards are laid out without it, and it stands in an unknown group of its own, said
  (``Code.SET_ASIDE``).
- A box the player says is no card (a page, a chip) leaves the photo: the cards are laid out
  again without it, so the groups and the layout's notices are those of the cards left.
- A flagged card the player confirms is trusted like any other; the notices about how it was
  read go (``answered``).

    from vision import as_the_player_says
    recognition = as_the_player_says(recognition, named=[RecognizedCard("QS", 1.0, box)],
                                     left_out=[page_box], confirmed=["7D"])
"""

from __future__ import annotations

from dataclasses import replace
from typing import Collection, Sequence

import numpy as np

from vision.boxes import box_containment
from vision.classes import CARD_CLASS, CARD_INDEX
from vision.config import DEFAULTS, LayoutConfig
from vision.detections import UNREAD, Detections
from vision.layout import SIZE_FIT, Layout, arrange
from vision.notices import Code, Notice
from vision.results import ROLE_ORDER, Box, CardGroup, RecognizedCard, Recognition, Role

__all__ = ["as_the_player_says", "answered", "laid_out", "with_cards", "sitting_on", "LAYOUT_CODES", "TABLE_CODES",
           "ROLE_ORDER",
           "PHANTOM_INSIDE", "MAX_TABLE_GROUP"]

# The notices the layout gives (by code): replaced whenever the cards are laid out again.
LAYOUT_CODES = frozenset({Code.STARTER_PUSHED, Code.LONE_CARDS, Code.SINGLE_CARD, Code.ODD_GROUP, Code.DEAL_OF_SIX,
                          Code.DEAL_OF_FIVE, Code.NO_STARTER_FOR_CRIB, Code.CRIB_UNSURE, Code.ROLE_GUESSED})
# The notices the player's table gives: the layout's and its own, all said again (or not) each time
# the table is laid out with the player's answers.
TABLE_CODES = LAYOUT_CODES | {Code.NAMED_APART, Code.SET_ASIDE}
# The notices that name one card by its code first and go with the card when it is dropped.
_OF_A_CARD = frozenset({Code.LOW_CONFIDENCE, Code.ONE_CORNER, Code.DISPUTED_CORNERS, Code.SEEN_TWICE,
                        Code.READ_TWICE})
# Notices naming a card first that stay true once the player confirmed that card: it is still in
# the photo twice; an ignored second reading is still not a card of its own; a named card lying
# apart is still not counted. (A card set aside until confirmed is set aside no more.)
_TRUE_AFTER_CONFIRM = frozenset({Code.SEEN_TWICE, Code.READ_TWICE, Code.SECOND_READING, Code.NAMED_APART})

# A flagged card with at least this share of its box inside one trusted card's box sits on that
# card. Real photos (train splits only: 150 rf100-poker + 150 cardcounterml, models v9): 48
# flagged cards overlap a trusted card; at >= 0.5 inside, 23 of them, 3 misread (phantoms) and 20
# real cards of an overlapping fan or row. Being inside alone cannot tell them apart, so a card
# sitting on another is set aside only where its group fits the table no worse without it
# (``_no_worse_without``): a phantom that makes a hand of 4 a "5", or a pair a "3", goes; a real
# card that completes a fan of 4 stays. On those 300 photos this changed 6, all 5-card poker hands
# (5 -> 4 + 1 apart): 2 misread cards set aside, 4 real flagged cards set aside (said, to confirm).
PHANTOM_INSIDE = 0.5
MAX_TABLE_GROUP = 6  # the most cards a group on a cribbage table holds (a two-player deal)


def layout_of(recognition: Recognition) -> LayoutConfig:
    """The layout settings ``recognition``'s table was laid out with, so it is laid out again the
    same way: the models' (``Recognition.layout``), or the standard ones for a recognition made
    without models (a test's, one built from stored cards)."""
    return recognition.layout if recognition.layout is not None else DEFAULTS.layout


def laid_out(cards: Sequence[RecognizedCard], unread: Sequence[tuple],
             config: LayoutConfig) -> tuple[Layout, list[RecognizedCard | None]]:
    """The layout of ``cards`` and the ``unread`` boxes (photo pixels), and each row's card (None:
    an unread box)."""
    xyxy = [c.box for c in cards] + [tuple(b) for b in unread]
    ids = [CARD_INDEX[c.card] for c in cards] + [UNREAD] * len(unread)
    rows = Detections(np.array(xyxy, np.float32).reshape(-1, 4), np.ones(len(xyxy), np.float32),
                      np.full(len(xyxy), CARD_CLASS), np.array(ids, np.int64), np.ones(len(xyxy), np.float32))
    return arrange(rows, config=config), list(cards) + [None] * len(unread)


def with_cards(recognition: Recognition, cards: Sequence[RecognizedCard], said: Sequence[Notice]) -> Recognition:
    """``recognition`` with ``cards`` in place of its cards: laid out again in groups (with its own
    layout settings, ``layout_of``), the notices of a dropped card gone, the layout's notices those
    of the new groups, ``said`` added (unchanged when no card changed and nothing is said)."""
    cards = tuple(cards)
    if not said and cards == recognition.cards:
        return recognition
    gone = {c.card for c in recognition.cards} - {c.card for c in cards}
    layout, rows = laid_out(cards, recognition.unread_boxes, layout_of(recognition))
    kept = tuple(n for n in recognition.warnings
                 if not (n.code in LAYOUT_CODES or n.code in _OF_A_CARD and n.args and n.args[0] in gone))
    return replace(recognition, **table_of(layout, rows),
                   warnings=kept + tuple(said) + tuple(layout.warnings))


def _grouped(layout: Layout, rows: list[RecognizedCard | None]) -> list[tuple[Role, list[RecognizedCard]]]:
    """Each group of ``layout`` (``laid_out``'s) as its role and its cards (its unread boxes left out)."""
    return [(Role(g.role), [rows[m] for m in g.members if rows[m] is not None]) for g in layout.groups]


def table_of(layout: Layout, rows: Sequence[RecognizedCard | None]) -> dict:
    """A recognition's ``cards`` (in group order) and ``groups`` from ``layout`` and each of its
    rows' card (None: a row no card was named on, left out): the one place groups are built from a
    layout, for recognition (``interpret.read_table``) and for the player's answers alike."""
    return _table_of(_grouped(layout, list(rows)))


def _table_of(grouped: Sequence[tuple[Role, Sequence[RecognizedCard]]]) -> dict:
    """A recognition's ``cards`` (in group order) and ``groups`` from the groups' roles and cards."""
    return {"cards": tuple(c for _role, cards in grouped for c in cards),
            "groups": tuple(CardGroup(role, tuple(c.card for c in cards)) for role, cards in grouped)}


def as_the_player_says(recognition: Recognition, *, named: Sequence[RecognizedCard] = (),
                       left_out: Sequence[Box] = (), confirmed: Collection[str] = ()) -> Recognition:
    """The table of ``recognition`` with the player's answers (see the module docstring): the
    flagged cards ``confirmed`` (codes) trusted, the ``named`` cards (the player's names for unread
    boxes, each with its unread box) and the unread boxes ``left_out`` (no card) taken out of the
    unread boxes with their notices, and the groups built from the cards the player can trust.
    Unchanged when there is no answer and no flagged card is set aside."""
    recognition = _confirmed(recognition, confirmed)
    gone = [tuple(c.box) for c in named] + [tuple(b) for b in left_out]
    if gone:
        unread = list(recognition.unread_boxes)
        for box in gone:
            unread.remove(next(b for b in unread if tuple(b) == box))
        recognition = replace(recognition, unread_boxes=tuple(unread), warnings=tuple(
            n for n in recognition.warnings if not (n.code == Code.UNREAD_CARD and tuple(n.args[1]) in set(gone))))
    return _trusted(recognition, named, regroup=bool(gone))


def placed(recognition: Recognition, cards: Sequence[RecognizedCard], groups: Sequence[CardGroup], *,
           unread_boxes: Sequence[Box] = (), checked: Collection[str] = ()) -> Recognition:
    """The table as the player placed the cards (the review): ``cards`` in ``groups`` as the
    player has them, the layout's notices gone (the groups are the player's), the unread boxes
    but ``unread_boxes`` gone with their notices, and the notices the ``checked`` cards (codes:
    confirmed, corrected or left out) answer gone (``answered``)."""
    still_unread = {tuple(b) for b in unread_boxes}
    kept = tuple(n for n in recognition.warnings if not (
        n.code in LAYOUT_CODES or n.code == Code.UNREAD_CARD and tuple(n.args[1]) not in still_unread))
    return replace(recognition, cards=tuple(cards), groups=tuple(groups), unread_boxes=tuple(unread_boxes),
                   warnings=answered(kept, checked))


def answered(notices: Sequence[Notice], codes: Collection[str]) -> tuple[Notice, ...]:
    """``notices`` without those about how one of ``codes`` was read (low confidence, one corner,
    disputed corners, whatever recognition's reason): the player checked those cards. Judged by
    the notice's code and first argument, never its words."""
    return tuple(n for n in notices
                 if not (n.code not in _TRUE_AFTER_CONFIRM and n.args and isinstance(n.args[0], str)
                         and n.args[0] in codes))


def _confirmed(recognition: Recognition, codes: Collection[str]) -> Recognition:
    """The recognition with the flagged cards ``codes`` no longer flagged, their reading's notices
    answered."""
    if not codes:
        return recognition
    return replace(recognition, cards=tuple(replace(c, confirm=False) if c.card in codes else c
                                            for c in recognition.cards),
                   warnings=answered(recognition.warnings, codes))


def sitting_on(cards: Sequence[RecognizedCard]) -> list[tuple[RecognizedCard, RecognizedCard]]:
    """(flagged card, the trusted card it sits on), the one most inside first."""
    trusted = [c for c in cards if not c.confirm]
    flagged = [c for c in cards if c.confirm]
    if not trusted or not flagged:
        return []
    inside = box_containment(np.array([c.box for c in flagged], float), np.array([t.box for t in trusted], float))
    found = [(float(row.max()), i, card, trusted[int(np.argmax(row))])
             for i, (card, row) in enumerate(zip(flagged, inside)) if row.max() >= PHANTOM_INSIDE]
    return [(card, under) for _share, _i, card, under in sorted(found, key=lambda f: (-f[0], f[1]))]


def _trusted(recognition: Recognition, named: Sequence[RecognizedCard] = (), *, regroup: bool = False) -> Recognition:
    """The recognition with ``named`` cards (already taken out of ``recognition.unread_boxes``)
    added and the groups built from the trusted cards. ``regroup``: lay the cards out again even
    when nothing is named (boxes left out change the groups they lay in, and the layout's
    notices). Unchanged when nothing is named, nothing is to be regrouped and no flagged card is
    set aside."""
    unread, config = recognition.unread_boxes, layout_of(recognition)
    kept = list(recognition.cards) + list(named)
    aside: list[tuple[RecognizedCard, RecognizedCard]] = []
    for card, under in sitting_on(recognition.cards):  # one at a time, the one most inside first
        without = [c for c in kept if c is not card]
        if _no_worse_without(card, kept, without, unread, config):
            kept = without
            aside.append((card, under))
    if not named and not aside and not regroup:
        return recognition
    starter = next((g.cards[0] for g in recognition.groups if g.role == Role.STARTER and g.cards), None)
    layout, rows = laid_out(kept, unread, config)
    apart = [c for c in named if starter is not None and _alone(layout, rows, c)]
    if apart:  # a named card lying apart never takes the starter's place
        layout, rows = laid_out([c for c in kept if all(c is not a for a in apart)], unread, config)
    grouped = [(role, cards) for role, cards in _grouped(layout, rows) if cards]
    grouped += [(Role.UNKNOWN, [c]) for c in apart] + [(Role.UNKNOWN, [card]) for card, _under in aside]
    said = [Notice(Code.NAMED_APART, (c.card, starter)) for c in apart]
    said += [Notice(Code.SET_ASIDE, (card.card, under.card)) for card, under in aside]
    warnings = (tuple(n for n in recognition.warnings if n.code not in TABLE_CODES)
                + tuple(layout.warnings) + tuple(said))
    return replace(recognition, **_table_of(grouped), warnings=warnings)


def _no_worse_without(card: RecognizedCard, kept: list, without: list, unread: Sequence[tuple],
                      config: LayoutConfig) -> bool:
    """Whether the cards of ``card``'s group fit the table no worse without it (``SIZE_FIT``, the
    layout's own weights). Only a table-sized group is weighed (a pair, a hand, a deal: up to 6
    cards); a larger one fits no role either way and is left as it is."""
    layout, rows = laid_out(kept, unread, config)
    group = next(g for g in layout.groups if any(rows[m] is card for m in g.members))
    if len(group.members) > MAX_TABLE_GROUP:
        return False
    others = {id(rows[m]) for m in group.members if rows[m] is not None and rows[m] is not card}
    after, rows_after = laid_out(without, unread, config)
    parts = [g for g in after.groups if any(rows_after[m] is not None and id(rows_after[m]) in others
                                            for m in g.members)]
    return sum(SIZE_FIT.get(len(g.members), -1.0) for g in parts) >= SIZE_FIT.get(len(group.members), -1.0)


def _alone(layout: Layout, rows: list, card: RecognizedCard) -> bool:
    """Whether ``card`` lies in a group with no other card read (a lone card: a starter's place)."""
    return any(len(read) == 1 and read[0] is card
               for read in ([rows[m] for m in g.members if rows[m] is not None] for g in layout.groups))
