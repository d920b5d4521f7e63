"""The values that pass between the recognition steps, one type per step's output.

    decode -> Photo (``decode``)
    detect -> Candidates: index boxes, the card boxes NMS kept, the card boxes it suppressed
    read -> Reads: the indices read, the card boxes (suppressed ones given back), then the second
            look's reads
    cards -> Outlines (``interpret.cards_of``: ``identify``, ``outlines``): each card read, with its
             outline box, and the card boxes no index was read on; each row's own columns (its
             best index's score, centre and box, its corners, a disputed reading, a guessed box)
             in ``Detections.data``, filtered with the rows
    table -> Recognition (``interpret.read_table``, ``layout``; ``results``): the cards named,
             groups with roles, notices
    amend -> Recognition (``amend``: ``phantoms``, ``index_column``): second readings of a card
             dropped, the cards along a fan's or row's index column added, the table rebuilt
             (``table.with_cards``; ``table`` owns the groups, the player's answers included)
    read_again -> Recognition (``second_reading``): each card's index read a second time (turned
             half round, cut wider), its ink's colour and sharpness added to its ``evidence``
    weigh -> Recognition (``doubt``): each card's chance of being right (its ``confidence``) and
             the flags under the models' threshold, one ``doubtful`` notice per flag

Each is frozen; ``vision.pipeline`` is the one place that passes one step's output to the next.
The rows are ``Detections``: the detector's score (``confidence``), the reader's probability
(``reader``) and where each box came from (``origin``) are columns of their own; a step's own
columns ride in ``data`` (as supervision's ``Detections.data``), never in arrays or dicts beside
the rows. A box's frame is part of its value: the detector's rows are in the decoded photo's
pixels (``Detections.scale`` photo pixels each, set once where the pipeline takes them), and
``photo_xyxy`` is the one conversion to photo pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.detections import Detections, Origin


@dataclass(frozen=True, eq=False)
class Candidates:
    """What the detector found, in photo pixels: ``indices`` (origin ``FIRST_PASS`` or ``CLOSER``),
    ``cards`` (the card boxes NMS kept) and ``suppressed`` (card boxes NMS suppressed, kept aside
    until the corners are read: ``vision.kept_apart``)."""

    indices: Detections
    cards: Detections
    suppressed: Detections

    @classmethod
    def of(cls, detections: Detections) -> "Candidates":
        """Split ``vision.detect.detect``'s rows by class and origin."""
        return cls(detections.of_class(INDEX_CLASS), detections.kept().of_class(CARD_CLASS),
                   detections.of_origin(Origin.SUPPRESSED))


@dataclass(frozen=True, eq=False)
class Reads:
    """The corner indices with the card the reader reads on each (``card_id``, ``reader``), and
    the card boxes: those NMS kept, then the suppressed ones whose corners read another card.
    After the second look: its reads added (origin ``SECOND_LOOK``), the first pass's unsure reads
    inside a card it read surely removed, and ``looked_again`` the cards it read."""

    indices: Detections
    cards: Detections
    looked_again: int = 0
