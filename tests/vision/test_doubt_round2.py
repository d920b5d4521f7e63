"""The doubt model, round 2 (issue 54): tuned on half of the real validation photos, told what the
photo says about itself (dark, tinted, grainy, blurred), safe on photos made worse, and saying so."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.doubt import PHOTO_WHY, DoubtModel, PhotoLimits, doubt_model_of, weigh
from vision.evidence import Evidence
from vision.model_config import models_dir
from vision.notices import Code, DOUBT_WHY, PHOTO_ADVICE
from vision.pipeline import shared_recognizer
from vision.results import Recognition, RecognizedCard
from vision.train.doubt_halves import HALVES_FILE, TUNES, deal, read_halves, HalvesError
from vision.train.doubt_looks import LOOKS, UnknownLookError, looked

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"
MODEL = doubt_model_of(json.loads((models_dir(None) / "models.json").read_text()))
SURE = Evidence(reader=0.999, runner_up=0.001, index_score=0.85, card_score=0.9, corners=2, index_px=36.0,
                again=0.999, ink_red=0.0, sharpness=0.3, ground=220.0, contrast=200.0, cast=0.05, noise=0.01,
                photo_ground=220.0, photo_sharpness=0.3, others=0.99)


def _truth(name: str) -> set[str]:
    return {c["card"] for c in json.loads((SAMPLES / f"{name}.json").read_text())["cards"]}


def _darkened_as_imagemagick_does(pixels: np.ndarray) -> np.ndarray:
    # convert IN -brightness-contrast -50x0 OUT: every level down by half of 255 (slope 1, intercept -0.5),
    # saved as JPEG at ImageMagick's default quality
    dark = np.clip(pixels.astype(np.float32) - 127.5, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", dark, [cv2.IMWRITE_JPEG_QUALITY, 92])[1], cv2.IMREAD_COLOR)


def test_the_shipped_doubt_model_is_tuned_on_half_a_and_weighs_what_the_photo_says():
    assert MODEL.provenance["half"] == TUNES == "a"
    assert "every look" in MODEL.risk
    for name in ("photo_log_ground", "photo_log_sharpness", "cast", "log_noise", "others_logit", "log_contrast"):
        assert name in MODEL.features and name in DOUBT_WHY


def test_the_darkened_sample_leaves_no_wrong_card_unflagged_and_says_it_is_too_dark():
    pixels = cv2.imread(str(SAMPLES / "hands_crib_starter_rows.jpg"))
    dark = _darkened_as_imagemagick_does(pixels)
    assert pixels.mean() > 150 and dark.mean() < 40  # as the issue measured: 154 -> 38
    result = shared_recognizer().recognize(dark, "dark")
    truth = _truth("hands_crib_starter_rows")
    assert result.cards, "nothing read in the darkened photo"
    assert [c.card for c in result.cards if c.card not in truth and not c.confirm] == []
    assert all(c.confirm for c in result.cards)  # too dark to trust: every card asked
    advice = [n for n in result.warnings if getattr(n, "code", None) == Code.PHOTO_ADVICE]
    assert advice and advice[0].args[0] == "dark"
    assert "too dark to trust: more light, or the flash" in str(advice[0])


@pytest.mark.parametrize("name", sorted(p.stem for p in SAMPLES.glob("*.jpg")))
def test_no_sample_photo_as_taken_is_told_it_is_too_dark(name):
    result = shared_recognizer().recognize(str(SAMPLES / f"{name}.jpg"))
    assert not [n for n in result.warnings if getattr(n, "code", None) == Code.PHOTO_ADVICE]


def test_a_sure_read_in_a_dark_photo_is_less_sure_than_the_same_read_in_a_bright_one():
    dark = replace(SURE, ground=40.0, contrast=35.0, photo_ground=40.0)
    assert MODEL.probability(dark) < MODEL.probability(SURE)


LIMITS = PhotoLimits(dark_below=80.0)


def _model(limits: PhotoLimits | None = LIMITS) -> DoubtModel:
    names = ("reader_logit", "photo_log_ground")
    return DoubtModel(names, (5.0, -0.3), (1.0, 0.3), (1.0, 1.0), 3.0, 0.9, limits=limits)


def _recognition(*evidence: Evidence) -> Recognition:
    cards = tuple(RecognizedCard(code, e.reader, (10.0 * k, 0, 10.0 * k + 8, 10), evidence=e)
                  for k, (code, e) in enumerate(zip(("5H", "6C", "7D", "8S"), evidence)))
    return Recognition("photo", 640, 480, cards, (), ())


def _advice(recognition: Recognition) -> list:
    return [n for n in recognition.warnings if n.code == Code.PHOTO_ADVICE]


def test_a_photo_past_its_limits_with_a_card_doubtful_says_what_to_do_and_asks_every_card():
    what = "dark"
    bad = replace(SURE, ground=40.0)
    unsure = replace(bad, reader=0.2)
    weighed = weigh(_recognition(bad, unsure, bad), _model())
    advice = _advice(weighed)
    assert [n.args for n in advice] == [(what, 1, 3)]
    assert str(advice[0]) == f"the photo is {PHOTO_ADVICE[what]} (1 of 3 cards doubtful in it); take another"
    # too dark (or blurred) to trust: no card of it passes because the reader is sure of it
    assert all(c.confirm for c in weighed.cards)
    said = [n for n in weighed.warnings if n.code == Code.DOUBTFUL]
    assert len(said) == 3 and {n.args[3] for n in said if n.args[0] != "6C"} == {PHOTO_WHY[what]}


def test_a_bad_photo_with_every_card_sure_or_a_good_one_with_a_doubt_gets_no_advice():
    dark = replace(SURE, ground=40.0)
    calm = weigh(_recognition(dark, dark), _model())
    assert not _advice(calm) and not any(c.confirm for c in calm.cards)  # nothing doubtful: nothing to redo
    assert not _advice(weigh(_recognition(SURE, replace(SURE, reader=0.2)), _model()))  # the photo is fine
    assert not _advice(weigh(_recognition(dark, replace(dark, reader=0.2)), _model(None)))  # no limits shipped


def test_the_shipped_limits_are_measured_and_round_trip():
    assert MODEL.limits is not None and 0 < MODEL.limits.dark_below < 255
    assert DoubtModel.from_json(MODEL.as_json()).limits == MODEL.limits


def test_a_card_read_again_only_when_the_second_reading_could_change_its_flag():
    assert MODEL.flag_below <= MODEL.reread_below < 1.0
    assert not MODEL.needs_reading(SURE)
    assert MODEL.needs_reading(replace(SURE, reader=0.6, corners=1))
    every = replace(MODEL, reread_below=1.0)
    assert every.needs_reading(SURE)


def test_a_feature_not_measured_pulls_neither_way():
    alone = replace(SURE, others=-1.0, cast=-1.0)
    terms = dict(zip(MODEL.features, MODEL.terms(alone)))
    assert terms["others_logit"] == 0.0 and terms["cast"] == 0.0


@pytest.mark.parametrize("look", [look for look in LOOKS if look != "as_taken"])
def test_each_look_makes_the_photo_worse_the_same_way_every_time(look):
    pixels = cv2.imread(str(SAMPLES / "hand_starter_spread.jpg"))
    once, again = looked(pixels, look, "p", 1), looked(pixels, look, "p", 1)
    assert np.array_equal(once, again) and once.dtype == np.uint8 and once.shape[2] == 3
    assert not np.array_equal(once, looked(pixels, look, "p", 2)) or look == "recompressed"
    assert once.shape != pixels.shape or not np.array_equal(once, pixels)


def test_the_darker_looks_are_darker_and_an_unknown_look_is_refused():
    pixels = cv2.imread(str(SAMPLES / "hand_starter_spread.jpg"))
    for look in ("dark", "dim"):
        assert looked(pixels, look, "p").mean() < pixels.mean() - 60
    assert looked(pixels, "as_taken", "p") is pixels
    with pytest.raises(UnknownLookError, match="unknown look 'foggy'"):
        looked(pixels, "foggy", "p")


class _Photo:
    def __init__(self, name, family):
        self.name, self.family, self.corners = name, family, ()


def test_the_halves_are_dealt_by_photo_alternately_within_each_family():
    photos = [_Photo(f"{family}{k}", family) for family, n in (("poker", 9), ("black", 4), ("table", 3))
              for k in range(n)]
    halves = deal(photos)
    assert set(halves) == {p.name for p in photos}
    for family, n in (("poker", 9), ("black", 4), ("table", 3)):
        got = [halves[p.name] for p in photos if p.family == family]
        assert abs(got.count("a") - got.count("b")) <= 1 and got.count("a") >= got.count("b")
    assert deal(list(reversed(photos))) == halves  # the order photos come in does not matter


def test_the_committed_halves_split_the_431_validation_photos_evenly(tmp_path):
    halves = read_halves()
    assert len(halves) == 431
    assert abs(list(halves.values()).count("a") - list(halves.values()).count("b")) <= 1
    bad = tmp_path / "halves.txt"
    bad.write_text("a one\nc two\n")
    with pytest.raises(HalvesError, match=":2: expected 'a NAME' or 'b NAME'"):
        read_halves(bad)
    with pytest.raises(HalvesError, match="no halves file"):
        read_halves(tmp_path / "none.txt")
    assert HALVES_FILE.name == "real_val_halves.txt"


@pytest.mark.real_photos("cardcounterml")
def test_the_halves_hold_every_validation_photo_that_shows_cards():
    from vision.train.real_sets import real_photos_of

    names = {p.name for p in real_photos_of("val") if p.family != "crops" and p.cards}
    assert names == set(read_halves())


def test_the_swap_comes_from_one_command_and_the_shipped_model_is_its_half_a_fit():
    pytest.importorskip("sklearn")
    import importlib.util

    spec = importlib.util.spec_from_file_location("doubt_halves_bench", ROOT / "bench" / "doubt_halves.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = io.StringIO()
    with redirect_stdout(out):
        assert bench.main([]) == 0
    text = out.getvalue()
    for line in ("Judged on half b (photos as taken), tuned on half a", "Judged on half a (photos as taken), tuned on half b",
                 "Every validation photo, each judged by the model tuned on the other half", "The degradation check"):
        assert line in text
    assert "both halves: right cards flagged" in text
    from vision.train import doubt as fitting

    refit = fitting.fit_on_half(fitting.read_evidence(bench.EVIDENCE), "a")
    assert refit.flag_below == pytest.approx(MODEL.flag_below, abs=1e-6)
    assert np.allclose(refit.coefficients, MODEL.coefficients, atol=1e-5)
    assert MODEL.provenance["evidence_sha256"] == fitting.evidence_digest(bench.EVIDENCE)
