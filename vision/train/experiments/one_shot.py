"""Experiment (models v4, not in any recipe): the one-shot pipeline of the models-v4 design, which
``crib train`` ran before recipes did (``--quick``, ``--resume-from``, ``--only``, ``--real``):
render, train both models, export, in one go (fixed seeds, no downloads), or continue a committed
checkpoint on fresh scenes. The shipped models are rebuilt by their recipe instead
(``vision.train.recipe``, ``crib train``); models this pipeline writes say version 4, the design it
trains. The quick run is CI's smoke training (``tests/vision/test_train_smoke.py``): a few tiny
images, one epoch, both models written and loaded.

    python -m vision.train.experiments.one_shot --quick                 # minutes: build/train-quick/models
    python -m vision.train.experiments.one_shot --resume-from models/train/detector_last.pt --epochs 2 [--real]
    python -m vision.train.experiments.one_shot --only classifier --resume-from models/classifier.onnx --epochs 1

Seeds: detector train scenes 1, detector val scenes 2, classifier train crops 3, classifier val
crops 4. Evaluation uses other seeds (bench: its own), never these.

The classifier is the models-v4 reader (``vision.train.reader``: EfficientNet-Lite0 pretrained,
from the installed wheel) on rendered crops plus the real photos' train split when they are
present (``vision.train.real_cards``); the real validation split is only measured, never trained on.
"""

from __future__ import annotations

import datetime
import json
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from vision.classes import CARD_CODES, DETECTOR_CLASSES
from vision.crops import CROP_MARGIN, CROP_SIZE
from vision.train import real_mix
from vision.train.classifier import ClassifierRecipe
from vision.train.detector import DetectorRecipe, FinetuneStage
from vision.train.reader import ARCH_PREFIX, READER_SIZE, last_block_of, reader_arch
from vision.train.train_reader import READER_RECIPE

SEED_DETECTOR_TRAIN, SEED_DETECTOR_VAL, SEED_CROPS_TRAIN, SEED_CROPS_VAL = 1, 2, 3, 4
MODEL_VERSION = "4"  # the design this pipeline trains (a YOLO11n detector, the cut-10 reader)
# models.json "arch" of the classifier: the reader of models v4, or the small CNN of v1-v3
# (a models.json without "arch" is one of those).
READER_ARCH, CNN_ARCH = reader_arch(), "cnn7"  # "efficientnet-lite0-cut10": the reader `crib train` trains
CNN_RECIPE = ClassifierRecipe()  # models v3's classifier (a --resume-from of one continues with it)


def is_reader(arch: str) -> bool:
    """Whether a models.json "arch" names the reader (at any depth, see ``train_reader --last-block``)
    rather than the CNN."""
    return arch.startswith(ARCH_PREFIX)


# A --real detector continuation renders this many v3 scenes beside the real photos (real_mix's).
REAL_MIX_IMAGES = real_mix.SYNTH_IMAGES


@dataclass(frozen=True)
class TrainRecipe:
    detector_images: int = 3000
    detector_val_images: int = 160
    detector_longest: int = 640  # detector scenes are rendered at about the size the detector sees
    crop_scenes: int = 500
    crop_val_scenes: int = 120
    crops_per_index: int = 1
    decks: tuple[str, ...] | None = None  # None: every training deck
    crop_mix: str = "v3"  # the rendered crops' data mix (jittered as models v2's detector erred)
    real_photos: int | None = None  # real photos used of each split side (None: all of them)
    real_val_images: int = real_mix.SYNTH_VAL_IMAGES  # rendered val scenes of a --real detector continuation
    # From the start (DetectorRecipe's schedule), then stage 2 (one epoch at a low rate, measured
    # first) and stage 3 (the longer run that followed it).
    detector: DetectorRecipe = DetectorRecipe(finetune=(FinetuneStage(1, 0.0004, 0.25),
                                                        FinetuneStage(8, 0.001, 0.05, stop_after=7)))
    # train_reader's settings on the detector's threads (--threads sets both)
    classifier: ClassifierRecipe = replace(READER_RECIPE, threads=DetectorRecipe.threads)


FULL = TrainRecipe()
QUICK = TrainRecipe(
    detector_images=6, detector_val_images=2, detector_longest=256, crop_scenes=3, crop_val_scenes=1,
    crops_per_index=1, decks=("kennard",), real_photos=4, real_val_images=2,
    detector=DetectorRecipe(imgsz=128, epochs=1, batch=4, cache=False, mosaic=0.0, close_mosaic=0,
                            finetune=(FinetuneStage(2, 0.001, 0.5, stop_after=1),)),
    classifier=replace(FULL.classifier, epochs=1, batch=32),
)


def write_models_json(out: Path, recipe: TrainRecipe, extra: dict | None = None) -> Path:
    info = {
        "detector": {"file": "detector.onnx", "imgsz": recipe.detector.imgsz, "classes": list(DETECTOR_CLASSES)},
        "classifier": {"file": "classifier.onnx", "arch": READER_ARCH, "imgsz": READER_SIZE, "margin": CROP_MARGIN,
                       "classes": list(CARD_CODES)},
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
        from vision.train.crops_data import MEASURED_JITTER
        from vision.train.reader import build_reader, export_reader

        t = time.time()
        rendered = crops_data.build_crops(work / f"crops{READER_SIZE}_{recipe.crop_mix}_s{SEED_CROPS_TRAIN}.npz",
                                          recipe.crop_scenes, SEED_CROPS_TRAIN, recipe.crops_per_index,
                                          progress=progress, mix=recipe.crop_mix, jitter=MEASURED_JITTER,
                                          crop_size=READER_SIZE)
        val_npz = crops_data.build_crops(work / f"crops{READER_SIZE}_val_{recipe.crop_mix}_s{SEED_CROPS_VAL}.npz",
                                         recipe.crop_val_scenes, SEED_CROPS_VAL, 1, progress=progress,
                                         mix=recipe.crop_mix, jitter=MEASURED_JITTER, crop_size=READER_SIZE)
        rendered_set, val_set = np.load(rendered), np.load(val_npz)
        crops, labels, real_val = _with_real_crops(rendered_set["crops"], rendered_set["labels"], recipe, log)
        report["crops_data_s"] = round(time.time() - t, 1)
        log(f"classifier data: {len(labels)} train crops ({len(rendered_set['labels'])} rendered), "
            f"{len(val_set['labels'])} rendered val crops in {report['crops_data_s']} s")
        t = time.time()
        model, accuracy = clf.train_classifier(crops, labels, recipe.classifier, val=(val_set["crops"], val_set["labels"]),
                                               log=log, start=build_reader(pretrained=True))
        report["classifier_train_s"] = round(time.time() - t, 1)
        report["classifier_val_accuracy"] = accuracy
        export_reader(model, out / "classifier.onnx")
        message = f"classifier trained in {report['classifier_train_s']} s, rendered val accuracy {accuracy}"
        if real_val is not None:
            report["classifier_real_val_accuracy"] = clf.evaluate(model, *real_val)
            message += f", real val accuracy {report['classifier_real_val_accuracy']:.4f}"
        log(message)
    # A one-model run keeps the other model's entry: its file in ``out`` is still the old one.
    previous = json.loads((out / "models.json").read_text()) if (out / "models.json").is_file() else {}
    write_models_json(out, recipe, {name: previous[name] for name in ("detector", "classifier")
                                    if name not in steps and name in previous})
    (work / "train_report.json").write_text(json.dumps(report, indent=2))
    return report


@dataclass(frozen=True)
class Continuation:
    """More detector training from a checkpoint (a committed ``models/train/detector_last.pt``)
    on a freshly rendered scene set: ``images`` scenes of dataset ``seed`` (5-20 are kept for
    continuations; 1-4 are the recipe's, evaluation seeds are far above).

    ``real``: on the real photos' train split beside ``images`` rendered v3 scenes instead, as
    ``vision/train/real_mix.py`` trains (its data, its seeds 9 and 10); see ``real_continuation``."""

    weights: Path
    epochs: int
    images: int = 6000
    seed: int = 5
    lr0: float = 0.0005
    lrf: float = 0.1
    stop_after: int | None = None
    name: str = "detector_continue"
    real: bool = False


def real_continuation(weights: Path, epochs: int, images: int = REAL_MIX_IMAGES) -> Continuation:
    """A ``real`` continuation with real_mix's schedule (``real_mix.CONTINUATION``'s rate) and run name."""
    return Continuation(weights, epochs, images=images, lr0=real_mix.CONTINUATION.lr0, lrf=real_mix.CONTINUATION.lrf,
                        name="detector_real", real=True)


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
    if plan.real:
        from vision.train.real_sets import real_photos_of
        from vision.train.real_mix import build_data

        # real_photos_of raises one clear error when the photos are missing, before anything is rendered
        data = build_data(work, plan.images, recipe.real_val_images, log=log,
                          photos=_some(real_photos_of("train"), recipe.real_photos))
    else:
        write_dataset(work / "det_val", recipe.detector_val_images, SEED_DETECTOR_VAL, decks=recipe.decks,
                      longest=recipe.detector_longest, mixed=True, progress=progress)
        data = write_dataset(work / f"det_train_s{plan.seed}", plan.images, plan.seed, decks=recipe.decks,
                             longest=recipe.detector_longest, mixed=True, progress=progress)
        data.write_text(data.read_text().replace("val: images", f"val: {(work / 'det_val' / 'images').resolve()}"))
    log(f"continuation data: {plan.images} rendered scenes" + (" beside the real train photos" if plan.real else
                                                                 f" (seed {plan.seed})") + f" in {time.time() - t:.0f} s")
    stage = FinetuneStage(plan.epochs, plan.lr0, plan.lrf, plan.stop_after)
    weights = run_stage(plan.weights, data, work, recipe.detector, stage, plan.name)
    export_detector(weights, out / "detector.onnx", recipe.detector.imgsz, work)
    publish_checkpoint(weights, out / "train" / "detector_last.pt", work)
    log(f"detector continued for {plan.stop_after or plan.epochs} epochs -> {out / 'detector.onnx'}, "
        f"checkpoint {out / 'train' / 'detector_last.pt'}")
    return weights


@dataclass(frozen=True)
class ClassifierContinuation:
    """More classifier training from an exported ``classifier.onnx`` on crops of freshly rendered
    scenes of data ``mix``, cut around true boxes moved like the detector moves them
    (``crops_data.MEASURED_JITTER``). A reader (``classifier_arch``) continues from its own export
    (``reader.reader_from_onnx``), with the real train split's crops too when the photos are
    present; the small CNN of models v1-v3 is rebuilt by ``recover.recover_classifier``."""

    start: Path
    epochs: int
    scenes: int = 1200
    seed: int = 7
    val_scenes: int | None = None  # default: a tenth of ``scenes``
    val_seed: int = 8
    per_index: int = 2
    lr: float = 1e-3
    mix: str = "v3"


def classifier_arch(onnx_path: Path) -> str:
    """The classifier's "arch": from the models.json beside ``onnx_path`` (none there: models v1-v3,
    the CNN); a file with no models.json beside it (a continuation's candidate) by its input size."""
    config = Path(onnx_path).parent / "models.json"
    if config.is_file():
        try:
            return json.loads(config.read_text())["classifier"].get("arch", CNN_ARCH)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{config}: no readable classifier entry ({type(exc).__name__}: {exc})") from None
    import onnx

    try:
        graph = onnx.load(str(onnx_path)).graph
        dims = graph.input[0].type.tensor_type.shape.dim
    except Exception as exc:  # protobuf's own error types for a file that is not an ONNX model
        raise ValueError(f"{onnx_path}: not an ONNX model ({type(exc).__name__})") from None
    if [d.dim_value for d in dims[2:]] != [READER_SIZE, READER_SIZE]:
        return CNN_ARCH
    return reader_arch(last_block_of(init.name for init in graph.initializer))


def continue_classifier(plan: ClassifierContinuation, out: Path, work: Path, recipe: TrainRecipe = FULL, log=print,
                        progress=None) -> float:
    """Render the crops, continue the classifier, export ``classifier.onnx`` into ``out``;
    returns the val accuracy (crops of ``plan.val_seed``) before and after, logged."""
    from vision.train import classifier as clf
    from vision.train import crops_data
    from vision.train.recover import recover_classifier

    out, work = Path(out), Path(work)
    for seed in (plan.seed, plan.val_seed):
        if not 5 <= seed <= 20:
            raise ValueError(f"continuation seed {seed}: use 5..20 (1-4 are the recipe's own sets)")
    arch = classifier_arch(plan.start)
    reader = is_reader(arch)
    size = READER_SIZE if reader else CROP_SIZE
    t = time.time()
    tag = f"{plan.mix}_s{plan.seed}_{plan.scenes}" + (f"_{size}px" if reader else "")
    train_npz = crops_data.build_crops(work / f"crops_{tag}.npz", plan.scenes, plan.seed, plan.per_index,
                                       progress=progress, mix=plan.mix, jitter=crops_data.MEASURED_JITTER,
                                       crop_size=size)
    val_scenes = plan.val_scenes or max(1, plan.scenes // 10)
    val_tag = f"{plan.mix}_s{plan.val_seed}_{val_scenes}" + (f"_{size}px" if reader else "")
    val_npz = crops_data.build_crops(work / f"crops_val_{val_tag}.npz", val_scenes, plan.val_seed, 2,
                                     progress=progress, mix=plan.mix,
                                     jitter=crops_data.MEASURED_JITTER, crop_size=size)
    train_set, val_set = np.load(train_npz), np.load(val_npz)
    crops, labels, real_val = train_set["crops"], train_set["labels"], None
    if reader:
        crops, labels, real_val = _with_real_crops(crops, labels, recipe, log)
    log(f"classifier continuation data: {len(labels)} crops ({len(train_set['labels'])} rendered), "
        f"{len(val_set['labels'])} val crops in {time.time() - t:.0f} s")
    if reader:
        from vision.train.reader import export_reader, reader_from_onnx

        model, steps, export = reader_from_onnx(plan.start), recipe.classifier, export_reader
    else:
        model, export = recover_classifier(plan.start, crops), clf.export_classifier
        steps = replace(CNN_RECIPE, threads=recipe.classifier.threads)
    before = clf.evaluate(model, val_set["crops"], val_set["labels"])
    real_before = clf.evaluate(model, *real_val) if real_val is not None else None
    log(f"classifier from {plan.start} ({arch}): val accuracy {before:.4f}"
        + (f", real val {real_before:.4f}" if real_val is not None else ""))
    model, after = clf.train_classifier(crops, labels, replace(steps, epochs=plan.epochs, lr=plan.lr),
                                        val=(val_set["crops"], val_set["labels"]), log=log, start=model)
    export(model, out / "classifier.onnx")
    real_after = f", real val {real_before:.4f} -> {clf.evaluate(model, *real_val):.4f}" if real_val is not None else ""
    log(f"classifier continued: val accuracy {before:.4f} -> {after:.4f}{real_after} -> {out / 'classifier.onnx'}")
    return after


def _with_real_crops(crops: np.ndarray, labels: np.ndarray, recipe: TrainRecipe, log):
    """The rendered crops plus the real train split's crops (``REAL_REPEAT`` times, as
    train_reader does) when the real photos are present; also the real val split's crops (only
    measured) or None. Without the photos: the rendered crops alone, said in one log line."""
    from vision.train.real_cards import RealDataError, real_dir
    from vision.train.real_sets import real_photos_of
    from vision.train.real_crops import reader_training_crops
    from vision.train.train_reader import REAL_REPEAT

    try:
        real_dir()
    except RealDataError as missing:
        log(f"real photos not found, the classifier trains on rendered crops only ({missing})")
        return crops, labels, None
    train_photos = _some(real_photos_of("train"), recipe.real_photos)
    val_photos = _some(real_photos_of("val"), recipe.real_photos)
    crops, labels, real_val, real_count = reader_training_crops(crops, labels, READER_SIZE, REAL_REPEAT,
                                                                train_photos, val_photos)
    log(f"real photos: {real_count} crops of {len(train_photos)} train photos (x{REAL_REPEAT}), "
        f"{len(real_val[1])} crops of {len(val_photos)} val photos (measured only)")
    return crops, labels, real_val


def _some(photos: list, count: int | None) -> list:
    """``count`` photos spread evenly over the sorted list (every family), or all of them."""
    if count is None or count >= len(photos):
        return photos
    return [photos[i * len(photos) // count] for i in range(count)]


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --- the command line (what ``crib train --quick``, ``--resume-from``, ``--only`` and ``--real`` were) ---

PROG = "python -m vision.train.experiments.one_shot"


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _parser():
    import argparse

    parser = argparse.ArgumentParser(prog=PROG, description="The one-shot pipeline of the models-v4 design "
                                     "(an experiment; crib train replays recipes): train both models, or continue one.")
    parser.add_argument("--quick", action="store_true",
                        help="a tiny run (a few images, 1 epoch) that checks the pipeline; never touches models/ "
                             "unless --out says so")
    parser.add_argument("--only", choices=("detector", "classifier"), default=None, help="train one model only")
    parser.add_argument("--resume-from", type=Path, default=None, metavar="CHECKPOINT",
                        help="continue the detector from this checkpoint (e.g. models/train/detector_last.pt) on "
                             "fresh scenes instead of training from scratch; with --only classifier, continue "
                             "the classifier from this classifier.onnx (the reader, or the CNN of models v1-v3, "
                             "as models.json beside it says); needs --epochs")
    parser.add_argument("--real", action="store_true",
                        help="with --resume-from CHECKPOINT.pt: continue the detector on the real photos' train split "
                             "beside rendered v3 scenes (seeds 9, 10) instead of renders only")
    parser.add_argument("--epochs", type=_positive, default=None, help="epochs of the continuation (with --resume-from)")
    parser.add_argument("--images", type=_positive, default=None,
                        help="scenes rendered for the continuation (default 6000 for the detector, 1000 beside the "
                             "real photos with --real, 1200 for the classifier)")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch threads for training (default 2; 1 is faster while the other core is busy, "
                             "see bench/train_speed.py)")
    parser.add_argument("--data-seed", type=int, default=None,
                        help="dataset seed of the continuation's scenes, 5..20 (default 5)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where the ONNX models go (default: --quick WORK/models, --resume-from WORK/candidate, "
                             "otherwise models/)")
    parser.add_argument("--work", type=Path, default=None,
                        help="scratch folder for data and runs (default build/train, or build/train-quick)")
    return parser


class _Refused(ValueError):
    """Input the pipeline cannot run: one line, exit status 2."""


def main(argv=None) -> int:
    """Parse, check and run; bad input (and missing photos or checkpoints) is one line on stderr and
    exit status 2, before anything is rendered."""
    import sys

    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (_Refused, FileNotFoundError, ValueError) as exc:  # RealDataError is a ValueError
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


def _run(args) -> int:
    import sys

    from vision.synth.dataset import progress_bar

    recipe = QUICK if args.quick else FULL
    if args.threads is not None:
        if args.threads < 1:
            raise _Refused(f"--threads must be at least 1, got {args.threads}")
        recipe = replace(recipe, detector=replace(recipe.detector, threads=args.threads),
                         classifier=replace(recipe.classifier, threads=args.threads))
    if (args.resume_from is None) != (args.epochs is None):
        raise _Refused("--resume-from and --epochs go together")
    if args.real:
        if args.resume_from is None:
            raise _Refused("--real continues the detector: give --resume-from CHECKPOINT.pt --epochs N "
                           "(a run from scratch uses the real photos for the classifier whenever they are present)")
        if args.only == "classifier":
            raise _Refused("--real is for the detector; the classifier uses the real photos whenever they are present")
        if args.data_seed is not None:
            raise _Refused("--data-seed does not apply with --real: its rendered scenes are seeds 9 and 10")
    data_seed = 5 if args.data_seed is None else args.data_seed
    steps = (args.only,) if args.only else ("detector", "classifier")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    work = args.work or Path("build/train-quick" if args.quick else "build/train")
    # A continuation writes a candidate: it replaces models/ only when it measures better.
    out = args.out or (work / "candidate" if args.resume_from else work / "models" if args.quick else Path("models"))
    if args.resume_from is not None:
        if not args.resume_from.is_file():
            raise FileNotFoundError(f"--resume-from: no checkpoint at {args.resume_from}")
        if args.only == "classifier":
            if args.resume_from.suffix != ".onnx":
                raise _Refused(f"--resume-from: the classifier continues from its exported .onnx "
                               f"(e.g. models/classifier.onnx), got {args.resume_from}")
            # --resume-from names the exported classifier.onnx; --images counts rendered scenes.
            plan = ClassifierContinuation(args.resume_from, args.epochs, seed=data_seed, val_seed=data_seed + 1,
                                          **({"scenes": args.images} if args.images else {}))
            accuracy = continue_classifier(plan, out, work, recipe, log=log, progress=progress_bar)
            print(f"classifier written to {out / 'classifier.onnx'}; val accuracy {accuracy:.4f}")
            return 0
        if args.resume_from.suffix != ".pt":
            raise _Refused(f"--resume-from: the detector continues from a .pt checkpoint "
                           f"(e.g. models/train/detector_last.pt), got {args.resume_from}")
        if args.real:
            plan = real_continuation(args.resume_from, args.epochs, **({"images": args.images} if args.images else {}))
        else:
            plan = Continuation(args.resume_from, args.epochs, seed=data_seed,
                                **({"images": args.images} if args.images else {}))
        weights = continue_detector(plan, out, work, recipe, log=log, progress=progress_bar)
        print(f"detector written to {out / 'detector.onnx'}; checkpoint {weights}")
        return 0
    report = run(out, work, recipe, log=log, progress=progress_bar, steps=steps)
    print(f"models written to {out}: " + ", ".join(f"{k}={v}" for k, v in report.items() if k != "recipe"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
