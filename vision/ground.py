"""Is a lone index printed on card-sized ground (issue 20, item 2)? An index with no card box of its
own and no detected card under it is still a card when it is printed on a card: a card cut by the
photo's edge, or one the detector missed. The suit marks on a poker chip are printed on the chip's
small inlay, a keyboard's letters on small keys: ground far smaller than a card.

The ground is the colour right around the index box (its median, so a black deck's face counts as
well as a white one; plain BGR distance: OpenCV's Lab costs ~80 ms on its first call); the region
of that colour joined to the index is measured against a card's area. Only a lone index the
reader is sure of is looked at (``interpret``), so this runs rarely.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.config import GroundConfig
from vision.geometry import CARD_ASPECT

# The region's resolution, the frame sampled around the index, the colour tolerance and the shares
# that make ground a card's face: ``GroundConfig`` (docs/TUNING.md, "ground").


def ground_share(pixels: np.ndarray, index_box, card_short_side: float, config: GroundConfig) -> float:
    """The area of the ground colour region joined to ``index_box`` (decoded-pixel xyxy), as a share of
    a card's area (``card_short_side`` squared times the card's aspect); 0 when the box holds no ink."""
    x1, y1, x2, y2 = (float(v) for v in index_box)
    gx, gy = (x2 - x1) * config.frame_share, (y2 - y1) * config.frame_share
    near = _window(pixels, (x1 - gx, y1 - gy, x2 + gx, y2 + gy))
    if near is None:
        return 0.0
    colours, (nx1, ny1) = _colours(near[0]), near[1]
    in_box = _mask(colours.shape, (x1 - nx1, y1 - ny1, x2 - nx1, y2 - ny1))
    frame = ~in_box
    if not frame.any() or not in_box.any():
        return 0.0
    ground = np.median(colours[frame], axis=0)
    if 1.0 - (np.linalg.norm(colours[in_box] - ground, axis=1) < config.colour_tolerance).mean() < config.min_ink:
        return 0.0
    # the region, at a resolution that keeps a card's short side region_side_px pixels (cost bounded)
    cx, cy, reach = (x1 + x2) / 2, (y1 + y2) / 2, config.window_short_sides * card_short_side
    wide = _window(pixels, (min(x1, cx - reach), min(y1, cy - reach), max(x2, cx + reach), max(y2, cy + reach)))
    if wide is None:
        return 0.0
    (region, (wx1, wy1)), f = wide, min(1.0, config.region_side_px / max(card_short_side, 1.0))
    small = cv2.resize(region, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else region
    same = np.linalg.norm(_colours(small) - ground, axis=2) < config.colour_tolerance
    seeds = same & _mask(same.shape, ((x1 - gx - wx1) * f, (y1 - gy - wy1) * f, (x2 + gx - wx1) * f,
                                      (y2 + gy - wy1) * f)) & ~_mask(same.shape, ((x1 - wx1) * f, (y1 - wy1) * f,
                                                                                  (x2 - wx1) * f, (y2 - wy1) * f))
    if not seeds.any():
        return 0.0
    _, regions = cv2.connectedComponents(same.astype(np.uint8), connectivity=8)
    counts = np.bincount(regions.ravel())
    largest = max(int(counts[label]) for label in np.unique(regions[seeds]) if label > 0)
    return largest / (f * f * card_short_side * card_short_side * CARD_ASPECT)


def _window(pixels: np.ndarray, box) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The pixels of ``box`` clipped to the photo, and its top-left corner; None when under 2x2."""
    height, width = pixels.shape[:2]
    x1, y1 = int(max(0, box[0])), int(max(0, box[1]))
    x2, y2 = int(min(width, np.ceil(box[2]))), int(min(height, np.ceil(box[3])))
    if x2 - x1 < 2 or y2 - y1 < 2:
        return None
    return pixels[y1:y2, x1:x2], (x1, y1)


def _colours(pixels: np.ndarray) -> np.ndarray:
    return pixels.astype(np.float32)


def _mask(shape, box) -> np.ndarray:
    """(H, W) pixels whose centres lie in ``box`` (window coordinates)."""
    ys, xs = np.arange(shape[0])[:, None] + 0.5, np.arange(shape[1])[None, :] + 0.5
    return (xs >= box[0]) & (xs <= box[2]) & (ys >= box[1]) & (ys <= box[3])


def on_card_ground(pixels: np.ndarray, index_box, card_short_side: float, config: GroundConfig) -> bool:
    """Whether ``index_box`` is printed on ground at least ``min_ground`` of a card's area."""
    return ground_share(pixels, index_box, card_short_side, config) >= config.min_ground


# Whether an index box (decoded-pixel xyxy) is printed on card ground, given a card's short side:
# what ``interpret`` asks of the photo, handed to it by the pipeline (``ground_check``).
GroundCheck = Callable[[np.ndarray, float], bool]


def ground_check(pixels: np.ndarray, config: GroundConfig) -> GroundCheck:
    """``on_card_ground`` on these decoded pixels."""
    return lambda index_box, card_short_side: on_card_ground(pixels, index_box, card_short_side, config)
