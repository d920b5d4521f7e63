"""Reader training crops cut at the detector's own index boxes (issue 39, item 3).

The reader trains on crops around the true index boxes, jittered as a guess at a detector's error
(``crops_data``). On whole tables the shipped detector's boxes err far more than that guess: on 30
rendered whole tables (dataset seed 28), models v9's reader named 94.5 % of the indices right at
the boxes its detector drew and 98.2 % at the true boxes; boxes under 0.5 IoU with the truth, a
fifth of them, were read right 83 % of the time. These crops are the boxes the reader is really
given: each rendered scene is saved as a JPEG and read back (as a photo is), the detector's index
boxes (first and closer passes) are matched to the visible indices they cover, and each matched
box is cut at every margin the runtime reads it at (``ReadConfig.margin_scales``).

    python -m vision.train.runtime_crops --out build/rd/r29.npz --scenes 700 --seed 29 \
        --layout two_hands_crib_starter --table-conventions

A box covering two visible indices, or none, gives no crop: its label would be a guess.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from vision.boxes import box_containment
from vision.classes import CARD_INDEX
from vision.crops import crop_square
from vision.synth.scene import DEFAULT_SIZE, render_scene, scene_seed

MATCH_COVER = 0.5  # share of a visible index inside a detector box that makes the box a reading of it
JPEG_QUALITY = 90  # as the bench saves its rendered photos


def matched_boxes(index_boxes: np.ndarray, truth: list[tuple[str, tuple]]) -> list[tuple[int, int]]:
    """(box row, card index) for each detector index box that covers exactly one true visible index
    (``truth``: (card code, index box) pairs) by at least ``MATCH_COVER`` of it."""
    if not len(index_boxes) or not truth:
        return []
    cover = box_containment(np.asarray([box for _, box in truth], np.float32), np.asarray(index_boxes, np.float32))
    pairs = []
    for row in range(len(index_boxes)):
        hits = np.flatnonzero(cover[:, row] > MATCH_COVER)
        if len(hits) == 1:
            pairs.append((row, CARD_INDEX[truth[hits[0]][0]]))
    return pairs


def scene_runtime_crops(recognizer, seed: int, layout: str | None = None, table_conventions: bool = False,
                        mix: str = "v4", size=DEFAULT_SIZE, decks: tuple[str, ...] | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, S, S, 3 RGB uint8; S the recogniser's reader input) and labels (N,) of one rendered
    scene, cut where ``recognizer`` (a ``vision.pipeline.Recognizer``) puts its index boxes
    (``decks`` None: the mix's)."""
    image, annotation = render_scene(seed, size=size, mix=mix, layout=layout, table_conventions=table_conventions,
                                     decks=decks)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise RuntimeError(f"scene {seed}: JPEG encoding failed")
    truth = [(card["card"], index["box"]) for card in annotation["cards"] for index in card["indices"]
             if index["visible"]]
    return crops_at_detector_boxes(recognizer, cv2.imdecode(jpeg, cv2.IMREAD_COLOR), truth)


def photo_runtime_crops(recognizer, photo, look: str = "as_taken", look_seed: int = 0
                        ) -> tuple[np.ndarray, np.ndarray]:
    """The same for a labelled real photo (``vision.train.real_cards.RealPhoto``), decoded as the
    runtime decodes a photo file and made worse by ``look`` (``vision.train.doubt_looks``; its
    strength drawn from ``look_seed`` and the photo's name); its readable corners
    (``RealPhoto.readable_corners``) are the truth."""
    from vision.decode import read_photo
    from vision.train.doubt_looks import looked

    pixels = looked(read_photo(photo.image).pixels, look, str(photo.image), seed=look_seed)
    h, w = pixels.shape[:2]
    truth = [(c.code, (c.box[0] * w, c.box[1] * h, c.box[2] * w, c.box[3] * h)) for c in photo.readable_corners]
    return crops_at_detector_boxes(recognizer, pixels, truth)


def crops_at_detector_boxes(recognizer, pixels: np.ndarray, truth: list[tuple[str, tuple]]
                            ) -> tuple[np.ndarray, np.ndarray]:
    """Crops at ``recognizer``'s index boxes on ``pixels`` (BGR) matched to ``truth`` ((card code,
    index box) pairs, pixels), each at every margin the runtime reads, and their labels."""
    from vision.stages import Candidates

    detections, _, _ = recognizer.detect(pixels)
    indices = Candidates.of(detections).indices
    size_px, margin = recognizer.crop_size, recognizer.crop_margin
    crops, labels = [], []
    for row, label in matched_boxes(indices.xyxy, truth):
        for scale in recognizer.settings.read.margin_scales:
            crops.append(crop_square(pixels, indices.xyxy[row], size_px, margin * scale))
            labels.append(label)
    if not crops:
        return np.zeros((0, size_px, size_px, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def build_runtime_crops(out: Path, scenes: int, seed: int, recognizer, layout: str | None = None,
                        table_conventions: bool = False, mix: str = "v4", progress=None,
                        decks: tuple[str, ...] | None = None) -> Path:
    """Render ``scenes`` scenes (``scene_seed(seed, i)``) and save their runtime crops to ``out``."""
    pieces = []
    for i in range(scenes):
        pieces.append(scene_runtime_crops(recognizer, scene_seed(seed, i), layout, table_conventions, mix, decks=decks))
        if progress:
            progress(i + 1, scenes)
    return _save(out, pieces, recognizer.crop_size)


def looks_for(photos: list, seed: int) -> list[str]:
    """One look a photo (never "as taken"), drawn from ``seed``: each look an even share."""
    from vision.train.doubt_looks import LOOKS

    worse = [name for name in LOOKS if name != "as_taken"]
    return [worse[i] for i in np.random.default_rng(seed).integers(0, len(worse), len(photos))]


def build_real_runtime_crops(out: Path, photos: list, recognizer, progress=None, looks_seed: int | None = None
                             ) -> Path:
    """The runtime crops of labelled real photos (the real train split's) saved to ``out``; with
    ``looks_seed``, each photo made worse by one look first (``looks_for``)."""
    looks = looks_for(photos, looks_seed) if looks_seed is not None else ["as_taken"] * len(photos)
    pieces = []
    for i, (photo, look) in enumerate(zip(photos, looks)):
        pieces.append(photo_runtime_crops(recognizer, photo, look, 0 if looks_seed is None else looks_seed))
        if progress:
            progress(i + 1, len(photos))
    return _save(out, pieces, recognizer.crop_size)


def _save(out: Path, pieces: list[tuple[np.ndarray, np.ndarray]], crop_size: int) -> Path:
    """(crops, labels) pieces in one .npz with crops and labels, as ``crops_data`` writes."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    empty = (np.zeros((0, crop_size, crop_size, 3), np.uint8), np.zeros((0,), np.int64))
    pieces = pieces or [empty]
    np.savez(out, crops=np.concatenate([c for c, _ in pieces]), labels=np.concatenate([l for _, l in pieces]))
    return out


def main(argv=None) -> None:
    from vision.pipeline import Recognizer
    from vision.synth import LAYOUTS
    from vision.synth.scene import MIXES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, help="rendered scenes (or --real-train)")
    parser.add_argument("--seed", type=int, help="dataset seed: scene i is scene_seed(seed, i)")
    parser.add_argument("--real-train", action="store_true", help="the real train split's photos instead of renders")
    parser.add_argument("--models", type=Path, help="the models whose detector draws the boxes (default models/)")
    parser.add_argument("--mix", default="v4", choices=MIXES)
    parser.add_argument("--layout", choices=LAYOUTS, help="one layout for every scene (default: the mix's choice)")
    parser.add_argument("--table-conventions", action="store_true", help="groups laid out as players do")
    parser.add_argument("--looks-seed", type=int,
                        help="with --real-train: each photo made worse by one of the doubt check's looks first "
                             "(dark, dim, tinted, noisy, blurred, recompressed, smaller), drawn from this seed")
    args = parser.parse_args(argv)
    rendered = (args.scenes is not None, args.seed is not None)
    if (args.real_train and any(rendered)) or (not args.real_train and not all(rendered)):
        parser.error("give --scenes and --seed (renders) or --real-train alone")
    if args.looks_seed is not None and not args.real_train:
        parser.error("--looks-seed goes with --real-train")
    if args.scenes is not None and args.scenes < 1:
        parser.error(f"--scenes must be at least 1, got {args.scenes}")
    if args.models is not None and not (args.models / "models.json").exists():
        parser.error(f"{args.models}: no models.json (not a model folder)")
    recognizer = Recognizer(args.models, backend="onnxruntime")
    start = time.time()

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            unit = "photos" if args.real_train else "scenes"
            print(f"{done}/{total} {unit} ({time.time() - start:.0f} s)", flush=True)

    if args.real_train:
        from vision.train.real_sets import real_photos_of

        out = build_real_runtime_crops(args.out, real_photos_of("train"), recognizer, progress, args.looks_seed)
    else:
        out = build_runtime_crops(args.out, args.scenes, args.seed, recognizer, args.layout, args.table_conventions,
                                  args.mix, progress)
    with np.load(out) as saved:
        print(f"{len(saved['labels'])} crops -> {out}", flush=True)


if __name__ == "__main__":
    main()
