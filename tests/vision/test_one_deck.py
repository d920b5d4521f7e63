"""One deck (``vision.one_deck``, weighed by ``vision.doubt.weigh``): a card's other readings leave
out the cards already elsewhere in the photo, and a code read twice says which read is likelier
wrong, on hand-built recognitions weighed by the shipped doubt model."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vision import one_deck
from vision.doubt import doubt_model_of, weigh
from vision.evidence import Evidence
from vision.model_config import models_dir
from vision.notices import Code, Notice
from vision.results import RecognizedCard, Recognition

MODEL = doubt_model_of(json.loads((models_dir(None) / "models.json").read_text()))
# (read a second time as surely: the pipeline always sets ``again``, read or assumed to agree)
SURE = Evidence(reader=0.99, runner_up=0.002, index_score=0.8, card_score=0.9, corners=2, index_px=36.0, again=0.99)
UNSURE = replace(SURE, reader=0.45, runner_up=0.4, corners=1, again=0.45)
WRONG = replace(SURE, reader=0.3, runner_up=0.28, corners=1, again=0.05, index_score=0.3)


def card(code, x, evidence=SURE, runner_up=None, read_again=()):
    return RecognizedCard(code, 0.5, (x, 0.0, x + 90.0, 130.0), False, runner_up, 0.0, evidence, read_again)


def weighed(*cards, warnings=()):
    return weigh(Recognition("t", 1280, 960, cards, (), tuple(warnings)), MODEL)


def test_an_alternative_already_on_the_table_is_never_offered():
    # the photo: KC read unsure, its runner-up 7C lying in the same hand
    got = weighed(card("KC", 0, UNSURE, "7C", (("7C", 0.3), ("4C", 0.2), ("KS", 0.1))), card("7C", 100))
    king = got.cards[0]
    assert king.confirm and king.runner_up == "4C"
    assert [code for code, _ in king.alternatives] == ["4C", "KS"]
    assert "7C" not in str(got.warnings[0]) and "or 4C" in str(got.warnings[0])
    assert sum(p for _, p in king.alternatives) <= 1 - king.confidence + 1e-9
    # with nothing else in the photo the 7C is offered, first
    alone = weighed(card("KC", 0, UNSURE, "7C", (("7C", 0.3), ("4C", 0.2), ("KS", 0.1)))).cards[0]
    assert alone.runner_up == "7C" and [c for c, _ in alone.alternatives] == ["7C", "4C", "KS"]
    # the JSON carries them for a flagged card
    assert king.as_json()["alternatives"] == [[c, round(p, 4)] for c, p in king.alternatives]


def test_a_card_read_once_keeps_its_runner_up_shared_as_the_reader_shares_it():
    # no second reading: the runner-up alone, at its share of what the first read left
    [alone] = weighed(card("7D", 0, UNSURE, "4D")).cards
    assert alone.alternatives == (("4D", pytest.approx((1 - alone.confidence) * 0.4 / 0.55)),)
    # every other reading already on the table: none offered
    [seven, four] = weighed(card("7D", 0, UNSURE, "4D"), card("4D", 100)).cards
    assert seven.runner_up is None and seven.alternatives == () and seven.confirm


def test_a_card_read_twice_says_which_read_is_likelier_wrong():
    sure = card("7C", 500, SURE)
    unsure = card("7C", 0, WRONG, "8C", (("8C", 0.3), ("7S", 0.1)))
    got = weighed(sure, unsure, warnings=(Notice(Code.SEEN_TWICE, ("7C", 2)),))
    right, wrong = got.cards
    alone_sure = MODEL.probability(SURE)
    alone_unsure = MODEL.probability(WRONG)
    assert (right.confidence, wrong.confidence) == pytest.approx(one_deck.read_twice(alone_sure, alone_unsure))
    assert wrong.confidence < alone_unsure and wrong.confidence < right.confidence  # both cannot be right
    assert wrong.confirm and not right.confirm
    assert [n.code for n in got.warnings] == [Code.READ_TWICE]  # in place of "seen twice"
    assert str(got.warnings[0]) == ("7C read twice: the one at the left is likelier wrong "
                                    f"({min(99, int(wrong.confidence * 100))} % sure); it may be 8C or 7S; "
                                    "confirm or correct it")
    assert "7C" not in dict(wrong.alternatives)
    # two reads as sure as each other: both flagged, neither said likelier wrong
    even = weighed(card("7C", 500), card("7C", 0), warnings=(Notice(Code.SEEN_TWICE, ("7C", 2)),))
    assert all(c.confirm for c in even.cards) and [n.code for n in even.warnings] == [Code.SEEN_TWICE]


def test_where_a_read_lies_against_the_other():
    assert one_deck.where((0, 0, 10, 10), (50, 0, 60, 10)) == "left"
    assert one_deck.where((50, 0, 60, 10), (0, 0, 10, 10)) == "right"
    assert one_deck.where((0, 0, 10, 10), (0, 50, 10, 60)) == "top"
    assert one_deck.where((0, 90, 10, 100), (0, 0, 10, 10)) == "bottom"
