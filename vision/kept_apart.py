"""Two heavily overlapping card boxes whose corners say two cards are two cards (issue 20).

Non-maximum suppression merges card boxes overlapping by more than its IoU threshold: a tight row
or a pair pushed together loses the lower card's box. The boxes it suppressed up to ``DetectConfig.suppressed_iou``
are kept aside (``shadow_cards``, card rows of origin ``Origin.SUPPRESSED``), and one comes back once the corners
are read (``restore``) when a corner of it holds a sure read that is not the card of the box that
suppressed it: one deck holds each card once.
"""

from __future__ import annotations

import numpy as np

from vision import boxes
from vision.classes import CARD_CLASS
from vision.config import DetectConfig, InterpretConfig
from vision.detections import Detections, Origin
from vision.geometry import INDEX_CENTRE_IN_BOX
from vision.letterbox import Letterbox
from vision.postprocess import decode_raw, nms

# How far a read may lie from where a corner index of a box's card lies (InterpretConfig
# .suppressed_corner_reach, of the box's short side), and the reader probability that makes a corner's
# read count (InterpretConfig.sure_reader): measured in docs/TUNING.md, "interpret".


def shadow_cards(raw: np.ndarray, letterbox: Letterbox, width: int, height: int, kept: Detections,
                 min_score: float, config: DetectConfig) -> Detections:
    """Card boxes (photo pixels) NMS at ``config.nms_iou`` suppressed that a looser NMS
    (``config.suppressed_iou``) keeps, as card rows of origin ``Origin.SUPPRESSED``."""
    candidates = decode_raw(raw, min_score, config.max_candidates)
    candidates = candidates[candidates.class_id == CARD_CLASS]
    if len(candidates) == 0 or len(kept) == 0:
        return Detections.empty()
    xyxy = letterbox.to_photo(candidates.xyxy, width, height)
    loose = nms(xyxy, candidates.confidence, config.suppressed_iou)
    xyxy, score = xyxy[loose], candidates.confidence[loose]
    overlap = boxes.box_iou(xyxy, kept.xyxy).max(axis=1)
    shadow = (overlap > config.nms_iou) & (overlap < 0.999)
    n = int(shadow.sum())
    return Detections(xyxy[shadow], score[shadow], np.full(n, CARD_CLASS), origin=np.full(n, Origin.SUPPRESSED))


def _corner_gap(points: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(P, B) how far each point lies from where a corner index of each box's card would lie
    (INDEX_CENTRE_IN_BOX in from each of the box's four corners), over the box's short side."""
    x1, y1, x2, y2 = (xyxy[:, k] for k in range(4))
    w, h = x2 - x1, y2 - y1
    dx, dy = INDEX_CENTRE_IN_BOX[0] * w, INDEX_CENTRE_IN_BOX[1] * h
    spots = np.stack([np.stack([x1 + dx, y1 + dy], 1), np.stack([x2 - dx, y1 + dy], 1),
                      np.stack([x2 - dx, y2 - dy], 1), np.stack([x1 + dx, y2 - dy], 1)], 1)  # (B, 4, 2)
    gaps = np.hypot(*(points[:, None, None, :] - spots[None]).transpose(3, 0, 1, 2)).min(axis=2)
    return gaps / np.maximum(np.minimum(w, h), 1.0)[None, :]


def restore(shadows: Detections, cards: Detections, indices: Detections, config: InterpretConfig) -> Detections:
    """The shadow boxes to give back as card boxes: each sure read goes to the box (the shadow or
    its keeper, the kept box it overlaps most) where it sits as a corner index; a shadow comes back
    when both hold reads and the shadow's say another card, one no kept box holds at a corner."""
    if len(shadows) == 0 or len(cards) == 0 or len(indices) == 0:
        return Detections.empty()
    sure = indices[(indices.card_id >= 0) & (indices.reader >= config.sure_reader)]
    if len(sure) == 0:
        return Detections.empty()
    reach = config.suppressed_corner_reach
    keeper = boxes.box_iou(shadows.xyxy, cards.xyxy).argmax(axis=1)
    to_shadow = _corner_gap(sure.centers, shadows.xyxy)
    to_kept = _corner_gap(sure.centers, cards.xyxy)
    boxed = set(sure.card_id[(to_kept <= reach).any(axis=1)].tolist())  # cards that have a box already
    to_keeper = to_kept[:, keeper]
    back = np.zeros(len(shadows), bool)
    for s in range(len(shadows)):
        own = set(sure.card_id[(to_shadow[:, s] <= reach) & (to_shadow[:, s] < to_keeper[:, s])].tolist())
        kept = set(sure.card_id[(to_keeper[:, s] <= reach) & (to_keeper[:, s] <= to_shadow[:, s])].tolist())
        back[s] = bool(own and kept and own - kept - boxed)
    return shadows[back]  # card rows still of origin SUPPRESSED: where the box came from
