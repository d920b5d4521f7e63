"""Detector training (corner indices + whole cards) from the model yaml, and ONNX export."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from vision.train.ultralytics_env import offline_ultralytics


@dataclass(frozen=True)
class DetectorRecipe:
    model_yaml: str = "yolo11n.yaml"
    imgsz: int = 512
    epochs: int = 4
    # A short schedule: AdamW at a fixed rate with a brief warm-up (ultralytics' default warm-up
    # is 3 epochs, most of a CPU-sized run), decaying linearly to lr0 * lrf.
    optimizer: str = "AdamW"
    lr0: float = 0.0025
    lrf: float = 0.05
    warmup_epochs: float = 0.25
    batch: int = 16
    seed: int = 0
    mosaic: float = 0.5
    close_mosaic: int = 1
    scale: float = 0.3
    degrees: float = 0.0  # scenes already turn cards any angle
    fliplr: float = 0.5
    cache: bool | str = "ram"
    # Stage 2: more epochs from stage 1's final weights, low fixed rate, no mosaic, no warm-up.
    finetune_epochs: int = 1
    finetune_lr0: float = 0.0004


def train_detector(data_yaml: Path, work: Path, recipe: DetectorRecipe, device: str = "cpu") -> Path:
    """Train from scratch; returns the path of the best weights (.pt)."""
    offline_ultralytics(work / "ultralytics")
    from ultralytics import YOLO

    model = YOLO(recipe.model_yaml)
    model.train(
        data=str(Path(data_yaml).resolve()), imgsz=recipe.imgsz, epochs=recipe.epochs, batch=recipe.batch,
        device=device, workers=0, amp=False, plots=False, seed=recipe.seed, deterministic=True,
        project=str((work / "runs").resolve()), name="detector", exist_ok=True, verbose=False,
        mosaic=recipe.mosaic, close_mosaic=recipe.close_mosaic, scale=recipe.scale, degrees=recipe.degrees,
        fliplr=recipe.fliplr, cache=recipe.cache, pretrained=False, optimizer=recipe.optimizer, lr0=recipe.lr0,
        lrf=recipe.lrf, warmup_epochs=recipe.warmup_epochs,
    )
    weights = work / "runs" / "detector" / "weights" / "last.pt"
    if recipe.finetune_epochs > 0:
        stage2 = YOLO(str(weights))
        stage2.train(
            data=str(Path(data_yaml).resolve()), imgsz=recipe.imgsz, epochs=recipe.finetune_epochs,
            batch=recipe.batch, device=device, workers=0, amp=False, plots=False, seed=recipe.seed,
            deterministic=True, project=str((work / "runs").resolve()), name="detector_finetune", exist_ok=True,
            verbose=False, mosaic=0.0, close_mosaic=0, scale=recipe.scale, degrees=recipe.degrees,
            fliplr=recipe.fliplr, cache=recipe.cache, optimizer=recipe.optimizer, lr0=recipe.finetune_lr0,
            lrf=0.25, warmup_epochs=0.0,
        )
        weights = work / "runs" / "detector_finetune" / "weights" / "last.pt"
    return weights


def export_detector(weights: Path, out: Path, imgsz: int, work: Path) -> Path:
    """Export to ONNX (static square input, no NMS, simplified); returns ``out``."""
    offline_ultralytics(work / "ultralytics")
    from ultralytics import YOLO

    exported = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, opset=12, simplify=True, dynamic=False,
                                         nms=False, device="cpu")
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, out)
    return out
