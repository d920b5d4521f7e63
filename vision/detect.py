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
from vision.detections import Detections, Origin
from vision.letterbox import Letterbox
from vision.config import DetectConfig
from vision.geometry import INDEX_PER_CARD_BOX
from vision.kept_apart import shadow_cards
from vision.postprocess import nms_per_class, postprocess

# The thresholds and the closer pass's sizes are ``DetectConfig`` (vision/config.py; measured in
# docs/TUNING.md, "detect"). A card whose box already holds an index the first pass is sure of
# (``sure_index_score``) needs no closer look: each closer pass costs a whole detector run.
RunModel = Callable[[np.ndarray], np.ndarray]  # detector input batch -> raw output


def cards_to_look_at_closer(cards: Detections, indices: Detections, sure: float) -> np.ndarray:
    """Mask of the cards whose box holds no index centre scored ``sure`` or more."""
    sure_centres = indices.centers[indices.confidence >= sure]
    return ~boxes.points_in_boxes(sure_centres, cards.xyxy, tolerance=0.0).any(axis=0)


def tile_size(cards: Detections, input_size: int, config: DetectConfig) -> float:
    """The side (photo pixels) of a square region that shows these cards' indices at the size the
    detector was trained on (``target_index_px`` at ``input_size``)."""
    long_side = float(np.median(cards.sizes.max(axis=1)))
    return max(config.min_tile_of_input * input_size, input_size * INDEX_PER_CARD_BOX * long_side / config.target_index_px)


def _starts(low: float, high: float, side: float, limit: int, overlap: float) -> list[float]:
    """Tile starts covering [low, high] with tiles of ``side`` overlapping by ``overlap``, inside [0, limit]."""
    span = high - low
    if span <= side:
        return [float(np.clip((low + high - side) / 2, 0, max(limit - side, 0)))]
    n = int(np.ceil((span - side) / (side * (1 - overlap)))) + 1
    return [float(np.clip(v, 0, max(limit - side, 0))) for v in np.linspace(low, high - side, n)]


def zoom_regions(cards: Detections, width: int, height: int, input_size: int,
                 config: DetectConfig) -> list[tuple[int, int, int, int]]:
    """Regions (x1, y1, x2, y2) for a closer pass: the cards' union when it is clearly smaller than
    the photo or shows their indices at the trained size, else square tiles of the size their cards
    ask for (``tile_size``, at most ``max_tile_of_photo``, grown until ``max_tiles`` cover them) that
    hold any of them. None without cards."""
    if len(cards) == 0:
        return []
    margin = config.region_margin_of_photo * max(width, height)
    x1, y1, x2, y2 = boxes.union(cards.xyxy)
    x1, y1 = max(x1 - margin, 0), max(y1 - margin, 0)
    x2, y2 = min(x2 + margin, width), min(y2 + margin, height)
    side = min(tile_size(cards, input_size, config), config.max_tile_of_photo * max(width, height))
    if max((x2 - x1) / width, (y2 - y1) / height) <= config.max_region_share or max(x2 - x1, y2 - y1) <= side:
        return [(int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2)))]
    while True:
        xs = _starts(x1, x2, side, width, config.tile_overlap)
        ys = _starts(y1, y2, side, height, config.tile_overlap)
        if len(xs) * len(ys) <= config.max_tiles:
            break
        side *= config.tile_growth
    regions = []
    x1s, y1s, x2s, y2s = cards.xyxy.T
    for tx in xs:
        for ty in ys:
            holds = (x1s < tx + side) & (x2s > tx) & (y1s < ty + side) & (y2s > ty)
            if holds.any():
                regions.append((int(tx), int(ty), int(min(np.ceil(tx + side), width)), int(min(np.ceil(ty + side), height))))
    return regions


def detect_region(run: RunModel, input_size: int, pixels: np.ndarray,
                  region: tuple[int, int, int, int] | None = None, min_card_score: float | None = None,
                  shadows: bool = False, min_index_score: float | None = None, *,
                  config: DetectConfig) -> Detections:
    """Detector + NMS on the whole photo or a region of it, boxes in photo pixels. Rows are of
    origin ``FIRST_PASS`` on the whole photo, ``CLOSER`` on a region. With ``shadows``, the card
    boxes NMS suppressed are kept aside as card rows of origin ``SUPPRESSED`` (see
    ``vision.kept_apart``; ``Detections.kept`` leaves them out). ``min_card_score``,
    ``min_index_score``: other thresholds than ``config``'s (training's pseudo-labels)."""
    return _timed_region(run, input_size, pixels, region, min_card_score, shadows, min_index_score, config)[0]


def _timed_region(run: RunModel, input_size: int, pixels: np.ndarray, region: tuple[int, int, int, int] | None,
                  min_card_score: float | None, shadows: bool, min_index_score: float | None,
                  config: DetectConfig, rect: bool = False) -> tuple[Detections, float, float]:
    """``detect_region``'s rows, with the ms spent in the model and in NMS (``rect``: see
    ``Letterbox.fit``)."""
    min_card_score = config.min_card_score if min_card_score is None else min_card_score
    min_index_score = config.min_index_score if min_index_score is None else min_index_score
    x1, y1, x2, y2 = region or (0, 0, pixels.shape[1], pixels.shape[0])
    crop = pixels[y1:y2, x1:x2]
    t0 = time.perf_counter()
    letterbox = Letterbox.fit(crop.shape[1], crop.shape[0], input_size, rect=rect)
    raw = run(letterbox.to_tensor(crop))
    t1 = time.perf_counter()
    found = postprocess(raw, letterbox, crop.shape[1], crop.shape[0], min(min_index_score, min_card_score),
                        config.nms_iou, config.max_candidates)
    minimum = np.where(found.class_id == INDEX_CLASS, min_index_score, min_card_score)
    found = found[found.confidence >= minimum].with_origin(Origin.FIRST_PASS if region is None else Origin.CLOSER)
    if shadows:
        found = Detections.concatenate([found, shadow_cards(raw, letterbox, crop.shape[1], crop.shape[0],
                                                            found.of_class(CARD_CLASS), min_card_score, config)])
    nms_ms = (time.perf_counter() - t1) * 1000
    return (Detections(found.xyxy + np.array([x1, y1, x1, y1], np.float32), found.confidence, found.class_id,
                       origin=found.origin), (t1 - t0) * 1000, nms_ms)


def detect(run: RunModel, input_size: int, pixels: np.ndarray, zoom: bool = True,
           min_index_score: float | None = None, *, config: DetectConfig,
           rect: bool = False) -> tuple[Detections, float, float]:
    """Index and card boxes in photo pixels, with the ms spent in the model and in NMS, and the
    card boxes NMS suppressed kept aside (card rows of origin ``SUPPRESSED``: the pipeline gives
    back those whose corners read another card). With ``zoom``, indices are looked for again,
    closer, around the cards on which the first pass found no sure index. ``rect``: the whole
    photo's pass in a rectangle of whole strides, not a square (a detector taking any input size)."""
    detections, model_ms, nms_ms = _timed_region(run, input_size, pixels, None, None, True, min_index_score, config,
                                                 rect)
    if not zoom:
        return detections, model_ms, nms_ms
    height, width = pixels.shape[:2]
    cards, indices = detections.kept().of_class(CARD_CLASS), detections.of_class(INDEX_CLASS)
    regions = zoom_regions(cards[cards_to_look_at_closer(cards, indices, config.sure_index_score)], width, height,
                           input_size, config)
    closer = []
    for region in regions:
        found, more_model_ms, more_nms_ms = _timed_region(run, input_size, pixels, region, None, False,
                                                          min_index_score, config)
        closer.append(found.of_class(INDEX_CLASS))
        model_ms, nms_ms = model_ms + more_model_ms, nms_ms + more_nms_ms
    start = time.perf_counter()
    indices = nms_per_class(Detections.concatenate([indices, *closer]), config.nms_iou)
    detections = Detections.concatenate([indices, cards, detections.of_origin(Origin.SUPPRESSED)])
    return detections, model_ms, nms_ms + (time.perf_counter() - start) * 1000
