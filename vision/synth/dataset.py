"""Writes a dataset of scenes: images, YOLO labels, a manifest of annotations, and data.yaml."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.classes import CARD_CLASS, DETECTOR_CLASSES, INDEX_CLASS
from vision.synth.art import ART_VERSION, REAL_DECK, deck_fingerprint
from vision.synth.scene import DEFAULT_SIZE, MIXES, render_scene, scene_seed

# Photo shapes a phone gives (landscape, portrait, wide, square) as width/height ratios.
ASPECTS = ((4 / 3, 0.5), (3 / 4, 0.2), (16 / 9, 0.15), (1.0, 0.15))
CARD_LABEL_MIN_VISIBLE = 0.2  # a card is labelled when this share is unoccluded, or any index shows


def image_size(seed: int, longest: int, mixed: bool) -> tuple[int, int]:
    """Size of one dataset image: the default 4:3 frame, or a phone-like aspect chosen by the seed."""
    if not mixed:
        return DEFAULT_SIZE if longest == max(DEFAULT_SIZE) else (longest, int(round(longest * 3 / 4)))
    rng = np.random.default_rng([seed, 7])
    ratio = ASPECTS[int(rng.choice(len(ASPECTS), p=[p for _, p in ASPECTS]))][0]
    return (longest, int(round(longest / ratio))) if ratio >= 1 else (int(round(longest * ratio)), longest)


def yolo_lines(annotation: dict) -> list[str]:
    """The detector's labels: visible corner indices and sufficiently visible cards."""
    w, h = annotation["width"], annotation["height"]
    lines = []

    def line(cls, box):
        x1, y1, x2, y2 = box
        return f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"

    for card in annotation["cards"]:
        shown = [i for i in card["indices"] if i["visible"]]
        for index in shown:
            lines.append(line(INDEX_CLASS, index["box"]))
        if shown or card["visible_fraction"] >= CARD_LABEL_MIN_VISIBLE:
            lines.append(line(CARD_CLASS, card["box"]))
    return lines


def _render_one(job):
    out, seed, i, layout, decks, longest, mixed, quality, mix = job
    s = scene_seed(seed, i)
    image, annotation = render_scene(s, layout=layout, decks=decks, size=image_size(s, longest, mixed), mix=mix)
    name = f"{i:06d}"
    cv2.imwrite(str(Path(out) / "images" / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (Path(out) / "labels" / f"{name}.txt").write_text("\n".join(yolo_lines(annotation)) + "\n")
    annotation["image"] = f"images/{name}.jpg"
    # Written last: its presence says the image and labels are complete (an interrupted run resumes).
    (Path(out) / "annotations" / f"{name}.json").write_text(json.dumps(annotation))
    return i, annotation


def _rendered_before(out: Path, key: str, n: int) -> dict:
    """Annotations of the images a previous run with the same rendering key completed (a run
    stopped midway, or a smaller set being extended); images past ``n`` are removed."""
    key_file = out / "render.json"
    done = {}
    if key_file.exists() and key_file.read_text() == key:
        for path in sorted((out / "annotations").glob("*.json")):
            i = int(path.stem)
            if i >= n:
                for stale in (out / "images" / f"{path.stem}.jpg", out / "labels" / f"{path.stem}.txt", path):
                    stale.unlink(missing_ok=True)
            elif (out / "images" / f"{path.stem}.jpg").exists() and (out / "labels" / f"{path.stem}.txt").exists():
                done[i] = json.loads(path.read_text())
    else:
        for folder in ("images", "labels", "annotations"):  # another rendering: nothing is reusable
            for stale in (out / folder).glob("*") if (out / folder).exists() else ():
                stale.unlink()
        key_file.write_text(key)
    return done


def write_dataset(out: Path, n: int, seed: int, *, layout: str | None = None, decks=None,
                  longest: int = 1280, mixed: bool = False, workers: int | None = None, quality: int = 92,
                  progress: Callable[[int, int], None] | None = None, mix: str = "v2") -> Path:
    """Render n scenes into ``out``; returns the path of ``data.yaml``.

    ``mix`` is the data mix (``scene.MIXES``): "v2" (default) is the data models v2 were trained
    on, "v3" the new decks, layouts and looks. A folder already holding the same dataset (same
    stamp) is reused as it is; one holding part of it (an interrupted run, or fewer images of the
    same rendering) keeps the images it has and renders the rest (image i depends only on the
    seed and the rendering options, not on n).
    """
    if n < 1:
        raise ValueError(f"number of images must be at least 1, got {n}")
    if mix not in MIXES:
        raise ValueError(f"unknown data mix {mix!r}; known: {', '.join(MIXES)}")
    out = Path(out)
    fields = {"n": n, "seed": seed, "layout": layout, "decks": list(decks) if decks else None,
              "longest": longest, "mixed": mixed, "quality": quality, "art": ART_VERSION}
    if mix != "v2":  # v2 datasets keep the stamp they were written with
        fields["mix"] = mix
    if mix == "v5" and not decks:  # the real cut-outs are built apart: a rebuilt deck is another dataset
        fields["real_deck"] = deck_fingerprint(REAL_DECK)
    stamp = json.dumps(fields, sort_keys=True)
    if (out / "dataset.json").exists() and (out / "dataset.json").read_text() == stamp and (out / "data.yaml").exists():
        return out / "data.yaml"
    for folder in ("images", "labels", "annotations"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    (out / "dataset.json").unlink(missing_ok=True)
    results = _rendered_before(out, json.dumps({k: v for k, v in fields.items() if k != "n"}, sort_keys=True), n)
    jobs = [(str(out), seed, i, layout, decks, longest, mixed, quality, mix) for i in range(n) if i not in results]
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    if progress and results:
        progress(len(results), n)
    if workers > 1:
        # forkserver, not fork: the caller may hold onnxruntime or torch threads, and a child forked
        # from it can inherit a lock one of them held (a test run hung in a crops worker)
        ctx = multiprocessing.get_context("forkserver")
        with ctx.Pool(workers) as pool:
            for i, annotation in pool.imap_unordered(_render_one, jobs, chunksize=4):
                results[i] = annotation
                if progress:
                    progress(len(results), n)
    else:
        for job in jobs:
            i, annotation = _render_one(job)
            results[i] = annotation
            if progress:
                progress(len(results), n)
    with open(out / "manifest.jsonl", "w") as f:
        for i in range(n):
            f.write(json.dumps(results[i]) + "\n")
    data = out / "data.yaml"
    names = "\n".join(f"  {k}: {v}" for k, v in enumerate(DETECTOR_CLASSES))
    data.write_text(f"path: {out.resolve()}\ntrain: images\nval: images\nnames:\n{names}\n")
    (out / "dataset.json").write_text(stamp)
    return data


class _Bars:
    """One tqdm bar per run of done = 1..total callbacks (rates and ETA on stderr)."""

    def __init__(self):
        self.bar, self.done = None, 0

    def __call__(self, done: int, total: int, stream=None) -> None:
        from tqdm import tqdm

        if self.bar is None or done <= self.done or self.bar.total != total:
            if self.bar is not None:
                self.bar.close()
            self.bar = tqdm(total=total, unit="scene", file=stream or sys.stderr, dynamic_ncols=True,
                            mininterval=0.5, smoothing=0.05)
            self.done = 0
        self.bar.update(done - self.done)
        self.done = done
        if done >= total:
            self.bar.close()
            self.bar, self.done = None, 0


progress_bar = _Bars()  # progress(done, total) callback: ``write_dataset(..., progress=progress_bar)``
