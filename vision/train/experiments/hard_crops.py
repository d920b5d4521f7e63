"""Experiment (session 21, not in any recipe): the reader fine-tuned on the crops it finds hard.

Runtime crops (``vision.train.runtime_crops``: each index box the detector draws, at every margin
the runtime reads) are split by a reader into *hard* (its best guess wrong, or the true card under
``sure``) and *easy*; a share of the easy ones is kept beside them. Session 21 cut 1,300 fresh
scenes (dataset seeds 35 whole tables as left, 36 fans and rows, 37 mixed; 59,751 crops, of which
v10's reader read 6.5 % wrong and 25.7 % under 0.9), kept the hard ones twice and 30 % of the
easy, and trained ``train_reader --start models/classifier.onnx --epochs 1 --lr 1e-4`` on them with
the real sets: not kept (the journal, ``docs/journal/s21-where-tables-are-lost.md``).

    python -m vision.train.experiments.hard_crops --out build/hm/m35 build/hm/r35.npz [--sure 0.9] [--easy 0.3]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

import numpy as np

from vision.read import softmax
from vision.train.experiments.evaluate import crop_logits

RunReader = Callable[[np.ndarray], np.ndarray]  # (M, 3, S, S) float crops -> (M, 52) logits


def hard_mask(run_reader: RunReader, crops: np.ndarray, labels: np.ndarray, sure: float = 0.9,
              batch: int = 256) -> np.ndarray:
    """(N,) whether the reader gets each crop wrong or gives its true card under ``sure``."""
    if not len(crops):
        return np.zeros((0,), bool)
    probs = softmax(crop_logits(run_reader, crops, batch))
    true = probs[np.arange(len(labels)), labels]
    return (probs.argmax(axis=1) != labels) | (true < sure)


def split(run_reader: RunReader, crops: np.ndarray, labels: np.ndarray, sure: float = 0.9,
          easy_share: float = 0.3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Row numbers of the hard crops and of the easy ones kept (``easy_share`` of them, by ``seed``)."""
    hard = hard_mask(run_reader, crops, labels, sure)
    easy = np.flatnonzero(~hard)
    return np.flatnonzero(hard), easy[np.random.default_rng(seed).random(len(easy)) < easy_share]


def main(argv=None) -> None:
    from vision.runtime import OnnxModel

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("crops", type=Path, nargs="+", help="runtime crop sets (.npz with crops and labels)")
    parser.add_argument("--out", type=Path, required=True, help="writes OUT_hard.npz and OUT_easy.npz")
    parser.add_argument("--reader", type=Path, default=Path("models/classifier.onnx"))
    parser.add_argument("--sure", type=float, default=0.9)
    parser.add_argument("--easy", type=float, default=0.3, help="share of the easy crops kept")
    args = parser.parse_args(argv)
    if not 0.0 < args.sure <= 1.0 or not 0.0 <= args.easy <= 1.0:
        parser.error("--sure must be in (0, 1] and --easy in [0, 1]")
    for path in [args.reader, *args.crops]:
        if not path.exists():
            parser.error(f"{path}: no such file")
    reader = OnnxModel(args.reader, "onnxruntime")
    data = [np.load(path) for path in args.crops]
    crops = np.concatenate([d["crops"] for d in data])
    labels = np.concatenate([d["labels"] for d in data])
    hard, easy = split(reader.run, crops, labels, args.sure, args.easy)
    print(f"{len(labels)} crops: hard {len(hard)} ({len(hard) / max(1, len(labels)):.2%}), easy kept {len(easy)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(f"{args.out}_hard.npz", crops=crops[hard], labels=labels[hard])
    np.savez(f"{args.out}_easy.npz", crops=crops[easy], labels=labels[easy])


if __name__ == "__main__":
    main()
