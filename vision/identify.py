"""Merging the corner indices of one card: indices reading the same code belong to one card
when one card box holds them both, or (no such box) when they lie within a card's diagonal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import boxes
from vision.classes import INDEX_CLASS
from vision.detections import Detections
from vision.geometry import INDEX_TO_CARD_DIAGONAL

# Same-code indices farther apart than InterpretConfig.same_card_diagonals typical card diagonals
# are two different cards.


@dataclass(frozen=True, eq=False)
class Identities:
    """One row per card read from its indices: ``cards`` (xyxy = union of its index boxes,
    ``confidence`` = its best index's detector score, ``card_confidence`` = that score x the reader's
    probability, ``reader`` = the reader's probability alone) and
    ``members[i]`` = the rows of ``indices`` that show card i."""

    cards: Detections
    members: tuple[np.ndarray, ...]
    indices: Detections


def typical_card_diagonal(card_boxes: Detections, indices: Detections) -> float:
    if len(card_boxes):
        return float(np.median(np.hypot(*card_boxes.sizes.T)))
    if len(indices):
        return float(np.median(indices.sizes.max(axis=1))) * INDEX_TO_CARD_DIAGONAL
    return 1.0


def _same_card_links(indices: Detections, card_boxes: Detections, diagonals: float) -> list[tuple[int, int]]:
    """Pairs of index rows that show the same card."""
    n = len(indices)
    centers = indices.centers
    inside = boxes.points_in_boxes(centers, card_boxes.xyxy) if len(card_boxes) else np.zeros((n, 0), bool)
    reach = diagonals * typical_card_diagonal(card_boxes, indices)
    links = []
    for a in range(n):
        for b in range(a + 1, n):
            if indices.card_id[a] != indices.card_id[b]:
                continue
            shared_box = bool(np.any(inside[a] & inside[b]))
            near = float(np.hypot(*(centers[a] - centers[b]))) <= reach
            if shared_box or near:
                links.append((a, b))
    return links


def merge_indices(indices: Detections, card_boxes: Detections, same_card_diagonals: float) -> Identities:
    """Group classified indices into cards (see the module docstring); each card takes the
    reading of its most confident index (detector score x classifier probability)."""
    parts = boxes.components(range(len(indices)), _same_card_links(indices, card_boxes, same_card_diagonals))
    members = tuple(np.asarray(rows, dtype=np.int64) for rows in parts)
    union, det_conf, card_id, card_conf, runner_id, runner_conf, reader = [], [], [], [], [], [], []
    for rows in members:
        combined = indices.confidence[rows] * indices.reader[rows]
        best = rows[int(np.argmax(combined))]
        union.append(boxes.union(indices.xyxy[rows]))
        det_conf.append(indices.confidence[best])
        card_id.append(indices.card_id[best])
        card_conf.append(indices.confidence[best] * indices.reader[best])
        runner_id.append(indices.runner_up_id[best])
        runner_conf.append(indices.confidence[best] * indices.runner_up_confidence[best])
        reader.append(indices.reader[best])
    cards = Detections(np.asarray(union, np.float32).reshape(-1, 4), det_conf, np.full(len(members), INDEX_CLASS),
                       card_id, card_conf, runner_id, runner_conf, reader, scale=indices.scale)
    return Identities(cards, members, indices)
