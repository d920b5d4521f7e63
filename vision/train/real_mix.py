"""Detector continuation on real photos + renders (models v4): the real train split (corner labels
as ``index``, derived card boxes as ``card``) beside rendered v3 scenes, from a checkpoint.

    python -m vision.train.real_mix --weights models/train/detector_last.pt --epochs 25

Ultralytics saves ``last.pt`` after every epoch; run it again with ``--weights`` pointing at that
file to go on after a stop. Validation during training is on rendered scenes only: the real
validation split is never trained or tuned on (it is judged by ``bench/vision.py --real``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

from vision.train.detector import DetectorRecipe, FinetuneStage, run_stage

SYNTH_SEED, SYNTH_VAL_SEED = 9, 10  # continuation seeds (5-20), v3 mix, 640 px
# The command line's continuation (models v4's, from models/train/detector_last.pt): its schedule and
# renders; the one-shot experiment's ``--real`` continuation takes the same. A recipe's stages state their own.
CONTINUATION = FinetuneStage(epochs=25, lr0=0.001, lrf=0.1)
SYNTH_IMAGES, SYNTH_VAL_IMAGES = 1000, 60
# Models v5: rf100-poker's 1,003 train photos (12 hands shot ~100 times each) outnumbered
# cardcounterml's 556 and its black deck lost recall after 3 epochs (50.0 -> 41.4 %, real val):
# cardcounterml's photos are shown twice an epoch and every second rf100-poker photo once.
FIRST_SET_REPEAT = 2
POKER_EVERY = 2
# Models v5 stage 4 (``looks``, issue 21 items 5 and 6): cardcounterml's second showing is its
# photos as phones see them (``real_looks.phone_look``) instead of the same pixels again, and a
# window around one index of each photo (``real_looks.zoomed``: close-ups) is added, for every
# cardcounterml photo and every POKER_ZOOM_EVERY-th rf100-poker photo of the set.
POKER_ZOOM_EVERY = 3
LOOKS_SEED = 21
# Models v5 stage 5: rendered scenes of mix v5 (a share drawn with real cards cut out of
# rf100-poker's train photos, ``vision.train.cutouts``) beside the ``mix`` renders.
REAL_DECK_SEED = 30


def build_data(work: Path, synth_images: int, synth_val: int, models: Path | None = None, log=print,
               photos: list | None = None, mix: str = "v3", looks: bool = False, real_deck_renders: int = 0,
               layout_renders: tuple = (), frozen_cards: dict | None = None, decks: tuple[str, ...] | None = None,
               synth_seed: int = SYNTH_SEED, val_seed: int = SYNTH_VAL_SEED) -> Path:
    """Write the real detector set and the rendered sets; returns data.yaml. ``photos``: the real
    photos to use (default: the whole train split; the quick recipe takes a few). ``mix``: the
    rendered data mix (``scene.MIXES``; "v4" adds issue 20's overlaps, whole shows and chips).
    ``looks``: the real photos' phone-look and close-up variants (see LOOKS_SEED).
    ``real_deck_renders``: this many mix v5 scenes more (REAL_DECK_SEED; the cut-out deck must be built).
    ``layout_renders``: (layout, n, seed) triples, ``mix`` scenes of one layout each (the ninth
    session's 700 whole shows, seed 40, and 700 fans and rows, seed 41).
    ``frozen_cards``: the committed card boxes for lone corners (``frozen_labels.read_found_cards``), used
    instead of running ``models``' detector, so the data never depends on what models/ holds (a
    recipe's replay). ``decks``: render only these decks (a recipe's tiny replay)."""
    from vision.classes import CARD_CLASS
    from vision.detect import detect_region
    from vision.pipeline import Recognizer
    from vision.synth.dataset import write_dataset
    from vision.train.real_sets import real_photos_of
    from vision.train.real_detector_data import PSEUDO_CARD_SCORE, write_real_detector_set
    from vision.train.real_looks import write_variant_set
    from vision.train.rf100 import apart

    work = Path(work)
    t = time.time()
    find_cards = None
    if frozen_cards is None:
        recognizer = Recognizer(models, zoom=False)

        def find_cards(pixels):
            found = detect_region(recognizer.detector.run, recognizer.detector_size, pixels,
                                  min_card_score=PSEUDO_CARD_SCORE, config=recognizer.settings.detect)
            return found.kept().of_class(CARD_CLASS).xyxy  # the boxes NMS kept (origin, not class)

    first, poker = apart(real_photos_of("train") if photos is None else photos)
    poker = poker[::POKER_EVERY]
    counts = write_real_detector_set(first, work / "real_train", find_cards, frozen_cards)
    log(f"real train set: {json.dumps(counts)} ({time.time() - t:.0f} s)")
    real_dirs = [work / "real_train"]
    for k in range(2, FIRST_SET_REPEAT + 1):  # the photos again under another folder: shown k times an epoch
        again = work / f"real_train_{k}"
        shutil.rmtree(again, ignore_errors=True)
        if looks:
            log(f"real train set as phones see it: {json.dumps(write_variant_set(work / 'real_train', again, 'phone_look', LOOKS_SEED + k))}")
        else:
            shutil.copytree(work / "real_train", again, symlinks=True)
        real_dirs.append(again)
    if poker:
        counts = write_real_detector_set(poker, work / "real_poker", find_cards, frozen_cards)
        log(f"rf100-poker train set (every {POKER_EVERY}th photo by time): {json.dumps(counts)}")
        real_dirs.append(work / "real_poker")
    if looks:  # close-ups of the sets written above, not of a folder an earlier run left
        written = [("real_train", 1)] + ([("real_poker", POKER_ZOOM_EVERY)] if poker else [])
        for name, every in written:
            counts = write_variant_set(work / name, work / f"{name}_zoomed", "zoomed", LOOKS_SEED, every)
            log(f"{name} close-ups (every {every}th photo): {json.dumps(counts)}")
            real_dirs.append(work / f"{name}_zoomed")
    tag = "" if mix == "v3" else f"{mix}_"  # v3 folders keep their names (an interrupted run resumes them)
    synth = write_dataset(work / f"synth_{tag}s{synth_seed}", synth_images, synth_seed, longest=640, mixed=True,
                          mix=mix, decks=decks)
    val = write_dataset(work / f"synth_val_{tag}s{val_seed}", synth_val, val_seed, longest=640,
                        mixed=True, mix=mix, decks=decks)
    renders = [synth.parent]
    if real_deck_renders:
        renders.append(write_dataset(work / f"synth_v5_s{REAL_DECK_SEED}", real_deck_renders, REAL_DECK_SEED,
                                     longest=640, mixed=True, mix="v5", decks=decks).parent)
    for layout, n, seed in layout_renders:
        renders.append(write_dataset(work / f"synth_{tag}{layout}_s{seed}", n, seed, layout=layout, longest=640,
                                     mixed=True, mix=mix, decks=decks).parent)
    data = work / "real_mix.yaml"
    data.write_text(
        "train:\n" + "".join(f"  - {(d / 'images').resolve()}\n" for d in real_dirs + renders)
        + f"val: {(val.parent / 'images').resolve()}\nnc: 2\nnames: ['index', 'card']\n")
    log(f"data: {data} ({time.time() - t:.0f} s)")
    return data


def layout_renders(text: str) -> tuple[str, int, int]:
    """``LAYOUT:N:SEED`` (e.g. ``fan:700:41``) as (layout, n, seed); a bad one is an argparse error."""
    from vision.synth.layouts import LAYOUTS

    parts = text.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or int(parts[1]) < 1:
        raise argparse.ArgumentTypeError(f"expected LAYOUT:N:SEED with N >= 1, got {text!r}")
    if parts[0] not in LAYOUTS:
        raise argparse.ArgumentTypeError(f"unknown layout {parts[0]!r}; known: {', '.join(LAYOUTS)}")
    return parts[0], int(parts[1]), int(parts[2])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, default=Path("models/train/detector_last.pt"))
    parser.add_argument("--work", type=Path, default=Path("build/rt"))
    parser.add_argument("--epochs", type=int, default=CONTINUATION.epochs)
    parser.add_argument("--lr0", type=float, default=CONTINUATION.lr0)
    parser.add_argument("--lrf", type=float, default=CONTINUATION.lrf)
    parser.add_argument("--synth", type=int, default=SYNTH_IMAGES)
    parser.add_argument("--synth-val", type=int, default=SYNTH_VAL_IMAGES)
    parser.add_argument("--mix", default="v3", help="rendered data mix: v3 (models v4) or v4 (overlaps, whole shows)")
    parser.add_argument("--name", default="detector_real")
    parser.add_argument("--looks", action="store_true",
                        help="add the real photos as phones see them and close-ups of them (models v5 stage 4)")
    parser.add_argument("--real-deck-renders", type=int, default=0,
                        help="this many mix v5 scenes (real cut-out cards) beside the --mix renders (models v5 stage 5)")
    parser.add_argument("--layout-renders", type=layout_renders, action="append", default=[], metavar="LAYOUT:N:SEED",
                        help="N --mix scenes of one layout (seed SEED) beside the others; repeatable")
    parser.add_argument("--hours", type=float, default=None,
                        help="a wall-clock box for the stage (ultralytics fits the epochs to it after the first)")
    parser.add_argument("--stop-after", type=int, default=None,
                        help="stop after this many epochs of --epochs' learning-rate schedule")
    parser.add_argument("--imgsz", type=int, default=DetectorRecipe.imgsz,
                        help="training input side (a multiple of 32); the shipped detector is fully convolutional, "
                             "so its weights start a larger input (issue 39: 640 for small indices on whole tables)")
    parser.add_argument("--threads", type=int, default=DetectorRecipe.threads,
                        help="torch threads; 1 when other training shares the 2 cores (2 threads on a shared "
                             "core measured 16.8 s a batch against 2.8 s alone)")
    parser.add_argument("--batch", type=int, default=DetectorRecipe.batch,
                        help="images a batch (8 at 640 px: Lite0's batch of 16 at 640 took over 24 GB and was killed)")
    parser.add_argument("--cache", choices=("ram", "disk"), default=DetectorRecipe.cache,
                        help="where ultralytics keeps decoded images (disk: ~5 GB less memory for 4,000 images at 640)")
    parser.add_argument("--snapshot-minutes", type=float, default=None,
                        help="also save weights/snapshot.pt this often inside an epoch")
    args = parser.parse_args(argv)
    if args.imgsz < 32 or args.imgsz % 32:
        parser.error(f"--imgsz must be a multiple of 32, got {args.imgsz}")
    data = build_data(args.work, args.synth, args.synth_val, mix=args.mix, looks=args.looks,
                      real_deck_renders=args.real_deck_renders, layout_renders=tuple(args.layout_renders))
    from vision.train.lite0_backbone import keep_freed_memory

    keep_freed_memory()  # Lite0's batches 3x faster (MODEL.md); a no-op cost for YOLO11n
    recipe = DetectorRecipe(cache=args.cache, threads=args.threads, hours=args.hours, imgsz=args.imgsz,
                            batch=args.batch)
    stage = FinetuneStage(args.epochs, args.lr0, args.lrf, stop_after=args.stop_after)
    weights = run_stage(args.weights, data, args.work, recipe, stage, args.name,
                        snapshot_minutes=args.snapshot_minutes)
    print(f"done: {weights}")


if __name__ == "__main__":
    main()
