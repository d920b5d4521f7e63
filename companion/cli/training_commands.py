"""``crib synth`` and ``crib train``: the data engine and training on the command line.

Thin over ``vision.synth`` and ``vision.train.recipe`` (imported inside the handlers: they need
torch and the card art, which recognising a photo never loads). ``crib train`` replays recipes
only; the one-shot pipeline it ran before recipes did (``--quick``, ``--resume-from``, ``--only``,
``--real``) is an experiment now, and those flags say where it went in one line.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.common import CliError
from companion.words import plural


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


# Flags of the one-shot pipeline (now vision.train.experiments.one_shot): whether each takes a value.
_MOVED = {"--quick": False, "--resume-from": True, "--only": True, "--real": False, "--epochs": True,
          "--images": True, "--threads": True, "--data-seed": True}
ONE_SHOT = "python -m vision.train.experiments.one_shot"


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
        help="replay the recipe of the shipped models (vision/train/recipes/), or one stage of it",
        description="Replays a model recipe (default: the current one, that made models/): every stage in order, "
                    "each from the one before, or one stage from the checkpoint it started from. "
                    "`crib train --recipe NAME --help` lists that recipe's stages; --tiny replays them on a few "
                    "images (the wiring, in minutes).")
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
                       help="where the ONNX models go (default WORK/models; `--out models` replaces the shipped ones)")
    train.add_argument("--work", type=Path, default=None,
                       help="scratch folder for data and runs (default build/recipes/NAME, NAME-tiny with --tiny)")
    # The one-shot pipeline's flags, moved with it: accepted only to say where they went (not in --help).
    for flag, takes_value in _MOVED.items():
        train.add_argument(flag, dest=f"moved_{flag[2:].replace('-', '_')}", default=None, help=argparse.SUPPRESS,
                           **({"metavar": "VALUE"} if takes_value else {"action": "store_const", "const": True}))
    train.set_defaults(handler=_train)


def _moved_flags(args) -> list[str]:
    return [flag for flag in _MOVED if getattr(args, f"moved_{flag[2:].replace('-', '_')}") is not None]


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
    print(f"wrote {plural(args.n, 'photo')} to {args.out} ({data})")
    return 0


def _train(args) -> int:
    _training_runs_here()
    moved = _moved_flags(args)
    if moved:
        names = ", ".join(moved[:-1]) + " and " + moved[-1] if len(moved) > 1 else moved[0]
        one = len(moved) == 1
        raise CliError(f"{names} {'is' if one else 'are'} the one-shot pipeline's, an experiment now "
                       f"({ONE_SHOT} takes {'it' if one else 'them'}); crib train replays recipes, whose stages say "
                       "their data, epochs and threads (--tiny: each stage on a few images, in minutes)")
    return _replay(args)


def _replay(args) -> int:
    """``crib train [--recipe NAME] [--stage N | --from-stage N] [--tiny]``."""
    import sys

    from vision.train import recipe as recipes

    if args.stage and args.from_stage:
        raise CliError("--stage and --from-stage go apart: one stage alone, or stages from N on")
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

    from vision import models_version
    from vision.train import recipe as recipes

    if args.stage or args.from_stage:
        raise CliError("--doubt is the recipe's last stage alone: leave out --stage and --from-stage")
    if chosen.doubt is None:
        raise CliError(f"recipe {chosen.name} has no [doubt] stage")
    out = args.out or Path("models")
    models_version(out)  # a folder without a usable models.json: one line
    work = args.work or Path("build/recipes") / (chosen.name + "-doubt" + ("-tiny" if args.tiny else ""))
    table = recipes.fit_doubt(chosen.doubt, out, work, recipes.TINY if args.tiny else recipes.FULL,
                              log=lambda message: print(message, file=sys.stderr, flush=True))
    print(f"recipe {chosen.name}: doubt model fitted on {table} and written into {out / 'models.json'}")
    return 0
