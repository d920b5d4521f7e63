"""Detector training throughput on this machine: torch threads x dataloader workers.

Trains one epoch of the detector recipe (no validation) on the first N images of a rendered
dataset for each configuration, from the same weights, and prints images per second of the
epoch itself (set-up excluded). Configurations run interleaved and the first one again at the
end, so drift from other load on the shared machine shows.

    python bench/train_speed.py --data build/train/det_train_s5/data.yaml --weights models/train/detector_last.pt
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

# The repository's packages, not this folder's vision.py.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

CONFIGS = ((1, 0), (2, 0), (2, 1), (2, 2), (1, 0))  # (torch threads, dataloader workers)


def subset(data_yaml: Path, n: int, folder: Path) -> Path:
    """A data.yaml over the first ``n`` images of ``data_yaml``'s training folder."""
    source = Path(data_yaml).resolve().parent
    for kind in ("images", "labels"):
        (folder / kind).mkdir(parents=True)
    for image in sorted((source / "images").glob("*.jpg"))[:n]:
        shutil.copy(image, folder / "images" / image.name)
        shutil.copy(source / "labels" / f"{image.stem}.txt", folder / "labels" / f"{image.stem}.txt")
    yaml = folder / "data.yaml"
    yaml.write_text(f"path: {folder}\ntrain: images\nval: images\nnames:\n  0: index\n  1: card\n")
    return yaml


def epoch_rate(weights: Path, data: Path, work: Path, threads: int, workers: int, n: int) -> float:
    from vision.train.detector import DetectorRecipe, _common_train_args, _use_threads
    from vision.train.ultralytics_env import offline_ultralytics

    offline_ultralytics(work / "ultralytics")
    from ultralytics import YOLO

    recipe = replace(DetectorRecipe(), threads=threads, cache=False)
    _use_threads(threads)
    model = YOLO(str(weights))
    times = {}
    model.add_callback("on_train_epoch_start", lambda t: times.setdefault("start", time.perf_counter()))
    model.add_callback("on_train_epoch_end", lambda t: times.setdefault("end", time.perf_counter()))
    args = _common_train_args(data, work, recipe, "cpu") | {"workers": workers}
    model.train(**args, name=f"speed_t{threads}_w{workers}", epochs=1, val=False, mosaic=0.0, close_mosaic=0,
                lr0=0.0001, warmup_epochs=0.0)
    return n / (times["end"] - times["start"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--weights", type=Path, required=True)
    parser.add_argument("--n", type=int, default=96)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = subset(args.data, args.n, Path(tmp) / "data")
        rows = [(t, w, epoch_rate(args.weights, data, Path(tmp), t, w, args.n)) for t, w in CONFIGS]
    base = rows[0][2]
    print(f"\n{'threads':>7} {'workers':>7} {'img/s':>6} {'vs 1 thread':>11}")
    for threads, workers, rate in rows:
        print(f"{threads:>7} {workers:>7} {rate:6.2f} {rate / base:10.2f}x")


if __name__ == "__main__":
    main()
