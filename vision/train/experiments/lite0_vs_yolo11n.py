"""Experiment (seventh session, not in any recipe): YOLO11n from random weights against the Lite0
detector from ImageNet features, each trained time-boxed from its start on ``real_mix``'s data at
equal CPU, then judged with ``bench/vision.py --real --models``. Lite0 won; recipe v9's first
stage is that run.

    python -m vision.train.experiments.lite0_vs_yolo11n --arch lite0_b11 --hours 1.25 --work build/lite0_cmp --mix v4 --looks
"""

from __future__ import annotations

from pathlib import Path

from vision.train.lite0_backbone import keep_freed_memory
from vision.train.lite0_detector import ARCHS


def train_from_start(arch: str, data_yaml: Path, work: Path, hours: float | None, epochs: int = 10, threads: int = 2,
                     models: Path = Path("models")) -> Path:
    """One architecture trained from its start (YOLO11n: random weights; Lite0: ImageNet
    features, fresh neck and head) with ``DetectorRecipe``'s from-start schedule (warm-up,
    mosaic, AdamW at its rate decaying linearly), for ``hours`` of wall clock (the schedule re-planned
    to end on time) or ``epochs``; no fine-tune stages. Writes ``work/ARCH/models/``: the new
    detector.onnx beside ``models``' classifier and models.json, for ``bench/vision.py --models``.
    Returns that folder."""
    import shutil

    from vision.train.detector import DetectorRecipe, export_detector, train_detector

    keep_freed_memory()
    out = Path(work) / arch
    recipe = DetectorRecipe(model_yaml=ARCHS[arch], epochs=epochs, hours=hours, threads=threads, finetune=())
    weights = train_detector(Path(data_yaml), out, recipe)
    folder = out / "models"
    folder.mkdir(parents=True, exist_ok=True)
    export_detector(weights, folder / "detector.onnx", recipe.imgsz, out)
    for name in ("classifier.onnx", "models.json"):
        shutil.copy(Path(models) / name, folder / name)
    return folder


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", choices=sorted(ARCHS), required=True)
    parser.add_argument("--hours", type=float, default=None, help="wall-clock box (default: --epochs)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--work", type=Path, default=Path("build/lite0_cmp"))
    parser.add_argument("--data", type=Path, default=None, help="a data.yaml (default: real_mix's, built in --work)")
    parser.add_argument("--synth", type=int, default=1500)
    parser.add_argument("--synth-val", type=int, default=60)
    parser.add_argument("--mix", default="v4")
    parser.add_argument("--looks", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    data = args.data
    if data is None:
        from vision.train.real_mix import build_data

        data = build_data(args.work / "data", args.synth, args.synth_val, mix=args.mix, looks=args.looks)
    folder = train_from_start(args.arch, data, args.work, args.hours, args.epochs, args.threads)
    print(f"done: {folder} (judge: python bench/vision.py --real --models {folder})")


if __name__ == "__main__":
    main()
