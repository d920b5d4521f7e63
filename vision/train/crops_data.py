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
from vision.synth.scene import render_scene, scene_seed


def jitter_box(rng: np.random.Generator, box, amount: float = 1.0):
    """A box as an imperfect detector might report it around the true ``box``."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.normal(0, 0.07 * amount) * w
    cy = (y1 + y2) / 2 + rng.normal(0, 0.06 * amount) * h
    w *= float(np.exp(rng.normal(0, 0.1 * amount)))
    h *= float(np.exp(rng.normal(0, 0.08 * amount)))
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def scene_crops(seed: int, per_index: int = 3, size=(1280, 960)) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, 64, 64, 3 RGB uint8) and labels (N,) from one rendered scene."""
    image, annotation = render_scene(seed, size=size)
    rng = np.random.default_rng([seed, 11])
    crops, labels = [], []
    for card in annotation["cards"]:
        for index in card["indices"]:
            if not index["visible"]:
                continue
            for k in range(per_index):
                box = index["box"] if k == 0 else jitter_box(rng, index["box"])
                crops.append(crop_square(image, box, CROP_SIZE, CROP_MARGIN))
                labels.append(CARD_INDEX[card["card"]])
    if not crops:
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def _job(args):
    seed, i, per_index = args
    return scene_crops(scene_seed(seed, i), per_index)


def build_crops(out: Path, scenes: int, seed: int, per_index: int = 3, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> Path:
    """Render ``scenes`` scenes and save their crops to ``out`` (.npz with crops, labels)."""
    jobs = [(seed, i, per_index) for i in range(scenes)]
    workers = workers or os.cpu_count() or 1
    all_crops, all_labels = [], []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        for done, (crops, labels) in enumerate(pool.imap(_job, jobs, chunksize=4), 1):
            all_crops.append(crops)
            all_labels.append(labels)
            if progress:
                progress(done, scenes)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, crops=np.concatenate(all_crops), labels=np.concatenate(all_labels))
    return out
