"""bench/real_photos.py counts what a player feels: right cards flagged, taps owed per photo and
photos with no tap, beside precision and recall."""

import pytest

from vision.results import RecognizedCard, Recognition


@pytest.fixture(scope="module")
def real_photos(bench_module):
    return bench_module("real_photos")


class _Photo:
    def __init__(self, cards, family="table", name="p"):
        self.cards, self.family, self.name = frozenset(cards), family, name


def _result(*cards, unread=0):
    named = tuple(RecognizedCard(code, 0.9, (0, 0, 1, 1), flagged) for code, flagged in cards)
    return Recognition("p", 640, 640, named, (), (), {"infer": 1.0}, ((0, 0, 1, 1),) * unread)


def test_a_tap_for_each_flag_each_wrong_card_let_through_and_each_missed_card_or_unread_box(real_photos):
    assert real_photos.taps(flagged=2, wrong_unflagged=1, missed=3, unread=1) == 6
    assert real_photos.taps(0, 0, 1, 2) == 2  # an unread box is the missed card: one tap, not two
    clean = real_photos.judge(_result(("5H", False), ("6H", False)), _Photo({"5H", "6H"}))
    flagged_right = real_photos.judge(_result(("5H", True), ("6H", False)), _Photo({"5H", "6H"}))
    wrong_through = real_photos.judge(_result(("5H", False), ("7H", False)), _Photo({"5H", "6H"}, "poker", "q"))
    assert (clean["taps"], flagged_right["taps"], wrong_through["taps"]) == (0, 1, 2)
    t = real_photos.totals([clean, flagged_right, wrong_through])
    assert (t["right_flagged"], t["wrong_unflagged"], t["taps"], t["no_tap"]) == (1, 1, 3, 1)
    assert t["right_flagged_share"] == pytest.approx(1 / 5) and t["taps_per_photo"] == pytest.approx(1.0)
    line = real_photos.summary_line([clean, flagged_right, wrong_through], "x")
    assert "right cards flagged 1 (20.0%), wrong unflagged 1, taps per photo 1.00, photos with no tap 1/3" in line
