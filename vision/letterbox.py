"""Letterboxing a photo into the detector's input (ultralytics' geometry) and back: a square, or
(``rect``, for a detector exported for any input size) the smallest rectangle of whole strides
around the scaled photo, as ultralytics' rectangular inference does."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114  # ultralytics pads with grey 114


@dataclass(frozen=True)
class Letterbox:
    """How a photo was placed in the input: scaled by ``gain``, shifted by the padding; the input is
    ``size`` wide and ``rows`` high (None: square)."""

    gain: float
    pad_left: int
    pad_top: int
    size: int
    rows: int | None = None

    @classmethod
    def fit(cls, width: int, height: int, size: int, rect: bool = False, stride: int = 32) -> "Letterbox":
        """The photo's long side scaled to ``size``; the input square, or with ``rect`` each side
        the scaled photo's rounded up to a whole ``stride`` (a 16:9 frame at 512: 512x288)."""
        gain = min(size / height, size / width)
        new_w, new_h = int(round(width * gain)), int(round(height * gain))
        input_w, input_h = (-(-new_w // stride) * stride, -(-new_h // stride) * stride) if rect else (size, size)
        dw, dh = (input_w - new_w) / 2.0, (input_h - new_h) / 2.0
        return cls(gain, int(round(dw - 0.1)), int(round(dh - 0.1)), input_w, None if input_h == input_w else input_h)

    @property
    def height(self) -> int:
        return self.size if self.rows is None else self.rows

    def to_tensor(self, image_bgr: np.ndarray) -> np.ndarray:
        """The detector input: 1x3xHxW float32 RGB in [0, 1]."""
        height, width = image_bgr.shape[:2]
        new_w, new_h = int(round(width * self.gain)), int(round(height * self.gain))
        # Shrinking averages (INTER_AREA): a bilinear resize of a 4000 px photo into 512 px samples
        # one pixel in eight and aliases fine print into noise, so big photos read worse than small.
        interpolation = cv2.INTER_AREA if self.gain < 1.0 else cv2.INTER_LINEAR
        resized = image_bgr if (new_w, new_h) == (width, height) else cv2.resize(
            image_bgr, (new_w, new_h), interpolation=interpolation)
        right = self.size - new_w - self.pad_left
        bottom = self.height - new_h - self.pad_top
        padded = cv2.copyMakeBorder(resized, self.pad_top, bottom, self.pad_left, right,
                                    cv2.BORDER_CONSTANT, value=(PAD_VALUE, PAD_VALUE, PAD_VALUE))
        return cv2.dnn.blobFromImage(padded, scalefactor=1.0 / 255.0, swapRB=True)

    def to_photo(self, xyxy: np.ndarray, width: int, height: int) -> np.ndarray:
        """Boxes from input pixels back to photo pixels, clipped to the photo."""
        boxes = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4).copy()
        boxes[:, [0, 2]] = (boxes[:, [0, 2]] - self.pad_left) / self.gain
        boxes[:, [1, 3]] = (boxes[:, [1, 3]] - self.pad_top) / self.gain
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, width)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, height)
        return boxes
