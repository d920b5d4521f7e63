"""The second real set, rf100-poker ("poker-cards dataset (Roboflow 100, poker-cards-cxcvz) by Team
Roboflow and Augmented Startups, CC BY 4.0"): 1,285 phone photos (960x720) of one standard deck,
4-5 cards a photo, labelled with whole-card boxes only.

- Its validation split goes by time within each hand: the set shows only 12 hands (a run of one
  suit each), each photographed ~100 times in new arrangements, and the file names are capture
  times; the last ``VALIDATION_SHARE`` of each hand's photos by time are validation, so no
  arrangement lies on both sides (``poker_split``).
- Its corner labels are derived (``derive_corners``) and committed in ``rf100_corners.txt``: an
  index box the committed detector finds, read by the committed reader as a card whose labelled
  box holds the index's centre, is a corner of that card (the card's code comes from the label).

    python -m vision.train.rf100 --derive        # rf100_corners.txt from the committed models
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

from vision.classes import CARD_CODES
from vision.train.real_cards import Corner, RealDataError, RealPhoto, dataset_dir, yolo_boxes

POKER = "rf100-poker"
FAMILY = "poker"
VALIDATION_SHARE = 0.2
CORNERS_FILE = Path(__file__).resolve().parent / "rf100_corners.txt"
# data.yaml's names (10C ... QS, as cardcounterml's first 52) as the product's codes.
NAMES = tuple(name.replace("10", "T") for name in (
    "10C 10D 10H 10S 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S "
    "8C 8D 8H 8S 9C 9D 9H 9S AC AD AH AS JC JD JH JS KC KD KH KS QC QD QH QS").split())
# A detected index counts as a corner of a labelled card only when it sits near an edge of the
# card's box (an ace's large pip read as the ace sits at its centre) and is small beside the box
# and beside the photo's other corners (contact sheets, by eye: pips ~0.1 of the box, corners
# 0.02-0.05; perspective makes one photo's corners differ up to ~2.5x).
MAX_CORNER_SHARE = 0.08
MAX_CORNER_VS_MEDIAN = 3.0
# The detector's index threshold while deriving: the reader's agreement with the label guards the
# low-scored boxes, and every visible index left unlabelled would teach the detector background.
DERIVE_INDEX_SCORE = 0.1
DUPLICATE_IOU = 0.3  # a low threshold finds a corner twice (closer pass, clipped boxes)
EDGE_SHARE = 0.35  # the index centre's distance to the box's nearest edge, of the box's short side


def parse_card_label(text: str, name: str = "label") -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    """YOLO txt of whole cards -> (code, normalised xyxy) pairs."""
    return tuple((NAMES[cls], box) for cls, box in yolo_boxes(text, name, len(NAMES)))


def read_corners(path: Path = CORNERS_FILE) -> dict[str, tuple[Corner, ...]]:
    """Photo name -> derived corners (``name code x1 y1 x2 y2`` lines, normalised)."""
    corners: dict[str, list[Corner]] = {}
    if not path.is_file():
        return {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, code, *box = line.split()
        if code not in CARD_CODES or len(box) != 4:
            raise RealDataError(f"{path.name}: not 'name code x1 y1 x2 y2': {line!r}")
        corners.setdefault(name, []).append(Corner(code, tuple(float(v) for v in box)))
    return {name: tuple(c) for name, c in corners.items()}


def load_poker_photos(folder: str | os.PathLike | None = None, corners_file: Path = CORNERS_FILE) -> list[RealPhoto]:
    """Every labelled photo, sorted by name (= capture time), with its derived corners."""
    folder = dataset_dir(POKER, folder)
    corners = read_corners(corners_file)
    photos = []
    for image in sorted((folder / "images").iterdir()):
        label = folder / "labels" / f"{image.stem}.txt"
        if not label.is_file():
            continue
        cards = parse_card_label(label.read_text(), label.name)
        photos.append(RealPhoto(image.stem, FAMILY, image, corners.get(image.stem, ()), cards))
    if not photos:
        raise RealDataError(f"{folder}: no labelled photos")
    return photos


def apart(photos: list[RealPhoto]) -> tuple[list[RealPhoto], list[RealPhoto]]:
    """(cardcounterml's photos, rf100-poker's): the training mixes weigh the two sets apart."""
    return [p for p in photos if p.family != FAMILY], [p for p in photos if p.family == FAMILY]


def hand_of(photo: RealPhoto) -> frozenset[str]:
    return frozenset(code for code, _ in photo.card_boxes)


def hands(photos: list[RealPhoto]) -> dict[str, list[RealPhoto]]:
    """The set's hands (12: a run of one suit each) -> their photos in time order. A photo showing
    part of a hand belongs to the hand holding its cards (the hand of most photos among those)."""
    by_cards: dict[frozenset, list[RealPhoto]] = {}
    for photo in photos:
        by_cards.setdefault(hand_of(photo), []).append(photo)
    whole = sorted(by_cards, key=lambda cards: -len(by_cards[cards]))
    result: dict[str, list[RealPhoto]] = {}
    for cards in by_cards:
        home = next((h for h in whole if cards <= h and len(by_cards[h]) >= 10), cards)
        result.setdefault(" ".join(sorted(home)), []).extend(by_cards[cards])
    return {hand: sorted(members, key=lambda p: p.name) for hand, members in sorted(result.items())}


def poker_split(photos: list[RealPhoto], share: float = VALIDATION_SHARE) -> dict[str, str]:
    """Photo name -> "train" | "val": the last ``share`` of each hand's photos by time are val."""
    split = {}
    for members in hands(photos).values():
        first_val = len(members) - math.ceil(share * len(members))
        for k, photo in enumerate(members):
            split[photo.name] = "val" if k >= first_val else "train"
    return split


def poker_photos_of(side: str, folder: str | os.PathLike | None = None) -> list[RealPhoto]:
    if side not in ("train", "val"):
        raise RealDataError(f"unknown split side {side!r}; choose train or val")
    photos = load_poker_photos(folder)
    split = poker_split(photos)
    return [p for p in photos if split[p.name] == side]


def derive_corners(photo: RealPhoto, recognizer) -> list[Corner]:
    """The photo's corners: index boxes the recogniser's detector finds (with its closer pass),
    read by its reader as the code of a labelled card box holding the index's centre, small beside
    that box. Boxes normalised."""
    import cv2
    import numpy as np

    from vision import boxes
    from vision.classes import INDEX_CLASS

    from vision.detect import detect

    pixels = cv2.imread(str(photo.image))
    h, w = pixels.shape[:2]
    detections, _, _ = detect(recognizer.detector.run, recognizer.detector_size, pixels, recognizer.zoom,
                              min_index_score=DERIVE_INDEX_SCORE, config=recognizer.settings.detect)
    indices = recognizer.classify(pixels, detections.of_class(INDEX_CLASS))
    corners, kept_boxes = [], []
    for row in np.argsort(-indices.confidence, kind="stable"):
        box, code = indices.xyxy[row], indices.codes[row]
        if kept_boxes and boxes.box_iou(box[None], np.array(kept_boxes)).max() > DUPLICATE_IOU:
            continue  # a weaker second box of a corner already taken
        cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
        area = (box[2] - box[0]) * (box[3] - box[1]) / (w * h)
        for card, (x1, y1, x2, y2) in photo.card_boxes:
            edge = min(cx - x1, x2 - cx, cy - y1, y2 - cy)
            if (card == code and edge >= 0 and edge <= EDGE_SHARE * min(x2 - x1, y2 - y1)
                    and area <= MAX_CORNER_SHARE * (x2 - x1) * (y2 - y1)):
                corners.append(Corner(card, tuple(float(v) for v in np.asarray(box) / [w, h, w, h])))
                kept_boxes.append(box)
                break
    if not corners:
        return corners
    areas = np.array([(c.box[2] - c.box[0]) * (c.box[3] - c.box[1]) for c in corners])
    return [c for c, a in zip(corners, areas) if a <= MAX_CORNER_VS_MEDIAN * float(np.median(areas))]


def write_corners(photos: list[RealPhoto], recognizer, path: Path = CORNERS_FILE, log=print) -> dict:
    t = time.time()
    lines = ["# rf100-poker corner labels derived by vision/train/rf100.py (derive_corners) from the committed "
             "models; name code x1 y1 x2 y2 (normalised)"]
    counts = {"photos": 0, "cards": 0, "corners": 0, "cards_without_corner": 0}
    for number, photo in enumerate(photos, 1):
        corners = derive_corners(photo, recognizer)
        counts["photos"] += 1
        counts["cards"] += len(photo.card_boxes)
        counts["corners"] += len(corners)
        counts["cards_without_corner"] += len(hand_of(photo) - {c.code for c in corners})
        lines += [f"{photo.name} {c.code} " + " ".join(f"{v:.5f}" for v in c.box) for c in corners]
        if number % 200 == 0:
            log(f"{number}/{len(photos)} photos ({time.time() - t:.0f} s): {counts}")
    path.write_text("\n".join(lines) + "\n")
    return counts


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--derive", action="store_true", help="write rf100_corners.txt from the committed models")
    parser.add_argument("--models", type=Path)
    args = parser.parse_args(argv)
    photos = load_poker_photos()
    split = poker_split(photos)
    for hand, members in hands(photos).items():
        print(f"{hand}: {len(members)} photos, {sum(split[p.name] == 'val' for p in members)} val")
    if args.derive:
        from vision.pipeline import Recognizer

        print(write_corners(photos, Recognizer(args.models)))


if __name__ == "__main__":
    main()
