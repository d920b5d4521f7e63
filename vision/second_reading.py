"""A second reading of each named card's best index, as evidence for ``vision.doubt``: the reader
again on the index turned half round and cut wider (``again``; the other cards those two reads
share their probability with, the card's ``alternatives`` until ``vision.doubt`` weighs them), and
the colour of its ink (``ink_red``: a red suit prints red, a black one black; not measured on a
black-and-white photo), and how sharp the index is."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import cv2
import numpy as np

from vision.classes import CARD_CODES, CARD_INDEX
from vision.crops import crop_square, crops_to_tensor
from vision.decode import Photo
from vision.read import softmax
from vision.results import Recognition

RunClassifier = Callable[[np.ndarray], np.ndarray]

AGAIN_MARGIN = 1.3  # the wider crop, times the reader's own margin
RED_HUE = (10, 160)  # OpenCV hues (0-180) at or under the first, or at or over the second, are red
INK_SATURATION = 90  # a red ink pixel is at least this saturated (0-255)
INK_DARKER = 0.7  # a pixel darker than this share of the index's bright ground is ink


KEEP_ALTERNATIVES = 6  # the reader's best other readings kept as evidence (``vision.one_deck`` chooses among them)
COLOUR_SATURATION = 40  # a photo whose most saturated pixels (99th percentile) are under this has no colour


def has_colour(pixels_bgr: np.ndarray) -> bool:
    """Whether the photo holds colour at all (a black-and-white photo's red suits print grey)."""
    small = pixels_bgr[::max(1, pixels_bgr.shape[0] // 96), ::max(1, pixels_bgr.shape[1] // 96)]
    saturation = cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_BGR2HSV)[..., 1]
    return float(np.percentile(saturation, 99)) >= COLOUR_SATURATION


def ink_red_share(pixels_bgr: np.ndarray, box) -> float:
    """The share of the ink inside ``box`` (pixels of ``pixels_bgr``) that is red."""
    h, w = pixels_bgr.shape[:2]
    x1, y1 = max(int(box[0]), 0), max(int(box[1]), 0)
    x2, y2 = min(int(np.ceil(box[2])), w), min(int(np.ceil(box[3])), h)
    if x2 - x1 < 2 or y2 - y1 < 2:
        return 0.0
    hsv = cv2.cvtColor(pixels_bgr[y1:y2, x1:x2], cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    hue, saturation, value = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    ground = float(np.percentile(value, 90))
    red = ((hue <= RED_HUE[0]) | (hue >= RED_HUE[1])) & (saturation >= INK_SATURATION) & (value >= 40)
    ink = red | (value < INK_DARKER * ground)
    return float(red.sum() / ink.sum()) if ink.any() else 0.0


def sharpness(crop_rgb: np.ndarray) -> float:
    """How sharp an index crop is: the deviation of its Laplacian over its contrast (a blurred
    photo's edges are soft whatever its light)."""
    gray = cv2.cvtColor(crop_rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    contrast = float(np.percentile(gray, 95) - np.percentile(gray, 5))
    return float(cv2.Laplacian(gray, cv2.CV_32F).std() / max(contrast, 8.0))


def read_again(run_classifier: RunClassifier, photo: Photo, recognition: Recognition, size: int,
               margin: float) -> Recognition:
    """``recognition`` (boxes in photo pixels) with each card's evidence given its second reading
    from ``photo``'s decoded pixels."""
    rows = [i for i, c in enumerate(recognition.cards) if c.evidence is not None and c.evidence.index_box is not None]
    if not rows:
        return recognition
    pixels_bgr = photo.pixels
    crops, reds, sharp = [], [], []
    colour = has_colour(pixels_bgr)
    for i in rows:
        box = photo.decoded_xyxy(np.asarray(recognition.cards[i].evidence.index_box, np.float64))
        crop = crop_square(pixels_bgr, box, size, margin)
        crops.append(np.ascontiguousarray(crop[::-1, ::-1]))  # half round
        crops.append(crop_square(pixels_bgr, box, size, margin * AGAIN_MARGIN))
        reds.append(ink_red_share(pixels_bgr, box) if colour else -1.0)
        sharp.append(sharpness(crop))
    probs = softmax(np.asarray(run_classifier(crops_to_tensor(crops)), np.float32)).reshape(len(rows), 2, -1)
    cards = list(recognition.cards)
    for k, i in enumerate(rows):
        card = cards[i]
        mean = probs[k].mean(axis=0)
        again = float(mean[CARD_INDEX[card.card]])
        cards[i] = replace(card, evidence=replace(card.evidence, again=again, ink_red=reds[k],
                                                           red_suit=card.card[-1] in "HD", sharpness=sharp[k]),
                           alternatives=others(mean, card.card))
    return replace(recognition, cards=tuple(cards))


def others(mean: np.ndarray, code: str, keep: int = KEEP_ALTERNATIVES) -> tuple[tuple[str, float], ...]:
    """The reader's best other readings than ``code`` in one probability row, best first."""
    order = np.argsort(-mean, kind="stable")
    return tuple((CARD_CODES[j], round(float(mean[j]), 6)) for j in order[:keep + 1] if CARD_CODES[j] != code)[:keep]
