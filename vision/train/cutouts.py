"""Real cards cut out of rf100-poker's train photos, as a deck the renderer draws ("rf100-real").

For each labelled whole card of a train photo (never the validation split: ``rf100.poker_photos_of
("train")``) whose box meets no other labelled card's box and keeps clear of the photo's edge:

- its outline (``find_card_quad``): the light card against the surface, from a brightness
  threshold, GrabCut in the box, and Canny edges (a light card on a light table); the largest
  region's four sides fitted as lines (so the rounded corners do not cut them) and intersected;
  kept when it spans its labelled box, its area is 42-102 % of the box (a card turned 45 degrees
  fills 49 % of its axis-aligned box), its sides are near 2.5:3.5, its corners near right angles
  and its opposite sides near equal;
- its way round (``way_round``): the outline says which sides are short only where perspective does
  not foreshorten the card much; the ink in its corner windows (this deck prints rank over suit in
  all four corners, in the same place on every card) against the mean of the cards whose outline
  is sure decides for every card (a 180-degree turn is the same card);
- its face: warped to the other decks' face size (480 x 343), with a rounded-corner alpha;
- its four indices: ``art.find_corner_index`` at each corner (contrast stretched: dim photos),
  checked against the deck's typical box as ``art._deck_indices`` does, else that typical box.

A code with under MIN_PER_CODE clear cards also takes cards whose box meets another's a little
(``RELAXED_OVERLAP``), under the same checks. At most MAX_PER_CODE cut-outs a code are kept, spread
over the afternoon's photos (the surfaces change). ``cutouts.json`` in the deck folder says where
each came from and how its indices agree with the committed derived corners (``rf100_corners.txt``).

    python -m vision.train.cutouts --out ~/.cache/crib-companion/art/v2/rf100-real [--sheet build/cutouts_sheet.png]

``--out`` defaults to the art cache's folder for the deck (``art.built_deck_dir``); ``--sheet``
writes a contact sheet of the cut-outs with their index boxes (green: found on the face, yellow:
the deck's typical box).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CARD_CODES
from vision.synth import art

FACE_H = art.FACE_HEIGHT
FACE_W = int(round(FACE_H * 2.5 / 3.5))  # 343: a poker card's 2.5 x 3.5 in, as the Kennard faces
CORNER_RADIUS = 0.05 * FACE_W  # ~3 mm on a 63 mm card
MAX_PER_CODE = 8  # cut-outs kept a code (different photos, spread over the afternoon's surfaces)
ASPECT_RANGE = (0.6, 0.88)  # short / long side of the found outline (2.5:3.5 = 0.71, foreshortened by perspective)
MAX_CORNER_ANGLE_ERROR = 22.0  # degrees from a right angle (phone photos from an angle: perspective)
MIN_SIDE_BALANCE = 0.7  # opposite sides' lengths (a flat card in these photos: 0.74 at the steepest seen)
MIN_BOX_COVER = 0.82  # the outline's own box spans this share of the labelled box's width and height
MAX_BOX_SPILL = 0.05  # ... and leaves it by at most this share of its size on any side
AREA_RANGE = (0.42, 1.02)  # outline area / labelled box area (a card turned 45 deg fills 49 % of its box)
MIN_MASK_IOU = 0.92  # the outline against the light region it was fitted to
GOOD_ENOUGH_IOU = 0.975
EDGE_MARGIN = 0.005  # a box this close to the photo's edge (normalised) touches it
SEARCH_BORDER = 0.02  # of the face's width: left out of the index search (this deck's indices start ~0.05 in)
# The way round: a card's outline tells its long sides from its short ones only where perspective
# does not foreshorten it much; the ink at its corners (this deck's indices, rank over suit, lie in
# the same place on every card) tells them apart everywhere. The template is the corner ink of the
# cut-outs whose outline leaves no doubt (short / long side at most GEOMETRY_SURE).
INK_MAP = (12, 20)  # cells (x, y) of a corner window's ink map
GEOMETRY_SURE = 0.72
MIN_WAY_ROUND_GAP = 0.15  # the two ways round must differ this much in correlation with the template
RELAXED_OVERLAP = 0.06  # a code with under MIN_PER_CODE clear cards: boxes meeting others by at most this share
MIN_PER_CODE = 3


@dataclass
class Cutout:
    code: str
    photo: str
    box: tuple[float, float, float, float]  # labelled box, photo pixels
    quad: np.ndarray  # (4, 2) photo pixels: the face's top-left, top-right, bottom-right, bottom-left
    face: np.ndarray | None  # RGBA FACE_H x FACE_W (set by ``finish``)
    indices: tuple = ()  # four (x1, y1, x2, y2) boxes in face pixels
    found_indices: int = 0  # corners whose index was found on the face itself (not the deck's typical box)
    relaxed: bool = False
    derived_agree: int | None = None  # rf100_corners.txt corners of this card that land on an index box
    derived_total: int = 0
    to_photo: np.ndarray | None = None  # face -> photo homography
    image: Path | None = None
    aspect: float = 0.0  # the outline's short / long side
    inks: tuple = ()  # corner_ink of the face warped either way round (turn 0, 1)
    turn: int | None = 0
    photo_size: tuple[int, int] = (0, 0)
    corners: tuple = ()  # the photo's derived corners (rf100_corners.txt)


@dataclass
class Report:
    candidates: int = 0
    kept: int = 0
    rejected: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)  # boxes never tried (overlap, edge)
    accepted_before_cap: int = 0
    way_round: dict = field(default_factory=dict)
    per_code: dict = field(default_factory=dict)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        counts = [self.per_code.get(c, 0) for c in CARD_CODES]
        return {"candidates": self.candidates, "kept_total": sum(counts), "rejected": dict(self.rejected),
                "skipped": dict(self.skipped), "per_code_min": min(counts), "per_code_max": max(counts),
                "missing": [c for c in CARD_CODES if not self.per_code.get(c)], "seconds": round(self.seconds, 1),
                "accepted_before_cap": self.accepted_before_cap, "way_round": self.way_round}


# --- the card's outline ----------------------------------------------------------------------------

def _order_clockwise(points: np.ndarray) -> np.ndarray:
    """Four points ordered clockwise on screen (y down), starting at the top-most-left."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # increasing angle = clockwise on screen with y down
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _intersect(l1, l2):
    (vx1, vy1, x1, y1), (vx2, vy2, x2, y2) = l1, l2
    det = vx1 * (-vy2) - (-vx2) * vy1
    if abs(det) < 1e-9:
        return None
    t = ((x2 - x1) * (-vy2) - (-vx2) * (y2 - y1)) / det
    return np.array([x1 + t * vx1, y1 + t * vy1])


def quad_from_mask(mask: np.ndarray) -> np.ndarray | None:
    """The card's four sharp corners (clockwise) from its filled mask: the sides fitted as lines to
    the outline's middle stretches (the rounded corners left out), then intersected."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    if cv2.contourArea(contour) < 400:
        return None
    hull = cv2.convexHull(contour)
    quad = _order_clockwise(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64))
    points = contour.reshape(-1, 2).astype(np.float64)
    for _ in range(2):
        lines = []
        for k in range(4):
            a, b = quad[k], quad[(k + 1) % 4]
            side = b - a
            length = float(np.linalg.norm(side))
            if length < 8:
                return None
            u = side / length
            n = np.array([-u[1], u[0]])
            t = (points - a) @ u
            d = (points - a) @ n
            near = (t > 0.15 * length) & (t < 0.85 * length) & (np.abs(d) < max(4.0, 0.06 * length))
            if near.sum() < 10:
                return None
            vx, vy, x0, y0 = cv2.fitLine(points[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((vx, vy, x0, y0))
        corners = [_intersect(lines[k - 1], lines[k]) for k in range(4)]
        if any(c is None for c in corners):
            return None
        quad = _order_clockwise(np.array(corners))
    return quad


def quad_shape(quad: np.ndarray) -> tuple[float, float]:
    """(short / long side, worst corner's error from 90 degrees)."""
    sides = [np.linalg.norm(quad[(k + 1) % 4] - quad[k]) for k in range(4)]
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    worst = 0.0
    for k in range(4):
        u, v = quad[k - 1] - quad[k], quad[(k + 1) % 4] - quad[k]
        cos = float(u @ v / max(np.linalg.norm(u) * np.linalg.norm(v), 1e-9))
        worst = max(worst, abs(math.degrees(math.acos(np.clip(cos, -1, 1))) - 90))
    return min(a, b) / max(max(a, b), 1e-9), worst


def side_balance(quad: np.ndarray) -> float:
    """The shorter of two opposite sides over the longer, the worse pair (1 for a rectangle)."""
    sides = [np.linalg.norm(quad[(k + 1) % 4] - quad[k]) for k in range(4)]
    return min(min(sides[0], sides[2]) / max(sides[0], sides[2], 1e-9),
               min(sides[1], sides[3]) / max(sides[1], sides[3], 1e-9))


def _polygon_mask(quad: np.ndarray, shape) -> np.ndarray:
    out = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(out, np.round(quad * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    return out.astype(bool)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, contours, -1, 1, -1)
    return out.astype(bool)


def _main_component(mask: np.ndarray, box_mask: np.ndarray) -> np.ndarray | None:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    if count < 2:
        return None
    inside = [np.count_nonzero((labels == i) & box_mask) for i in range(1, count)]
    best = int(np.argmax(inside)) + 1
    return _fill_holes(labels == best)


def _light_mask(crop: np.ndarray, box_mask: np.ndarray) -> np.ndarray:
    """The card's paper: bright and grey against the surface (Otsu on brightness less saturation)."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    paper = hsv[:, :, 2] - 0.6 * hsv[:, :, 1]
    paper = cv2.GaussianBlur(paper, (0, 0), 1.0)
    p = cv2.normalize(paper, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, mask = cv2.threshold(p, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(min(crop.shape[:2]) * 0.012)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return mask > 0


def _edge_mask(crop: np.ndarray, box_mask: np.ndarray) -> np.ndarray:
    """Everything the card's edge encloses (a light card on a light table): Canny edges closed,
    the surface being the edge-free region that reaches the crop's border."""
    gray = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (0, 0), 1.2)
    edges = cv2.Canny(gray, 20, 60)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    free = (edges == 0).astype(np.uint8)
    count, labels = cv2.connectedComponents(free, connectivity=4)
    border = set(np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))) - {0}
    outside = np.isin(labels, list(border)) & (free > 0)
    return ~outside


def _grabcut_mask(crop: np.ndarray, box_in_crop: tuple[int, int, int, int]) -> np.ndarray | None:
    x1, y1, x2, y2 = box_in_crop
    mask = np.zeros(crop.shape[:2], np.uint8)
    rect = (x1, y1, max(1, x2 - x1), max(1, y2 - y1))
    try:
        cv2.grabCut(crop, mask, rect, np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64), 4,
                    cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return None
    return (mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)


def find_card_quad(image: np.ndarray, box, work_size: int = 320) -> tuple[np.ndarray | None, str]:
    """The card's four corners in ``image`` pixels (clockwise from the top-most-left) inside its
    labelled ``box`` (x1, y1, x2, y2 pixels), or None and why not: "no outline", "not filling its
    box", "area", "aspect", "corner angles" (or opposite sides too unequal), "unclear outline"."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    bw, bh = x2 - x1, y2 - y1
    pad = 0.08 * max(bw, bh)
    cx1, cy1 = int(max(0, math.floor(x1 - pad))), int(max(0, math.floor(y1 - pad)))
    cx2, cy2 = int(min(w, math.ceil(x2 + pad))), int(min(h, math.ceil(y2 + pad)))
    crop = image[cy1:cy2, cx1:cx2]
    scale = min(1.0, work_size / max(crop.shape[:2]))
    small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else crop
    sb = (int(round((x1 - cx1) * scale)), int(round((y1 - cy1) * scale)),
          int(round((x2 - cx1) * scale)), int(round((y2 - cy1) * scale)))
    box_mask = np.zeros(small.shape[:2], bool)
    box_mask[sb[1]:sb[3], sb[0]:sb[2]] = True
    box_area = (sb[2] - sb[0]) * (sb[3] - sb[1])
    best, why = None, "no outline"
    reasons = []
    for make in (lambda: _light_mask(small, box_mask), lambda: _grabcut_mask(small, sb),
                 lambda: _edge_mask(small, box_mask)):
        raw = make()
        if raw is None:
            continue
        mask = _main_component(raw, box_mask)
        if mask is None:
            continue
        quad = quad_from_mask(mask)
        if quad is None:
            reasons.append("no outline")
            continue
        qx1, qy1 = quad.min(axis=0)
        qx2, qy2 = quad.max(axis=0)
        sw, sh = sb[2] - sb[0], sb[3] - sb[1]
        spill = max((sb[0] - qx1) / sw, (sb[1] - qy1) / sh, (qx2 - sb[2]) / sw, (qy2 - sb[3]) / sh)
        cover = min((min(qx2, sb[2]) - max(qx1, sb[0])) / sw, (min(qy2, sb[3]) - max(qy1, sb[1])) / sh)
        area = cv2.contourArea(quad.astype(np.float32))
        poly = _polygon_mask(quad, small.shape)
        mask_iou = np.count_nonzero(poly & mask) / max(np.count_nonzero(poly | mask), 1)
        aspect, angle_error = quad_shape(quad)
        if cover < MIN_BOX_COVER or spill > MAX_BOX_SPILL:
            reasons.append("not filling its box")
        elif not AREA_RANGE[0] <= area / box_area <= AREA_RANGE[1]:
            reasons.append("area")
        elif not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
            reasons.append("aspect")
        elif angle_error > MAX_CORNER_ANGLE_ERROR or side_balance(quad) < MIN_SIDE_BALANCE:
            reasons.append("corner angles")
        elif mask_iou < MIN_MASK_IOU:
            reasons.append("unclear outline")
        elif best is None or mask_iou > best[0]:
            best = (mask_iou, quad)
            if mask_iou >= GOOD_ENOUGH_IOU:  # a clean outline already: the slower methods add nothing
                break
    if best is None:
        why = reasons[0] if reasons else why
        return None, why
    quad = best[1] / scale + np.array([cx1, cy1])
    return quad, ""


# --- the upright face ------------------------------------------------------------------------------

def portrait_corners(quad: np.ndarray) -> np.ndarray:
    """The quad's corners as the upright face's top-left, top-right, bottom-right, bottom-left: the
    first side a short one (either of the two: a card turned 180 degrees shows the same indices)."""
    quad = _order_clockwise(np.asarray(quad, np.float64))
    first = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])
    second = np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])
    if first > second:  # the first side is a long one: start one corner on
        quad = np.roll(quad, -1, axis=0)
    return quad


def rounded_alpha(w: int = FACE_W, h: int = FACE_H, radius: float = CORNER_RADIUS) -> np.ndarray:
    """An anti-aliased rounded rectangle covering the whole face (uint8 alpha)."""
    big = 4
    mask = np.zeros((h * big, w * big), np.uint8)
    r = int(round(radius * big))
    cv2.rectangle(mask, (r, 0), (w * big - 1 - r, h * big - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w * big - 1, h * big - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * big - 1 - r, r), (r, h * big - 1 - r), (w * big - 1 - r, h * big - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)


def warp_face(image: np.ndarray, quad: np.ndarray, turn: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(RGBA face FACE_H x FACE_W, the face -> photo homography): ``quad``'s corners (top-left,
    top-right, bottom-right, bottom-left) as given, or with ``turn`` 0 / 1 from its portrait reading
    (``portrait_corners``) / one corner on (the card's long sides across)."""
    corners = quad if turn is None else np.roll(portrait_corners(quad), -turn, axis=0)
    corners = np.asarray(corners, np.float32)
    target = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])
    to_face = cv2.getPerspectiveTransform(corners, target)
    face = cv2.warpPerspective(image, to_face, (FACE_W, FACE_H), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.dstack([face, rounded_alpha()]), np.linalg.inv(to_face)


def corner_ink(face: np.ndarray) -> np.ndarray:
    """The ink of the face's four corner windows (``art.find_corner_index``'s), each mirrored into
    the top-left frame, averaged and shrunk to INK_MAP cells: where this deck's indices lie."""
    face = _stretched(face)
    h, w = face.shape[:2]
    win_w, win_h = int(w * 0.30), int(h * 0.36)
    total = np.zeros(INK_MAP[::-1], np.float32)
    for view, _ in _corner_views(face):
        ink = art._ink_mask(np.ascontiguousarray(view))[:win_h, :win_w].astype(np.float32)
        total += cv2.resize(ink, INK_MAP, interpolation=cv2.INTER_AREA)
    return total.ravel() / 4


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-9))


# --- the corner indices ----------------------------------------------------------------------------

def _corner_views(face: np.ndarray):
    """(view, box back to face coords) for each corner: top-left, top-right, bottom-right, bottom-left."""
    h, w = face.shape[:2]
    return [
        (face, lambda b: b),
        (face[:, ::-1], lambda b: (w - b[2], b[1], w - b[0], b[3])),
        (face[::-1, ::-1], lambda b: (w - b[2], h - b[3], w - b[0], h - b[1])),
        (face[::-1], lambda b: (b[0], h - b[3], b[2], h - b[1])),
    ]


def _to_top_left(b, corner: int, w: int, h: int):
    """A face box at ``corner`` mirrored into the top-left corner's frame."""
    x1, y1, x2, y2 = b
    if corner in (1, 2):
        x1, x2 = w - x2, w - x1
    if corner in (2, 3):
        y1, y2 = h - y2, h - y1
    return (x1, y1, x2, y2)


def _from_top_left(b, corner: int, w: int, h: int):
    return _to_top_left(b, corner, w, h)  # the mirroring is its own inverse


def _stretched(face: np.ndarray) -> np.ndarray:
    """The face with its contrast stretched, paper to ~235 and the darkest ink to ~20, for the index
    search only (``art._ink_mask`` wants ink 80 levels under the paper: a dim photo has less)."""
    gray = face[:, :, :3].astype(np.float32).mean(axis=2)
    opaque = face[:, :, 3] > 200
    lo, hi = np.percentile(gray[opaque], 0.5), np.percentile(gray[opaque], 70)
    gain = 215.0 / max(hi - lo, 1.0)
    rgb = np.clip((face[:, :, :3].astype(np.float32) - lo) * gain + 20, 0, 255).astype(np.uint8)
    return np.dstack([rgb, np.minimum(face[:, :, 3], _search_alpha(face.shape[1], face.shape[0]))])


@functools.lru_cache(maxsize=4)
def _search_alpha(w: int, h: int) -> np.ndarray:
    """The face less its edge (the card's dark rim, surface left at the rounded corners): not ink."""
    edge = int(round(SEARCH_BORDER * w))
    inner = rounded_alpha(w - 2 * edge, h - 2 * edge, 2 * CORNER_RADIUS)
    return cv2.copyMakeBorder(inner, edge, edge, edge, edge, cv2.BORDER_CONSTANT, value=0)


def find_corners(face: np.ndarray) -> list:
    """The index box found at each of the four corners (face pixels, or None), each found on the
    face's view with that corner at the top left (contrast stretched)."""
    face = _stretched(face)
    found = []
    for corner, (view, back) in enumerate(_corner_views(face)):
        box = art.find_corner_index(np.ascontiguousarray(view))
        found.append(None if box is None else tuple(float(v) for v in back(box)))
    return found


def assign_indices(cutouts: list[Cutout]) -> tuple[float, ...]:
    """Each cut-out's four index boxes: the one found at a corner when it agrees with the deck's
    typical box (the median over every corner of every cut-out, in the top-left frame), else the
    typical box at that corner. Returns the typical box."""
    w, h = FACE_W, FACE_H
    found = {id(c): find_corners(c.face) for c in cutouts}
    top_left = [_to_top_left(b, k, w, h) for c in cutouts for k, b in enumerate(found[id(c)]) if b is not None]
    med = tuple(float(v) for v in np.median(np.array(top_left), axis=0))
    for c in cutouts:
        boxes, good = [], 0
        for k, b in enumerate(found[id(c)]):
            if b is not None and not art.odd_index_box(_to_top_left(b, k, w, h), med):
                boxes.append(tuple(round(v, 2) for v in b))
                good += 1
            else:
                boxes.append(tuple(round(v, 2) for v in _from_top_left(med, k, w, h)))
        c.indices, c.found_indices = tuple(boxes), good
    return med


def derived_agreement(cutout: Cutout, to_photo: np.ndarray, corners, photo_w: int, photo_h: int) -> None:
    """How many of the card's derived corners (``rf100_corners.txt``: the committed detector and
    reader, independent of this module) have their centre on one of the cut-out's index boxes."""
    from_photo = np.linalg.inv(to_photo)
    mine = [c for c in corners if c.code == cutout.code]
    centres = np.array([[(c.box[0] + c.box[2]) / 2 * photo_w, (c.box[1] + c.box[3]) / 2 * photo_h] for c in mine])
    outline = cutout.quad.astype(np.float32)
    inside = [cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in centres]
    centres = centres[np.array(inside, bool)] if len(centres) else centres
    cutout.derived_total = len(centres)
    if not len(centres):
        cutout.derived_agree = None
        return
    on_face = cv2.perspectiveTransform(centres.reshape(-1, 1, 2).astype(np.float64), from_photo).reshape(-1, 2)
    agree = 0
    for x, y in on_face:
        agree += any(b[0] - 6 <= x <= b[2] + 6 and b[1] - 6 <= y <= b[3] + 6 for b in cutout.indices)
    cutout.derived_agree = agree


# --- the photos ------------------------------------------------------------------------------------

def _intersection(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def clear_boxes(photo, relaxed: bool = False):
    """The photo's labelled cards worth cutting out: (code, normalised box, why not or "")."""
    out = []
    for i, (code, box) in enumerate(photo.card_boxes):
        area = (box[2] - box[0]) * (box[3] - box[1])
        overlap = max((_intersection(box, other) for j, (_, other) in enumerate(photo.card_boxes) if j != i),
                      default=0.0)
        if min(box[0], box[1]) <= EDGE_MARGIN or max(box[2], box[3]) >= 1 - EDGE_MARGIN:
            why = "touches the photo's edge"
        elif overlap > (RELAXED_OVERLAP * area if relaxed else 0.0):
            why = "overlaps another card's box"
        elif relaxed and overlap == 0.0:
            why = "clear: tried by the strict rule"
        else:
            why = ""
        out.append((code, box, why))
    return out


def cut_photo(photo, codes=None, relaxed: bool = False, report: Report | None = None,
              corners=()) -> list[Cutout]:
    """The clear cards of one photo (``codes``: only these), cut out; their indices not yet set."""
    image = cv2.imread(str(photo.image))
    if image is None:
        raise OSError(f"cannot read {photo.image}")
    h, w = image.shape[:2]
    out = []
    for code, box, why in clear_boxes(photo, relaxed):
        if codes is not None and code not in codes:
            continue
        if why:
            if report is not None and not relaxed:
                report.skipped[why] += 1
            continue
        if report is not None:
            report.candidates += 1
        pixel_box = (box[0] * w, box[1] * h, box[2] * w, box[3] * h)
        quad, reason = find_card_quad(image, pixel_box)
        if quad is None:
            if report is not None:
                report.rejected[reason] += 1
            continue
        inks = tuple(corner_ink(warp_face(image, quad, turn)[0]) for turn in (0, 1))
        out.append(Cutout(code, photo.name, pixel_box, portrait_corners(quad), None, relaxed=relaxed,
                          photo_size=(w, h), corners=tuple(corners), image=photo.image,
                          aspect=quad_shape(quad)[0], inks=inks))
    return out


def way_round(cutouts: list[Cutout], template: np.ndarray | None = None) -> tuple[np.ndarray, dict]:
    """Turn each cut-out's corners the way its corner ink matches the template (the mean corner ink
    of the cut-outs whose outline is sure, unless given), or mark it unclear (``turn`` None);
    returns (the template, how often the ink agreed with the outline where the outline is sure)."""
    sure = [c for c in cutouts if c.aspect <= GEOMETRY_SURE]
    if template is None:
        template = np.mean([c.inks[0] for c in (sure or cutouts)], axis=0)
    agree = 0
    for c in cutouts:
        scores = [_correlation(ink, template) for ink in c.inks]
        c.turn = int(scores[1] > scores[0]) if abs(scores[1] - scores[0]) >= MIN_WAY_ROUND_GAP else None
        if c.aspect <= GEOMETRY_SURE:
            agree += c.turn == 0
            if c.turn == 1:  # the ink says across where the outline is sure: trust neither
                c.turn = None
        if c.turn:
            c.quad = np.roll(c.quad, -1, axis=0)
    return template, {"outline_sure": len(sure), "ink_agrees_with_outline": agree}


def finish(cutout: Cutout) -> None:
    """Warp the chosen cut-out's face from its photo (the way round set)."""
    image = cv2.imread(str(cutout.image))
    cutout.face, cutout.to_photo = warp_face(image, cutout.quad)


def _spread(items: list, k: int) -> list:
    """``k`` of ``items`` spread evenly over the list (photos in time order: the surfaces change)."""
    if len(items) <= k:
        return items
    picks = np.linspace(0, len(items) - 1, k).round().astype(int)
    return [items[i] for i in picks]


def build_cutouts(photos, log=print, max_per_code: int = MAX_PER_CODE) -> tuple[list[Cutout], Report]:
    """Cut-outs of ``photos`` (rf100-poker train photos), at most ``max_per_code`` a code, their
    faces warped and indices set; codes with under MIN_PER_CODE clear cards add the relaxed overlap rule's."""
    from vision.train.rf100 import read_corners

    t = time.time()
    report = Report()
    derived = read_corners()
    photos = sorted(photos, key=lambda p: p.name)
    found: list[Cutout] = []
    for n, photo in enumerate(photos, 1):
        found += cut_photo(photo, report=report, corners=derived.get(photo.name, ()))
        if n % 200 == 0:
            log(f"{n}/{len(photos)} photos, {len(found)} outlines ({time.time() - t:.0f} s)")
    template, report.way_round = way_round(found)
    have = Counter(f.code for f in found if f.turn is not None)
    missing = [c for c in CARD_CODES if have[c] < MIN_PER_CODE]
    if missing:
        log(f"under {MIN_PER_CODE} clear cards of {' '.join(missing)}: adding boxes that meet another's by "
            f"<= {RELAXED_OVERLAP:.0%}")
        relaxed_report = Report()
        relaxed = []
        for photo in photos:
            if set(missing) & {code for code, _ in photo.card_boxes}:
                relaxed += cut_photo(photo, codes=set(missing), relaxed=True, report=relaxed_report,
                                     corners=derived.get(photo.name, ()))
        way_round(relaxed, template)
        found += relaxed
        report.rejected.update({f"relaxed: {k}": v for k, v in relaxed_report.rejected.items()})
        report.skipped["relaxed candidates"] += relaxed_report.candidates
    report.rejected["way round unclear"] += sum(c.turn is None for c in found)
    found = [c for c in found if c.turn is not None]
    report.accepted_before_cap = len(found)
    cutouts = []
    for code in CARD_CODES:
        cutouts += _spread([c for c in found if c.code == code], max_per_code)
    for c in cutouts:
        finish(c)
    report.kept = len(cutouts)
    if cutouts:
        assign_indices(cutouts)
        for c in cutouts:
            derived_agreement(c, c.to_photo, c.corners, *c.photo_size)
    report.per_code = Counter(c.code for c in cutouts)
    report.seconds = time.time() - t
    return cutouts, report


def write_deck(cutouts: list[Cutout], folder: Path, report: Report | None = None) -> Path:
    """The deck folder ``art.load_deck`` reads: ``CODE.png`` (the first cut-out of a code) and
    ``indices.json`` as every deck has, ``variants.json`` naming every cut-out's face and its
    indices, and ``cutouts.json`` where each came from."""
    folder = Path(folder)
    staging = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    indices, variants, sources = {}, {}, []
    for code in CARD_CODES:
        mine = [c for c in cutouts if c.code == code]
        for k, c in enumerate(mine):
            name = f"{code}.png" if k == 0 else f"{code}_{k}.png"
            cv2.imwrite(str(staging / name), c.face)
            boxes = [list(b) for b in c.indices]
            variants.setdefault(code, []).append({"face": name, "indices": boxes})
            if k == 0:
                indices[code] = boxes
            sources.append({"face": name, "code": code, "photo": c.photo, "box": [round(v, 1) for v in c.box],
                            "quad": np.round(c.quad, 1).tolist(), "relaxed": c.relaxed,
                            "indices_found": c.found_indices, "derived_corners": c.derived_total,
                            "derived_on_index": c.derived_agree})
    (staging / "indices.json").write_text(json.dumps(indices))
    (staging / "variants.json").write_text(json.dumps(variants))
    (staging / "cutouts.json").write_text(json.dumps({"source": "rf100-poker train split (vision.train.rf100)",
                                                      "report": report.as_dict() if report else None,
                                                      "cutouts": sources}, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    return folder


def contact_sheet(cutouts: list[Cutout], columns: int = 16, height: int = 160) -> np.ndarray:
    """Every cut-out on grey with its index boxes (green: found on the face; yellow: the deck's
    typical box), its code above it; codes in CARD_CODES order."""
    tiles = []
    for c in cutouts:
        alpha = c.face[:, :, 3:4].astype(np.float32) / 255
        rgb = (c.face[:, :, :3] * alpha + 90 * (1 - alpha)).astype(np.uint8)
        found = find_corners(c.face)
        for b, f in zip(c.indices, found):
            colour = (0, 200, 0) if f is not None and np.allclose(b, f, atol=0.01) else (0, 220, 255)
            cv2.rectangle(rgb, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), colour, 2)
        s = height / rgb.shape[0]
        tile = cv2.resize(rgb, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        label = np.full((16, tile.shape[1], 3), 40, np.uint8)
        text = c.code + (" r" if c.relaxed else "")
        cv2.putText(label, text, (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
        tiles.append(np.vstack([label, tile]))
    from vision.synth.contact import _tile

    return _tile(tiles, columns, pad=3)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="deck folder (default: the art cache's rf100-real)")
    parser.add_argument("--sheet", type=Path, default=None, help="also write a contact sheet PNG of the cut-outs")
    parser.add_argument("--max-per-code", type=int, default=MAX_PER_CODE)
    args = parser.parse_args(argv)
    from vision.train.rf100 import poker_photos_of

    photos = poker_photos_of("train")
    cutouts, report = build_cutouts(photos, max_per_code=args.max_per_code)
    out = write_deck(cutouts, args.out or art.built_deck_dir(art.REAL_DECK), report)
    summary = report.as_dict()
    agree = [c for c in cutouts if c.derived_agree is not None]
    summary["derived_corners_on_an_index_box"] = (f"{sum(c.derived_agree for c in agree)}/"
                                                  f"{sum(c.derived_total for c in agree)}")
    summary["indices_found_on_face"] = f"{sum(c.found_indices for c in cutouts)}/{4 * len(cutouts)}"
    print(json.dumps(summary, indent=1))
    print(f"wrote {len(cutouts)} cut-outs of {len(report.per_code)} codes to {out}")
    if args.sheet:
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.sheet), contact_sheet(cutouts))
        print(f"wrote {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
