"""After interpret (issue 39): second readings dropped (``vision.phantoms``), cards on a fan's or
row's index column added (``vision.index_column``: sure reads no card claims, and what a reader
reads in the column's gaps), and the recognition made again from the cards: laid out again in
groups, the notices of a dropped card gone, the layout's notices those of the new groups, the
steps' own notices added (``with_cards``; unchanged when no card changed)."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from vision.classes import CARD_CLASS, CARD_INDEX
from vision.config import DEFAULTS, LayoutConfig, RecognitionConfig
from vision.detections import UNREAD, Detections
from vision.index_column import Reader, cards_on_index_columns, column_gaps, look_in_gaps
from vision.layout import Layout, arrange
from vision.notices import Code, Notice
from vision.phantoms import drop_phantoms
from vision.results import CardGroup, RecognizedCard, Recognition, Role

# The notices the layout gives: replaced by the new layout's (as companion.grouping does).
LAYOUT_CODES = frozenset({Code.STARTER_PUSHED, Code.LONE_CARDS, Code.SINGLE_CARD, Code.ODD_GROUP, Code.DEAL_OF_SIX,
                          Code.DEAL_OF_FIVE, Code.NO_STARTER_FOR_CRIB, Code.CRIB_UNSURE, Code.ROLE_GUESSED})
# The notices that name one card by its code first: they go with the card.
_OF_A_CARD = frozenset({Code.LOW_CONFIDENCE, Code.ONE_CORNER, Code.DISPUTED_CORNERS, Code.SEEN_TWICE})


def laid_out(cards: Sequence[RecognizedCard], unread: Sequence[tuple],
             config: LayoutConfig = DEFAULTS.layout) -> tuple[Layout, list[RecognizedCard | None]]:
    """The layout of ``cards`` and the ``unread`` boxes (photo pixels), and each row's card (None:
    an unread box)."""
    xyxy = [c.box for c in cards] + [tuple(b) for b in unread]
    ids = [CARD_INDEX[c.card] for c in cards] + [UNREAD] * len(unread)
    rows = Detections(np.array(xyxy, np.float32).reshape(-1, 4), np.ones(len(xyxy), np.float32),
                      np.full(len(xyxy), CARD_CLASS), np.array(ids, np.int64), np.ones(len(xyxy), np.float32))
    return arrange(rows, config=config), list(cards) + [None] * len(unread)


def with_cards(recognition: Recognition, cards: Sequence[RecognizedCard], said: Sequence[Notice],
               config: LayoutConfig = DEFAULTS.layout) -> Recognition:
    """``recognition`` with ``cards`` in place of its cards (see the module docstring)."""
    cards = tuple(cards)
    if not said and cards == recognition.cards:
        return recognition
    gone = {c.card for c in recognition.cards} - {c.card for c in cards}
    layout, rows = laid_out(cards, recognition.unread_boxes, config)
    ordered: list[RecognizedCard] = []
    groups: list[CardGroup] = []
    for group in layout.groups:
        members = [rows[m] for m in group.members if rows[m] is not None]
        ordered += members
        groups.append(CardGroup(Role(group.role), tuple(c.card for c in members)))
    kept = tuple(n for n in recognition.warnings
                 if not (isinstance(n, Notice) and (n.code in LAYOUT_CODES or n.code in _OF_A_CARD and n.args
                                                    and n.args[0] in gone)))
    return replace(recognition, cards=tuple(ordered), groups=tuple(groups),
                   warnings=kept + tuple(said) + tuple(layout.warnings))


def amend(recognition: Recognition, indices: Detections, card_boxes: Detections, scale: float = 1.0,
          settings: RecognitionConfig = DEFAULTS, reader: Reader | None = None) -> Recognition:
    """``recognition`` (interpret's, from these read ``indices`` and ``card_boxes``, decoded pixels,
    ``scale`` photo pixels each) with its phantoms dropped and the cards on its index columns
    added; ``reader`` reads index boxes in photo pixels (no reader: the gaps are not looked in)."""
    cards, said = drop_phantoms(recognition.cards, indices, card_boxes, scale, settings.phantoms)
    cards, more = cards_on_index_columns(cards, indices, card_boxes, scale, settings.index_column, settings.phantoms)
    looked: tuple[Notice, ...] = ()
    if reader is not None:
        gaps = column_gaps(cards, indices, card_boxes, scale, settings.index_column, settings.phantoms)
        if len(gaps[0]):
            cards, looked = look_in_gaps(cards, gaps, reader, settings.index_column)
    return with_cards(recognition, cards, said + more + looked, settings.layout)
