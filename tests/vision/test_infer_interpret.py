"""Interpreting reads: weak or stray evidence, disputed corners, reads too unsure to name, the
box assignment, and where the detector looks again closer (exact synthetic detections)."""

import numpy as np
import pytest

from infer_fixtures import cards_then_table, detections_for, table
from vision.classes import CARD_INDEX, INDEX_CLASS
from vision.decode import photo_from_array
from vision.detections import Detections
from vision.config import DEFAULTS, CalibrationError, from_models_json
from vision.notices import Code


def test_a_doubtful_index_with_no_card_around_it_is_said_not_counted():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    stray = Detections([[1000, 800, 1013, 830]], [0.32], [INDEX_CLASS], [CARD_INDEX["KS"]], [0.97],
                       [CARD_INDEX["KC"]], [0.01])
    photo = photo_from_array(np.zeros((960, 1280, 3), np.uint8))
    result = cards_then_table(Detections.concatenate([indices, stray]), cards, photo, "stray")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert any("ignored a corner index read as KS with no card around it" in w for w in map(str, result.warnings))
    sure = Detections(stray.xyxy, [0.9], [INDEX_CLASS], [CARD_INDEX["KS"]], [0.97], [CARD_INDEX["KC"]], [0.01])
    result = cards_then_table(Detections.concatenate([indices, sure]), cards, photo, "sure")
    assert "KS" in [c.card for c in result.cards]  # a clear index is a card even without its box


def test_two_corners_of_one_card_that_disagree_make_one_card_to_confirm():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    row = 2 * codes.index("5S") + 1  # the bottom-right corner of 5S reads 6S, less surely
    card_id, card_conf = indices.card_id.copy(), indices.card_confidence.copy()
    card_id[row], card_conf[row] = CARD_INDEX["6S"], 0.7
    misread = indices.with_cards(card_id, card_conf, indices.runner_up_id, indices.runner_up_confidence)
    result = cards_then_table(misread, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "misread")
    assert sorted(c.card for c in result.cards) == sorted(codes)  # no phantom 6S
    five = result.card("5S")
    assert five.confirm and five.runner_up == "6S"
    assert any("read 5S and 6S" in w for w in map(str, result.warnings))
    hand = next(g for g in result.groups if g.role == "hand")
    assert sorted(hand.cards) == ["5C", "5H", "5S", "JD"]


def test_a_read_too_unsure_to_name_is_an_unread_card_with_its_guess():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    photo = photo_from_array(np.zeros((960, 1280, 3), np.uint8))
    five = codes.index("5C")
    card_id, card_conf = indices.card_id.copy(), indices.card_confidence.copy()
    card_id[[2 * five, 2 * five + 1]] = CARD_INDEX["7C"]  # both corners of 5C read 7C, barely
    card_conf[[2 * five, 2 * five + 1]] = DEFAULTS.interpret.read_floor * 0.5
    unsure = indices.with_cards(card_id, card_conf, indices.runner_up_id, indices.runner_up_confidence)
    result = cards_then_table(unsure, cards, photo, "unsure")
    assert sorted(c.card for c in result.cards) == sorted(set(codes) - {"5C"})  # neither 7C nor 5C
    assert len(result.unread_boxes) == 1 and np.allclose(result.unread_boxes[0], card_boxes[five])
    assert any("no readable index (best guess 7C" in w and "check it" in w for w in map(str, result.warnings))
    hand = next(g for g in result.groups if g.role == "hand")  # still a hand: 3 read + 1 unread
    assert sorted(hand.cards) == ["5H", "5S", "JD"]
    # Just above the floor the read is a card, flagged for the player to confirm.
    card_conf[[2 * five, 2 * five + 1]] = DEFAULTS.interpret.read_floor * 1.2
    named = cards_then_table(indices.with_cards(card_id, card_conf, indices.runner_up_id, indices.runner_up_confidence),
                      cards, photo, "named")
    assert named.card("7C").confirm and named.unread_boxes == ()
    # A model calibrated with a higher floor (models.json "calibration") leaves that read unnamed.
    floor = from_models_json({"calibration": {"measured": "docs/TUNING.md",
                                              "interpret": {"read_floor": DEFAULTS.interpret.read_floor * 1.5}}})
    raised = cards_then_table(indices.with_cards(card_id, card_conf, indices.runner_up_id, indices.runner_up_confidence),
                       cards, photo, "raised", settings=floor)
    assert raised.card("7C") is None and len(raised.unread_boxes) == 1


def test_a_calibration_names_only_values_recognition_has():
    config = from_models_json({"calibration": {"layout": {"complete_sizes": [1, 4]}, "detect": {"max_tiles": 4}}})
    assert config.layout.complete_sizes == (1, 4) and config.detect.max_tiles == 4
    assert config.interpret == DEFAULTS.interpret and from_models_json({}) == DEFAULTS
    with pytest.raises(CalibrationError, match="unknown value interpret.read_flor"):
        from_models_json({"calibration": {"interpret": {"read_flor": 0.3}}})
    with pytest.raises(CalibrationError, match="unknown step 'reader'"):
        from_models_json({"calibration": {"reader": {"recheck_below": 0.9}}})


def test_an_unsure_stray_read_on_a_card_read_otherwise_is_said_and_ignored():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    x1, y1, x2, y2 = card_boxes[codes.index("5S")]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    pip = Detections([[cx - 8, cy - 12, cx + 8, cy + 12]], [0.4], [INDEX_CLASS], [CARD_INDEX["9D"]],
                     [0.2], [CARD_INDEX["9H"]], [0.1])  # a pip in the middle of 5S, read 9D at 0.08
    result = cards_then_table(Detections.concatenate([indices, pip]), cards,
                       photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "pip")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert result.unread_boxes == ()
    assert any("ignored an unsure corner read (9D, 0.08)" in w for w in map(str, result.warnings))


def test_an_index_over_a_neighbours_box_is_not_taken_for_a_misread():
    codes, card_boxes, index_boxes, _ = table("fan")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    missing_box = codes.index("2S")  # the detector misses 2S's box; its indices lie over 3S's box
    result = cards_then_table(indices, cards[np.arange(len(cards)) != missing_box],
                       photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "fan")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert not any(c.confirm for c in result.cards)


def test_min_cost_assignment_is_optimal_against_brute_force():
    from itertools import permutations

    from vision.outlines import _min_cost_assignment

    rng = np.random.default_rng(7)
    for _ in range(60):
        rows, cols = int(rng.integers(1, 5)), int(rng.integers(0, 5))
        cost = rng.uniform(0, 3, (rows, cols))
        cost[rng.random((rows, cols)) < 0.3] = np.inf
        unassigned = 2.5
        got = _min_cost_assignment(cost, unassigned)
        total = lambda a: sum(unassigned if c < 0 else cost[r, c] for r, c in enumerate(a))  # noqa: E731
        best = min(total([p[r] if p[r] < cols and np.isfinite(cost[r, p[r]]) else -1 for r in range(rows)])
                   for p in permutations(range(cols + rows), rows))
        assert len(set(c for c in got if c >= 0)) == sum(1 for c in got if c >= 0)
        assert all(c < 0 or np.isfinite(cost[r, c]) for r, c in enumerate(got))
        assert total(got) == pytest.approx(best)


def test_only_cards_without_a_sure_index_get_a_closer_look():
    from vision.detect import cards_to_look_at_closer
    SURE_INDEX = DEFAULTS.detect.sure_index_score

    cards = Detections([[0, 0, 100, 140], [200, 0, 300, 140], [400, 0, 500, 140]], None, None)
    scores = [SURE_INDEX + 0.1, SURE_INDEX - 0.1, 0.99]  # sure on card 0, unsure on 1, none on 2
    indices = Detections([[5, 5, 20, 30], [205, 5, 220, 30], [600, 600, 610, 620]], scores, None)
    assert cards_to_look_at_closer(cards, indices, SURE_INDEX).tolist() == [False, True, True]
    assert cards_to_look_at_closer(cards, indices[:0], SURE_INDEX).tolist() == [True, True, True]
    assert cards_to_look_at_closer(cards, indices, sure=0.0).tolist() == [False, False, True]


def test_zoom_regions_cover_the_cards_closer():
    from vision.detect import zoom_regions

    assert zoom_regions(Detections.empty(), 1280, 960, 512, DEFAULTS.detect) == []
    close = Detections([[400, 300, 500, 440], [520, 310, 620, 450]], None, None)
    [(x1, y1, x2, y2)] = zoom_regions(close, 1280, 960, 512, DEFAULTS.detect)
    assert (x1, y1, x2, y2) == (348, 248, 672, 502)  # the union grown by 0.04 x 1280 = 51.2 px
    spread = Detections([[10, 10, 110, 150], [1150, 800, 1270, 950]], None, None)
    tiles = zoom_regions(spread, 1280, 960, 512, DEFAULTS.detect)
    assert tiles == [(0, 0, 584, 584), (696, 376, 1280, 960)]  # only the tiles holding cards, sized for them
    # small cards all over the photo (a whole show): smaller tiles, a closer look, at most MAX_TILES
    from vision.detect import tile_size
    MAX_TILES = DEFAULTS.detect.max_tiles

    small = Detections([[x, y, x + 60, y + 84] for x in (20, 600, 1180) for y in (20, 850)], None, None)
    tiles = zoom_regions(small, 1280, 960, 512, DEFAULTS.detect)
    assert tile_size(small, 512, DEFAULTS.detect) < 768 and len(tiles) <= MAX_TILES
    assert all(x2 - x1 < 768 for x1, _, x2, _ in tiles)
    for x1, y1, x2, y2 in small.xyxy:  # every card lies whole in a tile
        assert any(tx1 <= x1 and ty1 <= y1 and x2 <= tx2 and y2 <= ty2 for tx1, ty1, tx2, ty2 in tiles)


# ---------------------------------------------------------------- issue 17: warnings a player can use

def _photo():
    return photo_from_array(np.zeros((960, 1280, 3), np.uint8))


def test_many_unsure_stray_reads_are_one_warning_not_one_each():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    guesses = ["9C", "JD", "QD", "JS", "8C"]
    strays = Detections([[900 + 60 * i, 850, 913 + 60 * i, 880] for i in range(5)], [0.4] * 5, [INDEX_CLASS] * 5,
                        [CARD_INDEX[g] for g in guesses], [0.2] * 5, [CARD_INDEX["9H"]] * 5, [0.1] * 5)
    result = cards_then_table(Detections.concatenate([indices, strays]), cards, _photo(), "cloth")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    said = [w for w in map(str, result.warnings) if "unsure corner read" in w]
    assert said == ["ignored 5 unsure corner reads with no card around them "
                    "(9C, 0.08; JD, 0.08; QD, 0.08; JS, 0.08; 8C, 0.08)"]


def test_several_weak_lone_indices_are_one_warning():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    weak = Detections([[1000, 800, 1013, 830], [1100, 800, 1113, 830]], [0.32, 0.35], [INDEX_CLASS] * 2,
                      [CARD_INDEX["KS"], CARD_INDEX["7S"]], [0.97, 0.97], [CARD_INDEX["KC"]] * 2, [0.01] * 2)
    result = cards_then_table(Detections.concatenate([indices, weak]), cards, _photo(), "keyboard")
    said = [w for w in map(str, result.warnings) if "with no card around" in w]
    assert said == ["ignored 2 corner indices with no card around them (detector scores: KS 0.32, 7S 0.35)"]


def test_unread_cards_are_numbered_for_the_player_to_name():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    five = codes.index("5C")
    keep = [i for i in range(len(indices)) if i // 2 != five]  # 5C's corners are not read at all
    unread = Detections(indices.xyxy[keep], indices.confidence[keep], indices.class_id[keep], indices.card_id[keep],
                        indices.card_confidence[keep], indices.runner_up_id[keep], indices.runner_up_confidence[keep])
    result = cards_then_table(unread, cards, _photo(), "unread")
    assert len(result.unread_boxes) == 1
    assert any(w.startswith("unread card 1 at [") and "has no readable index" in w for w in map(str, result.warnings))
    # callers act on the code and its arguments, never on the words
    [notice] = [w for w in result.warnings if w.code == Code.UNREAD_CARD]
    assert notice.args[0] == 1 and notice.args[1] == result.unread_boxes[0]
    assert result.as_json()["warnings"] == [w.text() for w in result.warnings]


def test_a_group_of_five_is_said_to_be_a_three_player_deal_or_a_card_missed():
    codes, card_boxes, index_boxes, _ = table("deal6")
    drop = [i for i in range(len(codes)) if i != 0]
    indices, cards = detections_for([codes[i] for i in drop], card_boxes[drop], [index_boxes[i] for i in drop])
    result = cards_then_table(indices, cards, _photo(), "deal6 missing one")
    [five] = [w for w in map(str, result.warnings) if "group of 5" in w]
    assert "three-player deal" in five and "a card of it was not found" in five


def test_an_unsure_read_of_a_neighbours_corner_does_not_stretch_a_card_over_it():
    # Real row IMG_20220316_164620 with the Lite0 detector: the 5D's corner read 6D at 0.47 joined
    # the real 6D's reading; no box held both, and the guessed outline spanning two cards cut the row.
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    neighbour = 2 * codes.index("5S")  # the top-left corner of 5S, read as the card before it
    card_id, card_conf = indices.card_id.copy(), indices.card_confidence.copy()
    card_id[neighbour], card_conf[neighbour] = CARD_INDEX["5C"], 0.47
    misread = indices.with_cards(card_id, card_conf, indices.runner_up_id, indices.runner_up_confidence)
    result = cards_then_table(misread, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "neighbour")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert np.allclose(result.card("5C").box, card_boxes[codes.index("5C")])  # its own box, not both cards'
    hand = next(g for g in result.groups if g.role == "hand")
    assert sorted(hand.cards) == ["5C", "5H", "5S", "JD"]


def test_the_shipped_models_calibration_is_the_measured_defaults():
    """models.json's calibration block names the values calibrated to the shipped models (their
    measurements: docs/TUNING.md); they equal the defaults, so recognition is as measured."""
    from vision.model_config import load_models_config, models_dir

    shipped = load_models_config(models_dir(None))
    assert shipped["calibration"]["measured"] == "docs/TUNING.md"
    assert {"detect", "interpret"} <= set(shipped["calibration"])
    assert from_models_json(shipped) == DEFAULTS


def test_two_cards_of_one_size_are_never_a_mark_and_its_card():
    """A tight fan's cards are estimated at one size: which box rounds larger (a float32 step,
    decided by the CPU's kernels) must not make one card a mark on the other's face."""
    from vision.sure_reads import mid_face

    def two_cards(second_scale: float) -> Detections:
        first = [100.0, 100.0, 300.0, 400.0]
        cx, cy, w, h = 200.0, 250.0, 200.0 * second_scale, 300.0 * second_scale
        second = [cx - w / 2 + 10, cy - h / 2 + 10, cx + w / 2 + 10, cy + h / 2 + 10]
        return Detections(np.array([first, second]), np.array([0.9, 0.9]), np.array([1, 1]),
                          card_id=np.array([CARD_INDEX["JS"], CARD_INDEX["KS"]]),
                          card_confidence=np.array([0.9, 0.9]))

    centres = np.array([[200.0, 250.0], [210.0, 260.0]])  # each card's index read mid-face of the other
    assert not mid_face(two_cards(1.0 - 1e-7), centres, DEFAULTS.interpret).any()  # one float step smaller: a tie
    assert mid_face(two_cards(0.9), centres, DEFAULTS.interpret)[1]                # clearly smaller and inside: a mark


def test_a_read_under_the_floor_stays_named_when_the_reader_is_sure_of_it():
    """A card's confidence is the detector's score times the reader's probability: a small, half
    hidden index the detector scores 0.28 and the reader reads at 0.95 (0.27) is named and flagged
    (``floor_reader``), one the reader itself is unsure of (0.7) is an unread box with its guess."""
    from vision.interpret import unname_unsure_reads

    cards = Detections([[0, 0, 40, 60], [100, 0, 140, 60]], [0.28, 0.4], [INDEX_CLASS] * 2,
                       [CARD_INDEX["KS"], CARD_INDEX["7S"]], [0.266, 0.28], [CARD_INDEX["KC"]] * 2, [0.01] * 2,
                       reader=[0.95, 0.7])
    kept, guessed, guess = unname_unsure_reads(cards, 0.3, 0.8)
    assert guessed.tolist() == [False, True] and kept.codes[0] == "KS"
    assert guess[0] is None and guess[1] == ("7S", pytest.approx(0.28))
    assert kept.card_id[1] < 0 and kept.card_confidence[0] == np.float32(0.266)
    assert unname_unsure_reads(cards, 0.3, 1.01)[1].all()  # no exception (over 1): both unread
    assert DEFAULTS.interpret.floor_reader == 0.7  # the shipped calibration (docs/TUNING.md)
