"""How a corner-index crop is cut from a photo: shared by classifier training and inference,
so both see exactly the same kind of picture."""

from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 64  # classifier input is CROP_SIZE x CROP_SIZE RGB
CROP_MARGIN = 1.25  # square side = max(box w, box h) * CROP_MARGIN, centred on the box


def crop_square(image_bgr: np.ndarray, box_xyxy, size: int = CROP_SIZE, margin: float = CROP_MARGIN) -> np.ndarray:
    """Cut a square around ``box_xyxy`` (pixels, full-resolution photo), resize to ``size``.

    Returns an RGB uint8 array (size, size, 3). Parts outside the photo are edge-replicated.
    """
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    side = max(x2 - x1, y2 - y1, 2.0) * margin
    scale = size / side
    # Affine map: crop square -> size x size, sub-pixel exact.
    m = np.array([[scale, 0.0, size / 2.0 - cx * scale], [0.0, scale, size / 2.0 - cy * scale]], dtype=np.float32)
    interp = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    crop = cv2.warpAffine(image_bgr, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2RGB)


def crops_to_tensor(crops: list[np.ndarray]) -> np.ndarray:
    """Stack RGB uint8 crops into the classifier's NCHW float32 input in [0, 1]."""
    if not crops:
        return np.zeros((0, 3, CROP_SIZE, CROP_SIZE), dtype=np.float32)
    batch = np.stack(crops).astype(np.float32) / 255.0
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))
