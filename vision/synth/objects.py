"""Things on the table besides the cards: clutter under them and fingers/objects over them."""

from __future__ import annotations

import cv2
import numpy as np


def _colour(rng, lo=0, hi=255):
    return tuple(float(v) for v in rng.integers(lo, hi, 3))


def draw_clutter(rng: np.random.Generator, table: np.ndarray, card_h: float) -> None:
    """Draw 0-4 objects on the table texture (table coordinates): papers, coins, pens, card backs."""
    h, w = table.shape[:2]
    for _ in range(int(rng.integers(0, 5))):
        kind = rng.integers(4)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        angle = rng.uniform(0, 180)
        if kind == 0:  # a sheet of paper with writing (a score sheet)
            size = (card_h * rng.uniform(1.0, 2.5), card_h * rng.uniform(1.2, 3.0))
            box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.int32)
            cv2.fillConvexPoly(table, box, (rng.uniform(215, 250),) * 3, cv2.LINE_AA)
            for k in range(int(rng.integers(2, 9))):
                t = (k + 1) / 10
                p = box[0] + (box[3] - box[0]) * t
                q = p + (box[1] - box[0]) * rng.uniform(0.3, 0.9)
                cv2.line(table, tuple(int(v) for v in p), tuple(int(v) for v in q), _colour(rng, 0, 90), 2, cv2.LINE_AA)
        elif kind == 1:  # coin or token
            r = int(card_h * rng.uniform(0.08, 0.2))
            cv2.circle(table, (int(cx), int(cy)), r, _colour(rng, 60, 220), -1, cv2.LINE_AA)
            cv2.circle(table, (int(cx), int(cy)), max(1, int(r * 0.8)), _colour(rng, 40, 200), 2, cv2.LINE_AA)
        elif kind == 2:  # pen or pegging peg
            length = card_h * rng.uniform(0.4, 1.6)
            dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
            cv2.line(table, (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy)), _colour(rng),
                     max(2, int(card_h * rng.uniform(0.03, 0.08))), cv2.LINE_AA)
        else:  # a face-down card: a card shape without an index
            size = (card_h * 0.7, card_h)
            box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.int32)
            cv2.fillConvexPoly(table, box, (245, 245, 245), cv2.LINE_AA)
            inner = cv2.boxPoints(((cx, cy), (size[0] * 0.86, size[1] * 0.9), angle)).astype(np.int32)
            cv2.fillConvexPoly(table, inner, _colour(rng, 20, 200), cv2.LINE_AA)
            for k in range(6):
                a = box[0] + (box[2] - box[0]) * (k / 6)
                cv2.circle(table, tuple(int(v) for v in a), int(card_h * 0.05), _colour(rng), 2, cv2.LINE_AA)


def _skin(rng):
    tone = rng.uniform(0, 1)
    dark, light = np.array([45, 65, 105]), np.array([170, 195, 235])  # BGR
    return tuple(float(v) for v in dark + (light - dark) * tone)


def draw_occluders(rng: np.random.Generator, image: np.ndarray, targets: list[tuple[float, float]],
                   card_h: float) -> np.ndarray:
    """Fingers, pens or coins over the cards (image coordinates); returns the covered mask (bool)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(1, 3))):
        tx, ty = targets[int(rng.integers(len(targets)))]
        tx += rng.normal(0, card_h * 0.3)
        ty += rng.normal(0, card_h * 0.3)
        layer = np.zeros((h, w), np.uint8)
        if rng.random() < 0.65:  # a finger from the image edge
            edge = rng.integers(4)
            sx, sy = [(tx, -50), (w + 50, ty), (tx, h + 50), (-50, ty)][edge]
            sx += rng.normal(0, w * 0.1)
            thick = max(6, int(card_h * rng.uniform(0.16, 0.28)))
            cv2.line(layer, (int(sx), int(sy)), (int(tx), int(ty)), 255, thick, cv2.LINE_AA)
            colour = _skin(rng)
            nail = True
        elif rng.random() < 0.5:  # a pen
            angle = rng.uniform(0, np.pi)
            length = card_h * rng.uniform(0.8, 2.0)
            dx, dy = np.cos(angle) * length / 2, np.sin(angle) * length / 2
            cv2.line(layer, (int(tx - dx), int(ty - dy)), (int(tx + dx), int(ty + dy)), 255,
                     max(3, int(card_h * 0.06)), cv2.LINE_AA)
            colour, nail = _colour(rng), False
        else:  # a coin
            cv2.circle(layer, (int(tx), int(ty)), max(4, int(card_h * rng.uniform(0.1, 0.2))), 255, -1, cv2.LINE_AA)
            colour, nail = _colour(rng, 60, 220), False
        alpha = layer.astype(np.float32)[:, :, None] / 255.0
        shade = cv2.GaussianBlur(layer, (0, 0), max(1.0, card_h * 0.03)).astype(np.float32)[:, :, None] / 255.0
        fill = np.empty_like(image, dtype=np.float32)
        fill[:] = colour
        fill *= 0.75 + 0.35 * shade  # rounded look: brighter in the middle
        if nail:
            cv2.circle(fill, (int(tx), int(ty)), max(2, int(card_h * 0.06)), tuple(min(255.0, c + 40) for c in colour), -1)
        image[:] = (image.astype(np.float32) * (1 - alpha) + fill * alpha).astype(np.uint8)
        mask |= (layer > 127).astype(np.uint8)
    return mask.astype(bool)


def draw_holding_hand(rng: np.random.Generator, image: np.ndarray, pivot, top) -> np.ndarray:
    """A hand holding a fan from below: palm and wrist under the pivot, the thumb pressed on the
    front card's lower part. ``pivot`` is where the fan turns (image px), ``top`` one card height
    above it along the cards. Returns the covered mask (bool)."""
    h, w = image.shape[:2]
    pivot, top = np.asarray(pivot, np.float64), np.asarray(top, np.float64)
    card_h = max(float(np.linalg.norm(top - pivot)), 4.0)
    up = (top - pivot) / card_h
    across = np.array([-up[1], up[0]])
    side = 1 if rng.random() < 0.5 else -1  # right or left hand
    palm = pivot - up * card_h * rng.uniform(0.3, 0.5) + across * side * card_h * rng.uniform(-0.05, 0.1)
    layer = np.zeros((h, w), np.uint8)
    tilt = float(np.degrees(np.arctan2(across[1], across[0])))
    axes = (int(card_h * rng.uniform(0.28, 0.38)), int(card_h * rng.uniform(0.36, 0.46)))
    cv2.ellipse(layer, (int(palm[0]), int(palm[1])), axes, tilt, 0, 360, 255, -1, cv2.LINE_AA)
    wrist = palm - up * card_h * 3.0
    cv2.line(layer, tuple(int(v) for v in palm), tuple(int(v) for v in wrist), 255, max(4, int(card_h * 0.5)), cv2.LINE_AA)
    thumb_root = palm + across * side * card_h * 0.25 + up * card_h * 0.1
    tip = pivot + up * card_h * rng.uniform(0.2, 0.4) - across * side * card_h * rng.uniform(0.0, 0.2)
    thick = max(4, int(card_h * rng.uniform(0.12, 0.16)))
    cv2.line(layer, tuple(int(v) for v in thumb_root), tuple(int(v) for v in tip), 255, thick, cv2.LINE_AA)
    # The thumb's own outline: a darker crease where it lies over the palm.
    crease = np.zeros((h, w), np.uint8)
    cv2.line(crease, tuple(int(v) for v in thumb_root), tuple(int(v) for v in tip), 255, max(1, thick // 6), cv2.LINE_AA)
    alpha = layer.astype(np.float32)[:, :, None] / 255.0
    shade = cv2.GaussianBlur(layer, (0, 0), max(1.0, card_h * 0.05)).astype(np.float32)[:, :, None] / 255.0
    colour = _skin(rng)
    fill = np.empty_like(image, dtype=np.float32)
    fill[:] = colour
    fill *= 0.7 + 0.4 * shade
    fill *= 1.0 - 0.25 * cv2.GaussianBlur(crease, (0, 0), max(1.0, thick / 4)).astype(np.float32)[:, :, None] / 255.0
    cv2.circle(fill, (int(tip[0]), int(tip[1])), max(2, thick // 3), tuple(min(255.0, c + 35) for c in colour), -1)
    image[:] = (image.astype(np.float32) * (1 - alpha) + fill * alpha).astype(np.uint8)
    return layer > 127
