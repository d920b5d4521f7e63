"""The models-v4 reader's export is its own checkpoint, and `crib train` tells a reader export from
the small CNN of models v1-v3."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.train.experiments import one_shot


def _reader_with_trained_statistics(torch):
    """A reader whose batch norms hold weights and statistics no fresh reader has (as after
    training; the ONNX exporter stores equal tensors once, so fresh batch norms, all ones and
    zeros, would not each come back by name)."""
    from vision.train.reader import build_reader

    torch.manual_seed(1)
    model = build_reader(pretrained=False)
    generator = torch.Generator().manual_seed(2)
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.copy_(torch.randn(module.running_mean.shape, generator=generator) * 0.1)
            module.running_var.copy_(torch.rand(module.running_var.shape, generator=generator) + 0.5)
            module.weight.data.copy_(torch.rand(module.weight.shape, generator=generator) + 0.5)
            module.bias.data.copy_(torch.randn(module.bias.shape, generator=generator) * 0.1)
    return model.eval()


def test_reader_from_its_onnx_gives_identical_logits(tmp_path):
    import torch

    from vision.train.reader import READER_SIZE, build_reader, export_reader, reader_from_onnx

    model = _reader_with_trained_statistics(torch)
    path = export_reader(model, tmp_path / "classifier.onnx")
    torch.manual_seed(3)  # the reloaded model starts from other random weights: all of them must come from the file
    reloaded = reader_from_onnx(path)
    x = torch.from_numpy(np.random.default_rng(0).random((4, 3, READER_SIZE, READER_SIZE), dtype=np.float32))
    with torch.no_grad():
        expected, got = model(x).numpy(), reloaded(x).numpy()
        fresh = build_reader(pretrained=False).eval()(x).numpy()
    assert np.array_equal(expected, got)
    assert not np.allclose(expected, fresh, atol=1e-3)


def test_a_cnn_export_is_not_a_reader(tmp_path):
    from vision.train.classifier import build_model, export_classifier
    from vision.train.reader import reader_from_onnx

    path = export_classifier(build_model(), tmp_path / "classifier.onnx")
    with pytest.raises(ValueError, match="not a reader export"):
        reader_from_onnx(path)
    assert one_shot.classifier_arch(path) == one_shot.CNN_ARCH  # no models.json: by its 64 px input


def test_classifier_arch_comes_from_models_json_or_the_input_size(tmp_path):
    import torch

    from vision.train.reader import export_reader

    path = export_reader(_reader_with_trained_statistics(torch), tmp_path / "classifier.onnx")
    assert one_shot.classifier_arch(path) == one_shot.READER_ARCH  # no models.json: by its 80 px input
    one_shot.write_models_json(tmp_path, one_shot.QUICK)
    written = json.loads((tmp_path / "models.json").read_text())["classifier"]
    assert written["arch"] == one_shot.READER_ARCH and written["imgsz"] == 80
    assert one_shot.classifier_arch(path) == one_shot.READER_ARCH
    # models v3's models.json has no "arch": its classifier is the CNN
    (tmp_path / "models.json").write_text(json.dumps({"classifier": {"file": "classifier.onnx", "imgsz": 64}}))
    assert one_shot.classifier_arch(path) == one_shot.CNN_ARCH
    (tmp_path / "models.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="no readable classifier entry"):
        one_shot.classifier_arch(path)
    (tmp_path / "models.json").unlink()
    (tmp_path / "broken.onnx").write_bytes(b"not a model at all")
    with pytest.raises(ValueError, match="not an ONNX model"):
        one_shot.classifier_arch(tmp_path / "broken.onnx")


def test_a_reader_grown_deeper_keeps_its_blocks_and_its_export_says_its_depth(tmp_path):
    """`train_reader --start F --last-block N`: the start's stem and blocks carry over unchanged,
    the added blocks come from ImageNet, the head is new (it reads more channels); the export
    reloads at its own depth and `crib train` calls it a reader, by models.json or by the file."""
    import torch

    from vision.train.reader import (READER_SIZE, build_reader, deepen_reader, export_reader, reader_arch,
                                     reader_from_onnx)

    start = _reader_with_trained_statistics(torch)
    deeper = deepen_reader(start, 12)
    assert len(deeper.blocks) == 13 and deeper.head.in_features == 192
    kept = {name: value for name, value in start.state_dict().items() if not name.startswith("head.")}
    grown = deeper.state_dict()
    assert all(torch.equal(grown[name], value) for name, value in kept.items())
    imagenet = build_reader(pretrained=True, last_block=12).state_dict()
    assert torch.equal(grown["blocks.12._depthwise_conv.weight"], imagenet["blocks.12._depthwise_conv.weight"])
    with pytest.raises(ValueError, match="already ends at block 12"):
        deepen_reader(deeper, 11)
    with pytest.raises(ValueError, match="last block 16"):
        build_reader(pretrained=False, last_block=16)

    path = export_reader(deeper.eval(), tmp_path / "classifier.onnx")
    reloaded = reader_from_onnx(path)
    x = torch.from_numpy(np.random.default_rng(0).random((2, 3, READER_SIZE, READER_SIZE), dtype=np.float32))
    with torch.no_grad():
        assert len(reloaded.blocks) == 13 and np.array_equal(deeper(x).numpy(), reloaded(x).numpy())
    assert one_shot.classifier_arch(path) == reader_arch(12) == "efficientnet-lite0-cut12"  # by the file
    (tmp_path / "models.json").write_text(json.dumps({"classifier": {"file": "classifier.onnx", "arch": reader_arch(12)}}))
    assert one_shot.is_reader(one_shot.classifier_arch(path)) and not one_shot.is_reader(one_shot.CNN_ARCH)


def test_train_reader_says_a_depth_it_cannot_have_before_loading_any_crops(tmp_path, capsys):
    """A --last-block past Lite0's blocks is one line and exit 2 before the crops are read (a
    missing --synth file would otherwise be the error, after minutes of loading on real runs)."""
    from vision.train import train_reader

    with pytest.raises(SystemExit) as exit_info:
        train_reader.main(["--last-block", "16", "--synth", str(tmp_path / "missing.npz"), "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "last block 16" in err and "missing.npz" not in err
