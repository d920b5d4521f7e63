"""From the detector's raw output to detections in photo pixels: threshold, letterbox undo, NMS."""

from __future__ import annotations

import numpy as np

from vision.boxes import box_iou
from vision.detections import Detections
from vision.letterbox import Letterbox

# The thresholds are the caller's, DetectConfig's: rows under its candidate_score never reach NMS
# (ultralytics' predict default); max_candidates bounds NMS time on a pathological output.


def decode_raw(raw: np.ndarray, min_score: float, max_candidates: int) -> Detections:
    """Rows of a 1x(4+C)xN ultralytics output whose best class scores ``>= min_score``,
    as xyxy boxes in detector-input pixels."""
    raw = np.asarray(raw, dtype=np.float32)
    if raw.ndim != 3 or raw.shape[0] != 1 or raw.shape[1] < 5:
        raise ValueError(f"detector output has shape {raw.shape}, expected 1x(4+classes)xN")
    rows = raw[0].T  # N x (4+C)
    scores = rows[:, 4:]
    class_id = scores.argmax(axis=1)
    confidence = scores[np.arange(len(rows)), class_id]
    keep = np.flatnonzero(confidence >= min_score)
    if len(keep) > max_candidates:
        keep = keep[np.argsort(-confidence[keep], kind="stable")[:max_candidates]]
    cx, cy, w, h = rows[keep, 0], rows[keep, 1], rows[keep, 2], rows[keep, 3]
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return Detections(xyxy, confidence[keep], class_id[keep])


def nms(xyxy: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Greedy non-maximum suppression; indices of the kept boxes, best score first."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    if len(order) == 0:
        return order
    iou = box_iou(xyxy[order], xyxy[order])
    suppressed = np.zeros(len(order), dtype=bool)
    keep = []
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= iou[i] > iou_threshold
    return order[np.asarray(keep, dtype=np.int64)]


def nms_per_class(detections: Detections, iou_threshold: float) -> Detections:
    """NMS within each class (an index inside a card box never suppresses that card)."""
    kept = []
    for class_id in np.unique(detections.class_id):
        rows = np.flatnonzero(detections.class_id == class_id)
        kept.append(rows[nms(detections.xyxy[rows], detections.confidence[rows], iou_threshold)])
    if not kept:
        return Detections.empty()
    order = np.concatenate(kept)
    return detections[order]


def postprocess(raw: np.ndarray, letterbox: Letterbox, width: int, height: int,
                min_score: float, iou_threshold: float, max_candidates: int) -> Detections:
    """Raw detector output -> NMS'd detections in photo pixels (degenerate boxes dropped)."""
    candidates = decode_raw(raw, min_score, max_candidates)
    in_photo = Detections(letterbox.to_photo(candidates.xyxy, width, height),
                          candidates.confidence, candidates.class_id)
    sizes = in_photo.sizes
    in_photo = in_photo[(sizes[:, 0] >= 1.0) & (sizes[:, 1] >= 1.0)]
    return nms_per_class(in_photo, iou_threshold)
