"""Train the reader (``vision.train.reader``) on real corner crops (the real train split) and
rendered v3 crops, and export ``classifier.onnx``.

    python -m vision.train.train_reader --synth build/rt/crops80_v3_s11_500.npz --out build/rt/reader

Accuracy on the real validation split's crops is printed after each epoch for the log; it never
chooses anything (the last epoch is exported). ``--start FILE.onnx`` continues from an export;
``--scratch`` trains the same network from random weights (the comparison in MODEL.md).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.train.classifier import ClassifierRecipe, evaluate, train_classifier
from vision.train.reader import READER_SIZE, build_reader, export_reader, reader_from_onnx

REAL_PER_CORNER = 4
REAL_REPEAT = 2  # real crops appear this many times per epoch beside the rendered ones


def main(argv=None) -> None:
    from vision.train.real_cards import photos_of
    from vision.train.real_crops import real_crops

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synth", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("build/rt/reader"))
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--start", type=Path)
    parser.add_argument("--scratch", action="store_true")
    parser.add_argument("--no-real", action="store_true", help="rendered crops only (the comparison)")
    parser.add_argument("--synth-val", type=Path, help="rendered val crops (.npz) whose accuracy is logged too")
    parser.add_argument("--real-repeat", type=int, default=REAL_REPEAT, help="times the real crops appear an epoch")
    args = parser.parse_args(argv)

    t = time.time()
    train_x, train_y = real_crops(photos_of("train"), READER_SIZE, REAL_PER_CORNER, seed=1)
    val_x, val_y = real_crops(photos_of("val"), READER_SIZE, 1, seed=2)
    repeat = 0 if args.no_real else args.real_repeat
    parts_x, parts_y = [train_x] * repeat, [train_y] * repeat
    for npz in args.synth:
        data = np.load(npz)
        parts_x.append(data["crops"])
        parts_y.append(data["labels"])
    x, y = np.concatenate(parts_x), np.concatenate(parts_y)
    print(f"data: {len(train_y)} real train crops (x{repeat}), "
          f"{len(y) - repeat * len(train_y)} rendered, {len(val_y)} real val crops "
          f"({time.time() - t:.0f} s)", flush=True)
    model = reader_from_onnx(args.start) if args.start else build_reader(pretrained=not args.scratch)
    recipe = replace(ClassifierRecipe(), epochs=args.epochs, lr=args.lr, batch=args.batch, threads=args.threads,
                     weight_decay=1e-4)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "log.jsonl"

    synth_val = np.load(args.synth_val) if args.synth_val else None

    def log(line: str) -> None:
        accuracy = evaluate(model, val_x, val_y)
        rendered = evaluate(model, synth_val["crops"], synth_val["labels"]) if synth_val is not None else float("nan")
        print(f"{line} | real val {accuracy:.4f} | rendered val {rendered:.4f} | {time.time() - t:.0f} s", flush=True)
        with open(log_path, "a") as f:
            f.write(json.dumps({"line": line, "real_val": round(accuracy, 4), "rendered_val": round(rendered, 4),
                                "s": round(time.time() - t)}) + "\n")
        export_reader(model, args.out / "classifier.onnx")  # every epoch: a stopped run keeps its last

    print(f"start: real val {evaluate(model, val_x, val_y):.4f}", flush=True)
    model, _ = train_classifier(x, y, recipe, val=None, log=log, start=model)
    export_reader(model, args.out / "classifier.onnx")
    print(f"done in {time.time() - t:.0f} s -> {args.out / 'classifier.onnx'}", flush=True)


if __name__ == "__main__":
    main()
