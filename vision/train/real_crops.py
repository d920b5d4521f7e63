"""Classifier crops cut from the real photos' labelled corners, the way inference cuts them
(``crop_square``), plus boxes moved as the detector moves them and a horizontal stretch or squeeze:
the photos were stretched to 640x640 by their exporter, so an index in them is wider or narrower
than on the card; training on both keeps the reader indifferent to it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classes import CARD_INDEX
from vision.crops import CROP_MARGIN, crop_square
from vision.train.crops_data import MEASURED_JITTER, jitter_box
from vision.train.real_cards import RealPhoto
from vision.train.real_looks import JPEG_QUALITY, jpeg_round_trip, phone_look

ASPECT_RANGE = (0.6, 1.5)  # horizontal scale of the photo before a crop is cut
REAL_PER_CORNER = 4  # training crops of each labelled corner: the labelled box, then 3 moved ones
POKER_PER_CORNER = 1  # rf100-poker's derived corners: 19,244, four a card; one crop each keeps the mix
JPEG_SHARE = 0.3  # phone-quality compression (real_looks.JPEG_QUALITY, top end excluded here) of a share of the crops


def photo_crops(photo: RealPhoto, size: int, per_corner: int, rng: np.random.Generator,
                margin: float = CROP_MARGIN, jpeg_share: float = JPEG_SHARE,
                looks_share: float = 0.0) -> tuple[list[np.ndarray], list[int]]:
    """``per_corner`` crops of each trusted, named corner: the labelled box as it is first, then
    jittered boxes with random stretch. In ``looks_share`` of the photos the jittered crops are cut
    from the photo as phones see it (``real_looks.phone_look`` without its tilt: blur, motion, dim or
    warm light, JPEG), the failures' look (issue 21 item 5)."""
    image = cv2.imread(str(photo.image))
    h, w = image.shape[:2]
    looked = image
    if looks_share and rng.random() < looks_share:
        looked, _ = phone_look(image, np.zeros((0, 5)), rng, tilt_share=0.0)
    crops, labels = [], []
    for corner in photo.readable_corners:
        x1, y1, x2, y2 = corner.box
        box = (x1 * w, y1 * h, x2 * w, y2 * h)
        for k in range(per_corner):
            if k == 0:
                crops.append(crop_square(image, box, size, margin))
            else:
                stretch = float(np.exp(rng.uniform(*np.log(ASPECT_RANGE))))
                crops.append(crop_square(looked, jitter_box(rng, box, MEASURED_JITTER), size, margin, stretch))
            labels.append(CARD_INDEX[corner.code])
            if jpeg_share and rng.random() < jpeg_share:
                crops[-1] = jpeg_round_trip(crops[-1], int(rng.integers(*JPEG_QUALITY)))
    return crops, labels


def real_crops(photos: list[RealPhoto], size: int, per_corner: int = 4, seed: int = 0,
               jpeg_share: float = JPEG_SHARE, looks_share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(N, size, size, 3) RGB uint8 crops and (N,) card indices from every photo."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for photo in photos:
        c, l = photo_crops(photo, size, per_corner, rng, jpeg_share=jpeg_share, looks_share=looks_share)
        crops += c
        labels += l
    if not crops:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def reader_training_crops(rendered_x: np.ndarray, rendered_y: np.ndarray, size: int, repeat: int,
                          train_photos: list[RealPhoto], val_photos: list[RealPhoto], looks_share: float = 0.0):
    """The reader's training set: the real train photos' crops ``repeat`` times ahead of the
    rendered crops; and the real val photos' crops (one per corner, only measured). Returns
    (crops, labels, (val crops, val labels), number of real train crops). ``looks_share``: see
    ``photo_crops`` (rf100-poker's single crop a corner is the labelled box, so it is not looked)."""
    from vision.train.rf100 import apart

    four, poker = apart(train_photos)
    real_x, real_y = real_crops(four, size, REAL_PER_CORNER, seed=1, looks_share=looks_share)
    if poker:  # rf100-poker: ~19 corners a photo (four per card), so one crop each, JPEG'd
        poker_x, poker_y = real_crops(poker, size, POKER_PER_CORNER, seed=3)
        real_x, real_y = np.concatenate([real_x, poker_x]), np.concatenate([real_y, poker_y])
    val = real_crops(val_photos, size, 1, seed=2, jpeg_share=0.0)  # measured as the photos are
    return (np.concatenate([real_x] * repeat + [rendered_x]), np.concatenate([real_y] * repeat + [rendered_y]),
            val, len(real_y))
