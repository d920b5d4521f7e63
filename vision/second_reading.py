"""A second reading of each named card's best index, as evidence for ``vision.doubt``: the reader
again on the index turned half round and cut wider (``again``; the other cards those two reads
share their probability with, the card's ``alternatives`` until ``vision.doubt`` weighs them), the
colour of its ink (``ink_red``: a red suit prints red, a black one black; not measured on a
black-and-white photo), how sharp the index is, and what the photo says about itself: how bright
and tinted the paper of each index is, how grainy, how much ink stands out, and the photo's own
medians of these and of the other cards' reads (a read in a dark or tinted photo is less sure than
the reader says)."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import cv2
import numpy as np

from vision.classes import CARD_CODES, CARD_INDEX
from vision.crops import crop_square, crops_to_tensor
from vision.decode import Photo
from vision.evidence import Evidence
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


def paper_and_ink(crop_rgb: np.ndarray, colour: bool) -> tuple[float, float, float, float]:
    """An index crop's paper brightness (grey's 90th percentile), its ink's contrast (95th - 5th),
    the paper's colour cast ((max - min) / mean of its R, G, B; -1 on a photo with no colour) and
    its grain (the deviation of grey from its 3x3 median on the paper, over the contrast)."""
    gray = cv2.cvtColor(crop_rgb, cv2.COLOR_RGB2GRAY)
    low, high, ground = np.percentile(gray, (5, 95, 90))
    contrast = float(high - low)
    paper = gray >= min(ground, high) - 0.15 * max(contrast, 1.0)
    cast = -1.0
    if colour and paper.any():
        rgb = crop_rgb[paper].astype(np.float32).mean(axis=0)
        cast = float((rgb.max() - rgb.min()) / max(float(rgb.mean()), 1.0))
    grain = np.abs(gray.astype(np.float32) - cv2.medianBlur(gray, 3).astype(np.float32))
    noise = float(grain[paper].mean() / max(contrast, 8.0)) if paper.any() else 0.0
    return float(ground), contrast, cast, noise


def read_again(run_classifier: RunClassifier, photo: Photo, recognition: Recognition, size: int,
               margin: float, needs_reading: Callable[[Evidence], bool] | None = None) -> Recognition:
    """``recognition`` (boxes in photo pixels) with each card's evidence given what its index and
    the photo say (``photo``'s decoded pixels) and its second reading. ``needs_reading``: whether
    a card, its second reading assumed to agree with the first, needs reading again (the doubt
    model's question; None: every card is read again); a card that does not keeps ``again`` equal
    to its first reading."""
    rows = [i for i, c in enumerate(recognition.cards) if c.evidence is not None and c.evidence.index_box is not None]
    if not rows:
        return recognition
    pixels_bgr = photo.pixels
    boxes, crops, reds, sharp, papers = [], [], [], [], []
    colour = has_colour(pixels_bgr)
    for i in rows:
        box = photo.decoded_xyxy(np.asarray(recognition.cards[i].evidence.index_box, np.float64))
        crop = crop_square(pixels_bgr, box, size, margin)
        boxes.append(box)
        crops.append(crop)
        reds.append(ink_red_share(pixels_bgr, box) if colour else -1.0)
        sharp.append(sharpness(crop))
        papers.append(paper_and_ink(crop, colour))
    cards = list(recognition.cards)
    photo_ground = float(np.median([p[0] for p in papers]))
    photo_sharpness = float(np.median(sharp))
    readers = [cards[i].evidence.reader for i in rows]
    for k, i in enumerate(rows):
        card = cards[i]
        others = (sum(readers) - readers[k]) / (len(rows) - 1) if len(rows) > 1 else -1.0
        ground, contrast, cast, noise = papers[k]
        cards[i] = replace(card, evidence=replace(card.evidence, again=card.evidence.reader, ink_red=reds[k],
                                                  red_suit=card.card[-1] in "HD", sharpness=sharp[k],
                                                  ground=ground, contrast=contrast, cast=cast, noise=noise,
                                                  photo_ground=photo_ground, photo_sharpness=photo_sharpness,
                                                  others=others))
    again = [k for k, i in enumerate(rows) if needs_reading is None or needs_reading(cards[i].evidence)]
    if not again:
        return replace(recognition, cards=tuple(cards))
    twice = []
    for k in again:
        twice.append(np.ascontiguousarray(crops[k][::-1, ::-1]))  # half round
        twice.append(crop_square(pixels_bgr, boxes[k], size, margin * AGAIN_MARGIN))
    probs = softmax(np.asarray(run_classifier(crops_to_tensor(twice)), np.float32)).reshape(len(again), 2, -1)
    for n, k in enumerate(again):
        card = cards[rows[k]]
        mean = probs[n].mean(axis=0)
        cards[rows[k]] = replace(card, evidence=replace(card.evidence, again=float(mean[CARD_INDEX[card.card]])),
                                 alternatives=other_readings(mean, card.card))
    return replace(recognition, cards=tuple(cards))


def other_readings(mean: np.ndarray, code: str, keep: int = KEEP_ALTERNATIVES) -> tuple[tuple[str, float], ...]:
    """The reader's best other readings than ``code`` in one probability row, best first."""
    order = np.argsort(-mean, kind="stable")
    return tuple((CARD_CODES[j], round(float(mean[j]), 6)) for j in order[:keep + 1] if CARD_CODES[j] != code)[:keep]
