"""The committed models (models/*.onnx) on the committed sample photos (sample_images/ with
their JSON sidecars), both runtimes, and a replay of recorded model outputs."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from infer_fixtures import cards_then_table
from test_layout import groups_touch
from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.config import DEFAULTS
from vision.decode import Photo, read_photo
from vision.read import read_logits
from vision.letterbox import Letterbox
from vision.pipeline import Recognizer
from vision.postprocess import postprocess

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"
RECORDED = Path(__file__).resolve().parent / "data" / "recorded_scene.npz"
RECORDED_SAMPLE = "deal6_overlap_pen"  # sidecar stem whose model outputs were recorded


def _sidecars():
    return sorted(SAMPLES.glob("*.json"))


def _truth(sidecar: Path):
    annotation = json.loads(sidecar.read_text())
    image = SAMPLES / Path(annotation.get("image") or sidecar.with_suffix(".jpg").name).name
    visible = {c["card"] for c in annotation["cards"] if any(i["visible"] for i in c["indices"])}
    present = {c["card"] for c in annotation["cards"]}
    groups = sorted((g["role"], tuple(sorted(c for c in g["cards"] if c in visible)))
                    for g in annotation["groups"])
    return image, annotation, visible, present, [g for g in groups if g[1]]


@pytest.fixture(scope="module")
def recognizers():
    return {backend: Recognizer(backend=backend) for backend in ("onnxruntime", "opencv")}


def test_there_are_sample_photos_with_sidecars_for_every_layout():
    """A small set (<= 19 photos of ~300 KB at most): what a player shoots following the capture
    guide first (by name), then the hard photos, named hard_..., then real photos (real_...,
    credited in sample_images/CREDITS.md as their CC BY 4.0 licence asks)."""
    layouts = {json.loads(p.read_text())["layout"] for p in _sidecars()}
    assert 15 <= len(_sidecars()) <= 19
    assert {"hand_starter", "two_hands_crib_starter", "deal6", "fan", "scatter", "real"} <= layouts
    names = [p.stem for p in _sidecars()]
    kinds = [2 if n.startswith("real_") else 1 if n.startswith("hard_") else 0 for n in names]
    assert kinds == sorted(kinds) and kinds.count(1) >= 4 and kinds.count(2) >= 3 and kinds.count(0) >= 8
    assert sorted(p.stem for p in SAMPLES.glob("*.jpg")) == names
    assert max(p.stat().st_size for p in SAMPLES.glob("*.jpg")) <= 330_000
    credits = (SAMPLES / "CREDITS.md").read_text()
    assert "CC BY 4.0" in credits and "cadyzedevelopmenthub" in credits
    for sidecar in _sidecars():
        if sidecar.stem.startswith("real_"):
            annotation = json.loads(sidecar.read_text())
            assert annotation["credit"].startswith("Card Detection dataset by cadyzedevelopmenthub")
            assert f"real_{sidecar.stem[5:]}.jpg" in credits


def test_sample_photos_are_read_by_the_committed_models(recognizers):
    """Card-level precision and recall over every sample photo, and the photos read exactly
    (every visible card, nothing else, and the sidecar's groups and roles). Measured with models
    v4 on the 18 samples (8 following the capture guide, 7 hard, 3 real): precision 116/122,
    recall 116/129, 6 photos exact, all with their groups (both 6-card deals, the large hand +
    starter; the fan under glare, the fan held in fingers and the court card close up); of the
    real photos the desk one reads none of its 3 cards (all cut by the frame), the black deck 1 of 2
    and one wrong, the table 7 of 9. With the issue-20 logic, on the 19 samples (a fourth real one:
    an overlapping row of 6, read exactly): 126 of 135 found, 5 wrong, 9 photos exact. Models v3 on the 15 rendered ones: 90/91, 90/115, 6 exact
    (v4 on them: 108/113 right, 108/115 found). The issue's target is every photo exact; these
    floors guard the pipeline around the committed models."""
    reported = right = visible_total = found = 0
    exact, cards_exact = [], []
    for sidecar in _sidecars():
        image, annotation, visible, present, groups = _truth(sidecar)
        result = recognizers["onnxruntime"].recognize(image)
        cards = {c.card for c in result.cards}
        reported, right = reported + len(cards), right + len(cards & present)
        visible_total, found = visible_total + len(visible), found + len(cards & visible)
        got = sorted((g.role, tuple(sorted(c for c in g.cards if c in visible))) for g in result.groups)
        if cards <= present and visible <= cards:
            cards_exact.append(sidecar.stem)
            if not annotation["groups"]:  # loose cards, one card close up: no groups to judge
                grouped = True
            elif groups_touch(annotation):  # overlapping groups: the reader must say it cannot split them
                grouped = any("neither a hand" in w or "cannot tell" in w or "unsure" in w for w in map(str, result.warnings))
            else:
                grouped = [g for g in got if g[1]] == groups
            if grouped:
                exact.append(sidecar.stem)
    assert right / reported >= 0.95 and found / visible_total >= 0.89, (right, reported, found, visible_total)
    assert len(cards_exact) >= 6 and len(exact) >= 6, (cards_exact, exact)


@pytest.mark.parametrize("sidecar", _sidecars()[:3], ids=lambda p: p.stem)
def test_onnxruntime_and_opencv_agree_on_the_committed_models(recognizers, sidecar):
    image = _truth(sidecar)[0]
    photo = read_photo(image)
    a, b = recognizers["onnxruntime"], recognizers["opencv"]
    letterbox = Letterbox.fit(photo.pixels.shape[1], photo.pixels.shape[0], a.detector_size)
    tensor = letterbox.to_tensor(photo.pixels)
    raw_a, raw_b = a.detector.run(tensor), b.detector.run(tensor)
    assert raw_a.shape == raw_b.shape
    assert np.abs(raw_a[0, 4:] - raw_b[0, 4:]).max() < 1e-3  # class scores
    assert np.abs(raw_a[0, :4] - raw_b[0, :4]).max() < 0.05  # box pixels
    ra, rb = a.recognize_photo(photo, str(image)), b.recognize_photo(photo, str(image))
    assert [c.card for c in ra.cards] == [c.card for c in rb.cards]
    assert np.allclose([c.confidence for c in ra.cards], [c.confidence for c in rb.cards], atol=2e-3)
    assert np.allclose([c.box for c in ra.cards], [c.box for c in rb.cards], atol=0.5)
    assert ra.groups == rb.groups


def test_recorded_model_outputs_replay_to_the_sidecar():
    """Post-processing only (no runtime): the recorded detector rows and classifier logits of
    one sample photo go through NMS, merging, outlines and layout to the sidecar's answer."""
    recorded = np.load(RECORDED)
    width, height = (int(v) for v in recorded["size"])
    letterbox = Letterbox.fit(width, height, int(recorded["imgsz"]))
    detect = DEFAULTS.detect
    detections = postprocess(recorded["raw"], letterbox, width, height, detect.candidate_score, detect.nms_iou,
                             detect.max_candidates)
    indices = read_logits(detections.of_class(INDEX_CLASS), recorded["logits"])
    photo = Photo(np.zeros((height, width, 3), np.uint8), width, height)
    result = cards_then_table(indices, detections.of_class(CARD_CLASS), photo, RECORDED_SAMPLE)
    _image, _annotation, visible, present, groups = _truth(SAMPLES / f"{RECORDED_SAMPLE}.json")
    assert visible <= {c.card for c in result.cards} <= present
    got = sorted((g.role, tuple(sorted(c for c in g.cards if c in visible))) for g in result.groups)
    assert [g for g in got if g[1]] == groups


def test_detections_match_ultralytics_predict_on_the_same_onnx(recognizers, monkeypatch, tmp_path):
    """Our letterbox, decoding and NMS give ultralytics' own boxes and scores for the model."""
    monkeypatch.setenv("YOLO_OFFLINE", "1")
    monkeypatch.setenv("YOLO_CONFIG_DIR", str(tmp_path))
    from ultralytics import YOLO

    recognizer = recognizers["onnxruntime"]
    # The photo already at the detector's scale: we shrink by averaging where ultralytics samples
    # bilinearly (vision/letterbox.py), so both must start from the same pixels to compare the rest.
    full = read_photo(_truth(_sidecars()[0])[0]).pixels
    gain = recognizer.detector_size / max(full.shape[:2])
    pixels = cv2.resize(full, (round(full.shape[1] * gain), round(full.shape[0] * gain)), interpolation=cv2.INTER_AREA)
    image = tmp_path / "at_detector_scale.png"
    cv2.imwrite(str(image), pixels)
    result = YOLO(str(recognizer.detector.path), task="detect").predict(
        str(image), imgsz=recognizer.detector_size, conf=0.25, iou=0.6, verbose=False)[0]
    theirs = sorted(zip(result.boxes.cls.numpy().astype(int).tolist(),
                        np.round(result.boxes.xyxy.numpy(), 1).tolist()))
    letterbox = Letterbox.fit(pixels.shape[1], pixels.shape[0], recognizer.detector_size)
    detections = postprocess(recognizer.detector.run(letterbox.to_tensor(pixels)), letterbox,
                             pixels.shape[1], pixels.shape[0], min_score=0.25, iou_threshold=0.6,
                             max_candidates=DEFAULTS.detect.max_candidates)
    ours = sorted(zip(detections.class_id.tolist(), np.round(detections.xyxy, 1).tolist()))
    assert len(ours) == len(theirs) > 0
    for (class_a, box_a), (class_b, box_b) in zip(ours, theirs):
        assert class_a == class_b and np.allclose(box_a, box_b, atol=1.0)
