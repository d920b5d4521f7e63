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
from vision.postprocess import nms_per_class, postprocess

# Detector scores below which a box is not considered at all, per class. Indices: 0.25, the
# candidate threshold of ultralytics' own predict (weak indices are weeded out later by
# READ_FLOOR and the confirm threshold, which see the classifier too). Cards: 0.4, tuned on
# rendered scenes that neither training nor the bench use (seeds 9,100,000+, models v1).
MIN_INDEX_SCORE = 0.25
MIN_CARD_SCORE = 0.4

REGION_MARGIN = 0.04  # of the photo's long side, around the cards' union
MAX_REGION_SHARE = 0.7  # a cards' region longer than this share of the photo: use tiles instead
TILE_SHARE = 0.6  # tiles are 0.6 of the photo each way (2x2, overlapping by a fifth)
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


def zoom_regions(cards: Detections, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Regions (x1, y1, x2, y2) for a closer pass: the cards' union when it is clearly smaller
    than the photo, else the 2x2 overlapping tiles that hold any card. None without cards."""
    if len(cards) == 0:
        return []
    margin = REGION_MARGIN * max(width, height)
    x1, y1, x2, y2 = boxes.union(cards.xyxy)
    x1, y1 = max(x1 - margin, 0), max(y1 - margin, 0)
    x2, y2 = min(x2 + margin, width), min(y2 + margin, height)
    if max((x2 - x1) / width, (y2 - y1) / height) <= MAX_REGION_SHARE:
        return [(int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2)))]
    tile_w, tile_h = int(width * TILE_SHARE), int(height * TILE_SHARE)
    regions = []
    for tx in (0, width - tile_w):
        for ty in (0, height - tile_h):
            x1s, y1s, x2s, y2s = cards.xyxy.T
            holds = (x1s < tx + tile_w) & (x2s > tx) & (y1s < ty + tile_h) & (y2s > ty)
            if holds.any():
                regions.append((tx, ty, tx + tile_w, ty + tile_h))
    return regions


def detect_region(run: RunModel, input_size: int, pixels: np.ndarray,
                  region: tuple[int, int, int, int] | None = None, times: list[float] | None = None,
                  min_card_score: float = MIN_CARD_SCORE) -> Detections:
    """Detector + NMS on the whole photo or a region of it, boxes in photo pixels; adds
    (model ms, NMS ms) to ``times``."""
    x1, y1, x2, y2 = region or (0, 0, pixels.shape[1], pixels.shape[0])
    crop = pixels[y1:y2, x1:x2]
    t0 = time.perf_counter()
    letterbox = Letterbox.fit(crop.shape[1], crop.shape[0], input_size)
    raw = run(letterbox.to_tensor(crop))
    t1 = time.perf_counter()
    found = postprocess(raw, letterbox, crop.shape[1], crop.shape[0], min(MIN_INDEX_SCORE, min_card_score))
    minimum = np.where(found.class_id == INDEX_CLASS, MIN_INDEX_SCORE, min_card_score)
    found = found[found.confidence >= minimum]
    if times is not None:
        times[0] += (t1 - t0) * 1000
        times[1] += (time.perf_counter() - t1) * 1000
    return Detections(found.xyxy + np.array([x1, y1, x1, y1], np.float32), found.confidence, found.class_id)


def detect(run: RunModel, input_size: int, pixels: np.ndarray, zoom: bool = True) -> tuple[Detections, float, float]:
    """Index and card boxes in photo pixels, with the ms spent in the model and in NMS.
    With ``zoom``, indices are looked for again, closer, around the cards on which the first
    pass found no sure index."""
    times = [0.0, 0.0]
    detections = detect_region(run, input_size, pixels, times=times)
    if not zoom:
        return detections, times[0], times[1]
    height, width = pixels.shape[:2]
    cards, indices = detections.of_class(CARD_CLASS), detections.of_class(INDEX_CLASS)
    regions = zoom_regions(cards[cards_to_look_at_closer(cards, indices)], width, height)
    closer = [detect_region(run, input_size, pixels, region, times).of_class(INDEX_CLASS) for region in regions]
    start = time.perf_counter()
    indices = nms_per_class(Detections.concatenate([indices, *closer]))
    detections = Detections.concatenate([indices, cards])
    times[1] += (time.perf_counter() - start) * 1000
    return detections, times[0], times[1]
