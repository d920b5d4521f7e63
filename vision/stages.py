"""The values that pass between the recognition steps (``vision.pipeline.PHOTO_STEPS``, in the
order they run), one home for them all but the result:

    Photo (``decode``) -- the decoded pixels, the photo's size and frame
    Candidates -- index boxes, the card boxes NMS kept, the card boxes it suppressed (detect)
    Reads -- the indices read, the card boxes (suppressed ones given back), then the second look's
             reads (read, second_look)
    Outlines -- each card read, with its outline box, and the card boxes no index was read on;
             each row's own columns (its best index's score, centre and box, its corners, a
             disputed reading, a guessed box: ``vision.outlines``) in ``Detections.data``,
             filtered with the rows (cards)
    Recognition (``vision.results``, what recognition returns) -- the cards named, groups with
             roles, notices (table); amended, read again and weighed by the steps after it
    Flow -- what the steps have made of one photo so far, the pipeline's one value

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
from vision.decode import Photo
from vision.detections import Detections, Origin
from vision.results import Recognition


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


@dataclass(frozen=True, eq=False)
class Outlines:
    """Cards with their outline boxes: read cards first, then card boxes no index was read on
    (``card_id == UNREAD``). Each row carries its own columns in ``cards.data`` (``ESTIMATED``,
    ``INDEX_SCORE``, ``DISPUTED``: two corners of one card that disagree, the more confident
    reading kept and the other its runner-up, ``INDEX_CENTRE``, ``CORNERS``, ``INDEX_BOX``:
    ``vision.outlines``), so a step that drops rows drops their columns with them.
    ``cards.reader`` is the reader's probability of each card's reading, ``cards.origin`` where its
    box came from (a guessed box: its best index's origin)."""

    cards: Detections


@dataclass(frozen=True, eq=False)
class Flow:
    """What the steps have made of one photo so far (each field set by the step named beside it);
    ``split_ms``: a step's own split of its time (the detector's model and NMS), taken by
    ``Recognizer.run_steps`` as it times the step."""

    photo: Photo
    name: str
    candidates: Candidates | None = None  # detect
    reads: Reads | None = None            # read, second_look
    outlines: Outlines | None = None      # cards
    result: Recognition | None = None     # table, amend, read_again, weigh
    split_ms: dict | None = None
