"""How a corner-index crop is cut from a photo: shared by classifier training and inference,
so both see exactly the same kind of picture."""

from __future__ import annotations

import cv2
import numpy as np

# The small classifier's input side (training's non-reader crops). The shipped reader's side is
# models.json's classifier "imgsz" (80 for models v10): recognition always passes that.
CROP_SIZE = 64
CROP_MARGIN = 1.25  # square side = max(box w, box h) * CROP_MARGIN, centred on the box


def crop_square(image_bgr: np.ndarray, box_xyxy, size: int = CROP_SIZE, margin: float = CROP_MARGIN,
                stretch_x: float = 1.0) -> np.ndarray:
    """Cut a square around ``box_xyxy`` (pixels, full-resolution photo), resize to ``size``;
    ``stretch_x``: of the photo stretched that many times horizontally first (training crops).

    Returns an RGB uint8 array (size, size, 3). Parts outside the photo are edge-replicated.
    """
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    cx, cy = (x1 + x2) / 2.0 * stretch_x, (y1 + y2) / 2.0
    side = max((x2 - x1) * stretch_x, y2 - y1, 2.0) * margin
    scale = size / side
    # warpAffine has no area averaging (INTER_AREA falls back to bilinear there), so a crop shrunk
    # more than 1.5x is cut k times larger and averaged down k x k: the same crop whatever the
    # photo's pixel count, instead of one that aliases more the larger the photo.
    k = max(1, int(np.ceil(1.0 / scale - 0.5)))
    out = size * k
    m = np.array([[scale * k * stretch_x, 0.0, out / 2.0 - cx * scale * k],
                  [0.0, scale * k, out / 2.0 - cy * scale * k]], dtype=np.float32)
    crop = cv2.warpAffine(image_bgr, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if k > 1:
        crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2RGB)


def crops_to_tensor(crops: list[np.ndarray]) -> np.ndarray:
    """Stack RGB uint8 crops into the classifier's NCHW float32 input in [0, 1]."""
    if not crops:
        return np.zeros((0, 3, CROP_SIZE, CROP_SIZE), dtype=np.float32)
    batch = np.stack(crops).astype(np.float32) / 255.0
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))
