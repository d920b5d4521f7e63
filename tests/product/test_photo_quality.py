"""A photo too blurred or too dark to read: a measured sharpness and brightness test asks for
another photo (issue 36 section 3), in the CLI and in the result data the app shows; the sharp
sample photos never get that advice."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.photo import count_show
from vision import read_photo
from vision.photo_quality import BLUR_BELOW, DARK_BELOW, assess_photo

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_images").glob("*.jpg"))
PAPERS = ROOT / "sample_images" / "hand_starter_papers.jpg"


def blurred(path: Path, sigma: float = 6.0) -> np.ndarray:
    return cv2.GaussianBlur(read_photo(path).pixels, (0, 0), sigma)


def darkened(path: Path, light: float = 0.08) -> np.ndarray:
    return (read_photo(path).pixels.astype(np.float32) * light).astype(np.uint8)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_a_sharp_sample_gets_no_advice_and_blurred_or_darkened_it_does(path):
    sharp = assess_photo(read_photo(path).pixels)
    assert sharp.advice is None and sharp.sharpness >= BLUR_BELOW and sharp.brightness >= DARK_BELOW
    blur = assess_photo(blurred(path))
    assert blur.too_blurred and "too blurred" in blur.advice and "take another photo" in blur.advice
    dark = assess_photo(darkened(path))
    assert dark.too_dark and not dark.too_blurred and "too dark" in dark.advice


def test_the_count_of_a_blurred_photo_asks_for_another_photo(tmp_path, capsys):
    shown = count_show(blurred(PAPERS))
    assert shown.quality.too_blurred and shown.warnings[0] == shown.advice
    assert shown.as_json()["photo_quality"]["too_blurred"] is True
    sharp = count_show(PAPERS)
    assert sharp.quality is not None and sharp.advice is None
    assert "photo_quality" in sharp.as_json() and sharp.as_json()["photo_quality"]["advice"] is None
    picture = tmp_path / "blurred.png"
    cv2.imwrite(str(picture), blurred(PAPERS))
    assert main(["show", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "warning: the photo is too blurred to read the cards surely" in out and "take another photo" in out
    assert main(["recognize", str(picture)]) == 0
    assert "warning: the photo is too blurred to read the cards surely" in capsys.readouterr().out
    assert json.loads(json.dumps(shown.as_json()))["warnings"][0].startswith("the photo is too blurred")


def test_a_photo_of_nothing_is_not_called_blurred():
    flat = assess_photo(np.full((480, 640, 3), 60, np.uint8))
    assert flat.sharpness == 0 and flat.advice is None


def test_a_dark_photo_is_said_too_dark_not_blurred(tmp_path, capsys):
    picture = tmp_path / "dark.png"
    cv2.imwrite(str(picture), darkened(PAPERS))
    assert main(["recognize", str(picture)]) == 0
    out = capsys.readouterr().out
    assert "warning: the photo is too dark to read the cards surely" in out and "blurred" not in out
