"""Classifier crops cut from the real photos' labelled corners, the way inference cuts them
(``crop_square``), plus boxes moved as the detector moves them and a horizontal stretch or squeeze:
the photos were stretched to 640x640 by their exporter, so an index in them is wider or narrower
than on the card; training on both keeps the reader indifferent to it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classes import CARD_INDEX
from vision.crops import CROP_MARGIN
from vision.train.crops_data import MEASURED_JITTER, jitter_box
from vision.train.real_cards import MAX_CORNER_AREA, RealPhoto

ASPECT_RANGE = (0.6, 1.5)  # horizontal scale of the photo before a crop is cut


def crop_stretched(image_bgr: np.ndarray, box, size: int, margin: float, stretch_x: float) -> np.ndarray:
    """``crop_square`` of the photo stretched ``stretch_x`` times horizontally (RGB uint8)."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2.0 * stretch_x, (y1 + y2) / 2.0
    side = max((x2 - x1) * stretch_x, y2 - y1, 2.0) * margin
    scale = size / side
    m = np.array([[scale * stretch_x, 0.0, size / 2.0 - cx * scale], [0.0, scale, size / 2.0 - cy * scale]], np.float32)
    interp = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    crop = cv2.warpAffine(image_bgr, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(crop, cv2.COLOR_BGR2RGB)


def photo_crops(photo: RealPhoto, size: int, per_corner: int, rng: np.random.Generator,
                margin: float = CROP_MARGIN) -> tuple[list[np.ndarray], list[int]]:
    """``per_corner`` crops of each trusted, named corner: the labelled box as it is first, then
    jittered boxes with random stretch."""
    image = cv2.imread(str(photo.image))
    h, w = image.shape[:2]
    crops, labels = [], []
    for corner in photo.corners:
        x1, y1, x2, y2 = corner.box
        if corner.code is None or (x2 - x1) * (y2 - y1) > MAX_CORNER_AREA and photo.family != "crops":
            continue
        box = (x1 * w, y1 * h, x2 * w, y2 * h)
        for k in range(per_corner):
            if k == 0:
                crops.append(crop_stretched(image, box, size, margin, 1.0))
            else:
                stretch = float(np.exp(rng.uniform(*np.log(ASPECT_RANGE))))
                crops.append(crop_stretched(image, jitter_box(rng, box, MEASURED_JITTER), size, margin, stretch))
            labels.append(CARD_INDEX[corner.code])
    return crops, labels


def real_crops(photos: list[RealPhoto], size: int, per_corner: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(N, size, size, 3) RGB uint8 crops and (N,) card indices from every photo."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for photo in photos:
        c, l = photo_crops(photo, size, per_corner, rng)
        crops += c
        labels += l
    if not crops:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(crops), np.array(labels, np.int64)
