"""Model checks on freshly rendered scenes (seeds never used in training).

Detector: precision/recall per class at IoU >= 0.5 against the scene's labels (visible indices,
labelled cards). Classifier: accuracy on crops cut around the true index boxes, jittered like
detector boxes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.classes import CARD_CLASS, CARD_INDEX, INDEX_CLASS
from vision.crops import crop_square, crops_to_tensor
from vision.synth.dataset import CARD_LABEL_MIN_VISIBLE
from vision.synth.scene import render_scene
from vision.train.crops_data import jitter_box

EVAL_SEED = 7_000_000  # scenes EVAL_SEED + i: plain ints, far from the hashed training seeds


def _truth(annotation: dict) -> dict[int, np.ndarray]:
    index_boxes, card_boxes = [], []
    for card in annotation["cards"]:
        shown = [i["box"] for i in card["indices"] if i["visible"]]
        index_boxes += shown
        if shown or card["visible_fraction"] >= CARD_LABEL_MIN_VISIBLE:
            card_boxes.append(card["box"])
    return {INDEX_CLASS: np.array(index_boxes, np.float32).reshape(-1, 4),
            CARD_CLASS: np.array(card_boxes, np.float32).reshape(-1, 4)}


def _match(pred: np.ndarray, truth: np.ndarray, iou_min: float = 0.5) -> int:
    """Greedy one-to-one matches (best IoU first)."""
    from vision.postprocess import box_iou

    if len(pred) == 0 or len(truth) == 0:
        return 0
    iou = box_iou(pred, truth)
    matched = 0
    while True:
        i, j = np.unravel_index(np.argmax(iou), iou.shape)
        if iou[i, j] < iou_min:
            return matched
        matched += 1
        iou[i, :] = -1
        iou[:, j] = -1


def detector_metrics(models_dir: Path, n: int = 100, seed: int = EVAL_SEED, conf: float = 0.5) -> dict:
    from vision.pipeline import Recognizer

    recognizer = Recognizer(models_dir)
    counts = {c: {"pred": 0, "truth": 0, "match": 0} for c in (INDEX_CLASS, CARD_CLASS)}
    for i in range(n):
        image, annotation = render_scene(seed + i)
        detections, _, _ = recognizer.detect(image)
        truth = _truth(annotation)
        for cls in counts:
            keep = (detections.class_id == cls) & (detections.confidence >= conf)
            pred = detections.xyxy[keep]
            counts[cls]["pred"] += len(pred)
            counts[cls]["truth"] += len(truth[cls])
            counts[cls]["match"] += _match(pred, truth[cls])
    result = {}
    for cls, name in ((INDEX_CLASS, "index"), (CARD_CLASS, "card")):
        c = counts[cls]
        result[name] = {"precision": c["match"] / max(c["pred"], 1), "recall": c["match"] / max(c["truth"], 1),
                        "predicted": c["pred"], "labelled": c["truth"]}
    return result


def classifier_accuracy(models_dir: Path, n: int = 100, seed: int = EVAL_SEED + 500_000) -> dict:
    from vision.pipeline import Recognizer

    recognizer = Recognizer(models_dir)
    rng = np.random.default_rng(seed)
    total = exact = jittered_ok = 0
    for i in range(n):
        image, annotation = render_scene(seed + i)
        for card in annotation["cards"]:
            for index in card["indices"]:
                if not index["visible"]:
                    continue
                crops = [crop_square(image, index["box"]), crop_square(image, jitter_box(rng, index["box"]))]
                logits = recognizer.classifier.run(crops_to_tensor(crops))
                want = CARD_INDEX[card["card"]]
                exact += int(logits[0].argmax() == want)
                jittered_ok += int(logits[1].argmax() == want)
                total += 1
    return {"crops": total, "accuracy_true_box": exact / max(total, 1), "accuracy_jittered_box": jittered_ok / max(total, 1)}


def confused_pairs(predicted: np.ndarray, labels: np.ndarray, top: int = 10) -> list[tuple[str, str, int]]:
    """The most frequent (true card, read as, count) mistakes, e.g. ("6S", "9S", 4)."""
    from vision.classes import CARD_CODES

    wrong = predicted != labels
    pairs, counts = np.unique(np.stack([labels[wrong], predicted[wrong]], axis=1), axis=0, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:top]
    return [(CARD_CODES[pairs[i][0]], CARD_CODES[pairs[i][1]], int(counts[i])) for i in order]


def rank_confusions(predicted: np.ndarray, labels: np.ndarray, top: int = 10) -> list[tuple[str, str, int]]:
    """Mistakes by rank only (6 read as 9 in any suit), the confusions MODEL.md reports."""
    from vision.classes import CARD_CODES

    ranks = np.array([code[0] for code in CARD_CODES])
    wrong = ranks[predicted] != ranks[labels]
    pairs, counts = np.unique(np.stack([ranks[labels][wrong], ranks[predicted][wrong]], axis=1), axis=0,
                              return_counts=True)
    order = np.argsort(-counts, kind="stable")[:top]
    return [(str(pairs[i][0]), str(pairs[i][1]), int(counts[i])) for i in order]


def crop_logits(run_classifier, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    """(N, 52) logits of saved RGB uint8 crops (N, S, S, 3), run ``batch`` at a time."""
    return np.concatenate([np.asarray(run_classifier(crops_to_tensor(list(crops[i:i + batch]))), np.float32)
                           for i in range(0, len(crops), batch)])


def classifier_report(onnx_path: Path, crops_npz: Path) -> dict:
    """Accuracy and confusions of an exported classifier on saved crops (``crops_data.build_crops``)."""
    from vision.classes import CARD_CODES
    from vision.runtime import OnnxModel

    data = np.load(crops_npz)
    crops, labels = data["crops"], data["labels"]
    model = OnnxModel(Path(onnx_path), "onnxruntime")
    predicted = crop_logits(model.run, crops).argmax(1)
    ranks = np.array([code[0] for code in CARD_CODES])
    wrong = predicted != labels
    rank_wrong = ranks[predicted] != ranks[labels]
    return {"crops": int(len(labels)), "accuracy": float((~wrong).mean()), "rank_errors": int(rank_wrong.sum()),
            "suit_only_errors": int((wrong & ~rank_wrong).sum()),
            "cards": confused_pairs(predicted, labels), "ranks": rank_confusions(predicted, labels)}
