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
from vision.train.reader import (CUT_AFTER_BLOCK, READER_SIZE, build_reader, deepen_reader, export_reader,
                                 reader_from_onnx)

REAL_REPEAT = 2  # real crops appear this many times per epoch beside the rendered ones
# The reader's optimiser settings (models v4's reader): the command line's defaults, and the one-shot
# experiment's classifier. A recipe's reader stages state their epochs, rate, batch and threads.
READER_RECIPE = ClassifierRecipe(epochs=8, batch=128, lr=2e-3, weight_decay=1e-4, threads=1)


def few_of_each_set(photos: list, n: int) -> list:
    """The first ``n`` photos of each real set (by the adapters' split: rf100-poker's carry card boxes)."""
    from vision.train.rf100 import apart

    first, poker = apart(photos)
    return first[:n] + poker[:n]


def main(argv=None) -> None:
    from vision.train.real_sets import real_photos_of
    from vision.train.real_crops import reader_training_crops

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synth", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("build/rt/reader"))
    parser.add_argument("--epochs", type=int, default=READER_RECIPE.epochs)
    parser.add_argument("--lr", type=float, default=READER_RECIPE.lr)
    parser.add_argument("--batch", type=int, default=READER_RECIPE.batch)
    parser.add_argument("--threads", type=int, default=READER_RECIPE.threads)
    parser.add_argument("--start", type=Path)
    parser.add_argument("--scratch", action="store_true")
    parser.add_argument("--last-block", type=int, default=None,
                        help="Lite0's last block the reader keeps (default: the --start file's, else 10); "
                             "deeper than --start grows it: added blocks from ImageNet, a new head")
    parser.add_argument("--no-real", action="store_true", help="rendered crops only (the comparison)")
    parser.add_argument("--synth-val", type=Path, help="rendered val crops (.npz) whose accuracy is logged too")
    parser.add_argument("--real-repeat", type=int, default=REAL_REPEAT, help="times the real crops appear an epoch")
    parser.add_argument("--real-photos", type=int, default=None,
                        help="use only the first N real photos of each split side (a recipe's tiny replay)")
    parser.add_argument("--looks", type=float, default=0.0,
                        help="share of the real photos whose moved crops are cut as phones see them (blur, dim, JPEG)")
    args = parser.parse_args(argv)

    t = time.time()
    # The network first: a --last-block or --start it cannot use is said before minutes of loading crops.
    try:
        if args.start:
            model = reader_from_onnx(args.start)
            if args.last_block is not None and args.last_block != len(model.blocks) - 1:
                model = deepen_reader(model, args.last_block)
        else:
            model = build_reader(pretrained=not args.scratch,
                                 last_block=CUT_AFTER_BLOCK if args.last_block is None else args.last_block)
    except ValueError as exc:  # a --last-block the reader cannot have, a --start that is no reader
        parser.error(str(exc))
    repeat = 0 if args.no_real else args.real_repeat
    rendered = [np.load(npz) for npz in args.synth]
    rendered_x = np.concatenate([d["crops"] for d in rendered] or [np.zeros((0, READER_SIZE, READER_SIZE, 3), np.uint8)])
    rendered_y = np.concatenate([d["labels"] for d in rendered] or [np.zeros((0,), np.int64)])
    train_photos, val_photos = real_photos_of("train"), real_photos_of("val")
    if args.real_photos is not None:
        train_photos, val_photos = few_of_each_set(train_photos, args.real_photos), val_photos[:args.real_photos]
    x, y, (val_x, val_y), real_count = reader_training_crops(rendered_x, rendered_y, READER_SIZE, repeat,
                                                              train_photos, val_photos, looks_share=args.looks)
    print(f"data: {real_count} real train crops (x{repeat}), {len(rendered_y)} rendered, {len(val_y)} real val crops "
          f"({time.time() - t:.0f} s)", flush=True)
    del rendered, rendered_x, rendered_y  # x holds them now: the crops are the run's largest memory
    recipe = replace(READER_RECIPE, epochs=args.epochs, lr=args.lr, batch=args.batch, threads=args.threads)
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
