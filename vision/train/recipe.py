"""Recipes: how a shipped model version was made, as data that replays it.

A recipe (``vision/train/recipes/<name>.toml``) is an ordered list of stages. Each stage trains
one model (the detector or the reader) from a start checkpoint on named data (generators, mixes,
seeds, the real sets and their frozen labels) for some epochs at a learning rate and a number of
threads. ``replay`` runs stages in order, each from the output of the stage it comes ``after``
(or its own ``start`` when it comes after none, or when it is replayed alone), and writes the
models with a ``provenance`` block in models.json (recipe, stages, git commit, seeds, arguments)
and the recipe's ``[calibration]`` (the thresholds measured for the version, vision.config).
A recipe's ``[doubt]`` is its last stage: the doubt model (``vision.doubt``) fitted to the models
the replay wrote, on the evidence they give on real train photos and rendered scenes
(``vision.train.doubt``), written into models.json with its threshold (``fit_doubt``).

``Scale.TINY`` runs the same stages on a few images (the test's replay): it checks the wiring,
not the result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from vision.train.detector import DetectorRecipe
from vision.train.real_mix import SYNTH_SEED, SYNTH_VAL_SEED
from vision.train.train_reader import REAL_REPEAT

RECIPES_DIR = Path(__file__).resolve().parent / "recipes"
REPO = Path(__file__).resolve().parents[2]
CURRENT = "v10"  # the recipe of the models in models/ (``crib train`` alone replays it)
MODELS = ("detector", "reader")
# A detector stage's schedule: "from-start" (warm-up, mosaic), "finetune" (``run_stage`` on this
# machine), "device" (``gpu_run``'s run: the real sets packed, fresh renders, on a GPU when there is one).
SCHEDULES = ("from-start", "finetune", "device")


class RecipeError(ValueError):
    """A recipe that cannot be read or replayed as asked (one line, names the file or the stage)."""


BOXES = ("jittered", "detector")


@dataclass(frozen=True)
class Crops:
    """Rendered reader crops of ``scenes`` scenes of dataset ``seed``, cut at the true index boxes
    jittered (``boxes = "jittered"``: ``crops_data.build_crops``, ``per_index`` crops an index) or
    at the boxes a detector draws (``boxes = "detector"``: ``runtime_crops``, each box at every
    margin the runtime reads; ``detector`` names the models folder of a commit,
    ``git:<commit>:<folder>``, whose detector and calibration draw them)."""

    scenes: int
    seed: int
    mix: str
    per_index: int = 3
    layout: str | None = None
    table_conventions: bool = False
    boxes: str = "jittered"
    detector: str | None = None


@dataclass(frozen=True)
class Data:
    real_sets: tuple[str, ...]
    # detector stages (real_mix.build_data)
    mix: str = "v4"
    looks: bool = False
    synth: int = 0
    synth_seed: int = SYNTH_SEED
    synth_val: int = 0
    val_seed: int = SYNTH_VAL_SEED
    layout_renders: tuple[tuple[str, int, int], ...] = ()  # layout "mixed": the mix's own (a device stage's)
    real_labels: str | None = None
    # reader stages
    crops: tuple[Crops, ...] = ()
    real_at_boxes_of: str | None = None  # the real train photos cut again at this models folder's detector boxes


@dataclass(frozen=True)
class Stage:
    name: str
    model: str  # "detector" or "reader"
    start: str  # "imagenet:<yaml>" or "git:<commit>:<path>"
    epochs: int
    threads: int
    data: Data
    after: str | None = None
    schedule: str = "finetune"  # detector: one of SCHEDULES
    lr0: float = 0.0  # detector: its learning rate, which the stage must name (0: not named)
    lrf: float = 0.1  # detector
    stop_after: int | None = None  # detector: the run ended after this many epochs of its schedule
    cache: str = DetectorRecipe.cache  # detector: where ultralytics keeps decoded images ("disk" at 640 px in 24 GB)
    lr: float = 0.0  # reader: its learning rate, which the stage must name (0: not named)
    imgsz: int = DetectorRecipe.imgsz
    batch: int = DetectorRecipe.batch
    real_repeat: int = REAL_REPEAT  # the real crops (reader) or the real sets (device stage) this many times an epoch
    logged_s: int = 0  # the seconds the historical run's log records
    log: str = ""
    history: str = ""


@dataclass(frozen=True)
class DoubtFit:
    """The doubt stage: evidence from ``scenes`` rendered scenes (``seed`` on, ``mix``) and every
    ``real_every``-th real train photo, the threshold for ``risk``; ``evidence``: the table the
    shipped fit read (committed; a replay collects its own)."""

    scenes: int = 600
    seed: int = 8_600_000
    mix: str = "v4"
    real_every: int = 1
    risk: float = 0.0005
    evidence: str | None = None
    # "a" or "b": evidence from the real validation photos (both halves, every look of
    # vision.train.doubt_looks) and the scenes made worse too; the model fitted on that half
    # (vision.train.doubt_halves). "": the real train photos as taken (session 23's design).
    tune_half: str = ""


@dataclass(frozen=True)
class Recipe:
    name: str
    version: str
    stages: tuple[Stage, ...]
    detector_from: str
    reader_from: str
    # models.json's calibration block for the version (vision.config names; "measured" points at
    # the tuning log): a replay writes it, so the models it makes are read as the shipped ones.
    calibration: dict = field(default_factory=dict)
    doubt: DoubtFit | None = None

    def index_of(self, number: int) -> int:
        if not 1 <= number <= len(self.stages):
            raise RecipeError(f"recipe {self.name} has stages 1-{len(self.stages)}, not {number}")
        return number - 1

    def stage(self, name: str) -> Stage:
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise RecipeError(f"recipe {self.name}: no stage named {name!r}")


@dataclass(frozen=True)
class Scale:
    """How much of each stage's data and schedule a replay runs."""

    name: str = "full"
    images: int | None = None  # renders a set (None: the recipe's)
    real_photos: int | None = None  # real photos of each set (None: all)
    epochs: int | None = None
    imgsz: int | None = None
    batch: int | None = None
    decks: tuple[str, ...] | None = None  # render only these decks (None: the mix's)
    workers: int | None = None  # crop rendering processes (0: in this process)
    threads: int | None = None  # torch threads (None: the stage's)

    def count(self, n: int) -> int:
        return n if self.images is None else min(n, self.images)


FULL = Scale()
TINY = Scale("tiny", images=2, real_photos=2, epochs=1, imgsz=64, batch=4, decks=("kennard",), workers=0, threads=1)


def recipe_names() -> list[str]:
    return sorted(p.stem for p in RECIPES_DIR.glob("*.toml"))


def _layout_triple(text: str, where: str) -> tuple[str, int, int]:
    parts = text.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise RecipeError(f"{where}: layout_renders entry {text!r} is not LAYOUT:N:SEED")
    return parts[0], int(parts[1]), int(parts[2])


def parse_recipe(text: str, name: str = "recipe", extending: tuple[str, ...] = ()) -> Recipe:
    """A recipe from its TOML text; a missing or unknown field is a RecipeError naming it."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{name}: not TOML: {exc}") from None
    if raw.get("extends") in (*extending, name):
        raise RecipeError(f"{name}: extends {raw['extends']!r}, which extends it")
    base = load_recipe(raw["extends"], (*extending, name)).stages if "extends" in raw else ()
    stages = list(base)
    for number, entry in enumerate(raw.get("stage", []), len(base) + 1):
        where = f"{name} stage {number}"
        entry = dict(entry)
        data = dict(entry.pop("data", {}))
        try:
            crops = tuple(Crops(**c) for c in data.pop("crops", ()))
            layouts = tuple(_layout_triple(t, where) for t in data.pop("layout_renders", ()))
            data = Data(real_sets=tuple(data.pop("real_sets", ())), crops=crops, layout_renders=layouts, **data)
            stage = Stage(data=data, **entry)
        except TypeError as exc:  # an unknown or missing field
            raise RecipeError(f"{where}: {str(exc).split('__init__() ')[-1]}") from None
        if stage.model not in MODELS:
            raise RecipeError(f"{where}: model {stage.model!r} is not one of {', '.join(MODELS)}")
        if stage.schedule not in SCHEDULES:
            raise RecipeError(f"{where}: schedule {stage.schedule!r} is not one of {', '.join(SCHEDULES)}")
        if stage.epochs < 1 or stage.threads < 1:
            raise RecipeError(f"{where}: epochs and threads must be at least 1")
        if stage.stop_after is not None and not 1 <= stage.stop_after <= stage.epochs:
            raise RecipeError(f"{where}: stop_after must be 1-{stage.epochs} (epochs of the schedule)")
        if stage.cache not in ("ram", "disk"):
            raise RecipeError(f"{where}: cache {stage.cache!r} is neither ram nor disk")
        if stage.schedule == "device" and not stage.start.startswith("git:"):
            raise RecipeError(f"{where}: a device stage starts from a checkpoint, git:<commit>:<path>")
        if stage.schedule != "device" and any(lay == "mixed" for lay, _, _ in layouts):
            raise RecipeError(f"{where}: layout \"mixed\" renders only in a device stage "
                              "(real_mix renders the mix as synth)")
        if not stage.start.startswith(("imagenet:", "git:")):
            raise RecipeError(f"{where}: start {stage.start!r} is neither imagenet:<yaml> nor git:<commit>:<path>")
        if data.real_at_boxes_of is not None and not _is_models_reference(data.real_at_boxes_of):
            raise RecipeError(f"{where}: real_at_boxes_of names a models folder as \"git:<commit>:<folder>\"")
        for c in crops:
            if c.boxes not in BOXES:
                raise RecipeError(f"{where}: crops boxes {c.boxes!r} is not one of {', '.join(BOXES)}")
            if (c.boxes == "detector") != (c.detector is not None) or \
                    (c.detector is not None and not _is_models_reference(c.detector)):
                raise RecipeError(f"{where}: crops at the detector's boxes name its models folder as "
                                  "detector = \"git:<commit>:<folder>\" (and only they do)")
        rate = "lr0" if stage.model == "detector" else "lr"
        if not getattr(stage, rate) > 0:  # no default: a rate left out would train nothing, silently
            raise RecipeError(f"{where}: a {stage.model} stage names its learning rate, {rate} > 0")
        stages.append(stage)
    if not stages:
        raise RecipeError(f"{name}: no [[stage]]")
    names = [s.name for s in stages]
    for stage in stages:
        if stage.after is not None and (stage.after not in names[:names.index(stage.name)]):
            raise RecipeError(f"{name} stage {stage.name}: after {stage.after!r} is not an earlier stage")
    try:
        doubt = DoubtFit(**raw["doubt"]) if "doubt" in raw else None
    except TypeError as exc:
        raise RecipeError(f"{name} [doubt]: {str(exc).split('__init__() ')[-1]}") from None
    if doubt is not None and (doubt.scenes < 0 or doubt.real_every < 1 or not 0 < doubt.risk < 1
                              or doubt.tune_half not in ("", "a", "b")):
        raise RecipeError(f"{name} [doubt]: scenes >= 0, real_every >= 1, 0 < risk < 1 and tune_half '', 'a' or 'b'")
    try:
        recipe = Recipe(raw["name"], str(raw["version"]), tuple(stages), raw["detector_from"], raw["reader_from"],
                        dict(raw.get("calibration", {})), doubt)
    except KeyError as exc:
        raise RecipeError(f"{name}: missing {exc.args[0]}") from None
    _check_calibration(recipe.calibration, name)
    for model in MODELS:
        if recipe.stage(getattr(recipe, f"{model}_from")).model != model:
            raise RecipeError(f"{name}: {model}_from names a stage that trains the other model")
    return recipe


def _is_models_reference(text: str) -> bool:
    return text.startswith("git:") and len(text.split(":")) == 3


def _check_calibration(calibration: dict, name: str) -> None:
    from vision.config import from_models_json

    try:
        from_models_json({"calibration": calibration})
    except (TypeError, ValueError) as exc:  # CalibrationError is a ValueError
        raise RecipeError(f"{name} [calibration]: {exc}") from None


def load_recipe(name: str, extending: tuple[str, ...] = ()) -> Recipe:
    """A recipe by name (``vision/train/recipes/<name>.toml``) or path; ``extends = "<name>"`` in
    it puts that recipe's stages before its own (a later version continues an earlier one)."""
    path = Path(name) if name.endswith(".toml") else RECIPES_DIR / f"{name}.toml"
    if not path.is_file():
        raise RecipeError(f"no recipe {name!r}; known: {', '.join(recipe_names())}")
    return parse_recipe(path.read_text(), path.stem, extending)


def describe(recipe: Recipe) -> str:
    """The recipe's stages, one paragraph each (``crib train --recipe NAME --help``)."""
    lines = [f"recipe {recipe.name} (models v{recipe.version}): {len(recipe.stages)} stages; "
             f"the detector is stage {recipe.detector_from}'s, the reader stage {recipe.reader_from}'s"]
    for number, s in enumerate(recipe.stages, 1):
        rate = f"lr0 {s.lr0} -> x{s.lrf} ({s.schedule})" if s.model == "detector" else f"lr {s.lr}"
        ran = f" (ran {s.stop_after})" if s.stop_after is not None else ""
        size = f", at {s.imgsz} px" if s.model == "detector" else ""
        lines.append(f"  {number}. {s.name} ({s.model}): {s.epochs} epochs{ran}, {rate}, {s.threads} threads{size}; "
                     f"logged {s.logged_s / 3600:.2f} h")
        lines.append(f"     start: {s.start}" + (f" (a whole replay: {s.after}'s output)" if s.after else ""))
        d = s.data
        if s.model == "detector" and s.schedule == "device":
            renders = ", ".join(f"{n} {lay} (seed {seed})" for lay, n, seed in d.layout_renders)
            lines.append(f"     data: real sets {', '.join(d.real_sets)} x{s.real_repeat} (lone corners' cards: "
                         f"{d.real_labels}){' with phone looks and close-ups' if d.looks else ''}; fresh mix {d.mix} "
                         f"renders made in the run: {renders}; val {d.synth_val} (seed {d.val_seed}); batch {s.batch}, "
                         "on a GPU when there is one (gpu_run)")
        elif s.model == "detector":
            renders = ", ".join(f"{n} {lay} (seed {seed})" for lay, n, seed in d.layout_renders)
            lines.append(f"     data: real sets {', '.join(d.real_sets)} (lone corners' cards: {d.real_labels})"
                         f"{' with phone looks and close-ups' if d.looks else ''}; {d.synth} mix {d.mix} renders "
                         f"(seed {d.synth_seed}){'; ' + renders if renders else ''}; val {d.synth_val} (seed {d.val_seed})")
        else:
            crops = "; ".join(f"{c.scenes} {c.layout or 'mix ' + c.mix} scenes (seed {c.seed}, "
                              + (f"{c.per_index} an index)" if c.boxes == "jittered" else
                                 f"at the boxes drawn by the detector of {c.detector})") for c in d.crops)
            cut = f" (the train photos cut again at the boxes of {d.real_at_boxes_of})" if d.real_at_boxes_of else ""
            lines.append(f"     data: real crops of {', '.join(d.real_sets)} x{s.real_repeat}{cut}; {crops}")
    total = sum(s.logged_s for s in recipe.stages if s.schedule != "device")
    lent = sum(s.logged_s for s in recipe.stages if s.schedule == "device")
    lines.append(f"  logged time of all stages: {total / 3600:.1f} h on this machine's CPU"
                 + (f", {lent / 60:.1f} min on a lent GPU" if lent else ""))
    return "\n".join(lines)


def fetch_start(stage: Stage, cache: Path) -> Path:
    """A ``git:<commit>:<path>`` start as a file (``git show``, cached under ``cache``)."""
    return _fetch_file(stage.start, cache, f"stage {stage.name} starts from")


def _fetch_file(reference: str, cache: Path, what: str) -> Path:
    _, commit, path = reference.split(":", 2)
    out = Path(cache) / commit[:12] / path
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        blob = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:{path}"], check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        raise RecipeError(f"{what} {path} of commit {commit[:12]}: this checkout has no such "
                          "git history (clone the repository with its history)") from None
    out.write_bytes(blob)
    return out


def fetch_models(reference: str, cache: Path, what: str) -> Path:
    """A ``git:<commit>:<folder>`` models folder (models.json and the files it names) under ``cache``."""
    _, commit, folder = reference.split(":", 2)
    config = json.loads(_fetch_file(f"git:{commit}:{folder}/models.json", cache, what).read_text())
    for part in ("detector", "classifier"):
        _fetch_file(f"git:{commit}:{folder}/{config[part]['file']}", cache, what)
    return Path(cache) / commit[:12] / folder


def git_commit() -> str | None:
    try:
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "vision"], check=True,
                               capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def _real_train_photos(stage: Stage, scale: Scale) -> list:
    """The stage's real train photos; a scaled-down replay takes a few of each set, among
    cardcounterml's those whose lone corners the frozen labels answer for (so they are used)."""
    from vision.train.frozen_labels import needs_found_cards
    from vision.train.real_sets import real_set
    from vision.train.rf100 import apart

    photos = []
    for name in stage.data.real_sets:
        entry = real_set(name)
        if entry.required or entry.present():
            photos += entry.photos_of("train")
    if scale.real_photos is None:
        return photos
    first, poker = apart(photos)
    return [p for p in first if needs_found_cards(p)][:scale.real_photos] + poker[:scale.real_photos]


def run_detector_stage(stage: Stage, start: Path | None, work: Path, scale: Scale, log=print) -> tuple[Path, dict]:
    """Build the stage's data and train; returns (last.pt, the resolved arguments)."""
    from vision.train.detector import DetectorRecipe, FinetuneStage, run_stage, train_detector
    from vision.train.lite0_backbone import LITE0_YAML, keep_freed_memory
    from vision.train.real_mix import build_data

    if stage.schedule == "device":
        return run_device_stage(stage, start, work, scale, log)
    d = stage.data
    layouts = tuple((lay, scale.count(n), seed) for lay, n, seed in d.layout_renders)
    data = build_data(work / "data", scale.count(d.synth), scale.count(d.synth_val), log=log,
                      photos=_real_train_photos(stage, scale), mix=d.mix, looks=d.looks, layout_renders=layouts,
                      frozen_cards=_frozen_cards(d), decks=scale.decks, synth_seed=d.synth_seed, val_seed=d.val_seed)
    keep_freed_memory()
    epochs, stop_after = _schedule(stage, scale)
    threads = scale.threads or stage.threads
    recipe = DetectorRecipe(imgsz=scale.imgsz or stage.imgsz, batch=scale.batch or stage.batch, threads=threads,
                            cache=stage.cache if scale is FULL else False, epochs=epochs, lr0=stage.lr0, lrf=stage.lrf,
                            finetune=())
    if stage.schedule == "from-start":
        recipe = replace(recipe, model_yaml=str(LITE0_YAML.with_name(stage.start.split(":", 1)[1])))
        weights = train_detector(data, work, recipe)
    else:
        weights = run_stage(start, data, work, recipe, FinetuneStage(epochs, stage.lr0, stage.lrf, stop_after),
                            stage.name)
    args = {"data": {**asdict(d), "synth": scale.count(d.synth), "synth_val": scale.count(d.synth_val),
                     "layout_renders": [list(t) for t in layouts], "decks": scale.decks,
                     "real_photos": scale.real_photos},
            "epochs": epochs, "lr0": stage.lr0, "lrf": stage.lrf, "imgsz": recipe.imgsz, "batch": recipe.batch,
            "threads": threads, "schedule": stage.schedule, **_detector_extras(stage, stop_after)}
    return weights, args


def _schedule(stage: Stage, scale: Scale) -> tuple[int, int | None]:
    """The epochs a replay's schedule spans and the epoch it stops after (None: all of them)."""
    epochs = scale.epochs or stage.epochs
    return epochs, None if stage.stop_after is None else min(stage.stop_after, epochs)


def _frozen_cards(d: Data):
    from vision.train.frozen_labels import read_found_cards

    return read_found_cards(REPO / d.real_labels) if d.real_labels else None


def _detector_extras(stage: Stage, stop_after: int | None) -> dict:
    """A detector stage's ``stop_after`` and ``cache`` as provenance states them (absent where they
    are the defaults, as v9's provenance was written)."""
    extras = {} if stop_after is None else {"stop_after": stop_after}
    return extras if stage.cache == "ram" else {**extras, "cache": stage.cache}


def run_device_stage(stage: Stage, start: Path, work: Path, scale: Scale, log=print) -> tuple[Path, dict]:
    """A ``gpu_run`` stage: the real sets written as ``real_mix`` writes them (one render, the
    renders are made in the run) and packed, then ``gpu_run.train`` on the first GPU, or on this
    machine's CPU when there is none (it runs, slowly). Returns (last.pt, the resolved arguments)."""
    import torch

    from vision.train import gpu_run
    from vision.train.real_mix import build_data

    d = stage.data
    real = work / "real"
    if not (real / "real_train").exists():
        build_data(real, 1, 1, log=log, photos=_real_train_photos(stage, scale), mix=d.mix, looks=d.looks,
                   frozen_cards=_frozen_cards(d), decks=scale.decks)
    gpu_run.pack(real, start, work / "pack", wheels=False, decks=scale.decks, log=log)
    renders = tuple((None if lay == "mixed" else lay, scale.count(n), seed) for lay, n, seed in d.layout_renders)
    epochs, stop_after = _schedule(stage, scale)
    device = "0" if torch.cuda.is_available() else "cpu"
    threads = 0 if device != "cpu" else scale.threads or stage.threads
    loaders = 0 if scale.workers == 0 else min(os.cpu_count() or 1, gpu_run.DeviceRun.workers)
    run = gpu_run.DeviceRun(renders=renders, mix=d.mix, val=scale.count(d.synth_val), val_seed=d.val_seed,
                            real_repeat=stage.real_repeat, device=device, imgsz=scale.imgsz or stage.imgsz,
                            batch=scale.batch or stage.batch, workers=loaders, lr0=stage.lr0, lrf=stage.lrf,
                            epochs=epochs, keep=(), stop_after=stop_after, threads=threads)
    weights = gpu_run.train(work / "pack", work / "out", work / "train", run)
    layouts = [[lay, scale.count(n), seed] for lay, n, seed in d.layout_renders]
    args = {"data": {**asdict(d), "synth_val": run.val, "layout_renders": layouts,
                     "decks": scale.decks, "real_photos": scale.real_photos},
            "epochs": epochs, "lr0": stage.lr0, "lrf": stage.lrf, "imgsz": run.imgsz, "batch": run.batch,
            "threads": threads, "schedule": stage.schedule, "device": "gpu" if device != "cpu" else "cpu",
            "real_repeat": stage.real_repeat, **_detector_extras(stage, stop_after)}
    return weights, args


def run_reader_stage(stage: Stage, start: Path, work: Path, scale: Scale, log=print) -> tuple[Path, dict]:
    """Render the stage's crops and train the reader from ``start``; returns (classifier.onnx, arguments)."""
    from vision.train.train_reader import main as train_reader

    files = []
    if scale.decks is None and any(c.mix == "v5" for c in stage.data.crops):
        _build_real_deck(log)
    recognizers = {}  # models reference -> Recognizer: one load for every set its detector cuts

    def boxes_of(reference: str, what: str):
        from vision.pipeline import Recognizer

        if reference not in recognizers:
            models = fetch_models(reference, work / "starts", f"stage {stage.name}'s {what} are cut by the models in")
            recognizers[reference] = Recognizer(models, backend="onnxruntime")
        return recognizers[reference]

    if stage.data.real_at_boxes_of:
        few = "" if scale.real_photos is None else f"_{scale.real_photos}"
        out = work / "crops" / f"crops80_real_train_detector{few}.npz"
        if not out.is_file():
            _build_real_crops_at_boxes(out, boxes_of(stage.data.real_at_boxes_of, "real crops"), scale)
        files.append(out)
    for c in stage.data.crops:
        tag = f"{c.layout or c.mix}_s{c.seed}_{scale.count(c.scenes)}{'_detector' if c.boxes == 'detector' else ''}"
        out = work / "crops" / f"crops80_{tag}.npz"
        if not out.is_file():  # a stopped replay keeps the crops it rendered
            _build_crops(c, out, scale, boxes_of(c.detector, "crops") if c.boxes == "detector" else None)
        files.append(out)
    epochs = scale.epochs or stage.epochs
    batch = scale.batch or stage.batch
    threads = scale.threads or stage.threads
    argv = ["--start", str(start), "--out", str(work / "reader"), "--epochs", str(epochs), "--lr", str(stage.lr),
            "--threads", str(threads), "--batch", str(batch), "--real-repeat", str(stage.real_repeat)]
    argv += [a for f in files for a in ("--synth", str(f))]
    if scale.real_photos is not None:
        argv += ["--real-photos", str(scale.real_photos)]
    log(f"{stage.name}: python -m vision.train.train_reader {' '.join(argv)}")
    train_reader(argv)
    args = {"data": {"real_sets": list(stage.data.real_sets), "real_photos": scale.real_photos,
                     **_real_at_boxes(stage),
                     "crops": [{**crops_arguments(c), "scenes": scale.count(c.scenes)} for c in stage.data.crops],
                     "decks": scale.decks},
            "epochs": epochs, "lr": stage.lr, "batch": batch, "threads": threads,
            "real_repeat": stage.real_repeat}
    return work / "reader" / "classifier.onnx", args


def _build_real_crops_at_boxes(out: Path, recognizer, scale: Scale) -> None:
    """The real train photos (a few of each set at a small scale, as ``train_reader`` takes them)
    cut at ``recognizer``'s boxes (the stage's ``real_at_boxes_of`` models)."""
    from vision.train.real_sets import real_photos_of
    from vision.train.runtime_crops import build_real_runtime_crops
    from vision.train.train_reader import few_of_each_set

    photos = real_photos_of("train")
    if scale.real_photos is not None:
        photos = few_of_each_set(photos, scale.real_photos)
    build_real_runtime_crops(out, photos, recognizer)


def _build_crops(c: Crops, out: Path, scale: Scale, recognizer=None) -> None:
    """Render one entry of a reader stage's crops into ``out`` (at ``recognizer``'s boxes when the
    entry is cut at a detector's)."""
    if c.boxes == "detector":
        from vision.train.runtime_crops import build_runtime_crops

        build_runtime_crops(out, scale.count(c.scenes), c.seed, recognizer, c.layout, c.table_conventions, c.mix,
                            decks=scale.decks)
    else:
        from vision.train.crops_data import MEASURED_JITTER, build_crops

        build_crops(out, scale.count(c.scenes), c.seed, c.per_index, scale.workers, mix=c.mix, jitter=MEASURED_JITTER,
                    crop_size=80, layout=c.layout, table_conventions=c.table_conventions, decks=scale.decks)


def _build_real_deck(log) -> None:
    """Mix v5 draws the deck cut out of rf100-poker's train photos: build it when it is not built
    (``python -m vision.train.cutouts``, about 3 minutes)."""
    from vision.synth import art

    if not art.deck_built(art.REAL_DECK):
        from vision.train.cutouts import main as cutouts

        log("building the rf100-real cut-out deck (python -m vision.train.cutouts)")
        if cutouts([]):
            raise RecipeError("python -m vision.train.cutouts failed: mix v5's real deck is not built")


@dataclass
class Replay:
    """What a replay made: each stage's output and resolved arguments, in order."""

    recipe: Recipe
    outputs: dict[str, Path] = field(default_factory=dict)
    arguments: dict[str, dict] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def replay(recipe: Recipe, work: Path, out: Path | None, stages: list[int] | None = None, scale: Scale = FULL,
           log=print) -> Replay:
    """Run the recipe's stages (numbers from 1; None: all) under ``work``; with ``out``, write
    what the replayed stages made there (detector.onnx and its checkpoint, classifier.onnx,
    models.json with its provenance)."""
    work = Path(work)
    chosen = list(range(1, len(recipe.stages) + 1)) if stages is None else stages
    for number in chosen:
        recipe.index_of(number)
    done = Replay(recipe)
    for number in chosen:
        stage = recipe.stages[number - 1]
        t = time.time()
        continued = stage.after in done.outputs
        if continued:
            start = done.outputs[stage.after]
        elif stage.start.startswith("git:"):
            start = fetch_start(stage, work / "starts")
        else:
            start = None  # imagenet: the stage builds its model
        log(f"stage {number}/{len(recipe.stages)} {stage.name} ({stage.model}) from {start or stage.start}")
        folder = work / f"{number:02d}_{stage.name}"
        run = run_detector_stage if stage.model == "detector" else run_reader_stage
        output, args = run(stage, start, folder, scale, log=log)
        done.outputs[stage.name] = output
        done.arguments[stage.name] = {"start": f"output of stage {stage.after}" if continued else stage.start, **args}
        done.seconds[stage.name] = round(time.time() - t, 1)
        log(f"stage {stage.name} done in {done.seconds[stage.name]:.0f} s: {output}")
    if out is not None:
        write_models(done, Path(out), work, scale)
        if recipe.doubt is not None:
            fit_doubt(recipe.doubt, Path(out), work, scale, log)
    return done


def fit_doubt(doubt: DoubtFit, models: Path, work: Path, scale: Scale = FULL, log=print) -> Path:
    """The doubt stage: the evidence the models in ``models`` give (every ``real_every``-th real
    train photo, ``scenes`` rendered scenes), the model fitted on it and written into their
    models.json. Returns the evidence table. At the tiny scale the models are too weak to name a
    wrong card worth learning from, so the recipe's committed evidence is refitted instead: the
    replay ends with the shipped doubt model."""
    from vision.train import doubt as fitting

    if scale.name == TINY.name and doubt.evidence:
        table = REPO / doubt.evidence
        log(f"doubt: tiny scale, refitting the committed evidence {doubt.evidence}")
        rows = fitting.read_evidence(table)
        given = {"evidence": doubt.evidence}
    elif doubt.tune_half:
        from vision.pipeline import Recognizer
        from vision.train.doubt_looks import LOOKS

        recognizer = Recognizer(models, backend="onnxruntime")
        log(f"doubt: collecting evidence (the real validation photos under {len(LOOKS)} looks, "
            f"{scale.count(doubt.scenes)} scenes)")
        rows, shots = fitting.collect_halves(recognizer, tuple(LOOKS), log=log)
        fitting.write_evidence(shots, Path(work) / "doubt_photos.csv", fitting.PHOTO_COLUMNS)
        rows += fitting.collect_rendered(recognizer, scale.count(doubt.scenes), doubt.seed, doubt.mix, log=log,
                                         looks=tuple(LOOKS))
        table = Path(work) / "doubt_evidence.csv"
        fitting.write_evidence(rows, table)
        given = {"evidence": str(table), "git_commit": git_commit()}
    else:
        from vision.pipeline import Recognizer

        recognizer = Recognizer(models, backend="onnxruntime")
        log(f"doubt: collecting evidence (every {doubt.real_every}. real train photo, {scale.count(doubt.scenes)} scenes)")
        rows = fitting.collect_real(recognizer, "train", doubt.real_every, scale.real_photos, log=log)
        rows += fitting.collect_rendered(recognizer, scale.count(doubt.scenes), doubt.seed, doubt.mix, log=log)
        table = Path(work) / "doubt_evidence.csv"
        fitting.write_evidence(rows, table)
        given = {"evidence": str(table), "git_commit": git_commit()}
    given = {**given, "evidence_sha256": fitting.evidence_digest(table), "cards": len(rows), "folds": fitting.FOLDS,
             "C": fitting.C}
    model = fitting.fit_on_half(rows, doubt.tune_half, doubt.risk, given) if doubt.tune_half \
        else fitting.fit(rows, doubt.risk, given)
    fitting.write_into(models, model)
    log(fitting.summary(rows, model))
    return table


def provenance(done: Replay, scale: Scale) -> dict:
    recipe = done.recipe
    return {
        "recipe": recipe.name,
        "recipe_file": f"vision/train/recipes/{recipe.name}.toml",
        "stages": list(done.outputs),
        "detector_stage": recipe.detector_from if recipe.detector_from in done.outputs else None,
        "reader_stage": recipe.reader_from if recipe.reader_from in done.outputs else None,
        "git_commit": git_commit(),
        "scale": scale.name,
        "seeds": {name: _seeds(recipe.stage(name)) for name in done.outputs},
        "arguments": done.arguments,
        "seconds": done.seconds,
    }


def crops_arguments(crops: Crops) -> dict:
    """An entry of a reader stage's crops as provenance states it (jittered crops as they were
    written before crops could be cut at a detector's boxes)."""
    args = asdict(crops)
    if crops.boxes == "jittered":
        del args["boxes"], args["detector"]
    else:
        del args["per_index"]
    return args


def _real_at_boxes(stage: Stage) -> dict:
    """The reader stage's ``real_at_boxes_of`` as provenance states it (absent where unset, as before)."""
    return {"real_at_boxes_of": stage.data.real_at_boxes_of} if stage.data.real_at_boxes_of else {}


def stage_arguments(stage: Stage) -> dict:
    """A stage's arguments at full scale, as the recipe states them."""
    args = {"start": stage.start, "data": asdict(stage.data), "epochs": stage.epochs, "threads": stage.threads}
    if stage.model == "detector":
        args["data"]["layout_renders"] = [list(t) for t in stage.data.layout_renders]
        del args["data"]["crops"], args["data"]["real_at_boxes_of"]
        repeat = {"real_repeat": stage.real_repeat} if stage.schedule == "device" else {}
        return {**args, "lr0": stage.lr0, "lrf": stage.lrf, "imgsz": stage.imgsz, "batch": stage.batch,
                "schedule": stage.schedule, **repeat, **_detector_extras(stage, stage.stop_after)}
    args["data"] = {"real_sets": list(stage.data.real_sets), **_real_at_boxes(stage),
                    "crops": [crops_arguments(c) for c in stage.data.crops]}
    return {**args, "lr": stage.lr, "batch": stage.batch, "real_repeat": stage.real_repeat}


def historical_provenance(recipe: Recipe, commit: str) -> dict:
    """The provenance of models the recipe's historical runs made (``commit`` shipped them): the
    block a replay writes, with the recipe's own arguments and the logged seconds."""
    return {
        "recipe": recipe.name,
        "recipe_file": f"vision/train/recipes/{recipe.name}.toml",
        "stages": [s.name for s in recipe.stages],
        "detector_stage": recipe.detector_from,
        "reader_stage": recipe.reader_from,
        "git_commit": commit,
        "scale": "full (the historical runs, as logged)",
        "seeds": {s.name: _seeds(s) for s in recipe.stages},
        "arguments": {s.name: stage_arguments(s) for s in recipe.stages},
        "seconds": {s.name: s.logged_s for s in recipe.stages},
    }


def _seeds(stage: Stage) -> list[int]:
    d = stage.data
    if stage.model == "detector":
        return [d.synth_seed, d.val_seed] + [seed for _, _, seed in d.layout_renders]
    return [c.seed for c in d.crops]


def write_models(done: Replay, out: Path, work: Path, scale: Scale) -> Path:
    """The replayed models into ``out``: the detector's ONNX and its checkpoint (train/detector_last.pt)
    when the recipe's detector stage ran, the reader's ONNX when its reader stage ran; models.json
    with the recipe's calibration and the provenance block."""
    from vision.classes import CARD_CODES, DETECTOR_CLASSES
    from vision.crops import CROP_MARGIN
    from vision.train.detector import export_detector, publish_checkpoint
    from vision.train.reader import READER_SIZE, reader_arch, reader_from_onnx

    recipe = done.recipe
    out.mkdir(parents=True, exist_ok=True)
    info = json.loads((out / "models.json").read_text()) if (out / "models.json").is_file() else {}
    detector = done.outputs.get(recipe.detector_from)
    if detector is not None:
        imgsz = done.arguments[recipe.detector_from]["imgsz"]
        export_detector(detector, out / "detector.onnx", imgsz, work)
        publish_checkpoint(detector, out / "train" / "detector_last.pt", work)
        # exported for any input size: the live view's frames go in at imgsz on the long side, in a rectangle
        info["detector"] = {"file": "detector.onnx", "imgsz": imgsz, "preview_imgsz": imgsz,
                            "classes": list(DETECTOR_CLASSES)}
    reader = done.outputs.get(recipe.reader_from)
    if reader is not None:
        shutil.copy(reader, out / "classifier.onnx")
        info["classifier"] = {"file": "classifier.onnx", "arch": reader_arch(len(reader_from_onnx(reader).blocks) - 1),
                              "imgsz": READER_SIZE, "margin": CROP_MARGIN, "classes": list(CARD_CODES)}
    info["version"] = recipe.version
    info["trained"] = time.strftime("%Y-%m-%d")
    if recipe.calibration:
        info["calibration"] = recipe.calibration
    else:
        info.pop("calibration", None)  # thresholds of other models would not fit these
    info["provenance"] = provenance(done, scale)
    (out / "models.json").write_text(json.dumps(info, indent=2) + "\n")
    return out
