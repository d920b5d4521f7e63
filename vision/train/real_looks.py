"""Real detector photos made to look as the failures look (issue 21, items 5 and 6): a copy of a
written real detector set (``real_detector_data``) with each photo blurred, smeared, dimmed,
warmed, tilted and JPEG-compressed as phones and webcams take them (``phone_look``), or cut down
to a window around one corner index as a phone held close to a hand sees it (``zoomed``).

Both work on the labels already written (normalised YOLO boxes: class, cx, cy, w, h), so the
pseudo card boxes of lone corners are derived once, and every photo's variant depends only on
the seed and its file name (a rewritten set is the same set).
"""

from __future__ import annotations

import json
import shutil
import zlib
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.classes import CARD_CLASS, DETECTOR_CLASSES, INDEX_CLASS
from vision.train.real_cards import yolo_boxes
from vision.train.real_detector_data import yolo_line

# Phone look: each effect on this share of photos, at least one on every photo. Sizes are photo
# pixels of the 640-960 px real photos, where an index is 15-60 px tall (a soft webcam index is
# ~1.5 px of blur at that scale; the reader's crops use the same shares).
BLUR_SHARE, MOTION_SHARE, DIM_SHARE, WARM_SHARE, TILT_SHARE = 0.45, 0.25, 0.25, 0.25, 0.35
BLUR_SIGMA = (0.8, 2.6)
MOTION_LENGTH = (3, 11)
DIM_GAIN = (0.45, 0.8)
WARM_BGR = np.array([0.82, 1.0, 1.12], np.float32)  # tungsten light
TILT = 0.07  # each photo corner moves up to this share of the side (a phone held at an angle)
JPEG_QUALITY = (30, 75)  # phone and messenger quality
# Zoom: the window is 1/ZOOM of the photo each way (log-uniform), placed so that one labelled
# index lies wholly inside it: the close-up photos of the validation split show indices 0.2-0.27
# of the photo's long side, 1.2-1.6x the desk median (MODEL.md "Close-ups").
ZOOM = (1.6, 3.2)
KEEP_INDEX = 0.6  # an index cut by the window stays labelled when this share of it is inside
KEEP_CARD = 0.15  # a card cut by the window stays (clipped) when this share of it is inside

Labels = np.ndarray  # (N, 5): class, x1, y1, x2, y2 normalised


def read_labels(path: Path) -> Labels:
    rows = yolo_boxes(Path(path).read_text(), str(path), len(DETECTOR_CLASSES))
    return np.array([(cls, *box) for cls, box in rows], np.float64).reshape(-1, 5)


def label_text(labels: Labels) -> str:
    return "".join(yolo_line(int(row[0]), tuple(row[1:])) + "\n" for row in labels)


def _rng(seed: int, name: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(name.encode())])


def _motion_kernel(length: int, angle: float) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return kernel / max(float(kernel.sum()), 1e-6)


def _kept(classes: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (normalised, may reach outside the frame) clipped to it: an index stays when
    KEEP_INDEX of it is inside, a card when KEEP_CARD is."""
    clipped = boxes.clip(0, 1)
    inside = np.clip(clipped[:, 2] - clipped[:, 0], 0, None) * np.clip(clipped[:, 3] - clipped[:, 1], 0, None)
    whole = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1e-12)
    keep = np.where(classes == CARD_CLASS, inside / whole >= KEEP_CARD, inside / whole >= KEEP_INDEX)
    return classes[keep], clipped[keep]


def _tilted(rng, pixels: np.ndarray, labels: Labels) -> tuple[np.ndarray, Labels]:
    """A random homography of the photo; each box becomes the box around its moved corners. The
    photo's corners only move outwards, so the frame stays filled with the photo (no border
    that would copy cards without labels)."""
    h, w = pixels.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    outwards = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    dst = src + outwards * rng.uniform(0, TILT, (4, 2)).astype(np.float32) * np.float32([w, h])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(pixels, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if len(labels) == 0:
        return out, labels
    x1, y1, x2, y2 = (labels[:, k] for k in range(1, 5))
    corners = np.stack([np.stack([x1, y1], 1), np.stack([x2, y1], 1), np.stack([x2, y2], 1), np.stack([x1, y2], 1)], 1)
    moved = cv2.perspectiveTransform((corners * [w, h]).reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 4, 2)
    moved /= [w, h]
    classes, boxes = _kept(labels[:, 0], np.concatenate([moved.min(axis=1), moved.max(axis=1)], axis=1))
    return out, np.concatenate([classes[:, None], boxes], axis=1)


def phone_look(pixels: np.ndarray, labels: Labels, rng: np.random.Generator,
               tilt_share: float | None = None) -> tuple[np.ndarray, Labels]:
    """Blur, motion, dim or warm light and tilt (at least one), then JPEG at phone quality.
    ``tilt_share`` 0 keeps the photo's geometry (the reader's crops are cut at the labelled boxes)."""
    tilt_share = TILT_SHARE if tilt_share is None else tilt_share
    chosen = rng.random(5) < (BLUR_SHARE, MOTION_SHARE, DIM_SHARE, WARM_SHARE, tilt_share)
    if not chosen.any():
        chosen[int(rng.integers(4 if tilt_share == 0 else 5))] = True
    blur, motion, dim, warm, tilt = chosen
    out = pixels
    if tilt:
        out, labels = _tilted(rng, out, labels)
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(*BLUR_SIGMA)))
    if motion:
        out = cv2.filter2D(out, -1, _motion_kernel(int(rng.integers(MOTION_LENGTH[0], MOTION_LENGTH[1] + 1)),
                                                   float(rng.uniform(0, 180))))
    if dim or warm:
        f = out.astype(np.float32)
        if dim:
            f *= float(rng.uniform(*DIM_GAIN))
        if warm:
            f *= WARM_BGR
        out = f.clip(0, 255).astype(np.uint8)
    return jpeg_round_trip(out, int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1))), labels


def jpeg_round_trip(pixels: np.ndarray, quality: int) -> np.ndarray:
    """``pixels`` as a JPEG at ``quality`` decodes them: a phone's or a messenger's compression."""
    return cv2.imdecode(cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def zoomed(pixels: np.ndarray, labels: Labels, rng: np.random.Generator) -> tuple[np.ndarray, Labels] | None:
    """A window 1/ZOOM of the photo holding one whole labelled index, with the labels cut to it;
    None for a photo with no index that fits a window."""
    h, w = pixels.shape[:2]
    indices = np.flatnonzero(labels[:, 0] == INDEX_CLASS) if len(labels) else np.zeros(0, int)
    if len(indices) == 0:
        return None
    zoom = float(np.exp(rng.uniform(np.log(ZOOM[0]), np.log(ZOOM[1]))))
    ww, wh = 1.0 / zoom, 1.0 / zoom
    x1, y1, x2, y2 = labels[int(rng.choice(indices)), 1:].clip(0, 1)
    lows, highs = (max(0.0, x2 - ww), max(0.0, y2 - wh)), (min(x1, 1.0 - ww), min(y1, 1.0 - wh))
    if lows[0] > highs[0] or lows[1] > highs[1]:  # the index is larger than the window
        return None
    left, top = (float(rng.uniform(lo, hi)) for lo, hi in zip(lows, highs))
    window = np.array([left, top, left + ww, top + wh])
    px = (int(round(left * w)), int(round(top * h)), int(round((left + ww) * w)), int(round((top + wh) * h)))
    crop = pixels[px[1]:px[3], px[0]:px[2]]
    boxes = (labels[:, 1:] - np.tile(window[:2], 2)) / np.tile(window[2:] - window[:2], 2)
    classes, boxes = _kept(labels[:, 0], boxes)
    return crop, np.concatenate([classes[:, None], boxes], axis=1)


Variant = Callable[[np.ndarray, Labels, np.random.Generator], "tuple[np.ndarray, Labels] | None"]
VARIANTS: dict[str, Variant] = {"phone_look": phone_look, "zoomed": zoomed}


def write_variant_set(source: Path, out: Path, variant: str, seed: int, every: int = 1) -> dict:
    """``out``: every ``every``-th photo of the detector set ``source`` (images/, labels/) as
    ``variant`` makes it (JPEG files, not links). Returns counts."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown real-photo variant {variant!r}; known: {', '.join(VARIANTS)}")
    source, out = Path(source), Path(out)
    shutil.rmtree(out, ignore_errors=True)
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir(parents=True)
    make = VARIANTS[variant]
    counts = {"variant": variant, "photos": 0, "skipped": 0, "indices": 0, "cards": 0}
    for image in sorted((source / "images").iterdir())[::every]:
        label = source / "labels" / f"{image.stem}.txt"
        pixels = cv2.imread(str(image))
        if pixels is None or not label.exists():
            counts["skipped"] += 1
            continue
        made = make(pixels, read_labels(label), _rng(seed, image.name))
        if made is None:
            counts["skipped"] += 1
            continue
        pixels, labels = made
        cv2.imwrite(str(out / "images" / f"{image.stem}.jpg"), pixels, [cv2.IMWRITE_JPEG_QUALITY, 95])
        (out / "labels" / f"{image.stem}.txt").write_text(label_text(labels))
        counts["photos"] += 1
        counts["indices"] += int((labels[:, 0] == INDEX_CLASS).sum()) if len(labels) else 0
        counts["cards"] += int((labels[:, 0] == CARD_CLASS).sum()) if len(labels) else 0
    (out / "counts.json").write_text(json.dumps(counts, indent=2))
    return counts
