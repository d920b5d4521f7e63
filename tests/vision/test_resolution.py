"""Resolution does not decide: the same photo at 480, 1000, 2000 and 4000 px on its long side gives
the same cards (real validation photos and renders, through JPEG decoding as a phone's photo)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pipeline import shared_recognizer
from vision.synth.scene import render_scene
from vision.train.real_cards import photos_of

LONG_SIDES = (480, 1000, 2000, 4000)


def at_long_side(pixels: np.ndarray, long_side: int) -> bytes:
    h, w = pixels.shape[:2]
    factor = long_side / max(h, w)
    size = (round(w * factor), round(h * factor))
    resized = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", resized, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return data.tobytes()


def cards_at_every_size(pixels: np.ndarray) -> dict[int, list[str]]:
    recognizer = shared_recognizer()
    return {side: sorted(c.card for c in recognizer.recognize(at_long_side(pixels, side), f"{side}px").cards)
            for side in LONG_SIDES}


def _first_val_photo_of_each_family():
    chosen = {}
    for photo in photos_of("val"):
        if photo.family != "crops" and len(photo.cards) >= 2 and photo.family not in chosen:
            chosen[photo.family] = photo
    return [chosen[f] for f in sorted(chosen)]


@pytest.mark.parametrize("photo", _first_val_photo_of_each_family(), ids=lambda p: p.name)
def test_real_photo_reads_the_same_at_every_size(photo):
    found = cards_at_every_size(cv2.imread(str(photo.image)))
    assert len(set(map(tuple, found.values()))) == 1, found
    assert found[1000], "no card read at all"


@pytest.mark.parametrize("seed", [9_300_001, 9_300_002])
def test_render_reads_the_same_at_every_size(seed):
    image, annotation = render_scene(seed, size=(1280, 960), mix="v3", layout="hand_starter")
    found = cards_at_every_size(image)
    assert len(set(map(tuple, found.values()))) == 1, found
    visible = {c["card"] for c in annotation["cards"] if any(i["visible"] for i in c["indices"])}
    assert set(found[1000]) <= {c["card"] for c in annotation["cards"]} and set(found[1000]) & visible
