"""Photos made worse the way a table makes them worse, for the doubt model's tuning and for the
degradation check (issue 54): darker (light taken away, and light scaled down), tinted (tungsten
and green-cast light), noisy, blurred (a shaking hand), re-compressed and smaller. Each look's
strength is drawn per photo from its range by a seed and the photo's name, so a look of a photo is
the same every time; the tuning and the judging runs draw with seeds of their own.

    from vision.train.doubt_looks import LOOKS, looked
    worse = looked(pixels, "dark", "IMG_0001", seed=1)
"""

from __future__ import annotations

import zlib
from typing import Callable

import cv2
import numpy as np

Look = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _dark(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # light taken away, as ImageMagick's -brightness-contrast -50x0 does (every level down by a share of 255)
    return np.clip(pixels.astype(np.float32) - rng.uniform(70, 135), 0, 255).astype(np.uint8)


def _dim(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # light scaled down with the camera's gamma (an unlit room)
    gain = rng.uniform(0.18, 0.4)
    return np.clip(255.0 * (pixels.astype(np.float32) / 255.0) ** 1.2 * gain, 0, 255).astype(np.uint8)


def _tinted(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # tungsten (warm) or fluorescent (green) light the camera did not balance
    warm = np.array([rng.uniform(0.5, 0.75), rng.uniform(0.85, 0.95), 1.0], np.float32)
    green = np.array([rng.uniform(0.7, 0.85), 1.0, rng.uniform(0.65, 0.8)], np.float32)
    gains = warm if rng.random() < 0.6 else green
    return np.clip(pixels.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _noisy(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # a small sensor at high ISO: grain, a little dimmer
    sigma = rng.uniform(8, 22)
    noisy = pixels.astype(np.float32) * rng.uniform(0.7, 1.0) + rng.normal(0, sigma, pixels.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _blurred(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # a hand that moved: a straight smear at any angle, a share of the photo's long side
    length = max(3, int(round(max(pixels.shape[:2]) * rng.uniform(0.006, 0.016))))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(pixels, -1, kernel / max(float(kernel.sum()), 1e-6))


def _recompressed(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # sent through a messenger: JPEG at a low quality
    ok, data = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(12, 30))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _smaller(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # taken from further away, or sent small
    factor = rng.uniform(0.4, 0.6)
    h, w = pixels.shape[:2]
    return cv2.resize(pixels, (max(1, round(w * factor)), max(1, round(h * factor))), interpolation=cv2.INTER_AREA)


LOOKS: dict[str, Look | None] = {
    "as_taken": None,
    "dark": _dark,
    "dim": _dim,
    "tinted": _tinted,
    "noisy": _noisy,
    "blurred": _blurred,
    "recompressed": _recompressed,
    "smaller": _smaller,
}


class UnknownLookError(ValueError):
    """A look the module does not know (one line naming it and the known ones)."""


def looked(pixels: np.ndarray, look: str, name: str, seed: int = 0) -> np.ndarray:
    """``pixels`` (BGR) under ``look``, its strength drawn from ``seed`` and the photo's ``name``."""
    if look not in LOOKS:
        raise UnknownLookError(f"unknown look {look!r} (known: {', '.join(LOOKS)})")
    make = LOOKS[look]
    if make is None:
        return pixels
    rng = np.random.default_rng([seed, zlib.crc32(f"{look}/{name}".encode())])
    return make(pixels, rng)
