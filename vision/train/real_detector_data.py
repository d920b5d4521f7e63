"""Real train photos as a detector dataset: their corner labels as the ``index`` class, and a
``card`` box for every card, so that no real card teaches the detector that a card is background.

The real labels mark corners only. A card's box is derived from its corners: the union of its
two (or more) labelled corners, padded by CARD_PAD index sizes (an index sits that far inside
the card's edge). A card with one labelled corner (the rest cut by the frame or covered) takes
the smallest card box the committed detector finds around that corner; a photo where neither
works is left out of the detector set (its corners still train the classifier).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.train.real_cards import RealPhoto

CARD_PAD = 0.3  # of the index box's size, on each side of the corners' union (checked by eye)
# A detected card box is taken for a lone corner only when it is plausible for that corner: the
# card/index area ratio (two-corner cards on the train photos: union of the corners 6.6-29 x the
# index area, 5th-95th percentile) and the corner near an edge of the box.
AREA_RATIO = (6.0, 60.0)
EDGE_SHARE = 0.25
# A low bar: the renders-only detector scores real cards low. Measured on the 680 real train
# scene photos: 380 of 444 lone corners lie in a card box scored >= 0.1 (at 0.4: 134 photos lost).
PSEUDO_CARD_SCORE = 0.1


def derived_card_boxes(photo: RealPhoto) -> tuple[list[tuple], list[tuple]]:
    """(card boxes from two or more corners, lone corners) in normalised xyxy."""
    by_card: dict[str, list[tuple]] = {}
    for corner in photo.corners:
        if corner.code is not None:
            by_card.setdefault(corner.code, []).append(corner.box)
    cards, lone = [], []
    for boxes in by_card.values():
        if len(boxes) == 1:
            lone.append(boxes[0])
            continue
        b = np.array(boxes)
        pad_x = CARD_PAD * float(np.mean(b[:, 2] - b[:, 0]))
        pad_y = CARD_PAD * float(np.mean(b[:, 3] - b[:, 1]))
        cards.append((max(b[:, 0].min() - pad_x, 0.0), max(b[:, 1].min() - pad_y, 0.0),
                      min(b[:, 2].max() + pad_x, 1.0), min(b[:, 3].max() + pad_y, 1.0)))
    return cards, lone


def pseudo_card_box(corner: tuple, found_cards: np.ndarray) -> tuple | None:
    """The smallest detected card box (normalised xyxy rows) holding the corner's centre."""
    cx, cy = (corner[0] + corner[2]) / 2, (corner[1] + corner[3]) / 2
    if len(found_cards) == 0:
        return None
    inside = (found_cards[:, 0] <= cx) & (found_cards[:, 2] >= cx) & (found_cards[:, 1] <= cy) & (found_cards[:, 3] >= cy)
    if not inside.any():
        return None
    candidates = found_cards[inside]
    w, h = candidates[:, 2] - candidates[:, 0], candidates[:, 3] - candidates[:, 1]
    areas = w * h
    index_area = max((corner[2] - corner[0]) * (corner[3] - corner[1]), 1e-9)
    edge = np.minimum.reduce([cx - candidates[:, 0], candidates[:, 2] - cx, cy - candidates[:, 1], candidates[:, 3] - cy])
    plausible = ((areas / index_area >= AREA_RATIO[0]) & (areas / index_area <= AREA_RATIO[1])
                 & (edge <= EDGE_SHARE * np.minimum(w, h)))
    if not plausible.any():
        return None
    candidates, areas = candidates[plausible], areas[plausible]
    return tuple(float(v) for v in candidates[int(np.argmin(areas))])


def found_card_boxes(photo: RealPhoto, find_cards=None, frozen: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """The card boxes a detector finds on ``photo`` (normalised xyxy rows): from ``frozen`` when
    given (a photo it lacks is an error: the labels file is older than the photos), else by running
    ``find_cards`` on its pixels, else none."""
    if frozen is not None:
        if photo.name not in frozen:
            raise LabelsMissingError(f"{photo.name}: no frozen card boxes for its lone corners; rebuild the labels "
                                     "file with python -m vision.train.frozen_labels")
        return frozen[photo.name]
    if find_cards is None:
        return np.zeros((0, 4))
    pixels = cv2.imread(str(photo.image))
    h, w = pixels.shape[:2]
    return np.asarray(find_cards(pixels), np.float64).reshape(-1, 4) / [w, h, w, h]


class LabelsMissingError(ValueError):
    """A committed labels file has no entry for a photo that needs one."""


def yolo_line(cls: int, box: tuple) -> str:
    x1, y1, x2, y2 = box
    return f"{cls} {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} {y2 - y1:.6f}"


def write_real_detector_set(photos: list[RealPhoto], out: Path, find_cards=None,
                            frozen: dict[str, np.ndarray] | None = None) -> dict:
    """Symlink the photos into ``out/images`` and write ``out/labels``; ``find_cards(pixels)`` ->
    (N, 4) card boxes in pixels (a detector) labels lone corners' cards, or ``frozen``: photo name
    -> the card boxes a detector found (normalised xyxy rows), read from a committed labels file
    (``frozen_labels.read_found_cards``) so that the set never depends on the models at hand. Returns counts."""
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)  # a set written before with other photos must not linger
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    counts = {"photos": 0, "left_out": 0, "indices": 0, "cards_from_corners": 0, "cards_from_detector": 0}
    for photo in photos:
        if photo.family == "crops":  # single index crops: no scene for a detector
            continue
        if photo.label_errors:
            counts["left_out"] += 1
            continue
        if photo.card_boxes:  # whole cards labelled (rf100-poker): its derived corners are the indices
            if {code for code, _ in photo.card_boxes} - {c.code for c in photo.corners}:
                counts["left_out"] += 1  # a card with no derived corner: its index would teach background
                continue
            cards, lone = [box for _, box in photo.card_boxes], []
            counts["cards_labelled"] = counts.get("cards_labelled", 0) + len(cards)
        else:
            cards, lone = derived_card_boxes(photo)
        if lone:
            found = found_card_boxes(photo, find_cards, frozen)
            pseudo = [pseudo_card_box(corner, found) for corner in lone]
            if any(p is None for p in pseudo):
                counts["left_out"] += 1
                continue
            counts["cards_from_detector"] += len(pseudo)
            cards = cards + pseudo
        if not photo.card_boxes:
            counts["cards_from_corners"] += len(cards) - (len(lone) if lone else 0)
        lines = [yolo_line(INDEX_CLASS, c.box) for c in photo.corners if c.code is not None]
        lines += [yolo_line(CARD_CLASS, box) for box in cards]
        counts["indices"] += sum(c.code is not None for c in photo.corners)
        link = out / "images" / photo.image.name
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(photo.image.resolve(), link)
        (out / "labels" / f"{photo.image.stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        counts["photos"] += 1
    (out / "counts.json").write_text(json.dumps(counts, indent=2))
    return counts
