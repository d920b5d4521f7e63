"""Classifier training data: index crops cut from rendered scenes the way inference cuts them.

Each visible index gives several crops whose boxes are jittered like a detector's boxes would be
(scale, shift and aspect noise), cut by ``vision.crops.crop_square`` from the full-size photo.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Callable

import numpy as np

from vision.classes import CARD_INDEX
from vision.crops import CROP_MARGIN, CROP_SIZE, crop_square
from vision.synth.scene import VISIBLE_FRACTION, render_scene, scene_seed
from vision.train.box_error import BoxError

# The jitter models v1/v2's classifier was trained with (a guess at a detector's error).
V2_JITTER = BoxError(shift_x=0.07, shift_y=0.06, log_w=0.1, log_h=0.08)
# Measured (vision/train/box_error.py) with models v2's detector on 40 v3-mix tuning scenes
# (seeds 8,600,000+; 378 matched indices): boxes err more in size than V2_JITTER assumed and
# come out narrower than the truth (they clip the suit).
MEASURED_JITTER = BoxError(shift_x=0.072, shift_y=0.079, log_w=0.152, log_h=0.146, bias_log_w=-0.083,
                           bias_log_h=-0.011, matched=378, missed=39)


def jitter_box(rng: np.random.Generator, box, error: BoxError = V2_JITTER):
    """A box as an imperfect detector might report it around the true ``box``."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.normal(error.bias_x, error.shift_x) * w
    cy = (y1 + y2) / 2 + rng.normal(error.bias_y, error.shift_y) * h
    w *= float(np.exp(rng.normal(error.bias_log_w, error.log_w)))
    h *= float(np.exp(rng.normal(error.bias_log_h, error.log_h)))
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def scene_crops(seed: int, per_index: int = 3, size=(1280, 960), mix: str = "v2",
                jitter: BoxError = V2_JITTER, crop_size: int = CROP_SIZE, layout: str | None = None,
                table_conventions: bool = False, decks: tuple[str, ...] | None = None,
                slivers: float | None = None, visible: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, crop_size, crop_size, 3 RGB uint8) and labels (N,) from one rendered scene
    (``layout`` None: the mix's choice of layout; ``decks`` None: the mix's decks). ``slivers``:
    also crop the indices partly covered by the card above (at least this share shows, under
    ``VISIBLE_FRACTION``), as fans and rows show them (issue 39, item 3); the visible indices'
    crops stay the same. ``visible=False``: the slivers' crops alone (a set of them to weigh apart)."""
    image, annotation = render_scene(seed, size=size, mix=mix, layout=layout, table_conventions=table_conventions,
                                     decks=decks, index_shares=slivers is not None)
    rng = np.random.default_rng([seed, 11])
    sliver_rng = np.random.default_rng([seed, 12])  # its own: the visible crops do not move
    crops, labels = [], []
    for card in annotation["cards"]:
        for index in card["indices"]:
            if index["visible"]:
                if not visible:
                    continue
                chance = rng
            elif slivers is not None and index["shown"] >= slivers:
                chance = sliver_rng
            else:
                continue
            for k in range(per_index):
                box = index["box"] if k == 0 else jitter_box(chance, index["box"], jitter)
                crops.append(crop_square(image, box, crop_size, CROP_MARGIN))
                labels.append(CARD_INDEX[card["card"]])
    if not crops:
        return np.zeros((0, crop_size, crop_size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def _job(args):
    seed, i, per_index, mix, jitter, crop_size, layout, table_conventions, decks, slivers, visible = args
    return scene_crops(scene_seed(seed, i), per_index, mix=mix, jitter=jitter, crop_size=crop_size, layout=layout,
                       table_conventions=table_conventions, decks=decks, slivers=slivers, visible=visible)


def build_crops(out: Path, scenes: int, seed: int, per_index: int = 3, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None, mix: str = "v2",
                jitter: BoxError = V2_JITTER, crop_size: int = CROP_SIZE, layout: str | None = None,
                table_conventions: bool = False, decks: tuple[str, ...] | None = None,
                slivers: float | None = None, visible: bool = True) -> Path:
    """Render ``scenes`` scenes and save their crops to ``out`` (.npz with crops, labels); ``layout``
    and ``table_conventions`` as ``render_scene`` takes them (the reader's weak layouts, issue 20);
    ``slivers`` and ``visible`` as ``scene_crops`` takes them. ``workers`` 0 renders in this process (a few scenes:
    no pool to start)."""
    jobs = [(seed, i, per_index, mix, jitter, crop_size, layout, table_conventions, decks, slivers, visible)
            for i in range(scenes)]
    all_crops, all_labels = [], []

    def keep(done, crops, labels):
        all_crops.append(crops)
        all_labels.append(labels)
        if progress:
            progress(done, scenes)
    if workers == 0:
        for done, job in enumerate(jobs, 1):
            keep(done, *_job(job))
    else:
        # forkserver, not fork: the caller may hold onnxruntime or torch threads, and a child forked
        # from it can inherit a lock one of them held (a test run hung in a crops worker)
        ctx = multiprocessing.get_context("forkserver")
        with ctx.Pool(workers or os.cpu_count() or 1) as pool:
            for done, (crops, labels) in enumerate(pool.imap(_job, jobs, chunksize=4), 1):
                keep(done, crops, labels)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, crops=np.concatenate(all_crops), labels=np.concatenate(all_labels))
    return out


def main(argv=None) -> None:
    """``python -m vision.train.crops_data --out build/rt/crops.npz --scenes 500 --seed 14 --mix v4``"""
    import argparse

    from vision.synth import LAYOUTS
    from vision.synth.scene import MIXES

    def positive(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
        return int(text)

    parser = argparse.ArgumentParser(description="Render scenes and save the reader's crops of their indices.")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=positive, required=True)
    parser.add_argument("--seed", type=int, required=True, help="dataset seed: scene i is scene_seed(seed, i)")
    parser.add_argument("--per-index", type=positive, default=3)
    parser.add_argument("--mix", default="v4", choices=MIXES)
    parser.add_argument("--layout", choices=LAYOUTS, help="one layout for every scene (default: the mix's choice)")
    parser.add_argument("--table-conventions", action="store_true", help="groups laid out as players do")
    parser.add_argument("--crop-size", type=positive, default=80)
    parser.add_argument("--workers", type=positive)
    parser.add_argument("--slivers", type=float, metavar="SHARE",
                        help=f"also crop indices partly covered, at least SHARE of them showing (under {VISIBLE_FRACTION})")
    parser.add_argument("--slivers-only", action="store_true", help="only the partly covered indices' crops")
    args = parser.parse_args(argv)
    if args.slivers is not None and not 0 < args.slivers < VISIBLE_FRACTION:
        parser.error(f"--slivers must be between 0 and {VISIBLE_FRACTION}, got {args.slivers}")
    if args.slivers_only and args.slivers is None:
        parser.error("--slivers-only needs --slivers SHARE")
    try:
        out = build_crops(args.out, args.scenes, args.seed, args.per_index, args.workers, mix=args.mix,
                          jitter=MEASURED_JITTER, crop_size=args.crop_size, layout=args.layout,
                          table_conventions=args.table_conventions, slivers=args.slivers,
                          visible=not args.slivers_only)
    except ValueError as exc:  # a deck the mix needs and that is not built: one line, exit 2
        parser.error(str(exc))
    print(f"{len(np.load(out)['labels'])} crops -> {out}")


if __name__ == "__main__":
    main()
