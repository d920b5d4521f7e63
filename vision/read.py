"""Step 3, read: the classifier reads each corner index from a square crop of the photo."""

from __future__ import annotations

from typing import Callable

import numpy as np

from vision.classes import CARD_CODES
from vision.crops import crop_square, crops_to_tensor
from vision.detections import Detections

# An index read with less than ReadConfig.recheck_below probability is read again from wider crops
# (ReadConfig.margin_scales) and the probabilities averaged: detector boxes often clip the suit
# under the rank, and a wider crop brings it back (docs/TUNING.md, "read").

RunClassifier = Callable[[np.ndarray], np.ndarray]  # (M, 3, S, S) crops -> (M, 52) logits


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def index_crops(pixels_bgr: np.ndarray, indices: Detections, size: int,
                margin: float) -> np.ndarray:
    """The classifier input for every index box: Nx3xSxS float32."""
    return crops_to_tensor([crop_square(pixels_bgr, box, size, margin) for box in indices.xyxy])


def index_log_probs(run_classifier: RunClassifier, pixels_bgr: np.ndarray, indices: Detections,
                    size: int, margin: float, *,
                    scales: tuple[float, ...], recheck_below: float) -> np.ndarray:
    """(N, 52) log-probabilities of each index's card: the crop at ``margin * scales[0]``, and for
    reads below ``recheck_below`` the mean over every scale."""
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
    best = probs[rows, top2[:, 0]]  # on an index row the card's confidence is the reader's probability
    return indices.with_cards(top2[:, 0], best, top2[:, 1], probs[rows, top2[:, 1]], reader=best)


def read_indices(run_classifier: RunClassifier, pixels_bgr: np.ndarray, indices: Detections,
                 size: int, margin: float, *,
                 scales: tuple[float, ...], recheck_below: float) -> Detections:
    """The index rows with the card each one shows (best and runner-up)."""
    if len(indices) == 0:
        return indices
    return read_logits(indices, index_log_probs(run_classifier, pixels_bgr, indices, size, margin, scales=scales,
                                                recheck_below=recheck_below))
