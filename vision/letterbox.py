"""Letterboxing a photo into the detector's square input (ultralytics' geometry) and back."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114  # ultralytics pads with grey 114


@dataclass(frozen=True)
class Letterbox:
    """How a photo was placed in the square input: scaled by ``gain``, shifted by the padding."""

    gain: float
    pad_left: int
    pad_top: int
    size: int

    @classmethod
    def fit(cls, width: int, height: int, size: int) -> "Letterbox":
        gain = min(size / height, size / width)
        new_w, new_h = int(round(width * gain)), int(round(height * gain))
        dw, dh = (size - new_w) / 2.0, (size - new_h) / 2.0
        return cls(gain, int(round(dw - 0.1)), int(round(dh - 0.1)), size)

    def to_tensor(self, image_bgr: np.ndarray) -> np.ndarray:
        """The detector input: 1x3xSxS float32 RGB in [0, 1]."""
        height, width = image_bgr.shape[:2]
        new_w, new_h = int(round(width * self.gain)), int(round(height * self.gain))
        # Shrinking averages (INTER_AREA): a bilinear resize of a 4000 px photo into 512 px samples
        # one pixel in eight and aliases fine print into noise, so big photos read worse than small.
        interpolation = cv2.INTER_AREA if self.gain < 1.0 else cv2.INTER_LINEAR
        resized = image_bgr if (new_w, new_h) == (width, height) else cv2.resize(
            image_bgr, (new_w, new_h), interpolation=interpolation)
        right = self.size - new_w - self.pad_left
        bottom = self.size - new_h - self.pad_top
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
