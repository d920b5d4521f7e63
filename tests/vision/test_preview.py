"""The live view's lighter path (issue 56, item 4): ``Recognizer.preview`` names the cards of a
preview frame with one detector pass in a rectangle of whole strides, and none of the steps that
only weigh doubts; the shutter's photo keeps ``recognize``."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.letterbox import Letterbox
from vision.model_config import ModelConfigError, read_models
from vision.pipeline import Recognizer

ROOT = Path(__file__).resolve().parents[2]
GUIDE_PHOTOS = sorted((ROOT / "sample_images").glob("hand*.jpg"))  # taken as the capture guide asks


def frame_of(path: Path, width: int, height: int) -> np.ndarray:
    """The photo as a camera's preview frame of ``width`` x ``height``: scaled to cover it, cut to it."""
    image = cv2.imread(str(path))
    scale = max(width / image.shape[1], height / image.shape[0])
    image = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                       interpolation=cv2.INTER_AREA)
    top, left = (image.shape[0] - height) // 2, (image.shape[1] - width) // 2
    return image[top:top + height, left:left + width]


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer(backend="onnxruntime")


def test_a_rectangle_of_whole_strides_around_the_frame():
    wide = Letterbox.fit(1280, 720, 640, rect=True)
    assert (wide.size, wide.height, wide.gain, wide.pad_left, wide.pad_top) == (640, 384, 0.5, 0, 12)
    assert wide.to_tensor(np.zeros((720, 1280, 3), np.uint8)).shape == (1, 3, 384, 640)
    boxes = np.array([[100, 200, 300, 500]], np.float32)
    placed = boxes * wide.gain + [wide.pad_left, wide.pad_top, wide.pad_left, wide.pad_top]
    assert np.allclose(wide.to_photo(placed, 1280, 720), boxes, atol=1e-3)
    tall = Letterbox.fit(720, 1280, 512, rect=True)
    assert (tall.size, tall.height) == (288, 512)
    assert Letterbox.fit(1280, 720, 640) == Letterbox(0.5, 0, 140, 640)  # square unless asked: as before


def test_the_shipped_detector_takes_the_preview_rectangle(recognizer):
    assert recognizer.models.preview_size == recognizer.detector_size == 640
    raw = recognizer.detector.run(np.zeros((1, 3, 384, 640), np.float32))
    assert raw.shape[2] == sum((384 // s) * (640 // s) for s in (8, 16, 32))


def test_preview_names_the_cards_the_whole_recognition_names(recognizer):
    """On the guide's photos as 16:9 and 4:3 preview frames, the same cards in the same places."""
    assert len(GUIDE_PHOTOS) >= 5
    for path in GUIDE_PHOTOS:
        for width, height in ((1280, 720), (1280, 960)):
            frame = frame_of(path, width, height)
            whole, light = recognizer.recognize(frame), recognizer.preview(frame)
            assert sorted(c.card for c in light.cards) == sorted(c.card for c in whole.cards), (path.name, width, height)
            placed = {c.card: c.box for c in whole.cards}
            for card in light.cards:
                assert np.abs(np.subtract(card.box, placed[card.card])).max() < 0.05 * width, (path.name, card.card)


def test_preview_runs_the_detector_once_in_the_rectangle_and_weighs_no_doubt(recognizer, monkeypatch):
    frame = frame_of(GUIDE_PHOTOS[0], 1280, 720)
    shapes, run = [], recognizer.detector.run
    monkeypatch.setattr(recognizer.detector, "run", lambda batch: shapes.append(batch.shape) or run(batch))
    monkeypatch.setattr(recognizer, "read_again", lambda *a: pytest.fail("the second reading ran"))
    monkeypatch.setattr(recognizer, "weigh", lambda *a: pytest.fail("the doubt model ran"))
    monkeypatch.setattr(recognizer, "second_look", lambda *a: pytest.fail("the second look ran"))
    result = recognizer.preview(frame)
    assert shapes == [(1, 3, 384, 640)] and result.cards
    assert result.ms["second_look"] == 0.0


def test_models_without_a_preview_size_preview_in_their_square(tmp_path, monkeypatch):
    folder = tmp_path / "models"
    shutil.copytree(ROOT / "models", folder, ignore=shutil.ignore_patterns("train"))
    config = json.loads((folder / "models.json").read_text())
    del config["detector"]["preview_imgsz"]
    (folder / "models.json").write_text(json.dumps(config))
    squared = Recognizer(folder, backend="onnxruntime")
    assert squared.models.preview_size is None
    shapes, run = [], squared.detector.run
    monkeypatch.setattr(squared.detector, "run", lambda batch: shapes.append(batch.shape) or run(batch))
    squared.preview(frame_of(GUIDE_PHOTOS[0], 1280, 720))
    assert shapes == [(1, 3, 640, 640)]


@pytest.mark.parametrize("value", [500, 0, "640", True, 16.0])
def test_a_preview_size_that_is_no_whole_number_of_strides_is_refused(tmp_path, value):
    folder = tmp_path / "models"
    folder.mkdir()
    config = json.loads((ROOT / "models" / "models.json").read_text())
    config["detector"]["preview_imgsz"] = value
    (folder / "models.json").write_text(json.dumps(config))
    with pytest.raises(ModelConfigError, match="preview_imgsz") as error:
        read_models(folder)
    assert "\n" not in str(error.value)


def test_the_recogniser_runs_the_declared_steps_in_turn(recognizer, monkeypatch):
    """``vision.pipeline.PHOTO_STEPS`` is what runs (issue 55 s2), in its order, each timed; a
    recogniser with the second look off skips that step."""
    from dataclasses import replace

    import vision.pipeline as pipeline

    ran = []

    def traced(steps):
        return tuple(replace(step, run=lambda r, f, step=step: ran.append(step.name) or step.run(r, f)) for step in steps)

    monkeypatch.setattr(pipeline, "PHOTO_STEPS", traced(pipeline.PHOTO_STEPS))
    monkeypatch.setattr(pipeline, "PREVIEW_STEPS", traced(pipeline.PREVIEW_STEPS))
    result = recognizer.recognize(str(GUIDE_PHOTOS[0]))
    assert ran == ["detect", "read", "second_look", "cards", "table", "amend", "read_again", "weigh"]
    assert set(result.ms) == {"decode", "infer", "second_look", "post"} and min(result.ms.values()) >= 0
    assert result.ms["infer"] > 0 and result.ms["post"] > 0
    ran.clear()
    Recognizer(backend="onnxruntime", look_again=False).recognize(str(GUIDE_PHOTOS[0]))
    assert "second_look" not in ran and ran[:2] == ["detect", "read"]
    ran.clear()
    recognizer.preview(frame_of(GUIDE_PHOTOS[0], 1280, 720))
    assert ran == ["detect_once", "read", "cards", "table"]
