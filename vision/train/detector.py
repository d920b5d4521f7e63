"""Detector training (corner indices + whole cards) from the model yaml, and ONNX export."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from vision.train.ultralytics_env import offline_ultralytics


@dataclass(frozen=True)
class FinetuneStage:
    """More epochs from the previous stage's final weights: no mosaic, no warm-up, the rate
    decaying linearly from lr0 to lr0 * lrf over ``epochs``; ``stop_after`` ends the stage
    early (the schedule still spans ``epochs``), as when a time box runs out."""

    epochs: int
    lr0: float
    lrf: float
    stop_after: int | None = None


@dataclass(frozen=True)
class DetectorRecipe:
    """How the detector trains: the model, augmentation, optimizer and threads (their one home),
    and the from-start schedule (``epochs``, ``lr0`` -> ``lr0 * lrf``: the models-v4 design's first
    stage, which the one-shot experiment and ``lite0_vs_yolo11n`` train). A recipe's stage states
    its own schedule and size (``vision/train/recipes/*.toml``); a continuation's schedule is a
    ``FinetuneStage`` of its own tool (``real_mix.CONTINUATION``, ``gpu_run.DeviceRun``)."""

    # ultralytics' yolo11n.yaml, or str(lite0_backbone.LITE0_YAML): the same neck and head on
    # EfficientNet-Lite0's ImageNet features (its backbone loads them when the trainer builds it)
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
    # Torch threads for CPU training. Ultralytics uses cpu_count - 1 (ONE on a 2-core machine);
    # measured in models/MODEL.md: 2 threads train ~1.8x faster here. 0 keeps ultralytics' choice.
    threads: int = 2
    # Stages 2, 3, ...: each continues from the previous stage's last weights (the one-shot
    # experiment's FULL states its two; none by default).
    finetune: tuple[FinetuneStage, ...] = ()
    # A time box for every stage (ultralytics' ``time``, hours of wall clock: it re-plans the epochs
    # and the rate schedule after each epoch to end on time); None trains ``epochs``.
    hours: float | None = None


def _common_train_args(data_yaml: Path, work: Path, recipe: DetectorRecipe, device: str) -> dict:
    """What every stage passes to ultralytics: data, size, seed, augmentation, optimizer."""
    return dict(
        data=str(Path(data_yaml).resolve()), imgsz=recipe.imgsz, batch=recipe.batch, device=device, workers=0,
        amp=False, plots=False, seed=recipe.seed, deterministic=True, project=str((work / "runs").resolve()),
        exist_ok=True, verbose=False, scale=recipe.scale, degrees=recipe.degrees, fliplr=recipe.fliplr,
        cache=recipe.cache, optimizer=recipe.optimizer, **({"time": recipe.hours} if recipe.hours else {}),
    )


def _training_yolo(work: Path):
    """Ultralytics' ``YOLO``, offline, with the Lite0 layer registered: a yaml or a checkpoint's yaml
    (the trainer rebuilds the model from it) may name ``Lite0Backbone``."""
    offline_ultralytics(work / "ultralytics")
    from ultralytics import YOLO

    from vision.train import lite0_backbone

    lite0_backbone.register()
    return YOLO


def _use_threads(threads: int) -> None:
    """Make ultralytics' CPU training use ``threads`` torch threads (it resets torch to its own
    NUM_THREADS when it selects the device)."""
    if threads > 0:
        import torch
        from ultralytics.utils import torch_utils

        torch_utils.NUM_THREADS = threads
        torch.set_num_threads(threads)


def train_detector(data_yaml: Path, work: Path, recipe: DetectorRecipe, device: str = "cpu") -> Path:
    """Train from scratch, then every fine-tune stage; returns the final stage's last weights (.pt)."""
    YOLO = _training_yolo(work)
    _use_threads(recipe.threads)
    YOLO(recipe.model_yaml).train(
        **_common_train_args(data_yaml, work, recipe, device), name="detector", epochs=recipe.epochs,
        mosaic=recipe.mosaic, close_mosaic=recipe.close_mosaic, pretrained=False, lr0=recipe.lr0,
        lrf=recipe.lrf, warmup_epochs=recipe.warmup_epochs,
    )
    weights = work / "runs" / "detector" / "weights" / "last.pt"
    return finetune_detector(weights, data_yaml, work, recipe, device)


def finetune_detector(weights: Path, data_yaml: Path, work: Path, recipe: DetectorRecipe, device: str = "cpu",
                      first_stage: int = 0) -> Path:
    """Run fine-tune stages ``first_stage``... from ``weights``; returns the final weights (.pt)."""
    for number, stage in enumerate(recipe.finetune[first_stage:], start=first_stage + 2):
        weights = run_stage(weights, data_yaml, work, recipe, stage, f"detector_stage{number}", device)
    return weights


def run_stage(weights: Path, data_yaml: Path, work: Path, recipe: DetectorRecipe, stage: FinetuneStage, name: str,
              device: str = "cpu", snapshot_minutes: float | None = None) -> Path:
    """One fine-tune stage from ``weights`` (any ultralytics checkpoint, e.g. a committed
    ``models/train/detector_last.pt``); ultralytics saves ``runs/NAME/weights/last.pt`` after
    every epoch, so a stopped stage leaves its last finished epoch. ``snapshot_minutes``: also write
    ``weights/snapshot.pt`` that often inside an epoch (an epoch at 640 px on 2 busy cores can outlast
    a session). Returns ``last.pt``."""
    YOLO = _training_yolo(work)
    _use_threads(recipe.threads)
    model = YOLO(str(weights))
    if stage.stop_after is not None:
        model.add_callback("on_fit_epoch_end", _stop_after(stage.stop_after))
    if snapshot_minutes:
        model.add_callback("on_train_batch_end", _snapshot_every(snapshot_minutes * 60))
    model.train(
        **_common_train_args(data_yaml, work, recipe, device), name=name, epochs=stage.epochs,
        mosaic=0.0, close_mosaic=0, lr0=stage.lr0, lrf=stage.lrf, warmup_epochs=0.0,
        save_period=1,  # weights/epochN.pt beside last.pt: every epoch can be judged afterwards
    )
    return work / "runs" / name / "weights" / "last.pt"


def publish_checkpoint(weights: Path, out: Path, work: Path) -> Path:
    """A checkpoint to commit beside the models (``models/train/detector_last.pt``): the EMA
    weights in half precision without the optimizer state (26 MB -> 5.5 MB); a continuation
    starts a fresh optimizer anyway."""
    offline_ultralytics(work / "ultralytics")
    from ultralytics.utils.torch_utils import strip_optimizer

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    strip_optimizer(str(weights), str(out))
    return out


def _snapshot_every(seconds: float):
    """A callback saving the trainer's EMA weights to ``weights/snapshot.pt`` every ``seconds``, in
    ultralytics' own checkpoint format (``run_stage`` can start from it), without touching last.pt."""
    import time

    due = [time.monotonic() + seconds]

    def snapshot(trainer) -> None:
        if time.monotonic() < due[0]:
            return
        due[0] = time.monotonic() + seconds
        kept = trainer.last, trainer.best, trainer.save_period
        trainer.last = trainer.best = trainer.wdir / "snapshot.pt"
        trainer.save_period = -1
        try:
            trainer.save_model()
        except Exception as error:  # a snapshot is a convenience: it never stops the training
            print(f"snapshot not saved: {error}")
        finally:
            trainer.last, trainer.best, trainer.save_period = kept
    return snapshot


def _stop_after(epochs: int):
    def stop(trainer) -> None:
        if trainer.epoch + 1 >= epochs:
            trainer.stop = True
    return stop


def export_detector(weights: Path, out: Path, imgsz: int, work: Path) -> Path:
    """Export to ONNX (no NMS, simplified; any input size, batch 1: at ``imgsz`` square its outputs
    are a static export's to the bit, measured on models v10, and the live view reads smaller
    frames, ``Recognizer.preview``); returns ``out``."""
    offline_ultralytics(work / "ultralytics")
    from ultralytics import YOLO

    exported = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, opset=12, simplify=True, dynamic=True,
                                         nms=False, device="cpu")
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, out)
    return out
