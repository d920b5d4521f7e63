"""The Lite0 detector's command line: an initial checkpoint (``init``), or either architecture
trained time-boxed from its start on ``real_mix``'s data (``train``: the seventh session's
equal-CPU comparison with YOLO11n). The backbone itself is ``vision.train.lite0_backbone``;
its names are re-exported here because checkpoints written before the split pickle the layer as
``vision.train.lite0_detector.Lite0Backbone``.

    python -m vision.train.lite0_detector init --out build/lite0/lite0_init.pt [--yaml vision/train/yolo_lite0_b11.yaml]
    python -m vision.train.lite0_detector train --arch lite0 --hours 1.5 --work build/lite0_cmp --mix v4 --looks
"""

from __future__ import annotations

from pathlib import Path

from vision.train.lite0_backbone import (  # noqa: F401  (re-exported: old checkpoints unpickle through here)
    FIRST_STRIDE_32_BLOCK, LITE0_B11_YAML, LITE0_YAML, PADDING_SIZE, STAGE_ENDS, Lite0Backbone, backbone_of,
    build_lite0_yolo, imagenet_name, imagenet_state, imagenet_weights_file, is_lite0_yaml, keep_freed_memory,
    register, write_initial_checkpoint)

ARCHS = {"yolo11n": "yolo11n.yaml", "lite0": str(LITE0_YAML), "lite0_b11": str(LITE0_B11_YAML)}


def train_from_start(arch: str, data_yaml: Path, work: Path, hours: float | None, epochs: int = 10, threads: int = 2,
                     models: Path = Path("models")) -> Path:
    """One architecture trained from its start (YOLO11n: random weights; Lite0: ImageNet
    features, fresh neck and head) with the first-stage recipe of ``train_detector`` (warm-up,
    mosaic 0.5, AdamW 0.0025 decaying to 5 %), for ``hours`` of wall clock (the schedule re-planned
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

    parser = argparse.ArgumentParser(description="The Lite0 detector: an initial checkpoint, or a time-boxed run "
                                                 "from the start (the equal-CPU comparison with YOLO11n).")
    commands = parser.add_subparsers(dest="command", required=True)
    init = commands.add_parser("init", help="write the untrained detector's checkpoint (for run_stage / real_mix)")
    init.add_argument("--out", type=Path, default=Path("build/lite0/lite0_init.pt"))
    init.add_argument("--yaml", type=Path, default=LITE0_YAML, help="yolo_lite0.yaml (default) or yolo_lite0_b11.yaml")
    init.add_argument("--scratch", action="store_true", help="no ImageNet weights (a control)")
    train = commands.add_parser("train", help="train ARCH from its start on real_mix's data for --hours")
    train.add_argument("--arch", choices=sorted(ARCHS), required=True)
    train.add_argument("--hours", type=float, default=None, help="wall-clock box (default: --epochs)")
    train.add_argument("--epochs", type=int, default=10)
    train.add_argument("--work", type=Path, default=Path("build/lite0_cmp"))
    train.add_argument("--data", type=Path, default=None, help="a data.yaml (default: real_mix's, built in --work)")
    train.add_argument("--synth", type=int, default=1500)
    train.add_argument("--synth-val", type=int, default=60)
    train.add_argument("--mix", default="v4")
    train.add_argument("--looks", action="store_true")
    train.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command == "init":
        print(f"wrote {write_initial_checkpoint(args.out, pretrained=not args.scratch, model_yaml=args.yaml)}")
        return
    data = args.data
    if data is None:
        from vision.train.real_mix import build_data

        data = build_data(args.work / "data", args.synth, args.synth_val, mix=args.mix, looks=args.looks)
    folder = train_from_start(args.arch, data, args.work, args.hours, args.epochs, args.threads)
    print(f"done: {folder} (judge: python bench/vision.py --real --models {folder})")


if __name__ == "__main__":
    main()
