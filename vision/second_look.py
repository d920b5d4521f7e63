"""Step 3b, a second look: every card box on which no index was read surely is cut from the decoded
photo (its full resolution, not the detector's input), its outline found and turned upright to a
fixed size, and both its corner indices read there. A number card's pips, counted on the upright
face, confirm or question the rank read.

Each read comes back as an index row like the detector's (box in photo pixels, the card box's
detector score, the card read, origin ``Origin.SECOND_LOOK``), so ``interpret`` treats it as any
other corner. The first pass is
untouched: this runs only on the cards that need it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import boxes
from vision.classes import CARD_CODES, INDEX_CLASS, RANKS
from vision.crops import crop_square, crops_to_tensor
from vision.detections import Detections, Origin
from vision.config import SecondLookConfig
from vision.geometry import CARD_ASPECT, CARD_H, CARD_W, CORNER_BOXES
from vision.read import RunClassifier, softmax

# Upright card size and where its corner indices lie: ``vision.geometry``. What a look needs to be
# taken, and the outline and pip tests: ``SecondLookConfig`` (docs/TUNING.md, "second_look").


@dataclass(frozen=True)
class Look:
    """One card box looked at again: the card read (or None), its probability, the runner-up,
    and whether its outline was found (else the box itself was read as an upright card)."""

    card_id: int | None
    probability: float
    runner_up_id: int
    runner_up_probability: float
    outline_found: bool
    pips: int | None


def boxes_to_look_at(card_boxes: Detections, indices: Detections, sure: float, min_score: float,
                     inside_share: float, max_looks: int) -> np.ndarray:
    """Indices (rows of ``card_boxes``) of the cards whose box holds no sure index read, among the
    boxes the detector is sure enough of to report (``min_score``, as interpret reports unread ones)."""
    if len(card_boxes) == 0:
        return np.zeros(0, np.int64)
    read = indices.card_id >= 0
    sure_rows = read & (indices.confidence * indices.reader >= sure)
    holds_sure = boxes.points_in_boxes(indices.centers[sure_rows], card_boxes.xyxy, tolerance=0.0).any(axis=0) \
        if sure_rows.any() else np.zeros(len(card_boxes), bool)
    # a box covered by boxes already read surely is a second box of those cards, not a card to read
    covered = boxes.covered_fraction(card_boxes.xyxy, card_boxes.xyxy[holds_sure]) >= inside_share
    rows = np.flatnonzero(~holds_sure & ~covered & (card_boxes.confidence >= min_score))
    return rows[np.argsort(-card_boxes.confidence[rows], kind="stable")][:max_looks]


def card_outline(pixels: np.ndarray, box, config: SecondLookConfig) -> np.ndarray | None:
    """The card's four corners (photo pixels, float32 4x2) found inside its box, or None."""
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * config.region_margin_of_box, (y2 - y1) * config.region_margin_of_box
    rx1, ry1 = int(max(x1 - mx, 0)), int(max(y1 - my, 0))
    rx2, ry2 = int(min(x2 + mx, w)), int(min(y2 + my, h))
    if rx2 - rx1 < 8 or ry2 - ry1 < 8:
        return None
    region = pixels[ry1:ry2, rx1:rx2]
    shrink = min(1.0, config.outline_px / max(region.shape[:2]))  # outlines need no fine detail
    if shrink < 1.0:
        region = cv2.resize(region, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(region, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, light = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.dilate(cv2.Canny(gray, *config.canny_thresholds), np.ones((3, 3), np.uint8))
    box_area = (x2 - x1) * (y2 - y1) * shrink * shrink
    best, best_score = None, 0.0
    (low_fill, high_fill), (low_aspect, high_aspect) = config.fill_range, config.aspect_range_long_over_short
    for mask in (light, 255 - light, edges):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < low_fill * box_area * config.contour_slack:
                continue
            bx, by, bw, bh = cv2.boundingRect(contour)
            if bx <= 0 and by <= 0 and bx + bw >= mask.shape[1] and by + bh >= mask.shape[0]:
                continue  # the background around the card, not the card
            (cx, cy), (rw, rh), angle = rect = cv2.minAreaRect(contour)
            if min(rw, rh) < config.min_outline_px:
                continue
            fill, aspect = rw * rh / box_area, max(rw, rh) / min(rw, rh)
            if not (low_fill <= fill <= high_fill and low_aspect <= aspect <= high_aspect):
                continue
            # solid: the contour fills its rectangle (a card, not a ring of clutter)
            solidity = cv2.contourArea(contour) / (rw * rh)
            score = solidity * min(fill, 1.0) / (1.0 + abs(aspect - CARD_ASPECT))
            if score > best_score:
                best, best_score = rect, score
    if best is None:
        return None
    corners = cv2.boxPoints(best) / shrink + np.array([rx1, ry1], np.float32)
    return corners.astype(np.float32)


def _portrait_order(quad: np.ndarray) -> np.ndarray:
    """Corners ordered so that edge 0->1 is a short side: top-left, top-right, bottom-right, bottom-left
    of a portrait card (which of the two 180-degree turns is unknown: both corners are read)."""
    quad = np.asarray(quad, np.float32)
    centre = quad.mean(axis=0)
    order = np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))
    quad = quad[order]  # clockwise in image coordinates
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)
    return quad


def upright_card(pixels: np.ndarray, quad: np.ndarray, oversample: float) -> tuple[np.ndarray, np.ndarray]:
    """The card turned upright at CARD_W x CARD_H, and the map from card to photo pixels."""
    quad = _portrait_order(quad)
    short = float(np.linalg.norm(quad[1] - quad[0]))
    factor = min(1.0, oversample * CARD_W / max(short, 1.0))  # average down first: no aliasing
    x1, y1 = np.floor(quad.min(axis=0)).astype(int)
    x2, y2 = np.ceil(quad.max(axis=0)).astype(int) + 1
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    region = pixels[y1:y2, x1:x2]
    local = (quad - np.array([x1, y1], np.float32)) * factor
    if factor < 1.0:
        region = cv2.resize(region, (max(1, round(region.shape[1] * factor)), max(1, round(region.shape[0] * factor))),
                            interpolation=cv2.INTER_AREA)
    target = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    to_card = cv2.getPerspectiveTransform(local, target)
    card = cv2.warpPerspective(region, to_card, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    to_photo = cv2.getPerspectiveTransform(target, quad)
    return card, to_photo


def corner_crops(card: np.ndarray, size: int, margin: float) -> list[np.ndarray]:
    """Reader crops of both index corners (top-left, and bottom-right turned half round), each with
    every CORNER_BOXES variant: [corner0 box0, corner0 box1, corner1 box0, corner1 box1]."""
    turned = cv2.rotate(card, cv2.ROTATE_180)
    crops = []
    for face in (card, turned):
        for fx1, fy1, fx2, fy2 in CORNER_BOXES:
            crops.append(crop_square(face, (fx1 * CARD_W, fy1 * CARD_H, fx2 * CARD_W, fy2 * CARD_H), size, margin))
    return crops


def count_pips(card: np.ndarray, config: SecondLookConfig) -> int | None:
    """Pips on the face of an upright number card (2-10), or None when the face is not a plain
    number card's (a court's picture, an ace's single large pip, or nothing clear)."""
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    (top, bottom), (left, right) = config.face_rows, config.face_columns
    face = gray[int(top * h):int(bottom * h), int(left * w):int(right * w)]
    _, ink = cv2.threshold(cv2.GaussianBlur(face, (3, 3), 0), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if ink.mean() / 255 > config.dark_card_ink:  # dark card, light pips
        ink = 255 - ink
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(float)
    if len(areas) == 0:
        return None
    face_area = face.shape[0] * face.shape[1]
    if areas.max() > config.picture_share * face_area:  # a picture or one big pip
        return None
    big = areas[areas >= config.pip_share * face_area]
    if len(big) < 2:
        return None
    pips = big[big >= config.pip_of_largest * big.max()]
    # a court's picture breaks into pieces of every size; a number card's pips are all alike
    pieces = big[(big < config.pip_of_largest * big.max()) & (big >= config.piece_of_largest * big.max())]
    if len(pieces) > config.max_pieces or pips.max() > config.pip_spread * pips.min():
        return None
    return len(pips) if 2 <= len(pips) <= 10 else None


def look(run_classifier: RunClassifier, pixels: np.ndarray, box, size: int, margin: float,
         config: SecondLookConfig) -> tuple[Look, np.ndarray | None]:
    """Read one card box again; returns the look and the box of its read corner (photo pixels)."""
    quad = card_outline(pixels, box, config)
    outline_found = quad is not None
    if quad is None:  # read the box itself as an upright card
        x1, y1, x2, y2 = box
        quad = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
    card, to_photo = upright_card(pixels, quad, config.oversample)
    crops = corner_crops(card, size, margin)
    probs = softmax(np.asarray(run_classifier(crops_to_tensor(crops)), np.float32))
    per_box = len(CORNER_BOXES)
    corners = [probs[i * per_box:(i + 1) * per_box] for i in range(2)]
    # each corner: the box variant read most surely
    best = [c[int(np.argmax(c.max(axis=1)))] for c in corners]
    tops = [int(np.argmax(b)) for b in best]
    if tops[0] == tops[1]:
        combined = (best[0] + best[1]) / 2
    else:  # the corners disagree: the surer one, at half its probability (the player confirms it)
        combined = best[int(np.argmax([b.max() for b in best]))] / 2
    order = np.argsort(-combined)
    card_id, runner_up = int(order[0]), int(order[1])
    probability = float(combined[card_id])
    pips = count_pips(card, config) if outline_found else None
    rank = RANKS.index(CARD_CODES[card_id][0])  # 0 = ace ... 9 = ten
    if pips is not None and 1 <= rank <= 9:
        # the pips confirm the rank (halve the doubt) or question it (halve the probability)
        probability = 1 - (1 - probability) / 2 if pips == rank + 1 else probability / 2
    corner = np.array([[CORNER_BOXES[0][0] * CARD_W, CORNER_BOXES[0][1] * CARD_H],
                       [CORNER_BOXES[0][2] * CARD_W, CORNER_BOXES[0][3] * CARD_H]], np.float32)
    pts = np.array([[corner[0]], [[corner[1, 0], corner[0, 1]]], [corner[1]], [[corner[0, 0], corner[1, 1]]]], np.float32)
    mapped = cv2.perspectiveTransform(pts, to_photo).reshape(-1, 2)
    index_box = np.array([*mapped.min(axis=0), *mapped.max(axis=0)], np.float32)
    return Look(card_id, probability, runner_up, float(combined[runner_up]), outline_found, pips), index_box


def _less_sure_than_the_first_pass(indices: Detections, sureness: np.ndarray, inside: np.ndarray,
                                   result: Look, score: float) -> bool:
    """Whether the look names another card than the surest first-pass read ``inside`` its box, and
    less surely: that is no new evidence, and kept it would be a card of its own (a keyboard's keys
    taken into the outline gave a JD beside a JC read at 0.49 on sample hand_starter_keyboard)."""
    inside = inside & (indices.card_id >= 0)
    if not inside.any():
        return False
    best = int(np.flatnonzero(inside)[np.argmax(sureness[inside])])
    return result.card_id != int(indices.card_id[best]) and score * result.probability < float(sureness[best])


def second_look(run_classifier: RunClassifier, pixels: np.ndarray, card_boxes: Detections, indices: Detections,
                size: int, margin: float, sure: float | None = None, *, config: SecondLookConfig,
                min_score: float, inside_share: float) -> tuple[Detections, int]:
    """The index rows with the second look's reads added (and the first pass's unsure reads inside a
    card the second look read surely removed), and how many cards were looked at."""
    sure = config.sure if sure is None else sure
    rows = boxes_to_look_at(card_boxes, indices, sure, min_score, inside_share, config.max_looks)
    if len(rows) == 0:
        return indices, 0
    added, replaced = [], np.zeros(len(indices), bool)
    sureness = indices.confidence * indices.reader
    inside_looked = boxes.points_in_boxes(indices.centers, card_boxes.xyxy[rows], tolerance=0.0)  # (reads, looks)
    for look_at, row in enumerate(rows):
        inside = inside_looked[:, look_at]
        result, index_box = look(run_classifier, pixels, card_boxes.xyxy[row], size, margin, config)
        score = float(card_boxes.confidence[row])
        if _less_sure_than_the_first_pass(indices, sureness, inside, result, score):
            continue
        added.append(Detections(index_box[None], [score], [INDEX_CLASS], [result.card_id], [result.probability],
                                [result.runner_up_id], [result.runner_up_probability],
                                origin=[Origin.SECOND_LOOK], scale=card_boxes.scale))
        if score * result.probability >= sure:
            replaced |= inside & (sureness < sure)
    return Detections.concatenate([indices[~replaced], *added]), len(rows)
