"""bench/misses.py: which stage lost a missed card, from the read index boxes on its visible indices."""

import cv2
import numpy as np
import pytest

from vision.classes import CARD_INDEX
from vision.detections import Detections


@pytest.fixture(scope="module")
def misses(bench_module):
    return bench_module("misses")


def _reads(*rows):
    """Index rows: (box, box score, card read, reader probability, runner-up)."""
    return Detections(np.array([r[0] for r in rows], np.float32), np.array([r[1] for r in rows]),
                      np.zeros(len(rows), np.int64), card_id=np.array([CARD_INDEX[r[2]] for r in rows]),
                      card_confidence=np.array([r[3] for r in rows]),
                      runner_up_id=np.array([CARD_INDEX[r[4]] for r in rows]),
                      runner_up_confidence=np.full(len(rows), 0.1))


INDEX = [100, 100, 120, 140]  # a visible index of the missed card


@pytest.mark.parametrize("rows, lost", [
    ([], "not detected"),
    ([([300, 300, 320, 340], 0.9, "5H", 0.99, "6H")], "not detected"),  # a box elsewhere
    ([([114, 100, 134, 140], 0.9, "5H", 0.99, "6H")], "not detected"),  # covers 30 %: not a reading of it
    ([([104, 102, 122, 141], 0.6, "6H", 0.7, "5H")], "misread (runner-up right)"),
    ([([104, 102, 122, 141], 0.6, "6H", 0.7, "9C")], "misread"),
    ([([104, 102, 122, 141], 0.3, "5H", 0.8, "6H")], "read right, dropped (sure)"),
    ([([104, 102, 122, 141], 0.3, "5H", 0.3, "6H")], "read right, dropped (unsure)"),
    # the box covering the index best speaks for it, not a better-scored one beside it
    ([([110, 100, 130, 140], 0.9, "6H", 0.99, "9C"), ([100, 100, 120, 140], 0.3, "5H", 0.6, "6H")],
     "read right, dropped (sure)"),
])
def test_the_stage_that_lost_a_card(misses, rows, lost):
    kind, found = misses.where_lost("5H", [INDEX], _reads(*rows) if rows else Detections.empty())
    assert kind == lost
    assert (found == {}) == (kind == "not detected")


def test_losses_counts_only_visible_cards_not_reported(misses):
    from vision.results import RecognizedCard, Recognition

    reported = RecognizedCard("2C", 0.9, (0, 0, 10, 10), False, None, 0.0)
    recognition = Recognition("scene", 640, 480, (reported,), (), ())
    annotation = {"cards": [
        {"card": "2C", "indices": [{"box": [0, 0, 10, 10], "visible": True}]},  # reported
        {"card": "3D", "indices": [{"box": [50, 50, 60, 70], "visible": False}]},  # no visible index
        {"card": "5H", "indices": [{"box": INDEX, "visible": True}, {"box": [0, 0, 0, 0], "visible": False}]},
    ]}
    item = {"name": "scene", "family": "fan", "recognition": recognition, "annotation": annotation,
            "indices": _reads(([104, 102, 122, 141], 0.6, "6H", 0.7, "5H"))}
    rows = misses.losses([item])
    assert [(r["card"], r["lost"], r["read"], r["index_px"]) for r in rows] == [("5H", "misread (runner-up right)", "6H", 40)]


def test_a_missed_card_says_how_much_of_its_index_shows(misses, capsys):
    from vision.results import Recognition

    annotation = {"cards": [
        {"card": "5H", "indices": [{"box": INDEX, "visible": True, "shown": 0.62},
                                   {"box": [200, 200, 220, 240], "visible": True, "shown": 0.9}]},
        {"card": "7C", "indices": [{"box": [300, 300, 320, 340], "visible": True, "shown": 0.56},
                                   {"box": [0, 0, 0, 0], "visible": False, "shown": 0.0}]},
        {"card": "9D", "indices": [{"box": [400, 400, 420, 440], "visible": True}]},  # an annotation without shares
    ]}
    item = {"name": "scene", "family": "fan", "recognition": Recognition("scene", 640, 480, (), (), ()),
            "annotation": annotation, "indices": Detections.empty()}
    rows = misses.losses([item])
    assert [(r["card"], r["shown"]) for r in rows] == [("5H", 0.9), ("7C", 0.56), ("9D", None)]
    misses.report(rows, 3, verbose=False)
    assert "share of the index showing, median: not detected 0.73" in capsys.readouterr().out


def test_the_bench_render_gives_index_shares_with_the_same_pixels(bench_module):
    from vision.synth import render_scene

    bench = bench_module("vision")
    spec = {"seed": 9_000_003, "layout": "fan", "table_conventions": False, "kind": "hard"}
    jpeg, annotation = bench._render((spec, None, "v4", bench.SIZE))
    image, plain = render_scene(9_000_003, size=bench.SIZE, layout="fan", table_conventions=False, mix="v4")
    shares = [i["shown"] for c in annotation["cards"] for i in c["indices"]]
    assert shares and all(0.0 <= s <= 1.0 for s in shares)
    from vision.synth.scene import VISIBLE_FRACTION

    in_frame = [i for c in annotation["cards"] for i in c["indices"] if i["box"] != [0.0, 0.0, 0.0, 0.0]]
    assert all((i["shown"] >= VISIBLE_FRACTION) == i["visible"] for i in in_frame)
    assert [c["card"] for c in annotation["cards"]] == [c["card"] for c in plain["cards"]]
    ok, again = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert again.tobytes() == jpeg
