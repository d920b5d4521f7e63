"""Raster helpers shared by the card-art builders (``art``, ``kde_art``): read a rendered face as
RGBA, trim it to the card's outline at the common face height, and the error they raise."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

FACE_HEIGHT = 480  # every deck's faces are scaled to this height (pixels)


class ArtError(OSError):
    """Card art could not be fetched or rendered (npm, rsvg-convert or a Debian theme missing)."""


def read_rgba(path: Path) -> np.ndarray:
    """A rendered image as BGRA uint8 (grey and BGR files gain an opaque alpha)."""
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ArtError(f"cannot read rendered art {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    if image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def trim_face(face: np.ndarray) -> np.ndarray:
    """Cut to the card's opaque outline and scale to FACE_HEIGHT."""
    ys, xs = np.nonzero(face[:, :, 3] > 128)
    face = face[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    scale = FACE_HEIGHT / face.shape[0]
    width = int(round(face.shape[1] * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    return cv2.resize(face, (width, FACE_HEIGHT), interpolation=interp)
