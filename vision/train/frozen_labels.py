"""Derived labels frozen into committed files, so that a recipe's replay never depends on what
``models/`` holds.

The real detector set (``real_detector_data``) labels the card of a lone labelled corner with the
smallest plausible card box a detector finds around it: those found boxes are written once, by a
named detector, into ``vision/train/frozen/real_train_cards_<tag>.txt`` and read back by the
replay (``real_mix.build_data(frozen_cards=...)``). rf100-poker's derived corners are frozen the
same way already (``rf100_corners.txt``).

    python -m vision.train.frozen_labels --models DIR --tag v5   # DIR: the detector that labels

File format: a comment header naming the detector, then one line per photo that has a lone
corner: ``name`` followed by the found card boxes as groups of four normalised numbers
(x1 y1 x2 y2); a photo where none was found has its name alone.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

FROZEN_DIR = Path(__file__).resolve().parent / "frozen"


def frozen_path(tag: str) -> Path:
    return FROZEN_DIR / f"real_train_cards_{tag}.txt"


class FrozenLabelsError(ValueError):
    """A frozen labels file is missing or malformed."""


def read_found_cards(path: Path) -> dict[str, np.ndarray]:
    """Photo name -> (N, 4) found card boxes, normalised xyxy."""
    path = Path(path)
    if not path.is_file():
        raise FrozenLabelsError(f"{path}: no frozen labels file here (python -m vision.train.frozen_labels writes it)")
    found: dict[str, np.ndarray] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, *numbers = line.split()
        if len(numbers) % 4:
            raise FrozenLabelsError(f"{path}:{number}: {len(numbers)} numbers after {name}, not groups of four")
        try:
            values = [float(v) for v in numbers]
        except ValueError:
            raise FrozenLabelsError(f"{path}:{number}: a box value is not a number") from None
        found[name] = np.array(values, np.float64).reshape(-1, 4)
    return found


def format_found_cards(found: dict[str, np.ndarray], header: str) -> str:
    lines = [f"# {line}" for line in header.splitlines()]
    for name in sorted(found):
        lines.append(" ".join([name] + [f"{v:.5f}" for v in np.asarray(found[name]).reshape(-1)]))
    return "\n".join(lines) + "\n"


def needs_found_cards(photo) -> bool:
    """Whether the detector set asks a detector about this photo (a usable photo of a set labelled
    by corners with a card seen by one corner only)."""
    from vision.train.real_detector_data import derived_card_boxes

    if photo.family == "crops" or photo.label_errors or photo.card_boxes:
        return False
    return bool(derived_card_boxes(photo)[1])


def freeze(photos, models: Path, out: Path, header: str, log=print) -> dict:
    """Run ``models``' detector (as ``real_mix.build_data`` does) on the photos that need it and
    write the found card boxes to ``out``; returns counts."""
    import cv2

    from vision.classes import CARD_CLASS
    from vision.detect import detect_region
    from vision.pipeline import Recognizer
    from vision.train.real_detector_data import PSEUDO_CARD_SCORE

    recognizer = Recognizer(models, zoom=False)
    t = time.time()
    found = {}
    for photo in photos:
        if not needs_found_cards(photo):
            continue
        pixels = cv2.imread(str(photo.image))
        h, w = pixels.shape[:2]
        detected = detect_region(recognizer.detector.run, recognizer.detector_size, pixels,
                                 min_card_score=PSEUDO_CARD_SCORE, config=recognizer.settings.detect)
        cards = detected.kept().of_class(CARD_CLASS).xyxy
        found[photo.name] = np.asarray(cards, np.float64).reshape(-1, 4) / [w, h, w, h]
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(format_found_cards(found, header))
    counts = {"photos": len(found), "boxes": int(sum(len(v) for v in found.values())), "s": round(time.time() - t)}
    log(f"frozen {counts} -> {out}")
    return counts


def main(argv=None) -> None:
    from vision.train.real_sets import real_photos_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="the models folder whose detector labels")
    parser.add_argument("--tag", required=True, help="names the file: frozen/real_train_cards_TAG.txt")
    parser.add_argument("--source", default="", help="where the detector came from (written in the header)")
    args = parser.parse_args(argv)
    header = (f"Card boxes found by the detector of {args.source or args.models} (score >= PSEUDO_CARD_SCORE, "
              "vision.train.frozen_labels)\naround the lone labelled corners of the real train photos; "
              "name then x1 y1 x2 y2 per box, normalised")
    freeze(real_photos_of("train"), args.models, frozen_path(args.tag), header)


if __name__ == "__main__":
    main()
