"""The index classifier: a small CNN on 64x64 corner-index crops -> 52 card logits; ONNX export."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.classes import CARD_CODES
from vision.crops import CROP_SIZE


@dataclass(frozen=True)
class ClassifierRecipe:
    epochs: int = 16
    batch: int = 256
    lr: float = 3e-3
    weight_decay: float = 5e-4
    seed: int = 0
    threads: int = 2


def build_model():
    import torch.nn as nn

    def block(cin, cout, stride=1):
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # Stride-2 stem then pooling: an index glyph reads fine at 32x32, and CPU training stays cheap.
    layers = (
        block(3, 32, 2)                                          # 32x32
        + [nn.MaxPool2d(2)] + block(32, 64) + block(64, 64)      # 16x16
        + [nn.MaxPool2d(2)] + block(64, 96) + block(96, 96)      # 8x8
        + [nn.MaxPool2d(2)] + block(96, 128)                     # 4x4
        + [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, len(CARD_CODES))]
    )
    return nn.Sequential(*layers)


def _augment(torch, x, generator):
    """On-the-fly: quarter turns, brightness/contrast/colour jitter, noise (crops are N,3,64,64 in [0,1])."""
    n = x.shape[0]
    k = int(torch.randint(0, 4, (1,), generator=generator))
    x = torch.rot90(x, k, dims=(2, 3))
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=generator) * 2 - 1)
    colour = 1 + 0.12 * (torch.rand(n, 3, 1, 1, generator=generator) * 2 - 1)
    bias = 0.12 * (torch.rand(n, 1, 1, 1, generator=generator) * 2 - 1)
    x = x * gain * colour + bias
    x = x + 0.03 * torch.rand(n, 1, 1, 1, generator=generator) * torch.randn(x.shape, generator=generator)
    gray = torch.rand(n, 1, 1, 1, generator=generator) < 0.1
    x = torch.where(gray, x.mean(dim=1, keepdim=True).expand_as(x), x)
    return _as_phones_see(torch, x.clamp(0, 1), generator)


# The real misreads are a neighbouring rank on a blurred index (5H as 6H, 6C as 8C: MODEL.md v4):
# a share of every batch is defocused or smeared, dimmed or warmed, as phone and webcam photos are.
BLUR_SHARE, MOTION_SHARE, DIM_SHARE, WARM_SHARE = 0.3, 0.15, 0.2, 0.2
BLUR_SIGMA = (0.6, 2.2)  # px of a 64-80 px crop: a soft webcam index is ~1.5
MOTION_LENGTH = (3, 8)  # px, along the rows or the columns (the quarter turns give the rest)


def _as_phones_see(torch, x, generator):
    import torch.nn.functional as F

    n, c = x.shape[0], x.shape[1]

    def some(share):
        return torch.rand(n, 1, 1, 1, generator=generator) < share

    def uniform(low, high):
        return low + (high - low) * float(torch.rand(1, generator=generator))

    sigma = uniform(*BLUR_SIGMA)  # one kernel a batch, applied to a random share of it
    radius = int(np.ceil(2.5 * sigma))
    taps = torch.exp(-torch.arange(-radius, radius + 1, dtype=x.dtype) ** 2 / (2 * sigma ** 2))
    taps = taps / taps.sum()
    blurred = F.conv2d(F.pad(x, (radius, radius, 0, 0), mode="replicate"), taps.view(1, 1, 1, -1).repeat(c, 1, 1, 1),
                       groups=c)
    blurred = F.conv2d(F.pad(blurred, (0, 0, radius, radius), mode="replicate"),
                       taps.view(1, 1, -1, 1).repeat(c, 1, 1, 1), groups=c)
    x = torch.where(some(BLUR_SHARE), blurred, x)
    length = int(torch.randint(MOTION_LENGTH[0], MOTION_LENGTH[1] + 1, (1,), generator=generator))
    line = torch.full((c, 1, 1, length), 1.0 / length, dtype=x.dtype)
    smeared = F.conv2d(F.pad(x, (length // 2, length - 1 - length // 2, 0, 0), mode="replicate"), line, groups=c)
    x = torch.where(some(MOTION_SHARE), smeared, x)
    x = torch.where(some(DIM_SHARE), x * uniform(0.45, 0.8), x)
    warm = torch.tensor([1.12, 1.0, 0.82], dtype=x.dtype).view(1, 3, 1, 1)  # RGB: tungsten light
    return torch.where(some(WARM_SHARE), x * warm, x).clamp(0, 1)


def train_classifier(crops: np.ndarray, labels: np.ndarray, recipe: ClassifierRecipe,
                     val: tuple[np.ndarray, np.ndarray] | None = None, log=print, start=None):
    """Train on RGB uint8 crops (N,64,64,3); returns the model (eval mode) and the val accuracy.
    ``start``: a model to continue from (e.g. ``recover.recover_classifier``) instead of a new one."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(recipe.seed)
    torch.set_num_threads(recipe.threads)
    generator = torch.Generator().manual_seed(recipe.seed)
    model = start if start is not None else build_model()
    data = torch.from_numpy(crops)  # uint8 NHWC, shared with the caller: turned NCHW a batch at a time
    target = torch.from_numpy(labels.astype(np.int64))
    steps = recipe.epochs * max(1, (len(data) + recipe.batch - 1) // recipe.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=recipe.lr, total_steps=steps, pct_start=0.15)
    accuracy = None
    for epoch in range(recipe.epochs):
        model.train()
        order = torch.randperm(len(data), generator=generator)
        total, correct, loss_sum = 0, 0, 0.0
        for start in range(0, len(data), recipe.batch):
            idx = order[start:start + recipe.batch]
            x = _augment(torch, data[idx].permute(0, 3, 1, 2).float() / 255.0, generator)
            y = target[idx]
            logits = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.item() * len(idx)
            total += len(idx)
            correct += int((logits.argmax(1) == y).sum())
        if val is not None:
            accuracy = evaluate(model, *val)
        log(f"classifier epoch {epoch + 1}/{recipe.epochs}: loss {loss_sum / total:.4f} "
            f"train acc {correct / total:.4f}" + (f" val acc {accuracy:.4f}" if accuracy is not None else ""))
    model.eval()
    return model, accuracy


def predict(model, crops: np.ndarray, batch: int = 1024) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(crops), batch):
            x = torch.from_numpy(crops[start:start + batch]).permute(0, 3, 1, 2).float() / 255.0
            out.append(model(x).numpy())
    return np.concatenate(out) if out else np.zeros((0, len(CARD_CODES)), np.float32)


def evaluate(model, crops: np.ndarray, labels: np.ndarray) -> float:
    if len(crops) == 0:
        return float("nan")
    return float((predict(model, crops).argmax(1) == labels).mean())


def export_classifier(model, out: Path) -> Path:
    """ONNX: input "crops" Nx3x64x64 float32 in [0,1] (dynamic N), output "logits" Nx52."""
    import torch

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(model, dummy, str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)
    return out
