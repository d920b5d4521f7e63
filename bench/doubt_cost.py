"""What the doubt stages cost a photo: the shipped models against the same models with their
``doubt`` block taken out (interpret's rules flag; no second reading), on the same real photos in
one run, alternating which goes first. Prints each one's median ms per photo, the median of the
per-photo differences and the ratio (issue 50's target: within 5 ms of the rules alone; issue 54's:
at most 1.1x on show photos of 13 cards).

    python bench/doubt_cost.py [--every 2] [--rounds 2] [--models DIR]
    python bench/doubt_cost.py --shows 40   # rendered show photos of 13 cards (two hands, crib, starter)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision.pipeline import Recognizer  # noqa: E402


def without_doubt(models: Path, into: Path) -> Path:
    """``models`` seen through ``into``: the same ONNX files, models.json less its doubt block."""
    for name in os.listdir(models):
        if name.endswith(".onnx"):
            (into / name).symlink_to((models / name).resolve())
    config = json.loads((models / "models.json").read_text())
    if config.pop("doubt", None) is None:
        raise SystemExit(f"{models}/models.json has no doubt block to compare against")
    (into / "models.json").write_text(json.dumps(config))
    return into


class _Show:
    def __init__(self, seed: int, pixels, cards):
        self.name, self.pixels, self.cards = f"seed{seed}", pixels, cards


def shows(n: int, first_seed: int = 9_000_000) -> list[_Show]:
    """``n`` rendered photos of two hands, the crib and the starter (13 cards), JPEG as a phone saves them."""
    from vision.synth import render_scene

    made = []
    for seed in range(first_seed, first_seed + n):
        image, annotation = render_scene(seed, size=(1280, 960), layout="two_hands_crib_starter", table_conventions=True)
        pixels = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
        made.append(_Show(seed, pixels, [c["card"] for c in annotation["cards"]]))
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=2, help="every Nth real validation photo (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="times each photo is timed per side (default 2)")
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--shows", type=int, default=0,
                        help="instead of real photos: this many rendered show photos of 13 cards laid out as the "
                             "capture guide asks (bench seeds 9,000,000+, 1280x960)")
    args = parser.parse_args()
    if args.shows:
        photos = shows(args.shows)
        label = f"rendered show photos of {sorted({len(p.cards) for p in photos})} cards"
    else:
        from bench.real_photos import validation_scenes
        from vision.train.real_cards import RealDataError

        try:
            photos = validation_scenes()[:: args.every]
        except RealDataError as exc:
            print(f"doubt cost: no real photos here ({exc})")
            return 0
        label = "real validation photos"
    with tempfile.TemporaryDirectory() as tmp:
        doubt, rules = Recognizer(args.models), Recognizer(without_doubt(args.models, Path(tmp)))
        times = {"doubt": [], "rules": []}
        diffs = []
        for i, photo in enumerate(photos):
            pixels = photo.pixels if args.shows else cv2.imread(str(photo.image))
            order = (("doubt", doubt), ("rules", rules)) if i % 2 else (("rules", rules), ("doubt", doubt))
            took = {}
            for name, recognizer in order * args.rounds:
                t = time.perf_counter()
                recognizer.recognize(pixels, photo.name)
                took.setdefault(name, []).append((time.perf_counter() - t) * 1000)
            for name in took:
                times[name].append(min(took[name]))
            diffs.append(min(took["doubt"]) - min(took["rules"]))
    d, r = statistics.median(times["doubt"]), statistics.median(times["rules"])
    print(f"{len(photos)} {label}, best of {args.rounds} each: with the doubt model {d:.1f} ms, "
          f"rules alone {r:.1f} ms per photo (median); per-photo difference {statistics.median(diffs):+.1f} ms "
          f"(median), ratio {d / r:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
