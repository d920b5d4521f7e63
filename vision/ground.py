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

import cv2
import numpy as np

from vision.outlines import CARD_ASPECT

# The region is measured at a resolution keeping a card's short side this many pixels (enough
# for an area share; a close-up's full resolution cost ~30 ms a read).
REGION_SIDE = 48
# The ground is sampled in a frame this wide around the index box (of the box's width / height).
FRAME = 0.3
# BGR distance within which a pixel is the ground's colour. Set on the lone reads the reader is sure
# of (>= 0.8) on rendered tuning scenes (seeds 8,500,000+, models v5: 12, all right) against 120
# rendered chip marks (``overlaps.draw_chip``): the right reads' smallest ground share / the chips'
# largest at 20 / 30 / 40 / 50: 0.01 / 0.16 / 0.16 / 0.18 against 0.09 / 0.10 / 2.7 / 2.8 (over 30
# a light table joins the chip's white inlay).
GROUND_TOLERANCE = 30.0
# The region is looked for within this many card short sides of the index centre (a corner index
# of a whole card lies ~0.1 of a side from two edges, so the card's face reaches ~1 side from it).
WINDOW = 1.0
# Ground at least this share of a card's area is a card's face: between the chips' largest (0.10)
# and the right reads' smallest (0.16) at the tolerance above.
MIN_GROUND = 0.13
# The index box must hold this share of pixels off the ground's colour (its ink): a mark with no
# print on it is not an index.
MIN_INK = 0.05


def ground_share(pixels: np.ndarray, index_box, card_short_side: float) -> float:
    """The area of the ground colour region joined to ``index_box`` (decoded-pixel xyxy), as a share of
    a card's area (``card_short_side`` squared times the card's aspect); 0 when the box holds no ink."""
    x1, y1, x2, y2 = (float(v) for v in index_box)
    gx, gy = (x2 - x1) * FRAME, (y2 - y1) * FRAME
    near = _window(pixels, (x1 - gx, y1 - gy, x2 + gx, y2 + gy))
    if near is None:
        return 0.0
    colours, (nx1, ny1) = _colours(near[0]), near[1]
    in_box = _mask(colours.shape, (x1 - nx1, y1 - ny1, x2 - nx1, y2 - ny1))
    frame = ~in_box
    if not frame.any() or not in_box.any():
        return 0.0
    ground = np.median(colours[frame], axis=0)
    if 1.0 - (np.linalg.norm(colours[in_box] - ground, axis=1) < GROUND_TOLERANCE).mean() < MIN_INK:
        return 0.0
    # the region, at a resolution that keeps a card's short side REGION_SIDE pixels (cost bounded)
    cx, cy, reach = (x1 + x2) / 2, (y1 + y2) / 2, WINDOW * card_short_side
    wide = _window(pixels, (min(x1, cx - reach), min(y1, cy - reach), max(x2, cx + reach), max(y2, cy + reach)))
    if wide is None:
        return 0.0
    (region, (wx1, wy1)), f = wide, min(1.0, REGION_SIDE / max(card_short_side, 1.0))
    small = cv2.resize(region, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else region
    same = np.linalg.norm(_colours(small) - ground, axis=2) < GROUND_TOLERANCE
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


def on_card_ground(pixels: np.ndarray, index_box, card_short_side: float) -> bool:
    """Whether ``index_box`` is printed on ground at least MIN_GROUND of a card's area."""
    return ground_share(pixels, index_box, card_short_side) >= MIN_GROUND
