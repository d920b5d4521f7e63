"""The detector's fine-tune on a borrowed GPU machine, packed here and run there in one call.

A device call carries at most 64 MiB (the checkout included) and brings back at most 8 files of
16 MiB, and the machine has no ultralytics and no card art. So ``pack`` writes one folder that
holds what the run needs, small:

- the training decks' art and the surfaces as lossy WebP (alpha kept; 64 -> 13 MB), made PNG
  again there, and the names of the texture sources (the renderer only checks that they exist
  when their downsized copies are cached);
- the real detector sets ``real_mix.build_data`` wrote (cardcounterml's train photos as they are,
  rf100-poker's every second one at 640 px, its close-ups); the phone looks and cardcounterml's
  close-ups are made there again from those (same code, same seeds);
- the start weights and ultralytics (+ the Lite0 layer's package) as wheels.

``train`` runs there: it renders fresh scenes on every core, trains within a wall-clock budget
and copies the EMA weights, stripped (5.4 MB), to ``--out`` after every epoch, so a run stopped
at its limit still returns its last epoch.

    python -m vision.train.gpu_run pack --real build/gpu/work --start START.pt --out .gpu \
        --archive .gpu_pack/pack.tgz                           # here (.gpu_pack ignored, carried)
    tar -xzf .gpu_pack/pack.tgz && python3 -m pip install -q --no-index --no-deps --target /tmp/site \
        .gpu/wheels/*.whl && PYTHONPATH=/tmp/site:$PWD \
        python3 -m vision.train.gpu_run train --pack .gpu --out $OUT --budget-s 470    # there

The archive, not the folder, is carried: the folder's 3,540 small files take 73 MB in disk
blocks, over a call's 64 MiB; the gzipped tar is 61 MB. The checkout travels too: only
``vision/`` is needed there (session 18 removed the other tracked files for the call and
restored them with ``git checkout`` after).

The same ``train``, run here with ``--device cpu --imgsz 128`` and a few scenes, is the check
done before a device call (``tests/vision/test_gpu_run.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

from vision.train.real_mix import SYNTH_VAL_SEED

ART_QUALITY = 85  # WebP quality of the carried art: alpha kept, ~5x smaller than PNG
POKER_QUALITY = 70  # JPEG quality of rf100-poker's photos carried at 640 px (their originals are 960x720)
POKER_LONGEST = 640  # the training input side: the photo is never seen larger
WHEELS = ("ultralytics", "ultralytics-thop", "ultralytics-platform", "efficientnet-lite-pytorch")
# Folders of ``real_mix.build_data`` carried as they are (cardcounterml's photos are 640x640
# webcam JPEGs already) or made smaller (poker); the others are made again there.
CARRIED_AS_IS = ("real_train",)
CARRIED_SMALLER = ("real_poker", "real_poker_zoomed")


# --- pack (here) ---------------------------------------------------------------------------------

def pack(real: Path, start: Path, out: Path, wheels: bool = True, decks: tuple[str, ...] | None = None,
         archive: Path | None = None, log=print) -> dict:
    """Write the folder a device run carries; returns its sizes in MB. ``real``: a
    ``real_mix.build_data`` work folder (its real sets are written first when it has none: that
    needs the real photos and ``models/``). ``decks``: the art to carry (default: every training
    deck; the renders there draw from the decks carried). ``archive``: also write the folder as
    one gzipped tar there."""
    out = Path(out)
    if not (Path(real) / "real_train").exists():
        _write_real_sets(Path(real), log)
    shutil.rmtree(out, ignore_errors=True)
    _pack_art(out / "art", decks)
    _pack_real_sets(Path(real), out / "real")
    shutil.copy(start, out / "start.pt")
    if wheels:
        _download_wheels(out / "wheels")
    sizes = {p.name: round((_size(p) if p.is_dir() else p.stat().st_size) / 1e6, 1) for p in sorted(out.iterdir())}
    sizes["total"] = round(_size(out) / 1e6, 1)
    if archive is not None:
        archive = Path(archive)
        archive.parent.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(out, arcname=out.name)
        sizes["archive"] = round(archive.stat().st_size / 1e6, 1)
    log(f"packed {out}: {json.dumps(sizes)}")
    return sizes


def _pack_art(out: Path, decks: tuple[str, ...] | None) -> None:
    """The decks' faces and the surfaces as WebP (other files as they are), and the texture sources' names."""
    import cv2

    from vision.synth.art import TRAIN_DECKS, cache_dir
    from vision.synth.surfaces import GIMP_PATTERNS, GNOME_BACKGROUNDS, packaged_surfaces

    packaged_surfaces()  # the downsized copies exist before they are packed
    for name in (*(decks or TRAIN_DECKS), "surfaces"):
        source, target = cache_dir() / name, out / name
        target.mkdir(parents=True)
        for file in sorted(source.iterdir()):
            if file.suffix == ".png":
                pixels = cv2.imread(str(file), cv2.IMREAD_UNCHANGED)
                cv2.imwrite(str(target / f"{file.stem}.webp"), pixels, [cv2.IMWRITE_WEBP_QUALITY, ART_QUALITY])
            else:
                shutil.copy(file, target / file.name)
    sources = [str(p) for p in sorted(GIMP_PATTERNS.rglob("*.pat"))] if GIMP_PATTERNS.exists() else []
    sources += [str(p) for p in sorted(GNOME_BACKGROUNDS.iterdir())] if GNOME_BACKGROUNDS.exists() else []
    (out / "texture_sources.json").write_text(json.dumps(sources))


def _pack_real_sets(real: Path, out: Path) -> None:
    """The carried real sets: as they are, or at POKER_LONGEST px (their labels are normalised)."""
    import cv2

    for name in CARRIED_AS_IS + CARRIED_SMALLER:
        source, target = real / name, out / name
        (target / "images").mkdir(parents=True)
        shutil.copytree(source / "labels", target / "labels")
        for image in sorted((source / "images").iterdir()):
            if name in CARRIED_AS_IS:
                shutil.copy(image.resolve(), target / "images" / image.name)
                continue
            pixels = cv2.imread(str(image))
            scale = POKER_LONGEST / max(pixels.shape[:2])
            if scale < 1:
                pixels = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(target / "images" / f"{image.stem}.jpg"), pixels, [cv2.IMWRITE_JPEG_QUALITY, POKER_QUALITY])


def _write_real_sets(work: Path, log) -> None:
    """The real sets as the CPU line's ``real_mix`` writes them (phone looks and close-ups
    included), with one rendered scene where it renders hundreds (the renders are made there)."""
    from vision.train.real_mix import build_data

    build_data(work, 1, 1, models=Path("models"), log=log, mix="v4", looks=True)


def _download_wheels(folder: Path) -> None:
    from importlib.metadata import version

    specs = [f"{name}=={version(name)}" for name in WHEELS]
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "--python-version", "3.12", "--implementation", "cp", "--platform", "manylinux_2_17_x86_64",
                    "-d", str(folder), *specs], check=True)


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


# --- train (there) -------------------------------------------------------------------------------

def unpack_art(pack_dir: Path, cache: Path) -> None:
    """The carried art as the renderer's cache (PNG again) and empty files for the texture sources."""
    import cv2

    for folder in sorted((pack_dir / "art").iterdir()):
        if not folder.is_dir():
            continue
        target = cache / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for file in folder.iterdir():
            if file.suffix == ".webp":
                cv2.imwrite(str(target / f"{file.stem}.png"), cv2.imread(str(file), cv2.IMREAD_UNCHANGED))
            else:
                shutil.copy(file, target / file.name)
    cached = {p.name for p in (cache / "surfaces").iterdir()}
    for source in json.loads((pack_dir / "art" / "texture_sources.json").read_text()):
        path = Path(source)
        copy = f"pat_{path.parent.name}_{path.stem}.png" if path.suffix == ".pat" else f"photo_{path.stem}.jpg"
        if copy in cached and not path.exists():  # only sources whose copy is cached: the same surfaces
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()


def packed_decks(pack_dir: Path) -> tuple[str, ...] | None:
    """The decks a pack carries; None when it is every training deck (the renders are then the
    same scenes as ``real_mix.build_data``'s for the same seeds)."""
    from vision.synth.art import TRAIN_DECKS

    decks = tuple(sorted(p.name for p in (pack_dir / "art").iterdir() if p.is_dir() and p.name != "surfaces"))
    return None if set(decks) == set(TRAIN_DECKS) else decks


def build_training_data(pack_dir: Path, work: Path, renders: list[tuple[str | None, int, int]], val: int,
                        real_repeat: int, limit_real: int | None = None, log=print, mix: str = "v4",
                        val_seed: int = SYNTH_VAL_SEED) -> Path:
    """The real sets (carried + made again) and fresh ``mix`` renders; returns the data yaml."""
    from vision.synth.dataset import write_dataset
    from vision.train.real_looks import write_variant_set
    from vision.train.real_mix import FIRST_SET_REPEAT, LOOKS_SEED

    t = time.time()
    real_dirs = []
    for folder in sorted((pack_dir / "real").iterdir()):
        target = work / folder.name
        shutil.rmtree(target, ignore_errors=True)
        (target / "images").mkdir(parents=True)
        shutil.copytree(folder / "labels", target / "labels")
        for image in sorted((folder / "images").iterdir())[:limit_real]:
            shutil.copy(image, target / "images" / image.name)
        real_dirs.append(target)
    first = work / "real_train"
    # as real_mix.build_data with looks: the second showing as phones see it, and close-ups
    log(f"phone looks: {json.dumps(write_variant_set(first, work / f'real_train_{FIRST_SET_REPEAT}', 'phone_look', LOOKS_SEED + FIRST_SET_REPEAT))}")
    log(f"close-ups: {json.dumps(write_variant_set(first, work / 'real_train_zoomed', 'zoomed', LOOKS_SEED, 1))}")
    real_dirs += [work / f"real_train_{FIRST_SET_REPEAT}", work / "real_train_zoomed"]
    log(f"real sets ({time.time() - t:.0f} s)")
    render_dirs, decks = [], packed_decks(pack_dir)
    for layout, n, seed in renders:
        name = f"synth_{mix}_{layout or 'mixed'}_s{seed}"
        render_dirs.append(write_dataset(work / name, n, seed, layout=layout, longest=640, mixed=True,
                                         mix=mix, decks=decks).parent)
        log(f"{name}: {n} scenes ({time.time() - t:.0f} s)")
    val_dir = write_dataset(work / f"synth_val_{mix}_s{val_seed}", val, val_seed, longest=640, mixed=True, mix=mix,
                            decks=decks).parent
    data = work / "gpu_mix.yaml"
    train = [d for d in real_dirs for _ in range(real_repeat)] + render_dirs
    data.write_text("train:\n" + "".join(f"  - {(d / 'images').resolve()}\n" for d in train)
                    + f"val: {(val_dir / 'images').resolve()}\nnc: 2\nnames: ['index', 'card']\n")
    log(f"data: {data} ({time.time() - t:.0f} s)")
    return data


@contextlib.contextmanager
def _lite0_without_imagenet():
    """The checkpoint's yaml builds Lite0's backbone with its ImageNet weights, whose 18 MB
    package is not carried: the checkpoint's own weights replace them right after."""
    from vision.train import lite0_backbone

    build = lite0_backbone.Lite0Backbone.__init__

    def without_imagenet(self, pretrained=True, last_block=lite0_backbone.STAGE_ENDS[-1]):
        build(self, False, last_block)

    lite0_backbone.Lite0Backbone.__init__ = without_imagenet
    try:
        yield
    finally:
        lite0_backbone.Lite0Backbone.__init__ = build


@contextlib.contextmanager
def _art_cache(root: Path):
    kept = os.environ.get("CRIB_ART_CACHE")
    os.environ["CRIB_ART_CACHE"] = str(root)
    try:
        yield
    finally:
        if kept is None:
            os.environ.pop("CRIB_ART_CACHE", None)
        else:
            os.environ["CRIB_ART_CACHE"] = kept


def _stand_in_polars(site: Path) -> None:
    """Ultralytics reads results.csv back with polars inside a try; a stand-in that raises is enough."""
    try:
        import polars  # noqa: F401
        return
    except ImportError:
        pass
    (site / "polars").mkdir(parents=True, exist_ok=True)
    (site / "polars" / "__init__.py").write_text(
        "def read_csv(*args, **kwargs):\n    raise ImportError('polars is not on this machine')\n")
    sys.path.insert(0, str(site))


def _copy_out(out: Path, keep: set):
    """After every epoch: the EMA weights stripped to ``out/last.pt`` (and ``epochN.pt`` for the
    epochs in ``keep``, fractions of the time box's epoch count), with the curve."""
    from ultralytics.utils.torch_utils import strip_optimizer

    def copy(trainer) -> None:
        if not trainer.last.exists():
            return
        epoch = trainer.epoch + 1
        strip_optimizer(str(trainer.last), str(out / "last.pt"))
        if any(round(f * trainer.epochs) == epoch for f in keep) and not (out / f"epoch{epoch}.pt").exists():
            shutil.copy(out / "last.pt", out / f"epoch{epoch}.pt")
        if trainer.csv.exists():
            shutil.copy(trainer.csv, out / "results.csv")
        print(f"epoch {epoch}/{trainer.epochs} copied ({time.time() - trainer.train_time_start:.0f} s)", flush=True)
    return copy


@dataclass(frozen=True)
class DeviceRun:
    """What a run there renders and how it trains (the defaults: the session-18 run on an H200)."""

    renders: tuple[tuple[str | None, int, int], ...] = ((None, 1600, 9), ("two_hands_crib_starter", 2000, 40),
                                                        ("fan", 1400, 41))
    mix: str = "v4"
    val: int = 40
    val_seed: int = SYNTH_VAL_SEED
    real_repeat: int = 2  # the real sets twice an epoch: about half of it, as in real_mix's 2,448 of 4,048
    device: str = "0"
    imgsz: int = 640
    batch: int = 64  # ultralytics' nominal batch: one optimizer step a batch, as batch 8 x 8 on the CPU
    workers: int = 14
    lr0: float = 0.0004
    lrf: float = 0.1
    epochs: int = 30  # the time box plans them again after the first epoch
    budget_s: float | None = None  # wall clock for everything (training fitted to what is left); None: untimed
    keep: tuple[float, ...] = (1 / 3, 2 / 3)  # epochs kept beside last.pt, as fractions of the planned ones
    stop_after: int | None = None  # end after this many epochs of the schedule (a recipe's replay of a time box)
    threads: int = 0  # torch threads on a CPU (0: ultralytics' choice)


def train(pack_dir: Path, out: Path, work: Path, run: DeviceRun, limit_real: int | None = None) -> Path:
    """Unpack, build the data and fine-tune from the pack's start weights; returns ``out/last.pt``."""
    started = time.time()
    pack_dir, out, work = Path(pack_dir).resolve(), Path(out).resolve(), Path(work).resolve()
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    from vision.synth.art import cache_dir

    with _art_cache(work / "art"):
        unpack_art(pack_dir, cache_dir())
        data = build_training_data(pack_dir, work, list(run.renders), run.val, run.real_repeat, limit_real,
                                   mix=run.mix, val_seed=run.val_seed)
    _stand_in_polars(work / "site")
    from vision.train.detector import DetectorRecipe, _common_train_args, _stop_after, _training_yolo, _use_threads

    YOLO = _training_yolo(work)
    hours = None if run.budget_s is None else max(run.budget_s - (time.time() - started), 60) / 3600
    recipe = DetectorRecipe(imgsz=run.imgsz, batch=run.batch, cache="ram", hours=hours, threads=0)
    args = _common_train_args(data, work, recipe, run.device)
    args.update(workers=run.workers, deterministic=False)
    print(f"training {f'{hours * 60:.1f} min' if hours else f'{run.epochs} epochs'} from "
          f"{time.time() - started:.0f} s", flush=True)
    _use_threads(run.threads)
    with _lite0_without_imagenet():
        model = YOLO(str(pack_dir / "start.pt"))
        model.add_callback("on_fit_epoch_end", _copy_out(out, set(run.keep)))
        if run.stop_after is not None:
            model.add_callback("on_fit_epoch_end", _stop_after(run.stop_after))
        model.train(**args, name="gpu", epochs=run.epochs, mosaic=0.0, close_mosaic=0, lr0=run.lr0, lrf=run.lrf,
                    warmup_epochs=0.0)
    return out / "last.pt"


def render_spec(text: str) -> tuple[str | None, int, int]:
    """``LAYOUT:N:SEED`` (``mixed`` for the mix's own layouts) as (layout, n, seed)."""
    parts = text.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise argparse.ArgumentTypeError(f"expected LAYOUT:N:SEED, got {text!r}")
    return (None if parts[0] == "mixed" else parts[0]), int(parts[1]), int(parts[2])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("pack", help="write the folder a device run carries")
    p.add_argument("--real", type=Path, required=True, help="a real_mix.build_data work folder (its real sets)")
    p.add_argument("--start", type=Path, required=True, help="the checkpoint to start from")
    p.add_argument("--out", type=Path, default=Path(".gpu"))
    p.add_argument("--no-wheels", action="store_true")
    p.add_argument("--archive", type=Path, default=None, help="also write the folder as this .tgz (what a call carries)")
    t = commands.add_parser("train", help="render and train on this machine (the device)")
    t.add_argument("--pack", type=Path, default=Path(".gpu"))
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--work", type=Path, default=Path("/tmp/gpu_work"))
    t.add_argument("--budget-s", type=float, required=True, help="wall clock for everything, training fitted to it")
    t.add_argument("--render", type=render_spec, action="append", default=[], metavar="LAYOUT:N:SEED",
                   help="scenes to render there (repeatable; default: DeviceRun.renders)")
    defaults = DeviceRun()
    for name in ("val", "real_repeat", "device", "imgsz", "batch", "workers", "lr0", "lrf", "epochs"):
        value = getattr(defaults, name)
        t.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    t.add_argument("--limit-real", type=int, default=None, help="only this many photos a real set (a dry run)")
    args = parser.parse_args(argv)
    if args.command == "pack":
        pack(args.real, args.start, args.out, wheels=not args.no_wheels, archive=args.archive)
        return
    settings = {k: getattr(args, k) for k in ("val", "real_repeat", "device", "imgsz", "batch", "workers", "lr0", "lrf",
                                              "epochs", "budget_s")}
    run = DeviceRun(**settings, **({"renders": tuple(args.render)} if args.render else {}))
    train(args.pack, args.out, args.work, run, args.limit_real)


if __name__ == "__main__":
    main()
