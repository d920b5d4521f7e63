"""Phantom cards (issue 39): a second reading of a card already read is not a card of its own.

One corner of a card read twice gives a phantom: the card's other corner index read as another
code (a 9S's far corner read 8S), the index it was read from read again as another code (an AS's
index read AC beside it), or a pip or a court's picture read as an index. Where the reading lies on
the cards around it decides, never its confidence alone:

- **on an index**: its index box overlaps the index box a surer card was read from;
- **at the other corner**: it lies where that card's second index lies. A card's two corner
  indices are a half turn apart about its centre, whatever its turn on the table, so the second
  lies at the point reflection of the read one through the centre of the card's outline;
- **on the face**: it lies deep inside the card's outline, past where any corner index lies.

Only a reading the player is asked to confirm, with no card box of its own (or a box that is the
card's own drawn twice), is judged: a card the detector drew a box for, or one read surely, is a
card. The phantom becomes the runner-up of the
card it lies on (said, ``Code.SECOND_READING``); the card itself is unchanged. Values:
``PhantomConfig`` (vision/config.py), measured in docs/TUNING.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES
from vision.config import PhantomConfig
from vision.detections import Detections
from vision.notices import Code, Notice
from vision.results import RecognizedCard

ON_INDEX, OTHER_CORNER, ON_FACE = "index", "corner", "face"  # where a phantom lies (the notice says it)


@dataclass(frozen=True)
class Reading:
    """Where one recognised card was read: its index boxes (photo pixels, the surest first) and
    whether its outline is a card box the detector drew (not one guessed around its index)."""

    index_boxes: np.ndarray
    boxed: bool
    reader: float = 0.0  # the reader's probability for its surest index

    @property
    def index_centre(self) -> np.ndarray | None:
        return boxes.centres(self.index_boxes[:1])[0] if len(self.index_boxes) else None


def readings(cards: Sequence[RecognizedCard], indices: Detections, card_boxes: Detections,
             config: PhantomConfig) -> list[Reading]:
    """Per card: the read index boxes showing its code inside its outline, whether the outline
    is a detector's card box, and the reader's probability for its surest index (photo pixels:
    ``indices`` and ``card_boxes`` each in their own frame, the cards' boxes in photo pixels)."""
    index_xyxy = indices.photo_xyxy
    card_xyxy = card_boxes.photo_xyxy
    sure = indices.confidence * indices.reader  # a read's confidence: detector score x reader probability
    codes = [CARD_CODES[i] if i >= 0 else None for i in indices.card_id]
    out = []
    for card in cards:
        outline = np.asarray([card.box], np.float64)
        rows = [i for i, code in enumerate(codes) if code == card.card]
        if rows:
            inside = boxes.points_in_boxes(boxes.centres(index_xyxy[rows]), outline, config.edge_tolerance)[:, 0]
            rows = [r for r, ok in zip(rows, inside) if ok]
        rows.sort(key=lambda r: -sure[r])
        boxed = bool(len(card_xyxy)) and float(boxes.box_iou(outline, card_xyxy).max()) >= config.own_box_iou
        reader = float(indices.reader[rows[0]]) if rows else 0.0
        out.append(Reading(index_xyxy[rows].reshape(-1, 4), boxed, reader))
    return out


def _diagonal(box) -> float:
    return float(np.hypot(box[2] - box[0], box[3] - box[1]))


def _depth(point: np.ndarray, box) -> float:
    """How deep ``point`` lies inside ``box``: distance to its nearest edge over its short side."""
    x1, y1, x2, y2 = box
    gap = min(point[0] - x1, x2 - point[0], point[1] - y1, y2 - point[1])
    return gap / max(min(x2 - x1, y2 - y1), 1.0)


def other_corner_gap(point: np.ndarray, box, reading: Reading) -> float:
    """How far ``point`` lies from the spot of the card's other corner index (share of its
    diagonal): the point reflection of each index it was read from through its outline's centre
    (a pip read as its code as well gives a spot too: the reading must still be unsure and boxless)."""
    centre = np.array([(box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0])
    spots = 2.0 * centre[None] - boxes.centres(reading.index_boxes)
    return float(np.hypot(*(spots - point[None]).T).min()) / max(_diagonal(box), 1.0)


def same_index_share(box: np.ndarray, others: np.ndarray) -> float:
    """How much of the smaller of ``box`` and each of ``others`` lies inside the larger, at most:
    one index detected twice (boxes one inside the other), not a column's neighbours side by side."""
    if not len(others):
        return 0.0
    return float(max(boxes.box_containment(box, others).max(), boxes.box_containment(others, box).max()))


def in_a_column(phantom: Reading, reading: Reading, others: np.ndarray,
                config: PhantomConfig) -> bool:
    """Whether other indices lie beside the phantom's: a stack's or a fan's column of indices,
    where each is a card of its own, not one lone second reading. ``others``: the read index boxes
    showing neither code (a box over the phantom's or the card's own index is that index again)."""
    box = phantom.index_boxes[:1]
    if not len(others):
        return False
    reach = config.column_reach_of_index * float(boxes.sizes(box).max())
    near = np.hypot(*(boxes.centres(others) - boxes.centres(box)).T) <= reach
    same = boxes.box_iou(others, np.concatenate([box, reading.index_boxes])).max(axis=1) >= config.same_index_iou
    return bool((near & ~same).any())


def where_it_lies(phantom: Reading, card: RecognizedCard, reading: Reading, others: np.ndarray,
                  config: PhantomConfig) -> str | None:
    """Where ``phantom``'s index lies on ``card`` (read from ``reading``): on its index, at its
    other corner, on its face, or None (not on it, or in a column of indices: another card's
    corner). ``others``: the photo's read index boxes showing neither code (photo pixels)."""
    if not len(phantom.index_boxes) or not len(reading.index_boxes) or not reading.boxed:
        return None
    if in_a_column(phantom, reading, others, config):
        return None
    box, point = card.box, phantom.index_centre
    if same_index_share(phantom.index_boxes[:1], reading.index_boxes) >= config.same_index_share:
        return ON_INDEX
    if _depth(point, box) < -config.edge_tolerance:
        return None
    if phantom.reader < config.corner_reader_below and \
            other_corner_gap(point, box, reading) <= config.other_corner_reach_of_diagonal:
        return OTHER_CORNER
    if _depth(point, box) >= config.face_depth_of_short_side:
        return ON_FACE
    return None


def same_outline(box, other, config: PhantomConfig) -> bool:
    """Whether two outlines are one card's: the detector boxed one card twice, a little apart."""
    return float(boxes.box_iou(np.asarray([box], np.float64), np.asarray([other], np.float64))[0, 0]) >= \
        config.same_card_iou


def misread_of(phantom: RecognizedCard, card: RecognizedCard) -> bool:
    """Whether ``phantom`` can be ``card``'s index misread: the reader kept its rank or its suit
    (a 9S's far corner read 8S, an AS read AC), or named ``card`` as its runner-up."""
    if phantom.card == card.card:
        return False
    return phantom.card[0] == card.card[0] or phantom.card[1] == card.card[1] or phantom.runner_up == card.card


def drop_phantoms(cards: Sequence[RecognizedCard], indices: Detections, card_boxes: Detections,
                  config: PhantomConfig) -> tuple[tuple[RecognizedCard, ...], tuple[Notice, ...]]:
    """The cards without the phantoms (see the module docstring), and a notice for each phantom
    dropped: (its code, its confidence, the card it lies on, where: "index", "corner" or "face")."""
    cards = tuple(cards)
    read = readings(cards, indices, card_boxes, config)
    index_xyxy = indices.photo_xyxy
    codes = np.array([CARD_CODES[i] if i >= 0 else "" for i in indices.card_id], dtype=object)
    dropped: set[int] = set()
    said = []
    # The least sure first: a phantom never stands as the card another phantom lies on.
    for p in sorted(range(len(cards)), key=lambda i: cards[i].confidence):
        phantom = cards[p]
        if not phantom.confirm:
            continue
        for c in sorted(range(len(cards)), key=lambda i: -cards[i].confidence):
            card = cards[c]
            if c == p or c in dropped or card.confidence <= phantom.confidence or not misread_of(phantom, card):
                continue
            if read[p].boxed and not same_outline(phantom.box, card.box, config):
                continue  # a card box of its own: a card
            others = index_xyxy[(codes != phantom.card) & (codes != card.card)]
            where = where_it_lies(read[p], card, read[c], others, config)
            if where:
                dropped.add(p)
                said.append(Notice(Code.SECOND_READING, (phantom.card, phantom.confidence, card.card, where)))
                break
    return tuple(c for i, c in enumerate(cards) if i not in dropped), tuple(said)
