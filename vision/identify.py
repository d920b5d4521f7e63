"""Reading corner indices (classifier on square crops) and merging the indices of one card."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classes import CARD_CODES, INDEX_CLASS
from vision.crops import CROP_MARGIN, CROP_SIZE, crop_square, crops_to_tensor
from vision.detections import Detections

# Same-code indices farther apart than this many typical card diagonals are two different cards.
SAME_CARD_DIAGONALS = 1.1
# Without any card box, a card's diagonal is estimated from its index (the index is ~1/5 as tall).
INDEX_TO_CARD_DIAGONAL = 6.0
# An index read with less than RECHECK_BELOW probability is read again from wider crops and
# the probabilities averaged: detector boxes often clip the suit under the rank, and a wider crop
# brings it back. Measured on 1,429 detected indices of 100 fresh scenes (models v1), reading
# every index at all three margins: 90.3 % -> 95.2 % right, wrong reads at p >= 0.5: 30 -> 7.
READ_MARGIN_SCALES = (1.0, 1.2, 1.4)
RECHECK_BELOW = 0.95


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def index_crops(pixels_bgr: np.ndarray, indices: Detections, size: int = CROP_SIZE,
                margin: float = CROP_MARGIN) -> np.ndarray:
    """The classifier input for every index box: Nx3xSxS float32."""
    return crops_to_tensor([crop_square(pixels_bgr, box, size, margin) for box in indices.xyxy])


def index_log_probs(run_classifier, pixels_bgr: np.ndarray, indices: Detections, size: int = CROP_SIZE,
                    margin: float = CROP_MARGIN, scales: tuple[float, ...] = READ_MARGIN_SCALES,
                    recheck_below: float = RECHECK_BELOW) -> np.ndarray:
    """(N, 52) log-probabilities of each index's card: the crop at ``margin * scales[0]``, and for
    reads below ``recheck_below`` the mean over every scale. ``run_classifier`` maps an
    (M, 3, S, S) batch to (M, 52) logits."""
    if len(indices) == 0:
        return np.zeros((0, len(CARD_CODES)), np.float32)
    probs = softmax(np.asarray(run_classifier(index_crops(pixels_bgr, indices, size, margin * scales[0])), np.float32))
    unsure = np.flatnonzero(probs.max(axis=1) < recheck_below)
    if len(unsure) and len(scales) > 1:
        again = indices[unsure]
        batch = np.concatenate([index_crops(pixels_bgr, again, size, margin * scale) for scale in scales[1:]])
        wider = softmax(np.asarray(run_classifier(batch), np.float32)).reshape(len(scales) - 1, len(unsure), -1)
        probs[unsure] = (probs[unsure] + wider.sum(axis=0)) / len(scales)
    return np.log(np.maximum(probs, 1e-12)).astype(np.float32)


def read_logits(indices: Detections, logits: np.ndarray) -> Detections:
    """Attach the classifier's best and runner-up card (probabilities) to each index row."""
    logits = np.asarray(logits, dtype=np.float32).reshape(len(indices), -1)
    if logits.shape[1] != len(CARD_CODES):
        raise ValueError(f"classifier gave {logits.shape[1]} classes, expected {len(CARD_CODES)}")
    if len(indices) == 0:
        return indices
    probs = softmax(logits)
    top2 = np.argsort(-probs, axis=1, kind="stable")[:, :2]
    rows = np.arange(len(indices))
    return indices.with_cards(top2[:, 0], probs[rows, top2[:, 0]], top2[:, 1], probs[rows, top2[:, 1]])


@dataclass(frozen=True, eq=False)
class Identities:
    """One row per card read from its indices: ``cards`` (xyxy = union of its index boxes,
    ``card_confidence`` = detector score x classifier probability of its best index) and
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


def points_in_boxes(points: np.ndarray, boxes: np.ndarray, tolerance: float = 0.05) -> np.ndarray:
    """(P, B) whether each point lies in each box grown by ``tolerance`` of its size."""
    size = boxes[:, 2:] - boxes[:, :2]
    low = boxes[:, :2] - size * tolerance
    high = boxes[:, 2:] + size * tolerance
    p = points[:, None, :]
    return np.all((p >= low[None]) & (p <= high[None]), axis=2)


def merge_indices(indices: Detections, card_boxes: Detections) -> Identities:
    """Group classified indices into cards: indices reading the same code belong to one card when
    one card box holds them both, or (no such box) when they are within a card's diagonal."""
    n = len(indices)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    centers = indices.centers
    inside = points_in_boxes(centers, card_boxes.xyxy) if len(card_boxes) else np.zeros((n, 0), bool)
    reach = SAME_CARD_DIAGONALS * typical_card_diagonal(card_boxes, indices)
    for a in range(n):
        for b in range(a + 1, n):
            if indices.card_id[a] != indices.card_id[b]:
                continue
            shared_box = bool(np.any(inside[a] & inside[b]))
            near = float(np.hypot(*(centers[a] - centers[b]))) <= reach
            if shared_box or near:
                parent[root(a)] = root(b)

    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    members = tuple(np.asarray(rows, dtype=np.int64) for rows in groups.values())

    boxes, det_conf, card_id, card_conf, runner_id, runner_conf = [], [], [], [], [], []
    for rows in members:
        combined = indices.confidence[rows] * indices.card_confidence[rows]
        best = rows[int(np.argmax(combined))]
        xyxy = indices.xyxy[rows]
        boxes.append([xyxy[:, 0].min(), xyxy[:, 1].min(), xyxy[:, 2].max(), xyxy[:, 3].max()])
        det_conf.append(indices.confidence[best])
        card_id.append(indices.card_id[best])
        card_conf.append(indices.confidence[best] * indices.card_confidence[best])
        runner_id.append(indices.runner_up_id[best])
        runner_conf.append(indices.confidence[best] * indices.runner_up_confidence[best])
    cards = Detections(np.asarray(boxes, np.float32).reshape(-1, 4), det_conf, np.full(len(members), INDEX_CLASS),
                       card_id, card_conf, runner_id, runner_conf)
    return Identities(cards, members, indices)
