"""Is the photo sharp and bright enough to read cards? A measured test, before anyone squints at
unread cards: sharpness is the variance of the Laplacian of the grey photo (at most 1024 pixels on
its long side, so a big photo measures like a small one), brightness the 99th percentile of its
grey (the white of the cards: a mean would call a dark table a dark photo).

    from vision import assess_photo
    quality = assess_photo(photo.pixels)
    if quality.advice:
        print(quality.advice)

The thresholds were set on photos (measured at 1024 px on the long side, numbers below):
- 19 sample photos (sample_images/) and 80 real train photos (40 rf100-poker, 40 cardcounterml,
  seed 36; never validation photos). Sharpness of the photos as taken: samples 130-2,717 (median
  606), real from 13.0 (10th percentile 64.5, median 578). Gaussian blur of the samples, sigma 2: at most 75
  (median 16); sigma 3: at most 17.9 (median 5.7); sigma 4: at most 6.3; sigma 6: at most 3.4
  (real photos blurred sigma 6: at most 2.0). BLUR_BELOW = 10 flags every sample blurred sigma 4
  or 6 and most at sigma 3, and none of the 99 photos as taken. What the recogniser reads of six
  samples (45 cards): sharp 45 read, sigma 1.5 32, sigma 2 25, sigma 3 15, sigma 4 4, sigma 6 5.
- Brightness (99th percentile of grey) of the photos as taken: samples 166-255, real 99-255.
  Darkened to 0.35 / 0.2 / 0.1 of their light: at most 89 / 51 / 25. The recogniser reads dim
  photos well (six samples, 45 cards: 0.35 all, 0.2 44, 0.1 42), so only a photo whose cards
  are no longer white is too dark: DARK_BELOW = 40 flags every photo at 0.1 and none as taken.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MEASURE_LONG_SIDE = 1024  # photos are measured at most this big (INTER_AREA): one scale for every camera
BLUR_BELOW = 10.0  # variance of the Laplacian under this: too blurred (see the module docstring)
# A photo whose grey varies less than this (standard deviation, 0..255) shows nothing at all (a lens
# cap, a blank wall): there is no sharpness to judge. The samples measure 32-80, blurred sigma 6 still 25+.
FLAT_BELOW = 4.0
DARK_BELOW = 40.0  # 99th percentile of grey under this: too dark (0..255)


@dataclass(frozen=True)
class PhotoQuality:
    """``sharpness``: variance of the Laplacian of the grey photo; ``brightness``: 99th percentile
    of its grey (0..255). ``advice`` asks for another photo when it is too dark or too blurred."""

    sharpness: float
    brightness: float
    contrast: float = 255.0  # standard deviation of the grey

    @property
    def too_dark(self) -> bool:
        return self.brightness < DARK_BELOW

    @property
    def too_blurred(self) -> bool:
        # a dark photo measures soft too: say dark; a photo of nothing has no sharpness to judge
        return not self.too_dark and self.contrast >= FLAT_BELOW and self.sharpness < BLUR_BELOW

    @property
    def advice(self) -> str | None:
        if self.too_dark:
            return (f"the photo is too dark to read the cards surely (brightness {self.brightness:.0f} of 255, "
                    f"{DARK_BELOW:.0f} or more needed): add light and take another photo")
        if self.too_blurred:
            return (f"the photo is too blurred to read the cards surely (sharpness {self.sharpness:.1f}, "
                    f"{BLUR_BELOW:.0f} or more needed): hold the camera still, let it focus, and take another photo")
        return None

    def as_json(self) -> dict:
        return {"sharpness": round(self.sharpness, 1), "brightness": round(self.brightness, 1),
                "contrast": round(self.contrast, 1),
                "too_blurred": self.too_blurred, "too_dark": self.too_dark, "advice": self.advice}


def assess_photo(pixels: np.ndarray) -> PhotoQuality:
    """The sharpness and brightness of BGR (or grey) ``pixels``."""
    grey = pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape[:2]
    scale = MEASURE_LONG_SIDE / max(height, width, 1)
    if scale < 1:
        grey = cv2.resize(grey, (max(1, round(width * scale)), max(1, round(height * scale))),
                          interpolation=cv2.INTER_AREA)
    sharpness = float(cv2.Laplacian(grey.astype(np.float32), cv2.CV_32F).var())
    return PhotoQuality(sharpness, float(np.percentile(grey, 99)), float(grey.std()))
