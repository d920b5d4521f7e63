"""Rebuild a trainable detector checkpoint from an exported ``detector.onnx``.

Models v1 and v2 were committed as ONNX only, so training could not continue from them. The
export fuses each convolution with its batch norm (W' = W * g / s, b' = beta - mean * g / s); the
ONNX initialisers keep the module names, so every weight goes back to its module. A fused pair
cannot be split exactly, so each batch norm is re-derived from activation statistics measured on
training images: with the conv's per-channel output mean m and variance v, the batch norm
(mean m, var v - eps, weight sqrt(v), bias m + b') is the identity plus b' in eval mode (so the
rebuilt model computes what the ONNX computes) and, in train mode, normalises by statistics close
to those, so fine-tuning starts from the trained function rather than a rescaled one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.train.ultralytics_env import offline_ultralytics

CALIBRATION_IMAGES = 96  # images whose activations set each batch norm's statistics
CALIBRATION_BATCH = 16


class RecoverError(ValueError):
    """The ONNX file does not match the model yaml it is said to come from."""


def _letterboxed(path: Path, imgsz: int) -> np.ndarray:
    """The detector's input (3xSxS RGB in [0, 1]) for an image file, letterboxed as at run time."""
    import cv2

    from vision.letterbox import Letterbox

    image = cv2.imread(str(path))
    return Letterbox.fit(image.shape[1], image.shape[0], imgsz).to_tensor(image)[0]


def load_onnx_weights(model, onnx_path: Path) -> list:
    """Put the ONNX initialisers into ``model``; returns the (conv, batch norm) pairs whose
    batch norms still need their statistics."""
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.modules.conv import Conv

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(onnx_path)).graph.initializer}
    used, fused = set(), []
    with torch.no_grad():
        for name, module in model.named_modules():
            if isinstance(module, Conv) and hasattr(module, "bn"):
                w, b = weights.get(f"{name}.conv.weight"), weights.get(f"{name}.conv.bias")
                if w is None or b is None or tuple(w.shape) != tuple(module.conv.weight.shape):
                    raise RecoverError(f"{onnx_path}: no fused weights of shape {tuple(module.conv.weight.shape)} for {name}")
                module.conv.weight.copy_(torch.tensor(w))
                _as_identity_plus_bias(module.bn, b)
                used.update((f"{name}.conv.weight", f"{name}.conv.bias"))
                fused.append((module.conv, module.bn))
            elif isinstance(module, torch.nn.Conv2d) and f"{name}.weight" in weights:
                module.weight.copy_(torch.tensor(weights[f"{name}.weight"]))
                used.add(f"{name}.weight")
                if module.bias is not None:
                    module.bias.copy_(torch.tensor(weights[f"{name}.bias"]))
                    used.add(f"{name}.bias")
    missing = [k for k in weights if k.endswith((".weight", ".bias")) and k not in used]
    if missing:
        raise RecoverError(f"{onnx_path}: {len(missing)} weights with no module, first {missing[0]}")
    return fused


def calibrate_batch_norms(model, pairs: list, batches) -> None:
    """Measure each fused conv's output statistics in eval mode (where the model equals the ONNX)
    over ``batches`` (float tensors the model takes) and fold them into its batch norm without
    changing the eval-mode function. ``pairs``: (conv, batch norm) modules."""
    import torch

    sums = [[0.0, 0.0, 0] for _ in pairs]

    def hook(acc):
        def record(_module, _inputs, output):
            z = output.detach().double()
            acc[0] = acc[0] + z.sum(dim=(0, 2, 3))
            acc[1] = acc[1] + (z * z).sum(dim=(0, 2, 3))
            acc[2] += z.numel() // z.shape[1]
        return record

    handles = [conv.register_forward_hook(hook(acc)) for (conv, _), acc in zip(pairs, sums)]
    model.eval()
    with torch.no_grad():
        for batch in batches:
            model(batch)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for (_, bn), (total, squares, count) in zip(pairs, sums):
            mean = total / count
            var = (squares / count - mean * mean).clamp(min=1e-4)
            bias = bn.bias.double().clone()
            bn.running_mean.copy_(mean.float())
            bn.running_var.copy_((var - bn.eps).clamp(min=1e-6).float())
            bn.weight.copy_(var.sqrt().float())
            bn.bias.copy_((mean + bias).float())


def _as_identity_plus_bias(bn, bias) -> None:
    """A batch norm that adds ``bias`` and nothing else in eval mode (before calibration)."""
    import torch

    bn.weight.fill_(1.0)
    bn.bias.copy_(torch.tensor(bias))
    bn.running_mean.zero_()
    bn.running_var.fill_(1.0 - bn.eps)


def _image_batches(images: list[Path], imgsz: int):
    import torch

    for start in range(0, len(images), CALIBRATION_BATCH):
        yield torch.from_numpy(np.stack([_letterboxed(p, imgsz) for p in images[start:start + CALIBRATION_BATCH]]))


def recover_checkpoint(onnx_path: Path, images_dir: Path, out: Path, work: Path, model_yaml: str = "yolo11n.yaml",
                       nc: int = 2, imgsz: int = 512) -> Path:
    """Write an ultralytics checkpoint (``out``) equal in eval mode to ``onnx_path``."""
    offline_ultralytics(work / "ultralytics")
    import torch
    from ultralytics.nn.tasks import DetectionModel

    model = DetectionModel(model_yaml, nc=nc, verbose=False)
    fused = load_onnx_weights(model, onnx_path)
    images = sorted(Path(images_dir).glob("*.jpg"))[:CALIBRATION_IMAGES]
    if not images:
        raise RecoverError(f"{images_dir}: no .jpg images to calibrate the batch norms on")
    calibrate_batch_norms(model, fused, _image_batches(images, imgsz))
    model.names = {0: "index", 1: "card"} if nc == 2 else {i: str(i) for i in range(nc)}
    model.args = {"imgsz": imgsz, "task": "detect"}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"epoch": -1, "model": model.half(), "ema": None, "updates": 0, "optimizer": None,
                "train_args": {"imgsz": imgsz, "task": "detect"}, "recovered_from": str(onnx_path)}, out)
    return out


def recover_classifier(onnx_path: Path, crops: np.ndarray):
    """The index classifier (``classifier.build_model``) equal in eval mode to ``onnx_path``,
    its batch norms calibrated on ``crops`` (N, 64, 64, 3 RGB uint8). The export names fused
    convs by number, so they are matched in graph order."""
    import onnx
    import torch
    from onnx import numpy_helper

    from vision.train.classifier import build_model

    graph = onnx.load(str(onnx_path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [[weights[name] for name in node.input[1:]] for node in graph.node if node.op_type == "Conv"]
    linear = [[weights[name] for name in node.input[1:]] for node in graph.node if node.op_type == "Gemm"]
    model = build_model()
    modules = list(model)
    pairs = [(m, modules[i + 1]) for i, m in enumerate(modules) if isinstance(m, torch.nn.Conv2d)]
    fc = [m for m in modules if isinstance(m, torch.nn.Linear)]
    if len(convs) != len(pairs) or len(linear) != len(fc):
        raise RecoverError(f"{onnx_path}: {len(convs)} convs / {len(linear)} linear layers, the model has "
                           f"{len(pairs)} / {len(fc)}")
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(pairs, convs):
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise RecoverError(f"{onnx_path}: conv weights {tuple(w.shape)}, expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.tensor(w))
            _as_identity_plus_bias(bn, b)
        fc[0].weight.copy_(torch.tensor(linear[0][0]))
        fc[0].bias.copy_(torch.tensor(linear[0][1]))
    x = torch.from_numpy(crops[:CALIBRATION_IMAGES * 8]).permute(0, 3, 1, 2).float() / 255.0
    calibrate_batch_norms(model, pairs, [x[i:i + 256] for i in range(0, len(x), 256)])
    return model.eval()
