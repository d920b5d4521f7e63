"""After interpret (issue 39): second readings dropped (``vision.phantoms``), cards on a fan's or
row's index column added (``vision.index_column``: sure reads no card claims, and what a reader
reads in the column's gaps), and the recognition made again from the cards by the table's owner
(``vision.table.with_cards``: laid out again in groups, the notices of a dropped card gone, the
layout's notices those of the new groups, the steps' own notices added; unchanged when no card
changed)."""

from __future__ import annotations

from vision.config import RecognitionConfig
from vision.detections import Detections
from vision.index_column import Reader, cards_on_index_columns, column_gaps, look_in_gaps
from vision.notices import Notice
from vision.phantoms import drop_phantoms
from vision.results import Recognition
from vision.table import with_cards


def amend(recognition: Recognition, indices: Detections, card_boxes: Detections,
          settings: RecognitionConfig, reader: Reader | None = None) -> Recognition:
    """``recognition`` (interpret's, from these read ``indices`` and ``card_boxes``, each in its own
    frame: ``Detections.photo_xyxy``) with its phantoms dropped and the cards on its index columns
    added; ``reader`` reads index boxes in photo pixels (no reader: the gaps are not looked in)."""
    cards, said = drop_phantoms(recognition.cards, indices, card_boxes, settings.phantoms)
    cards, more = cards_on_index_columns(cards, indices, card_boxes, settings.index_column, settings.phantoms)
    looked: tuple[Notice, ...] = ()
    if reader is not None:
        gaps = column_gaps(cards, indices, card_boxes, settings.index_column, settings.phantoms)
        if len(gaps[0]):
            cards, looked = look_in_gaps(cards, gaps, reader, settings.index_column)
    return with_cards(recognition, cards, said + more + looked)
