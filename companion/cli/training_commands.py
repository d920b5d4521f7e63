"""``crib synth`` and ``crib train``: the data engine and training on the command line.

Thin over ``vision.synth`` and ``vision.train.pipeline`` (imported inside the handlers: they need
torch and the card art, which recognising a photo never loads).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from companion.cli.common import CliError

def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def register(subparsers) -> None:
    synth = subparsers.add_parser("synth", help="render synthetic table photos with labels (YOLO + manifest)")
    synth.add_argument("--out", required=True, type=Path, help="output folder (images/, labels/, manifest.jsonl, data.yaml)")
    synth.add_argument("--n", type=_positive, default=100, help="number of photos (default 100)")
    synth.add_argument("--seed", type=int, default=0, help="dataset seed; photo i uses scene_seed(seed, i)")
    synth.add_argument("--layout", default=None, help="one layout for every photo (default: random mix)")
    synth.add_argument("--deck", action="append", default=None, help="deck to use (repeatable; default: all training decks)")
    synth.add_argument("--longest", type=_positive, default=1280, help="longest image side in pixels (default 1280)")
    synth.add_argument("--mixed-aspect", action="store_true", help="vary the aspect ratio (4:3, 3:4, 16:9, 1:1)")
    synth.add_argument("--mix", choices=("v2", "v3", "v4", "v5"), default="v2",
                       help="data mix: v2 (what models v2 were trained on, default), v3 (more decks, tight fans, "
                            "close-ups, photo looks), v4 (v3 with overlapping pairs and rows, the starter on the "
                            "pack, chips and print) or v5 (v4 with real cards cut from rf100-poker: build them "
                            "first with python -m vision.train.cutouts)")
    synth.add_argument("--workers", type=_positive, default=None, help="rendering processes (default: all cores)")
    synth.add_argument("--samples", action="store_true", help="write the curated sample photos (Kennard deck) instead")
    synth.set_defaults(handler=_synth)

    train = subparsers.add_parser(
        "train", add_help=False,
        help="replay the recipe of the shipped models (vision/train/recipes/), or a quick pipeline check",
        description="Replays a model recipe (default: the current one, that made models/): every stage in order, "
                    "each from the one before, or one stage from the checkpoint it started from. "
                    "`crib train --recipe NAME --help` lists that recipe's stages. --quick, --resume-from, "
                    "--only and --real run the older one-shot pipeline instead.")
    train.add_argument("-h", "--help", action=_RecipeHelp, nargs=0, help="show this help (and the recipe's stages)")
    train.add_argument("--recipe", default=None, metavar="NAME",
                       help="the recipe to replay (vision/train/recipes/NAME.toml; default: the current one)")
    train.add_argument("--stage", type=_positive, default=None, metavar="N",
                       help="replay stage N alone, from the checkpoint that stage started from (git history)")
    train.add_argument("--from-stage", type=_positive, default=None, metavar="N",
                       help="replay stages N.. (stage N from its recorded start, the rest from the one before)")
    train.add_argument("--doubt", action="store_true",
                       help="the recipe's doubt stage alone: fit the doubt model (how likely each card is right, "
                            "which to flag) to the models in --out (default models/) and write it into their models.json")
    train.add_argument("--tiny", action="store_true",
                       help="replay the stages on a few images each, one epoch (checks the wiring, in minutes)")
    train.add_argument("--out", type=Path, default=None,
                       help="where the ONNX models go (a recipe: WORK/models, `--out models` to replace the shipped "
                            "ones; --quick build/train-quick/models; --resume-from build/train/candidate; the old "
                            "pipeline otherwise models/)")
    train.add_argument("--work", type=Path, default=None,
                       help="scratch folder for data and runs (default build/train, or build/train-quick)")
    train.add_argument("--quick", action="store_true",
                       help="a tiny run (a few images, 1 epoch) that checks the pipeline; never touches models/ unless --out says so")
    train.add_argument("--only", choices=("detector", "classifier"), default=None, help="train one model only")
    train.add_argument("--resume-from", type=Path, default=None, metavar="CHECKPOINT",
                       help="continue the detector from this checkpoint (e.g. models/train/detector_last.pt) on "
                            "fresh scenes instead of training from scratch; with --only classifier, continue "
                            "the classifier from this classifier.onnx (the reader, or the CNN of models v1-v3, "
                            "as models.json beside it says); needs --epochs")
    train.add_argument("--real", action="store_true",
                       help="with --resume-from CHECKPOINT.pt: continue the detector on the real photos' train split "
                            "beside rendered v3 scenes (seeds 9, 10) instead of renders only")
    train.add_argument("--epochs", type=_positive, default=None, help="epochs of the continuation (with --resume-from)")
    train.add_argument("--images", type=_positive, default=None,
                       help="scenes rendered for the continuation (default 6000 for the detector, 1000 beside the "
                            "real photos with --real, 1200 for the classifier)")
    train.add_argument("--threads", type=int, default=None,
                       help="torch threads for training (default 2; 1 is faster while the other core is busy, "
                            "see bench/train_speed.py)")
    train.add_argument("--data-seed", type=int, default=None,
                       help="dataset seed of the continuation's scenes, 5..20 (default 5)")
    train.set_defaults(handler=_train)


class _RecipeHelp(argparse.Action):
    """-h / --help: the usual help, then the stages of the recipe named before it (``--recipe NAME
    --help``), else of the current recipe."""

    def __call__(self, parser, namespace, values, option_string=None):
        from vision.train.recipe import CURRENT, RecipeError, describe, load_recipe

        parser.print_help()
        text = _needs_checkout()
        if text is None:
            try:
                text = describe(load_recipe(namespace.recipe or CURRENT))
            except RecipeError as exc:
                text = str(exc)
        print("\n" + text)
        parser.exit()


def _needs_checkout() -> str | None:
    """Why training cannot run from here, or None in a checkout: an installed package carries the
    models, not the recipes, checkpoints (git history) and real photos they were trained from."""
    from companion.paths import checkout

    if checkout() is not None:
        return None
    return ("training needs a checkout of the repository: the installed package carries the models but not the "
            "recipes, checkpoints and real photos that train them (in a clone, `make models` replays the shipped "
            "models' recipe: models/MODEL.md, How to rebuild)")


def _training_runs_here() -> None:
    """A checkout with the train extra (torch, ultralytics), or one line saying what is missing."""
    import importlib.util

    from companion.paths import install_advice

    why = _needs_checkout()
    if why is not None:
        raise CliError(why)
    missing = [name for name in ("torch", "ultralytics") if importlib.util.find_spec(name) is None]
    if missing:
        raise CliError(f"training needs {' and '.join(missing)}: {install_advice('train')}")


def _synth(args) -> int:
    from vision.synth.art import TRAIN_DECKS, UnknownDeckError
    from vision.synth.dataset import progress_bar, write_dataset
    from vision.synth.layouts import LAYOUTS, UnknownLayoutError

    if args.samples:
        from vision.synth.samples import write_samples

        written = write_samples(args.out)
        print(f"wrote {len(written)} sample photos with JSON sidecars to {args.out}")
        return 0
    if args.layout is not None and args.layout not in LAYOUTS:
        raise UnknownLayoutError(f"unknown layout {args.layout!r}; known: {', '.join(LAYOUTS)}")
    for deck in args.deck or ():
        if deck not in TRAIN_DECKS:
            raise UnknownDeckError(f"unknown deck {deck!r}; known: {', '.join(TRAIN_DECKS)}")
    if args.longest < 64:
        raise CliError(f"--longest must be at least 64 pixels, got {args.longest}")
    data = write_dataset(args.out, args.n, args.seed, layout=args.layout, decks=tuple(args.deck) if args.deck else None,
                         longest=args.longest, mixed=args.mixed_aspect, workers=args.workers, progress=progress_bar,
                         mix=args.mix)
    print(f"wrote {args.n} photos to {args.out} ({data})")
    return 0


def _train(args) -> int:
    _training_runs_here()
    if not (args.quick or args.resume_from or args.only or args.real):
        return _replay(args)
    if args.recipe or args.stage or args.from_stage or args.tiny or args.doubt:
        raise CliError("--recipe, --stage, --from-stage, --tiny and --doubt replay a recipe: leave out --quick, "
                       "--resume-from, --only and --real")
    return _pipeline(args)


def _replay(args) -> int:
    """``crib train [--recipe NAME] [--stage N | --from-stage N] [--tiny]``."""
    import sys

    from vision.train import recipe as recipes

    if args.stage and args.from_stage:
        raise CliError("--stage and --from-stage go apart: one stage alone, or stages from N on")
    for flag, value in (("--epochs", args.epochs), ("--images", args.images), ("--data-seed", args.data_seed),
                        ("--threads", args.threads)):
        if value is not None:
            raise CliError(f"{flag} is not a recipe's: its stages say their epochs, data and threads")
    chosen = recipes.load_recipe(args.recipe or recipes.CURRENT)
    if args.doubt:
        return _doubt_stage(args, chosen)
    count = len(chosen.stages)
    first = args.stage or args.from_stage or 1
    chosen.index_of(first)  # a stage the recipe lacks: one line
    stages = [args.stage] if args.stage else list(range(first, count + 1))
    work = args.work or Path("build/recipes") / (chosen.name + ("-tiny" if args.tiny else ""))
    out = args.out or work / "models"

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    done = recipes.replay(chosen, work, out, stages, recipes.TINY if args.tiny else recipes.FULL, log=log)
    print(f"recipe {chosen.name}: stages {', '.join(done.outputs)} replayed; models and provenance in {out}")
    return 0


def _doubt_stage(args, chosen) -> int:
    """``crib train [--recipe NAME] --doubt [--out MODELS] [--tiny]``: the recipe's doubt stage alone."""
    import sys

    from vision.model_config import load_models_config
    from vision.train import recipe as recipes

    if args.stage or args.from_stage:
        raise CliError("--doubt is the recipe's last stage alone: leave out --stage and --from-stage")
    if chosen.doubt is None:
        raise CliError(f"recipe {chosen.name} has no [doubt] stage")
    out = args.out or Path("models")
    load_models_config(out)  # a folder without models.json: one line
    work = args.work or Path("build/recipes") / (chosen.name + "-doubt" + ("-tiny" if args.tiny else ""))
    table = recipes.fit_doubt(chosen.doubt, out, work, recipes.TINY if args.tiny else recipes.FULL,
                              log=lambda message: print(message, file=sys.stderr, flush=True))
    print(f"recipe {chosen.name}: doubt model fitted on {table} and written into {out / 'models.json'}")
    return 0


def _pipeline(args) -> int:
    import sys

    from vision.synth.dataset import progress_bar
    from vision.train import pipeline

    recipe = pipeline.QUICK if args.quick else pipeline.FULL
    if args.threads is not None:
        if args.threads < 1:
            raise CliError(f"--threads must be at least 1, got {args.threads}")
        recipe = replace(recipe, detector=replace(recipe.detector, threads=args.threads),
                         classifier=replace(recipe.classifier, threads=args.threads))
    if (args.resume_from is None) != (args.epochs is None):
        raise CliError("--resume-from and --epochs go together")
    if args.real:
        if args.resume_from is None:
            raise CliError("--real continues the detector: give --resume-from CHECKPOINT.pt --epochs N "
                           "(a run from scratch uses the real photos for the classifier whenever they are present)")
        if args.only == "classifier":
            raise CliError("--real is for the detector; the classifier uses the real photos whenever they are present")
        if args.data_seed is not None:
            raise CliError("--data-seed does not apply with --real: its rendered scenes are seeds 9 and 10")
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
                raise CliError(f"--resume-from: the classifier continues from its exported .onnx "
                               f"(e.g. models/classifier.onnx), got {args.resume_from}")
            # --resume-from names the exported classifier.onnx; --images counts rendered scenes.
            plan = pipeline.ClassifierContinuation(args.resume_from, args.epochs, seed=data_seed,
                                                   val_seed=data_seed + 1,
                                                   **({"scenes": args.images} if args.images else {}))
            accuracy = pipeline.continue_classifier(plan, out, work, recipe, log=log, progress=progress_bar)
            print(f"classifier written to {out / 'classifier.onnx'}; val accuracy {accuracy:.4f}")
            return 0
        if args.resume_from.suffix != ".pt":
            raise CliError(f"--resume-from: the detector continues from a .pt checkpoint "
                           f"(e.g. models/train/detector_last.pt), got {args.resume_from}")
        if args.real:
            plan = pipeline.real_continuation(args.resume_from, args.epochs,
                                              **({"images": args.images} if args.images else {}))
        else:
            plan = pipeline.Continuation(args.resume_from, args.epochs, seed=data_seed,
                                         **({"images": args.images} if args.images else {}))
        weights = pipeline.continue_detector(plan, out, work, recipe, log=log, progress=progress_bar)
        print(f"detector written to {out / 'detector.onnx'}; checkpoint {weights}")
        return 0
    report = pipeline.run(out, work, recipe, log=log, progress=progress_bar, steps=steps)
    print(f"models written to {out}: " + ", ".join(f"{k}={v}" for k, v in report.items() if k != "recipe"))
    return 0
