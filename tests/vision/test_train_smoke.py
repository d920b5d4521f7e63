"""Smoke training: the whole `crib train` recipe on a few tiny images, 1 epoch, writes working models."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_checkpoint_recovered_from_onnx_matches_it_and_training_continues(tmp_path):
    """models v1/v2 were committed as ONNX only: recover_checkpoint rebuilds a trainable .pt that
    computes what the ONNX computes, and `crib train --resume-from` continues from it."""
    import torch

    from companion.cli import main
    from vision.train.recover import _letterboxed, recover_checkpoint

    out, work = tmp_path / "models", tmp_path / "work"
    pipeline.run(out, work, pipeline.QUICK, log=lambda m: None, steps=("detector",))
    size = pipeline.QUICK.detector.imgsz
    images = sorted((work / "det_train" / "images").glob("*.jpg"))
    checkpoint = recover_checkpoint(out / "detector.onnx", work / "det_train" / "images", tmp_path / "rec.pt", work,
                                    imgsz=size)

    batch = np.stack([_letterboxed(p, size) for p in images])
    onnx_out = OnnxModel(out / "detector.onnx", "onnxruntime").run(batch[:1])
    model = torch.load(checkpoint, weights_only=False)["model"].float().eval()
    with torch.no_grad():
        torch_out = model(torch.from_numpy(batch[:1]))
    torch_out = (torch_out[0] if isinstance(torch_out, (tuple, list)) else torch_out).numpy()
    assert torch_out.shape == onnx_out.shape
    assert np.abs(torch_out[:, 4:] - onnx_out[:, 4:]).max() < 0.01  # class scores
    assert np.abs(torch_out[:, :4] - onnx_out[:, :4]).max() < 0.5   # boxes, pixels (fp16 checkpoint)

    status = main(["train", "--quick", "--resume-from", str(checkpoint), "--epochs", "1", "--images", "3",
                   "--data-seed", "5", "--threads", "1", "--work", str(work)])
    assert status == 0
    assert (work / "candidate" / "detector.onnx").is_file()
    published = torch.load(work / "candidate" / "train" / "detector_last.pt", weights_only=False)
    assert published["optimizer"] is None and published["model"] is not None  # EMA weights, no optimizer
    epochs_run = (work / "runs" / "detector_continue" / "results.csv").read_text().strip().splitlines()[1:]
    assert [row.split(",")[0] for row in epochs_run] == ["1"]
    assert not (out / "candidate").exists()


def test_classifier_continues_from_its_onnx(tmp_path):
    """recover_classifier rebuilds the committed classifier exactly (eval mode), and
    `crib train --only classifier --resume-from classifier.onnx` continues it on v3-mix crops."""
    import torch

    from companion.cli import main
    from vision.train import crops_data
    from vision.train.recover import recover_classifier

    crops, _ = crops_data.scene_crops(crops_data.scene_seed(7, 0), 1, mix="v3", jitter=crops_data.MEASURED_JITTER)
    assert len(crops) > 0
    model = recover_classifier(Path("models/classifier.onnx"), crops)
    x = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    reference = OnnxModel(Path("models/classifier.onnx"), "onnxruntime").run(x)
    with torch.no_grad():
        ours = model(torch.from_numpy(x)).numpy()
    assert np.abs(ours - reference).max() < 1e-3

    work = tmp_path / "work"
    status = main(["train", "--quick", "--only", "classifier", "--resume-from", "models/classifier.onnx",
                   "--epochs", "1", "--images", "2", "--data-seed", "7", "--work", str(work)])
    assert status == 0
    continued = OnnxModel(work / "candidate" / "classifier.onnx", "onnxruntime").run(x)
    assert continued.shape == reference.shape and not np.allclose(continued, reference)
