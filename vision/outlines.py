"""Giving each card read from its indices the detector's whole-card box (its outline)."""

from __future__ import annotations

import numpy as np

from vision.classes import CARD_CLASS
from vision.detections import Detections
from vision.identify import Identities, _inside, typical_card_diagonal
from vision.postprocess import box_iou

CARD_ASPECT = 1.4  # height / width of a playing card


def _fit_cost(points: np.ndarray, index_boxes: np.ndarray, box: np.ndarray) -> float:
    """How badly ``box`` fits a card's indices (0 = perfect).

    Two or more indices sit in opposite corners of their card, so their union spans the card's
    box: cost 1 - IoU(union, box). A single index sits next to its own card's edge, while an
    index that merely lies over another card's box is usually deep inside it: cost = distance to
    the nearest edge relative to the box's short side (plus 1, so spanned fits come first)."""
    if len(index_boxes) >= 2:
        union = np.array([index_boxes[:, 0].min(), index_boxes[:, 1].min(),
                          index_boxes[:, 2].max(), index_boxes[:, 3].max()], np.float32)
        return 1.0 - float(box_iou(union[None], box[None])[0, 0])
    x1, y1, x2, y2 = box
    d = np.minimum.reduce([points[:, 0] - x1, x2 - points[:, 0], points[:, 1] - y1, y2 - points[:, 1]])
    return 1.0 + float(np.mean(np.abs(d))) / max(min(x2 - x1, y2 - y1), 1.0)


def _estimated_box(index_boxes: np.ndarray, diagonal: float) -> np.ndarray:
    """A card box around indices whose card box the detector missed: their union, grown to at
    least a typical card's size about their centre."""
    x1, y1 = index_boxes[:, 0].min(), index_boxes[:, 1].min()
    x2, y2 = index_boxes[:, 2].max(), index_boxes[:, 3].max()
    width = max(x2 - x1, diagonal / np.hypot(1.0, CARD_ASPECT))
    height = max(y2 - y1, width * CARD_ASPECT if (x2 - x1) < (y2 - y1) else width / CARD_ASPECT)
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    return np.array([cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2], np.float32)


def assign_outlines(identities: Identities, card_boxes: Detections) -> tuple[Detections, np.ndarray]:
    """One row per card: the read cards first (in ``identities`` order) with their outline box,
    then card boxes no index was read on (``card_id == UNREAD``).

    Returns the cards and a boolean array marking read cards whose box had to be estimated.
    Assignment is greedy one-to-one by ``_fit_cost`` among the boxes holding all of a card's
    indices."""
    cards = identities.cards
    indices = identities.indices
    n_cards, n_boxes = len(cards), len(card_boxes)
    pairs = []
    for i, rows in enumerate(identities.members):
        if n_boxes == 0:
            break
        holds = np.all(_inside(indices.centers[rows], card_boxes.xyxy), axis=0)
        for b in np.flatnonzero(holds):
            cost = _fit_cost(indices.centers[rows], indices.xyxy[rows], card_boxes.xyxy[b])
            pairs.append((cost, i, int(b)))
    pairs.sort()
    box_of = np.full(n_cards, -1, dtype=np.int64)
    taken = np.zeros(n_boxes, dtype=bool)
    for _cost, i, b in pairs:
        if box_of[i] < 0 and not taken[b]:
            box_of[i], taken[b] = b, True

    diagonal = typical_card_diagonal(card_boxes, indices)
    xyxy = np.zeros((n_cards, 4), np.float32)
    box_score = np.zeros(n_cards, np.float32)
    for i, rows in enumerate(identities.members):
        if box_of[i] >= 0:
            xyxy[i] = card_boxes.xyxy[box_of[i]]
            box_score[i] = card_boxes.confidence[box_of[i]]
        else:
            xyxy[i] = _estimated_box(indices.xyxy[rows], diagonal)
    read = Detections(xyxy, box_score, np.full(n_cards, CARD_CLASS), cards.card_id, cards.card_confidence,
                      cards.runner_up_id, cards.runner_up_confidence)
    unread = card_boxes[~taken]
    unread = Detections(unread.xyxy, unread.confidence, np.full(len(unread), CARD_CLASS))
    estimated = np.concatenate([box_of < 0, np.zeros(len(unread), bool)])
    return Detections.concatenate([read, unread]), estimated
