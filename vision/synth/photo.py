"""Camera and light effects applied to a composed scene: what makes a render look like a phone photo."""

from __future__ import annotations

import cv2
import numpy as np


def _soft_field(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / max(h, w)
    field = 1.0 + ramp * rng.uniform(0, 0.7)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (max(h, w) ** 2)
    field *= 1.0 - rng.uniform(0, 0.45) * np.clip(r2, 0, 1)
    return field


def _shadow_blob(rng, h, w) -> np.ndarray:
    """A large soft shadow (the photographer's hand or phone) as a darkening factor."""
    mask = np.zeros((h, w), np.float32)
    pts = np.stack([rng.uniform(-0.3, 1.3, 5) * w, rng.uniform(-0.3, 1.3, 5) * h], axis=1).astype(np.int32)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0)
    k = int(max(h, w) * rng.uniform(0.03, 0.12)) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    return 1.0 - mask * rng.uniform(0.2, 0.55)


def _glare(rng, h, w) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    sx, sy = rng.uniform(0.05, 0.3) * w, rng.uniform(0.05, 0.3) * h
    return rng.uniform(25, 70) * np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))


def apply_camera(rng: np.random.Generator, image: np.ndarray, min_card_height: float) -> np.ndarray:
    """Light, colour, optics and sensor effects; ``min_card_height`` bounds the blur so indices stay legible."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    out *= _soft_field(rng, h, w)[:, :, None]
    if rng.random() < 0.3:
        out *= _shadow_blob(rng, h, w)[:, :, None]
    if rng.random() < 0.25:
        out += _glare(rng, h, w)[:, :, None]
    out *= rng.uniform(0.82, 1.18, 3)[None, None, :]  # white balance
    out = out * rng.uniform(0.75, 1.2) + rng.uniform(-25, 25)  # exposure, contrast
    out = np.clip(out, 0, 255)
    gamma = rng.uniform(0.75, 1.35)
    out = 255.0 * (out / 255.0) ** gamma
    max_sigma = max(0.3, 0.011 * min_card_height)
    r = rng.random()
    if r < 0.3:
        sigma = rng.uniform(0.3, min(1.8, max_sigma))
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    elif r < 0.4:
        length = int(rng.uniform(2, max(3, min(9, max_sigma * 4))))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.12:  # a weak sensor: down and up again
        f = rng.uniform(0.5, 0.8)
        small = cv2.resize(out, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.6:
        out += rng.normal(0, rng.uniform(1, 7), out.shape).astype(np.float32)
    result = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        quality = int(rng.integers(35, 92))
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        result = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return result
