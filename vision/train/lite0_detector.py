"""The Lite0 detector's command line: an initial checkpoint (``init``) that ``run_stage`` /
``real_mix --weights`` accept. The seventh session's equal-CPU comparison with YOLO11n is
experiment-only: ``vision.train.experiments.lite0_vs_yolo11n``. The backbone itself is
``vision.train.lite0_backbone``; its names are re-exported here because checkpoints written
before the split (models/train/detector_last.pt among them) pickle the layer as
``vision.train.lite0_detector.Lite0Backbone``.

    python -m vision.train.lite0_detector init --out build/lite0/lite0_init.pt [--yaml vision/train/yolo_lite0_b11.yaml]
"""

from __future__ import annotations

from pathlib import Path

from vision.train.lite0_backbone import (  # noqa: F401  (re-exported: old checkpoints unpickle through here)
    FIRST_STRIDE_32_BLOCK, LITE0_B11_YAML, LITE0_YAML, PADDING_SIZE, STAGE_ENDS, Lite0Backbone, backbone_of,
    build_lite0_yolo, imagenet_name, imagenet_state, imagenet_weights_file, is_lite0_yaml, keep_freed_memory,
    register, write_initial_checkpoint)

# Detector architectures by name -> the model yaml ultralytics builds.
ARCHS = {"yolo11n": "yolo11n.yaml", "lite0": str(LITE0_YAML), "lite0_b11": str(LITE0_B11_YAML)}


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="The Lite0 detector: an initial checkpoint.")
    commands = parser.add_subparsers(dest="command", required=True)
    init = commands.add_parser("init", help="write the untrained detector's checkpoint (for run_stage / real_mix)")
    init.add_argument("--out", type=Path, default=Path("build/lite0/lite0_init.pt"))
    init.add_argument("--yaml", type=Path, default=LITE0_YAML, help="yolo_lite0.yaml (default) or yolo_lite0_b11.yaml")
    init.add_argument("--scratch", action="store_true", help="no ImageNet weights (a control)")
    args = parser.parse_args(argv)
    print(f"wrote {write_initial_checkpoint(args.out, pretrained=not args.scratch, model_yaml=args.yaml)}")


if __name__ == "__main__":
    main()
