"""Smoke training: the whole `crib train` recipe on a few tiny images, 1 epoch, writes working models."""

from __future__ import annotations

import json

import numpy as np

from vision.classes import CARD_CODES, DETECTOR_CLASSES
from vision.pipeline import load_models_config
from vision.runtime import OnnxModel
from vision.train import pipeline


def test_quick_training_writes_loadable_models(tmp_path):
    out, work = tmp_path / "models", tmp_path / "work"
    messages = []
    report = pipeline.run(out, work, pipeline.QUICK, log=messages.append)

    config = load_models_config(out)
    assert config["detector"]["imgsz"] == pipeline.QUICK.detector.imgsz
    assert config["detector"]["classes"] == list(DETECTOR_CLASSES)
    assert config["classifier"]["classes"] == list(CARD_CODES)

    size = config["detector"]["imgsz"]
    detector = OnnxModel(out / "detector.onnx", "onnxruntime")
    raw = detector.run(np.zeros((1, 3, size, size), np.float32))
    assert raw.shape[:2] == (1, 4 + len(DETECTOR_CLASSES)) and raw.shape[2] > 0

    classifier = OnnxModel(out / "classifier.onnx", "onnxruntime")
    logits = classifier.run(np.random.default_rng(0).random((3, 3, 64, 64), dtype=np.float32))
    assert logits.shape == (3, len(CARD_CODES)) and np.isfinite(logits).all()

    assert report["detector_train_s"] > 0 and report["classifier_train_s"] > 0
    assert any("classifier epoch 1/1" in m for m in messages)
    saved = json.loads((work / "train_report.json").read_text())
    assert saved["recipe"]["detector"]["epochs"] == 1
    # the fine-tune stage continues from stage 1 and stops after its one epoch of a 2-epoch schedule
    epochs_run = (work / "runs" / "detector_stage2" / "results.csv").read_text().strip().splitlines()[1:]
    assert [row.split(",")[0] for row in epochs_run] == ["1"]
