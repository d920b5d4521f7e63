"""Smoke training (CI's): the one-shot pipeline's quick run (vision.train.experiments.one_shot) on a
few tiny images, 1 epoch, writes working models, and its continuations continue them. A recipe's
tiny replay (`crib train --tiny`, tests/vision/test_train_recipe.py) needs the real photos and the
git history, which CI's clone lacks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.classes import CARD_CODES, DETECTOR_CLASSES
from vision.model_config import load_models_config
from vision.runtime import OnnxModel
from vision.train.experiments import one_shot
from vision.train.real_cards import RealDataError, real_dir


def _real_photos_present() -> bool:
    """The quick recipe trains on a few real photos when they are here (not in CI's clone)."""
    try:
        real_dir()
    except RealDataError:
        return False
    return True


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """The quick recipe trained once for the module (both models, as `one_shot --quick` does):
    (models folder, work folder, report, messages logged). Tests that continue from it copy it."""
    root = tmp_path_factory.mktemp("quick")
    out, work = root / "models", root / "work"
    messages = []
    report = one_shot.run(out, work, one_shot.QUICK, log=messages.append)
    return out, work, report, messages


def test_quick_training_writes_loadable_models(quick_run):
    out, work, report, messages = quick_run

    config = load_models_config(out)
    assert config["detector"]["imgsz"] == one_shot.QUICK.detector.imgsz
    assert config["detector"]["classes"] == list(DETECTOR_CLASSES)
    assert config["classifier"]["classes"] == list(CARD_CODES)

    size = config["detector"]["imgsz"]
    detector = OnnxModel(out / "detector.onnx", "onnxruntime")
    raw = detector.run(np.zeros((1, 3, size, size), np.float32))
    assert raw.shape[:2] == (1, 4 + len(DETECTOR_CLASSES)) and raw.shape[2] > 0

    # the classifier is the models-v4 reader: 80 px crops, the same logits in both runtimes
    import onnx

    from vision.train.reader import reader_from_onnx

    assert config["classifier"]["arch"] == one_shot.READER_ARCH and config["classifier"]["imgsz"] == 80
    graph_input = onnx.load(str(out / "classifier.onnx")).graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_value for d in graph_input[1:]] == [3, 80, 80]
    reader_from_onnx(out / "classifier.onnx")  # every reader weight is in the file by name
    crops = np.random.default_rng(0).random((3, 3, 80, 80), dtype=np.float32)
    logits = OnnxModel(out / "classifier.onnx", "onnxruntime").run(crops)
    assert logits.shape == (3, len(CARD_CODES)) and np.isfinite(logits).all()
    assert np.abs(OnnxModel(out / "classifier.onnx", "opencv").run(crops) - logits).max() < 1e-4

    assert report["detector_train_s"] > 0 and report["classifier_train_s"] > 0
    assert any("classifier epoch 1/1" in m for m in messages)
    if _real_photos_present():
        assert any(m.startswith("real photos: ") and "of 4 train photos (x2)" in m for m in messages), messages
        assert 0 <= report["classifier_real_val_accuracy"] <= 1
    else:
        assert any("the classifier trains on rendered crops only" in m for m in messages), messages
    saved = json.loads((work / "train_report.json").read_text())
    assert saved["recipe"]["detector"]["epochs"] == 1
    # the fine-tune stage continues from stage 1 and stops after its one epoch of a 2-epoch schedule
    epochs_run = (work / "runs" / "detector_stage2" / "results.csv").read_text().strip().splitlines()[1:]
    assert [row.split(",")[0] for row in epochs_run] == ["1"]


def test_checkpoint_recovered_from_onnx_matches_it_and_training_continues(tmp_path, quick_run):
    """models v1/v2 were committed as ONNX only: recover_checkpoint rebuilds a trainable .pt that
    computes what the ONNX computes, and `one_shot --resume-from` continues from it."""
    import torch

    from vision.train.experiments.one_shot import main
    from vision.train.recover import _letterboxed, recover_checkpoint

    # the quick detector (its step alone trains the same model: the classifier step never touches
    # it), copied so that this test's continuation writes beside it as before
    out, work = tmp_path / "models", tmp_path / "work"
    shutil.copytree(quick_run[0], out)
    shutil.copytree(quick_run[1], work)
    size = one_shot.QUICK.detector.imgsz
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

    status = main(["--quick", "--resume-from", str(checkpoint), "--epochs", "1", "--images", "3",
                   "--data-seed", "5", "--threads", "1", "--work", str(work)])
    assert status == 0
    assert (work / "candidate" / "detector.onnx").is_file()
    published = torch.load(work / "candidate" / "train" / "detector_last.pt", weights_only=False)
    assert published["optimizer"] is None and published["model"] is not None  # EMA weights, no optimizer
    epochs_run = (work / "runs" / "detector_continue" / "results.csv").read_text().strip().splitlines()[1:]
    assert [row.split(",")[0] for row in epochs_run] == ["1"]
    assert not (out / "candidate").exists()

    # --real: the same continuation on a few real train photos beside rendered scenes (real_mix's data)
    real_work = tmp_path / "real"
    status = main(["--quick", "--real", "--resume-from", str(work / "candidate" / "train" / "detector_last.pt"),
                   "--epochs", "1", "--images", "2", "--threads", "1", "--work", str(real_work)])
    if not _real_photos_present():
        assert status == 2 and not (real_work / "candidate").exists()
        return
    assert status == 0
    assert len(list((real_work / "real_train" / "labels").glob("*.txt"))) <= one_shot.QUICK.real_photos
    assert "real_train" in (real_work / "real_mix.yaml").read_text()
    epochs_run = (real_work / "runs" / "detector_real" / "results.csv").read_text().strip().splitlines()[1:]
    assert [row.split(",")[0] for row in epochs_run] == ["1"]
    assert (real_work / "candidate" / "detector.onnx").is_file()
    assert (real_work / "candidate" / "train" / "detector_last.pt").is_file()


def test_classifier_continues_from_its_onnx(tmp_path):
    """recover_classifier rebuilds an exported CNN classifier (models v1-v3's kind) exactly (eval
    mode), and `one_shot --only classifier --resume-from classifier.onnx` continues it on v3-mix
    crops when the models.json beside it names no "arch" (as models v3's did)."""
    import torch

    from vision.train.experiments.one_shot import main
    from vision.train import crops_data
    from vision.train.classifier import build_model, export_classifier
    from vision.train.recover import recover_classifier

    torch.manual_seed(0)
    cnn = build_model()
    generator = torch.Generator().manual_seed(1)
    for module in cnn.modules():  # batch norms as after training, not the identity of a fresh one
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.copy_(torch.randn(module.running_mean.shape, generator=generator) * 0.1)
            module.running_var.copy_(torch.rand(module.running_var.shape, generator=generator) + 0.5)
    start = export_classifier(cnn.eval(), tmp_path / "v3" / "classifier.onnx")
    (tmp_path / "v3" / "models.json").write_text(json.dumps({"classifier": {"file": "classifier.onnx", "imgsz": 64}}))
    assert one_shot.classifier_arch(start) == one_shot.CNN_ARCH

    crops, _ = crops_data.scene_crops(crops_data.scene_seed(7, 0), 1, mix="v3", jitter=crops_data.MEASURED_JITTER)
    assert len(crops) > 0
    model = recover_classifier(start, crops)
    x = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    reference = OnnxModel(start, "onnxruntime").run(x)
    with torch.no_grad():
        ours = model(torch.from_numpy(x)).numpy()
    assert np.abs(ours - reference).max() < 1e-3

    work = tmp_path / "work"
    status = main(["--quick", "--only", "classifier", "--resume-from", str(start),
                   "--epochs", "1", "--images", "2", "--data-seed", "7", "--work", str(work)])
    assert status == 0
    continued = OnnxModel(work / "candidate" / "classifier.onnx", "onnxruntime").run(x)
    assert continued.shape == reference.shape and not np.allclose(continued, reference)


def test_quick_reader_continues_from_its_onnx_and_trains_without_real_photos(tmp_path, monkeypatch, capsys):
    """Without the real photos the reader trains on rendered crops and says so; a one-model run
    keeps the other model's models.json entry; `one_shot --only classifier --resume-from`
    continues a reader export (models.json says its arch) with reader_from_onnx."""
    from vision.train.experiments.one_shot import main

    empty = tmp_path / "no-photos"  # a root holding no dataset folder
    empty.mkdir()
    monkeypatch.setenv("CRIB_REAL_CARDS", str(empty))
    out, work = tmp_path / "models", tmp_path / "work"
    out.mkdir()
    (out / "models.json").write_text(json.dumps({"detector": {"file": "detector.onnx", "imgsz": 320,
                                                              "classes": list(DETECTOR_CLASSES)}}))
    messages = []
    report = one_shot.run(out, work, one_shot.QUICK, log=messages.append, steps=("classifier",))
    assert [m for m in messages if "real photos" in m] == [
        f"real photos not found, the classifier trains on rendered crops only ({empty / 'cardcounterml'}: no images/ "
        "and labels/ here; "
        "the real labelled photos (CC BY 4.0, see README 'Real photos') go in this folder or $CRIB_REAL_CARDS)"]
    assert "classifier_real_val_accuracy" not in report
    config = load_models_config(out)
    assert config["detector"]["imgsz"] == 320  # kept: this run trained no detector
    assert config["classifier"]["arch"] == one_shot.READER_ARCH

    crops = np.random.default_rng(1).random((2, 3, 80, 80), dtype=np.float32)
    before = OnnxModel(out / "classifier.onnx", "onnxruntime").run(crops)
    capsys.readouterr()
    status = main(["--quick", "--only", "classifier", "--resume-from", str(out / "classifier.onnx"),
                   "--epochs", "1", "--images", "2", "--data-seed", "7", "--threads", "1", "--work", str(work)])
    assert status == 0
    continued = work / "candidate" / "classifier.onnx"
    after = OnnxModel(continued, "onnxruntime").run(crops)
    assert after.shape == before.shape and not np.allclose(after, before)
    assert one_shot.classifier_arch(continued) == one_shot.READER_ARCH  # by its input: no models.json there
    assert f"({one_shot.READER_ARCH}): val accuracy" in capsys.readouterr().err
