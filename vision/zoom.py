"""Where to look again, closer: corner indices are small (a 1280x960 photo shrinks 2.5x into a
512 detector input, leaving an index ~4 px wide), so after the whole-photo pass the detector
runs again on the part of the photo that holds the cards, at a higher scale."""

from __future__ import annotations

import numpy as np

from vision.identify import points_in_boxes

REGION_MARGIN = 0.04  # of the photo's long side, around the cards' union
MAX_REGION_SHARE = 0.7  # a cards' region longer than this share of the photo: use tiles instead
TILE_SHARE = 0.6  # tiles are 0.6 of the photo each way (2x2, overlapping by a fifth)
# A card whose box already holds an index the first pass is this sure of needs no closer look:
# each closer pass costs a whole detector run. Models v2 on 150 scenes of seeds 8,500,000+
# (neither training nor bench), recall / median ms: every card 87.2 % / 172, 0.7 86.7 % / 166,
# 0.65 86.1 % / 142, 0.6 85.9 % / 86, 0.5 85.4 % / 74, no closer pass 73.0 % / 47.
SURE_INDEX = 0.6


def cards_to_look_at_closer(card_boxes: np.ndarray, index_boxes: np.ndarray, index_scores: np.ndarray,
                            sure: float | None = None) -> np.ndarray:
    """Mask of the card boxes that hold no index centre scored ``sure`` or more."""
    sure = SURE_INDEX if sure is None else sure
    cards = np.asarray(card_boxes, dtype=np.float32).reshape(-1, 4)
    indices = np.asarray(index_boxes, dtype=np.float32).reshape(-1, 4)[np.asarray(index_scores) >= sure]
    centres = (indices[:, :2] + indices[:, 2:]) / 2
    return ~points_in_boxes(centres, cards, tolerance=0.0).any(axis=0)


def zoom_regions(card_boxes: np.ndarray, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Regions (x1, y1, x2, y2) for a closer pass: the cards' union when it is clearly smaller
    than the photo, else the 2x2 overlapping tiles that hold any card. None without cards."""
    boxes = np.asarray(card_boxes, dtype=np.float32).reshape(-1, 4)
    if len(boxes) == 0:
        return []
    margin = REGION_MARGIN * max(width, height)
    x1, y1 = max(boxes[:, 0].min() - margin, 0), max(boxes[:, 1].min() - margin, 0)
    x2, y2 = min(boxes[:, 2].max() + margin, width), min(boxes[:, 3].max() + margin, height)
    if max((x2 - x1) / width, (y2 - y1) / height) <= MAX_REGION_SHARE:
        return [(int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2)))]
    tile_w, tile_h = int(width * TILE_SHARE), int(height * TILE_SHARE)
    regions = []
    for tx in (0, width - tile_w):
        for ty in (0, height - tile_h):
            holds = ((boxes[:, 0] < tx + tile_w) & (boxes[:, 2] > tx) & (boxes[:, 1] < ty + tile_h) & (boxes[:, 3] > ty))
            if holds.any():
                regions.append((tx, ty, tx + tile_w, ty + tile_h))
    return regions
