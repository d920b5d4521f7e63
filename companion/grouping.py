"""Groups from the cards a player can trust (issue 36).

Recognition lays the cards out by where they lie (``vision.layout.arrange``). Two things the
player says, or could not yet say, change that:

- A card the player names for an unread box joins the group it lies in, found by laying the
  cards out again with it (never the nearest card's group: a printed page far from the hand stays
  apart). A named card lying apart from every group while the photo already has its starter is
  kept apart (an unknown group, said), so it never takes the starter's place.
- A flagged card sitting on a trusted card (its box mostly inside that card's box: a second,
  unsure reading of the card's corner) does not change the groups until the player confirms it:
  the cards are laid out without it, and it stands in an unknown group of its own, said.
- A box the player says is no card (a page, a chip) leaves the photo: the cards are laid out
  again without it, so the groups and the layout's notices are those of the cards left.

    from companion.grouping import trusted_groups
    recognition = trusted_groups(recognition, named=[RecognizedCard("QS", 1.0, box)])
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role
from vision.boxes import box_containment
from vision.classes import CARD_CLASS, CARD_INDEX
from vision.detections import UNREAD, Detections
from vision.layout import arrange

# A flagged card with at least this share of its box inside one trusted card's box sits on that
# card. Real photos (train splits only: 150 rf100-poker + 150 cardcounterml, models v9): 48
# flagged cards overlap a trusted card; at >= 0.5 inside, 23 of them, 3 misread (phantoms) and 20
# real cards of an overlapping fan or row. Being inside alone cannot tell them apart, so a card
# sitting on another is set aside only where its group fits the table no worse without it
# (``_no_worse_without``): a phantom that makes a hand of 4 a "5", or a pair a "3", goes; a real
# card that completes a fan of 4 stays. On those 300 photos this changed 6, all 5-card poker hands
# (5 -> 4 + 1 apart): 2 misread cards set aside, 4 real flagged cards set aside (said, to confirm).
PHANTOM_INSIDE = 0.5
# How well a group's size fits a cribbage table (as vision.layout weighs sizes): hands and the
# crib 4, a starter 1, a deal 6; 5 a three-player deal; any other size fits no role.
_SIZE_FIT = {1: 0.0, 4: 0.0, 6: 0.0, 5: -0.3}
MAX_TABLE_GROUP = 6  # the most cards a group on a cribbage table holds (a two-player deal)
# The notices the layout gives (by code): replaced when the cards are laid out again.
LAYOUT_CODES = frozenset({Code.STARTER_PUSHED, Code.LONE_CARDS, Code.SINGLE_CARD, Code.ODD_GROUP,
                          Code.DEAL_OF_SIX, Code.DEAL_OF_FIVE, Code.NO_STARTER_FOR_CRIB, Code.CRIB_UNSURE,
                          Code.ROLE_GUESSED})


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


def trusted_groups(recognition: Recognition, named: Sequence[RecognizedCard] = (), *,
                   regroup: bool = False) -> Recognition:
    """The recognition with ``named`` cards (the player's names for unread boxes, already taken
    out of ``recognition.unread_boxes``) added and the groups built from the trusted cards (see
    the module docstring). ``regroup``: lay the cards out again even when nothing is named (the
    player left boxes out, so the groups they lay in, and the layout's notices, changed).
    Unchanged when nothing is named, nothing is to be regrouped and no flagged card is set aside."""
    unread = recognition.unread_boxes
    kept = list(recognition.cards) + list(named)
    aside: list[tuple[RecognizedCard, RecognizedCard]] = []
    for card, under in sitting_on(recognition.cards):  # one at a time, the one most inside first
        without = [c for c in kept if c is not card]
        if _no_worse_without(card, kept, without, unread):
            kept = without
            aside.append((card, under))
    if not named and not aside and not regroup:
        return recognition
    starter = next((g.cards[0] for g in recognition.groups if g.role == Role.STARTER and g.cards), None)
    layout, rows = _laid_out(kept, unread)
    apart = [c for c in named if starter is not None and _alone(layout, rows, c)]
    if apart:  # a named card lying apart never takes the starter's place
        layout, rows = _laid_out([c for c in kept if all(c is not a for a in apart)], unread)
    members = [[rows[m] for m in g.members if rows[m] is not None] for g in layout.groups]
    grouped = [(Role(g.role), cards) for g, cards in zip(layout.groups, members) if cards]
    grouped += [(Role.UNKNOWN, [c]) for c in apart] + [(Role.UNKNOWN, [card]) for card, _under in aside]
    said = [f"{c.card} (named) lies apart from the hands and the starter {starter}: not counted" for c in apart]
    said += [f"{card.card} (read unsure on {under.card}'s corner) is left out of the groups until confirmed"
             for card, under in aside]
    warnings = (tuple(w for w in recognition.warnings if not (isinstance(w, Notice) and w.code in LAYOUT_CODES))
                + tuple(layout.warnings) + tuple(said))
    return replace(recognition, cards=tuple(c for _role, cards in grouped for c in cards),
                   groups=tuple(CardGroup(role, tuple(c.card for c in cards)) for role, cards in grouped),
                   warnings=warnings)


def _laid_out(cards: Sequence[RecognizedCard], unread: Sequence[tuple]):
    """The layout of ``cards`` and the ``unread`` boxes, and each row's card (None: unread)."""
    boxes = [c.box for c in cards] + [tuple(b) for b in unread]
    ids = [CARD_INDEX[c.card] for c in cards] + [UNREAD] * len(unread)
    detections = Detections(np.array(boxes, np.float32).reshape(-1, 4), np.ones(len(boxes), np.float32),
                            np.full(len(boxes), CARD_CLASS), np.array(ids, np.int64),
                            np.ones(len(boxes), np.float32))
    return arrange(detections), list(cards) + [None] * len(unread)


def _no_worse_without(card: RecognizedCard, kept: list, without: list, unread: Sequence[tuple]) -> bool:
    """Whether the cards of ``card``'s group fit the table no worse without it (see _SIZE_FIT). Only
    a table-sized group is weighed (a pair, a hand, a deal: up to 6 cards); a larger one fits no
    role either way and is left as it is."""
    layout, rows = _laid_out(kept, unread)
    group = next(g for g in layout.groups if any(rows[m] is card for m in g.members))
    if len(group.members) > MAX_TABLE_GROUP:
        return False
    others = {id(rows[m]) for m in group.members if rows[m] is not None and rows[m] is not card}
    after, rows_after = _laid_out(without, unread)
    parts = [g for g in after.groups if any(rows_after[m] is not None and id(rows_after[m]) in others
                                            for m in g.members)]
    return sum(_SIZE_FIT.get(len(g.members), -1.0) for g in parts) >= _SIZE_FIT.get(len(group.members), -1.0)


def _alone(layout, rows: list, card: RecognizedCard) -> bool:
    """Whether ``card`` lies in a group with no other card read (a lone card: a starter's place)."""
    return any(len(read) == 1 and read[0] is card
               for read in ([rows[m] for m in g.members if rows[m] is not None] for g in layout.groups))
