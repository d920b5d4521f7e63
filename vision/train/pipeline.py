"""``crib train``: the whole recipe from nothing to models/ (fixed seeds, no downloads).

Seeds: detector train scenes 1, detector val scenes 2, classifier train crops 3, classifier val
crops 4. Evaluation uses other seeds (bench: its own), never these.
"""

from __future__ import annotations

import datetime
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from vision.classes import CARD_CODES, DETECTOR_CLASSES
from vision.crops import CROP_MARGIN, CROP_SIZE
from vision.train.classifier import ClassifierRecipe
from vision.train.detector import DetectorRecipe, FinetuneStage

SEED_DETECTOR_TRAIN, SEED_DETECTOR_VAL, SEED_CROPS_TRAIN, SEED_CROPS_VAL = 1, 2, 3, 4
MODEL_VERSION = "3"


@dataclass(frozen=True)
class TrainRecipe:
    detector_images: int = 3000
    detector_val_images: int = 160
    detector_longest: int = 640  # detector scenes are rendered at about the size the detector sees
    crop_scenes: int = 2400
    crop_val_scenes: int = 120
    crops_per_index: int = 2
    decks: tuple[str, ...] | None = None  # None: every training deck
    detector: DetectorRecipe = field(default_factory=DetectorRecipe)
    classifier: ClassifierRecipe = field(default_factory=ClassifierRecipe)


FULL = TrainRecipe()
QUICK = TrainRecipe(
    detector_images=6, detector_val_images=2, detector_longest=256, crop_scenes=3, crop_val_scenes=1,
    crops_per_index=1, decks=("kennard",),
    detector=DetectorRecipe(imgsz=128, epochs=1, batch=4, cache=False, mosaic=0.0, close_mosaic=0,
                            finetune=(FinetuneStage(2, 0.001, 0.5, stop_after=1),)),
    classifier=ClassifierRecipe(epochs=1, batch=32),
)


def write_models_json(out: Path, recipe: TrainRecipe, extra: dict | None = None) -> Path:
    info = {
        "detector": {"file": "detector.onnx", "imgsz": recipe.detector.imgsz, "classes": list(DETECTOR_CLASSES)},
        "classifier": {"file": "classifier.onnx", "imgsz": CROP_SIZE, "margin": CROP_MARGIN, "classes": list(CARD_CODES)},
        "version": MODEL_VERSION,
        "trained": datetime.date.today().isoformat(),
    }
    if extra:
        info.update(extra)
    path = Path(out) / "models.json"
    path.write_text(json.dumps(info, indent=2) + "\n")
    return path


def run(out: Path, work: Path, recipe: TrainRecipe = FULL, log=print, progress=None, steps=("detector", "classifier")) -> dict:
    """Render the data, train both models, export ONNX into ``out``; returns timings and metrics."""
    from vision.synth.dataset import write_dataset
    from vision.train import classifier as clf
    from vision.train import crops_data
    from vision.train.detector import export_detector, train_detector

    out, work = Path(out), Path(work)
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    report: dict = {"recipe": _plain(asdict(recipe))}
    if "detector" in steps:
        t = time.time()
        train_dir = work / "det_train"
        write_dataset(work / "det_val", recipe.detector_val_images, SEED_DETECTOR_VAL, decks=recipe.decks,
                      longest=recipe.detector_longest, mixed=True, progress=progress)
        data = write_dataset(train_dir, recipe.detector_images, SEED_DETECTOR_TRAIN, decks=recipe.decks,
                             longest=recipe.detector_longest, mixed=True, progress=progress)
        data.write_text(data.read_text().replace("val: images", f"val: {(work / 'det_val' / 'images').resolve()}"))
        report["detector_data_s"] = round(time.time() - t, 1)
        log(f"detector data: {recipe.detector_images} + {recipe.detector_val_images} scenes in {report['detector_data_s']} s")
        t = time.time()
        weights = train_detector(data, work, recipe.detector)
        report["detector_train_s"] = round(time.time() - t, 1)
        export_detector(weights, out / "detector.onnx", recipe.detector.imgsz, work)
        log(f"detector trained in {report['detector_train_s']} s -> {out / 'detector.onnx'}")
    if "classifier" in steps:
        t = time.time()
        train_npz = crops_data.build_crops(work / "crops_train.npz", recipe.crop_scenes, SEED_CROPS_TRAIN,
                                           recipe.crops_per_index, progress=progress)
        val_npz = crops_data.build_crops(work / "crops_val.npz", recipe.crop_val_scenes, SEED_CROPS_VAL, 1,
                                         progress=progress)
        report["crops_data_s"] = round(time.time() - t, 1)
        train_set, val_set = np.load(train_npz), np.load(val_npz)
        log(f"classifier data: {len(train_set['labels'])} train crops, {len(val_set['labels'])} val crops "
            f"in {report['crops_data_s']} s")
        t = time.time()
        model, accuracy = clf.train_classifier(train_set["crops"], train_set["labels"], recipe.classifier,
                                               val=(val_set["crops"], val_set["labels"]), log=log)
        report["classifier_train_s"] = round(time.time() - t, 1)
        report["classifier_val_accuracy"] = accuracy
        clf.export_classifier(model, out / "classifier.onnx")
        log(f"classifier trained in {report['classifier_train_s']} s, val accuracy {accuracy}")
    write_models_json(out, recipe)
    (work / "train_report.json").write_text(json.dumps(report, indent=2))
    return report


@dataclass(frozen=True)
class Continuation:
    """More detector training from a checkpoint (a committed ``models/train/detector_last.pt``)
    on a freshly rendered scene set: ``images`` scenes of dataset ``seed`` (5-20 are kept for
    continuations; 1-4 are the recipe's, evaluation seeds are far above)."""

    weights: Path
    epochs: int
    images: int = 6000
    seed: int = 5
    lr0: float = 0.0005
    lrf: float = 0.1
    stop_after: int | None = None
    name: str = "detector_continue"


def continue_detector(plan: Continuation, out: Path, work: Path, recipe: TrainRecipe = FULL, log=print,
                      progress=None) -> Path:
    """Render the continuation's scenes, train, export ``detector.onnx`` and the checkpoint to
    commit beside it (``train/detector_last.pt``) into ``out``; returns the stage's ``last.pt``
    (saved after every epoch, so a stopped run keeps its last epoch)."""
    from vision.synth.dataset import write_dataset
    from vision.train.detector import export_detector, publish_checkpoint, run_stage

    out, work = Path(out), Path(work)
    if not 5 <= plan.seed <= 20:
        raise ValueError(f"continuation seed {plan.seed}: use 5..20 (1-4 are the recipe's own sets)")
    t = time.time()
    write_dataset(work / "det_val", recipe.detector_val_images, SEED_DETECTOR_VAL, decks=recipe.decks,
                  longest=recipe.detector_longest, mixed=True, progress=progress)
    data = write_dataset(work / f"det_train_s{plan.seed}", plan.images, plan.seed, decks=recipe.decks,
                         longest=recipe.detector_longest, mixed=True, progress=progress)
    data.write_text(data.read_text().replace("val: images", f"val: {(work / 'det_val' / 'images').resolve()}"))
    log(f"continuation data: {plan.images} scenes (seed {plan.seed}) in {time.time() - t:.0f} s")
    stage = FinetuneStage(plan.epochs, plan.lr0, plan.lrf, plan.stop_after)
    weights = run_stage(plan.weights, data, work, recipe.detector, stage, plan.name)
    export_detector(weights, out / "detector.onnx", recipe.detector.imgsz, work)
    publish_checkpoint(weights, out / "train" / "detector_last.pt", work)
    log(f"detector continued for {plan.stop_after or plan.epochs} epochs -> {out / 'detector.onnx'}, "
        f"checkpoint {out / 'train' / 'detector_last.pt'}")
    return weights


@dataclass(frozen=True)
class ClassifierContinuation:
    """More classifier training from an exported ``classifier.onnx`` (rebuilt by
    ``recover.recover_classifier``) on crops of freshly rendered scenes of data ``mix``, cut
    around true boxes moved like the detector moves them (``crops_data.MEASURED_JITTER``)."""

    start: Path
    epochs: int
    scenes: int = 1200
    seed: int = 7
    val_scenes: int | None = None  # default: a tenth of ``scenes``
    val_seed: int = 8
    per_index: int = 2
    lr: float = 1e-3
    mix: str = "v3"


def continue_classifier(plan: ClassifierContinuation, out: Path, work: Path, recipe: TrainRecipe = FULL, log=print,
                        progress=None) -> float:
    """Render the crops, continue the classifier, export ``classifier.onnx`` into ``out``;
    returns the val accuracy (crops of ``plan.val_seed``) before and after, logged."""
    from dataclasses import replace

    from vision.train import classifier as clf
    from vision.train import crops_data
    from vision.train.recover import recover_classifier

    out, work = Path(out), Path(work)
    for seed in (plan.seed, plan.val_seed):
        if not 5 <= seed <= 20:
            raise ValueError(f"continuation seed {seed}: use 5..20 (1-4 are the recipe's own sets)")
    t = time.time()
    tag = f"{plan.mix}_s{plan.seed}_{plan.scenes}"
    train_npz = crops_data.build_crops(work / f"crops_{tag}.npz", plan.scenes, plan.seed, plan.per_index,
                                       progress=progress, mix=plan.mix, jitter=crops_data.MEASURED_JITTER)
    val_scenes = plan.val_scenes or max(1, plan.scenes // 10)
    val_npz = crops_data.build_crops(work / f"crops_val_{plan.mix}_s{plan.val_seed}_{val_scenes}.npz",
                                     val_scenes, plan.val_seed, 2, progress=progress, mix=plan.mix,
                                     jitter=crops_data.MEASURED_JITTER)
    train_set, val_set = np.load(train_npz), np.load(val_npz)
    log(f"classifier continuation data: {len(train_set['labels'])} crops, {len(val_set['labels'])} val crops "
        f"in {time.time() - t:.0f} s")
    model = recover_classifier(plan.start, train_set["crops"])
    before = clf.evaluate(model, val_set["crops"], val_set["labels"])
    log(f"classifier from {plan.start}: val accuracy {before:.4f}")
    steps = replace(recipe.classifier, epochs=plan.epochs, lr=plan.lr)
    model, after = clf.train_classifier(train_set["crops"], train_set["labels"], steps,
                                        val=(val_set["crops"], val_set["labels"]), log=log, start=model)
    clf.export_classifier(model, out / "classifier.onnx")
    log(f"classifier continued: val accuracy {before:.4f} -> {after:.4f} -> {out / 'classifier.onnx'}")
    return after


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
