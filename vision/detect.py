"""Step 2, detect: the detector on the whole photo, then (optionally) a closer pass for corner
indices around the cards on which the first pass found no sure index.

Corner indices are small (a 1280x960 photo shrinks 2.5x into a 512 detector input, leaving an
index ~4 px wide), so the closer pass runs the detector again on the part of the photo that
holds the cards, at a higher scale.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from vision import boxes
from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.detections import Detections
from vision.letterbox import Letterbox
from vision.kept_apart import SHADOW_CLASS, shadow_cards
from vision.postprocess import NMS_IOU, nms_per_class, postprocess

# Detector scores below which a box is not considered at all, per class. Indices: 0.25, the
# candidate threshold of ultralytics' own predict (weak indices are weeded out later by
# READ_FLOOR and the confirm threshold, which see the classifier too). Cards: 0.4, tuned on
# rendered scenes that neither training nor the bench use (seeds 9,100,000+, models v1).
MIN_INDEX_SCORE = 0.25
MIN_CARD_SCORE = 0.4

REGION_MARGIN = 0.04  # of the photo's long side, around the cards' union
# The closer pass reads each region at the scale its cards ask for (issue 20): an index
# TARGET_INDEX_PX tall at the detector's input, an index being INDEX_PER_BOX of its card box's long
# side (rendered tuning scenes, median; 10th-90th percentile 0.15-0.30). Regions are square tiles of
# that size over the cards to look at, at most MAX_TILES (the time budget: each is a detector run),
# overlapping by TILE_OVERLAP of a tile. 100 tuning scenes (seeds 8,500,000+, mix v3, old and new
# pass alternated in one process), cards found against 605 / 733 with the fixed 2x2 tiles of 0.6:
# target 16 px (the training median, MODEL.md "Data recipe") 610, 22 px 614, 28 px 617 (two hands +
# crib + starter 79.5 -> 82.6 %), 34 px with 8 tiles 616; mean time per photo unchanged (218.5 vs
# 218.8 ms at 28 px, 6 tiles).
TARGET_INDEX_PX = 28.0
INDEX_PER_BOX = 0.22
MAX_TILES = 6
TILE_OVERLAP = 0.2
MIN_TILE = 1.0  # tiles are never smaller than the detector's input (no upsampling: it adds no detail)
MAX_REGION_SHARE = 0.7  # a union of cards within this share of the photo each way is one region
TILE_SHARE = 0.6  # tiles are at most this share of the photo's long side (a closer look than the first pass)
# A card whose box already holds an index the first pass is this sure of needs no closer look:
# each closer pass costs a whole detector run. Models v2 on 150 scenes of seeds 8,500,000+
# (neither training nor bench), recall / median ms: every card 87.2 % / 172, 0.7 86.7 % / 166,
# 0.65 86.1 % / 142, 0.6 85.9 % / 86, 0.5 85.4 % / 74, no closer pass 73.0 % / 47.
SURE_INDEX = 0.6

RunModel = Callable[[np.ndarray], np.ndarray]  # detector input batch -> raw output


def cards_to_look_at_closer(cards: Detections, indices: Detections, sure: float = SURE_INDEX) -> np.ndarray:
    """Mask of the cards whose box holds no index centre scored ``sure`` or more."""
    sure_centres = indices.centers[indices.confidence >= sure]
    return ~boxes.points_in_boxes(sure_centres, cards.xyxy, tolerance=0.0).any(axis=0)


def tile_size(cards: Detections, input_size: int) -> float:
    """The side (photo pixels) of a square region that shows these cards' indices at the size the
    detector was trained on (``TARGET_INDEX_PX`` at ``input_size``)."""
    long_side = float(np.median(cards.sizes.max(axis=1)))
    return max(MIN_TILE * input_size, input_size * INDEX_PER_BOX * long_side / TARGET_INDEX_PX)


def _starts(low: float, high: float, side: float, limit: int) -> list[float]:
    """Tile starts covering [low, high] with tiles of ``side`` overlapping by TILE_OVERLAP, inside [0, limit]."""
    span = high - low
    if span <= side:
        return [float(np.clip((low + high - side) / 2, 0, max(limit - side, 0)))]
    n = int(np.ceil((span - side) / (side * (1 - TILE_OVERLAP)))) + 1
    return [float(np.clip(v, 0, max(limit - side, 0))) for v in np.linspace(low, high - side, n)]


def zoom_regions(cards: Detections, width: int, height: int,
                 input_size: int = 512) -> list[tuple[int, int, int, int]]:
    """Regions (x1, y1, x2, y2) for a closer pass: the cards' union when it is clearly smaller than
    the photo or shows their indices at the trained size, else square tiles of the size their cards
    ask for (``tile_size``, at most TILE_SHARE of the photo, grown until MAX_TILES cover them) that
    hold any of them. None without cards."""
    if len(cards) == 0:
        return []
    margin = REGION_MARGIN * max(width, height)
    x1, y1, x2, y2 = boxes.union(cards.xyxy)
    x1, y1 = max(x1 - margin, 0), max(y1 - margin, 0)
    x2, y2 = min(x2 + margin, width), min(y2 + margin, height)
    side = min(tile_size(cards, input_size), TILE_SHARE * max(width, height))
    if max((x2 - x1) / width, (y2 - y1) / height) <= MAX_REGION_SHARE or max(x2 - x1, y2 - y1) <= side:
        return [(int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2)))]
    while True:
        xs, ys = _starts(x1, x2, side, width), _starts(y1, y2, side, height)
        if len(xs) * len(ys) <= MAX_TILES:
            break
        side *= 1.15
    regions = []
    x1s, y1s, x2s, y2s = cards.xyxy.T
    for tx in xs:
        for ty in ys:
            holds = (x1s < tx + side) & (x2s > tx) & (y1s < ty + side) & (y2s > ty)
            if holds.any():
                regions.append((int(tx), int(ty), int(min(np.ceil(tx + side), width)), int(min(np.ceil(ty + side), height))))
    return regions


def detect_region(run: RunModel, input_size: int, pixels: np.ndarray,
                  region: tuple[int, int, int, int] | None = None, times: list[float] | None = None,
                  min_card_score: float = MIN_CARD_SCORE, shadows: bool = False,
                  min_index_score: float = MIN_INDEX_SCORE) -> Detections:
    """Detector + NMS on the whole photo or a region of it, boxes in photo pixels; adds
    (model ms, NMS ms) to ``times``. With ``shadows``, the card boxes NMS suppressed are kept aside
    as rows of ``kept_apart.SHADOW_CLASS`` (see ``vision.kept_apart``)."""
    x1, y1, x2, y2 = region or (0, 0, pixels.shape[1], pixels.shape[0])
    crop = pixels[y1:y2, x1:x2]
    t0 = time.perf_counter()
    letterbox = Letterbox.fit(crop.shape[1], crop.shape[0], input_size)
    raw = run(letterbox.to_tensor(crop))
    t1 = time.perf_counter()
    found = postprocess(raw, letterbox, crop.shape[1], crop.shape[0], min(min_index_score, min_card_score))
    minimum = np.where(found.class_id == INDEX_CLASS, min_index_score, min_card_score)
    found = found[found.confidence >= minimum]
    if shadows:
        found = Detections.concatenate([found, shadow_cards(raw, letterbox, crop.shape[1], crop.shape[0],
                                                            found.of_class(CARD_CLASS), min_card_score, NMS_IOU)])
    if times is not None:
        times[0] += (t1 - t0) * 1000
        times[1] += (time.perf_counter() - t1) * 1000
    return Detections(found.xyxy + np.array([x1, y1, x1, y1], np.float32), found.confidence, found.class_id)


def detect(run: RunModel, input_size: int, pixels: np.ndarray, zoom: bool = True,
           min_index_score: float = MIN_INDEX_SCORE) -> tuple[Detections, float, float]:
    """Index and card boxes in photo pixels, with the ms spent in the model and in NMS, and the
    card boxes NMS suppressed kept aside (rows of ``kept_apart.SHADOW_CLASS``: the pipeline gives
    back those whose corners read another card). With ``zoom``, indices are looked for again,
    closer, around the cards on which the first pass found no sure index."""
    times = [0.0, 0.0]
    detections = detect_region(run, input_size, pixels, times=times, shadows=True, min_index_score=min_index_score)
    if not zoom:
        return detections, times[0], times[1]
    height, width = pixels.shape[:2]
    cards, indices = detections.of_class(CARD_CLASS), detections.of_class(INDEX_CLASS)
    regions = zoom_regions(cards[cards_to_look_at_closer(cards, indices)], width, height, input_size)
    closer = [detect_region(run, input_size, pixels, region, times, min_index_score=min_index_score).of_class(INDEX_CLASS)
              for region in regions]
    start = time.perf_counter()
    indices = nms_per_class(Detections.concatenate([indices, *closer]))
    detections = Detections.concatenate([indices, cards, detections.of_class(SHADOW_CLASS)])
    times[1] += (time.perf_counter() - start) * 1000
    return detections, times[0], times[1]
