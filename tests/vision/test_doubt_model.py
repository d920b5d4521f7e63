"""The doubt model (``vision.doubt``): a calibrated chance that each named card is right, the flag
under the models' threshold, the player's words for why, and the refit that gives the shipped model."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.doubt import FEATURES, DoubtModel, DoubtModelError, doubt_model_of, weigh
from vision.evidence import Evidence
from vision.model_config import models_dir
from vision.notices import Code, Notice
from vision.pipeline import shared_recognizer
from vision.results import RecognizedCard, Recognition

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"
SHIPPED = json.loads((models_dir(None) / "models.json").read_text())
MODEL = doubt_model_of(SHIPPED)

# A card read surely from both corners of a box of its own, as most cards on a table are.
# (read a second time as surely: the pipeline always sets ``again``, read or assumed to agree)
SURE = Evidence(reader=0.99, runner_up=0.002, index_score=0.8, card_score=0.9, corners=2, index_px=36.0, again=0.99)


def test_the_shipped_models_carry_a_doubt_model_with_its_provenance():
    assert MODEL is not None and 0.5 < MODEL.flag_below < 1.0
    assert MODEL.features == tuple(FEATURES)
    assert MODEL.provenance["evidence"] == "vision/train/frozen/doubt_evidence_halves.csv"
    assert "wrong" in MODEL.risk


@pytest.mark.parametrize("other", [
    {}, {"corners": 1}, {"card_score": 0.0}, {"index_score": 0.3}, {"index_px": 14.0}, {"runner_up": 0.2},
])
def test_the_chance_rises_with_the_readers_probability_all_else_equal(other):
    # it never falls; it rises over the reads cards get (a read far under them is held at the model's clip)
    chances = [MODEL.probability(replace(SURE, reader=r, **other)) for r in (0.3, 0.5, 0.7, 0.9, 0.97, 0.995)]
    assert all(a <= b for a, b in zip(chances, chances[1:])), chances
    assert chances[3] < chances[4] < chances[5], chances


def test_a_sure_read_with_one_corner_covered_is_not_doubted_for_it():
    one_corner = replace(SURE, corners=1)
    assert MODEL.probability(one_corner) >= MODEL.flag_below
    assert MODEL.probability(replace(SURE, reader=0.4, runner_up=0.35, corners=1, again=0.4)) < MODEL.flag_below


def test_the_words_say_what_pulls_the_chance_down():
    unsure = replace(SURE, reader=0.45, runner_up=0.4, again=0.45)
    assert MODEL.why(unsure) in ("reader_logit", "runner_up_logit", "again_logit")
    assert MODEL.why(replace(SURE, disputed=True, reader=0.7)) in ("disputed", "reader_logit")
    text = Notice(Code.DOUBTFUL, ("7D", 0.6234, "4D", "reader_logit")).text()
    assert text == "read as 7D, 62 % sure, or 4D: its index is hard to read; confirm this card"
    assert "99 %" in Notice(Code.DOUBTFUL, ("7D", 0.9999, None, "one_corner")).text()  # never a sure 100 %


def _recognition(*cards: RecognizedCard, warnings=()) -> Recognition:
    return Recognition("t", 1280, 960, cards, (), tuple(warnings))


def test_weigh_sets_the_chance_flags_under_the_threshold_and_replaces_the_reading_notices():
    sure = RecognizedCard("5H", 0.7, (0, 0, 10, 10), True, "5D", 0.01, replace(SURE, corners=1))
    unsure = RecognizedCard("7D", 0.3, (20, 0, 30, 10), True, "4D", 0.2,
                            replace(SURE, reader=0.45, runner_up=0.4, corners=1, again=0.45))
    named = RecognizedCard("QS", 1.0, (40, 0, 50, 10))  # named by the player: no evidence, left as it is
    old = (Notice(Code.ONE_CORNER, ("5H", 0.7, "5D", 0.01)), Notice(Code.LOW_CONFIDENCE, ("7D", 0.3, "4D", 0.2)),
           Notice(Code.SINGLE_CARD))
    weighed = weigh(_recognition(sure, unsure, named, warnings=old), MODEL)
    five, seven, queen = weighed.cards
    assert not five.confirm and five.confidence == pytest.approx(MODEL.probability(sure.evidence))
    assert seven.confirm and seven.confidence < MODEL.flag_below
    assert queen == named
    codes = [n.code for n in weighed.warnings]
    assert codes == [Code.SINGLE_CARD, Code.DOUBTFUL]
    assert weighed.warnings[1].args[:1] == ("7D",) and weighed.warnings[1].args[2] == "4D"
    assert 0 < seven.runner_up_confidence < 1 - seven.confidence + 1e-9
    # the player's threshold over the models'
    assert not weigh(_recognition(unsure), MODEL, flag_below=0.01).cards[0].confirm


def test_a_card_named_twice_stays_flagged_however_sure():
    a = RecognizedCard("5H", 0.9, (0, 0, 10, 10), False, None, 0.0, SURE)
    b = RecognizedCard("5H", 0.9, (50, 0, 60, 10), False, None, 0.0, SURE)
    weighed = weigh(_recognition(a, b, warnings=(Notice(Code.SEEN_TWICE, ("5H", 2)),)), MODEL)
    assert all(c.confirm for c in weighed.cards)
    assert [n.code for n in weighed.warnings] == [Code.SEEN_TWICE]


def test_a_bad_doubt_block_is_one_line_naming_it():
    block = MODEL.as_json()
    with pytest.raises(DoubtModelError, match="missing 'intercept'"):
        DoubtModel.from_json({k: v for k, v in block.items() if k != "intercept"})
    with pytest.raises(DoubtModelError, match="unknown feature 'shoe_size'"):
        DoubtModel.from_json({**block, "features": ["shoe_size", *block["features"][1:]]})
    with pytest.raises(DoubtModelError, match="flag_below"):
        DoubtModel.from_json({**block, "flag_below": 3})
    assert DoubtModel.from_json(block) == MODEL


def _truth(name: str) -> set[str]:
    return {c["card"] if isinstance(c, dict) else c for c in json.loads((SAMPLES / f"{name}.json").read_text())["cards"]}


def test_sure_reads_with_a_corner_covered_are_not_flagged_on_real_photos():
    """v10's rules flagged every card whose second corner was covered ('read from one corner
    only'): the real photo of six cards pushed into one overlapping row, and the scattered table
    whose four clubs show one corner each."""
    row = shared_recognizer().recognize(SAMPLES / "real_table_overlapping_row.jpg")
    assert {c.card for c in row.cards} == _truth("real_table_overlapping_row")
    assert not any(c.confirm for c in row.cards)
    assert not any("corner" in w or "sure" in w for w in row.warning_texts())
    scattered = shared_recognizer().recognize(SAMPLES / "real_table_scattered.jpg")
    one_corner = [c for c in scattered.cards if c.evidence.corners < 2 and c.card in _truth("real_table_scattered")]
    sure = [c for c in one_corner if c.confidence >= MODEL.flag_below]
    assert len(one_corner) >= 4 and len(sure) >= 3
    assert not any(c.confirm for c in sure)


def test_sure_reads_with_a_corner_covered_are_not_flagged_in_rendered_rows():
    for name, at_least in (("deal6_overlap_pen", 2), ("hard_fan_of_13", 10)):
        result = shared_recognizer().recognize(SAMPLES / f"{name}.jpg")
        one_corner = [c for c in result.cards if c.evidence.corners < 2 and c.card in _truth(name)]
        assert sum(not c.confirm for c in one_corner) >= at_least, name


WRONG = ROOT / "tests" / "fixtures" / "real_wrong" / "cardcounterml"


def test_wrong_reads_on_real_photos_stay_flagged_saying_how_sure():
    """Two real validation photos that models v10 read wrong (tests/fixtures/real_wrong): the
    black deck's QH read QS and a phantom 2C, a held KH read KD. Each wrong card is flagged and
    its notice gives its chance."""
    from vision.train.real_cards import load_photos

    photos = load_photos(WRONG)
    assert sorted(p.name for p in photos) == ["IMG_7840_JPG", "Kh-aaa31dd5-3990-11ed-84f1-ec2e98cc7ff6_jpg"]
    wrong_seen = 0
    for photo in photos:
        result = shared_recognizer().recognize(str(photo.image), photo.name)
        wrong = [c for c in result.cards if c.card not in photo.cards]
        assert wrong, photo.name  # still read wrong: otherwise this test proves nothing
        wrong_seen += len(wrong)
        for card in wrong:
            assert card.confirm and card.confidence < MODEL.flag_below
            assert any(w.startswith(f"read as {card.card}, {int(card.confidence * 100)} % sure") for w in result.warning_texts())
    assert wrong_seen == 3


def test_the_chance_is_what_the_json_and_the_cards_say():
    result = shared_recognizer().recognize(SAMPLES / "hand_starter_spread.jpg")
    for card, data in zip(result.cards, result.as_json()["cards"]):
        assert card.confidence == pytest.approx(MODEL.probability(card.evidence))
        assert data["confidence"] == pytest.approx(card.confidence, abs=1e-4)


def test_the_refit_of_the_committed_evidence_gives_the_shipped_model():
    pytest.importorskip("sklearn")
    from vision.train import doubt as fitting
    from vision.train.recipe import load_recipe

    recipe = load_recipe("v10")
    assert recipe.doubt is not None and recipe.doubt.evidence == MODEL.provenance["evidence"]
    table = ROOT / recipe.doubt.evidence
    assert recipe.doubt.tune_half == MODEL.provenance["half"] == "a"
    refit = fitting.fit_on_half(fitting.read_evidence(table), recipe.doubt.tune_half, recipe.doubt.risk)
    assert refit.reread_below == pytest.approx(MODEL.reread_below, abs=1e-6)
    assert refit.flag_below == pytest.approx(MODEL.flag_below, abs=1e-6)
    assert np.allclose(refit.coefficients, MODEL.coefficients, atol=1e-5)
    assert refit.intercept == pytest.approx(MODEL.intercept, abs=1e-5)
    assert np.allclose(refit.mean, MODEL.mean, atol=1e-5) and np.allclose(refit.scale, MODEL.scale, atol=1e-5)
    assert MODEL.provenance["evidence_sha256"] == fitting.evidence_digest(table)


def test_the_threshold_is_the_fewest_flags_within_the_risk():
    from vision.train.doubt import choose_threshold

    p = np.array([0.1, 0.2, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
    y = np.array([0, 1, 0, 1, 1, 1, 1, 1])
    assert choose_threshold(p, y, risk=0.0) == pytest.approx(0.65)  # both wrong cards flagged, no more
    assert choose_threshold(p, y, risk=1 / 8) == pytest.approx(0.15)  # one wrong card may stay
