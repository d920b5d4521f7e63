"""How far the detector's index boxes are from the true ones: the jitter classifier crops need.

The classifier reads crops cut around the DETECTOR's boxes, so its training crops are cut around
true boxes moved the way the detector moves them. This measures that on rendered scenes (tuning
seeds, never training or bench): for each true visible index matched by a detected index box
(IoU >= MATCH_IOU), the centre shift relative to the true size and the log size ratios.

    python -m vision.train.box_error --n 80 --seed 8600000 --mix v3
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

import numpy as np

from vision.boxes import box_iou, centres, sizes

MATCH_IOU = 0.3


@dataclass(frozen=True)
class BoxError:
    """Standard deviations of a detector's index-box error, relative to the true box."""

    shift_x: float
    shift_y: float
    log_w: float
    log_h: float
    bias_x: float = 0.0
    bias_y: float = 0.0
    bias_log_w: float = 0.0
    bias_log_h: float = 0.0
    matched: int = 0
    missed: int = 0

    def as_json(self) -> dict:
        return asdict(self)


def residuals(true_boxes: np.ndarray, found_boxes: np.ndarray) -> np.ndarray:
    """(dx/w, dy/h, log w'/w, log h'/h) for each true box matched by its best found box."""
    if len(true_boxes) == 0 or len(found_boxes) == 0:
        return np.zeros((0, 4))
    iou = box_iou(true_boxes, found_boxes)
    best = iou.argmax(axis=1)
    keep = iou[np.arange(len(true_boxes)), best] >= MATCH_IOU
    t, f = true_boxes[keep], found_boxes[best[keep]]
    t_size, f_size = sizes(t), sizes(f)
    shift = (centres(f) - centres(t)) / t_size
    return np.concatenate([shift, np.log(f_size / t_size)], axis=1)


def measure(n: int, seed: int, mix: str = "v3", models=None) -> BoxError:
    from vision import Recognizer
    from vision.classes import INDEX_CLASS
    from vision.synth.scene import render_scene, scene_seed

    recognizer = Recognizer(models)
    rows, total = [], 0
    for i in range(n):
        image, annotation = render_scene(scene_seed(seed, i), mix=mix)
        truth = np.array([ix["box"] for card in annotation["cards"] for ix in card["indices"] if ix["visible"]],
                         np.float64).reshape(-1, 4)
        detections, _, _ = recognizer.detect(image)
        found = np.asarray(detections.of_class(INDEX_CLASS).xyxy, np.float64).reshape(-1, 4)
        r = residuals(truth, found)
        rows.append(r)
        total += len(truth)
    r = np.concatenate(rows)
    # Robust spread (1.4826 x median absolute deviation): a few mismatched boxes must not set it.
    mad = lambda v: float(1.4826 * np.median(np.abs(v - np.median(v))))  # noqa: E731
    return BoxError(mad(r[:, 0]), mad(r[:, 1]), mad(r[:, 2]), mad(r[:, 3]),
                    *(float(np.median(r[:, k])) for k in range(4)), matched=len(r), missed=total - len(r))


def main() -> None:
    parser = argparse.ArgumentParser(description="measure the detector's index-box error on rendered scenes")
    parser.add_argument("--n", type=int, default=80)
    parser.add_argument("--seed", type=int, default=8_600_000)
    parser.add_argument("--mix", default="v3")
    args = parser.parse_args()
    print(json.dumps(measure(args.n, args.seed, args.mix).as_json()))


if __name__ == "__main__":
    main()
