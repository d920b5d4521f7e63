"""Layout: grouping card boxes into hands, crib and starter, on synthetic detections."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from infer_fixtures import LAYOUTS, card_geometry, cards_then_table, detections_for, table
from vision.classes import CARD_CLASS, CARD_INDEX
from vision.config import DEFAULTS
from vision.detections import UNREAD, Detections
from vision.decode import photo_from_array
from vision.layout import arrange, cluster
from vision.notices import Code


def _arrange(xyxy, read=None):
    """``arrange`` on card boxes given as an array; ``read`` marks the cards whose index was read."""
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    read = np.ones(len(xyxy), bool) if read is None else np.asarray(read, bool)
    cards = Detections(xyxy, np.ones(len(xyxy)), np.full(len(xyxy), CARD_CLASS), np.where(read, 0, UNREAD))
    return arrange(cards, DEFAULTS.layout)


def _arrange_codes(xyxy, codes):
    """``arrange`` on card boxes read as ``codes`` (None: a box with no index read, such as the pack)."""
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    ids = np.array([UNREAD if c is None else CARD_INDEX[c] for c in codes])
    cards = Detections(xyxy, np.ones(len(xyxy)), np.full(len(xyxy), CARD_CLASS), ids)
    return arrange(cards, DEFAULTS.layout), codes


def _groups_by_role(layout, codes):
    """(role, the group's read codes sorted), sorted; boxes with no index read (None) left out."""
    return sorted((g.role, tuple(sorted(codes[m] for m in g.members if codes[m] is not None))) for g in layout.groups)


def _truth(groups):
    return sorted((role, tuple(sorted(cards))) for role, cards in groups)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("scale,shift", [(1.0, (0, 0)), (0.55, (200, 150)), (1.3, (-120, -90))])
def test_every_layout_groups_and_roles_from_card_boxes(name, scale, shift):
    codes, card_boxes, _indices, groups = table(name, scale, shift)
    layout = _arrange(card_boxes)
    assert _groups_by_role(layout, codes) == _truth(groups)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layout_through_the_whole_interpretation(name):
    codes, card_boxes, index_boxes, groups = table(name)
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    photo = photo_from_array(np.zeros((960, 1280, 3), np.uint8))
    result = cards_then_table(indices, cards, photo, name)
    got = sorted((g.role, tuple(sorted(g.cards))) for g in result.groups)
    assert got == _truth(groups)
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert not any(c.confirm for c in result.cards)


def test_layout_order_hands_in_reading_order_then_crib_then_starter():
    codes, card_boxes, _indices, _groups = table("two_hands_crib_starter")
    layout = _arrange(card_boxes)
    assert [g.role for g in layout.groups] == ["hand", "hand", "crib", "starter"]
    first_hand = [codes[m] for m in layout.groups[0].members]
    assert first_hand == ["7C", "8C", "8D", "9S"]  # the top row, left to right


def test_deal_of_six_is_a_hand_with_a_warning():
    codes, card_boxes, _indices, _groups = table("deal6")
    layout = _arrange(card_boxes)
    assert [(g.role, len(g.members)) for g in layout.groups] == [("hand", 6)]
    assert any("deal" in w for w in map(str, layout.warnings))


def test_crib_is_the_group_nearest_the_starter_and_unsure_when_tied():
    codes, boxes, _indices, _groups = table("two_hands_crib_starter")
    layout = _arrange(boxes)
    assert not any("unsure" in w for w in map(str, layout.warnings))
    # Starter equally far from two groups of 4: the crib is still chosen, with a warning.
    tied = np.vstack([_row_of_four(300, 150), _row_of_four(300, 900), _row_of_four(1000, 150),
                      [[550, 430, 650, 570]]]).astype(np.float32)
    layout = _arrange(tied)
    assert [g.role for g in layout.groups].count("crib") == 1
    assert any("unsure which group is the crib" in w for w in map(str, layout.warnings))


def _row_of_four(cx, cy):
    return [[cx - 215 + 110 * i, cy - 70, cx - 115 + 110 * i, cy + 70] for i in range(4)]


def test_two_lone_cards_give_no_starter_and_say_so():
    boxes = np.array([[0, 0, 100, 140], [110, 0, 210, 140], [220, 0, 320, 140], [330, 0, 430, 140],
                      [800, 600, 900, 740], [1100, 100, 1200, 240]], np.float32)
    layout = _arrange(boxes)
    assert sorted(g.role for g in layout.groups) == ["hand", "unknown", "unknown"]
    assert any("2 lone cards" in w for w in map(str, layout.warnings))


def _row_of_five(step: float, last_step: float):
    """Five 100x140 boxes left to right, ``step`` apart, the fifth ``last_step`` after the fourth."""
    starts = [step * i for i in range(4)] + [step * 3 + last_step]
    return np.array([[x, 0, x + 100, 140] for x in starts], np.float32)


def test_a_starter_pushed_against_a_hand_is_taken_apart():
    layout = _arrange(_row_of_five(110, 155))  # a gap of 55 px after four cards 10 px apart
    assert sorted((g.role, len(g.members)) for g in layout.groups) == [("hand", 4), ("starter", 1)]
    assert any("took the card set apart" in w for w in map(str, layout.warnings))


def test_the_end_card_of_an_overlapping_row_stays_in_the_row():
    # each card under the next by 60 %, the last by 40 %: farther out, but lying on the fourth
    layout = _arrange(_row_of_five(40, 60))
    assert [len(g.members) for g in layout.groups] == [5]
    assert not any("took the card set apart" in w for w in map(str, layout.warnings))


def test_odd_group_is_unknown_with_a_warning():
    boxes = np.array([[0, 0, 100, 140], [110, 0, 210, 140], [220, 0, 320, 140]], np.float32)
    layout = _arrange(boxes)
    assert [g.role for g in layout.groups] == ["unknown"]
    assert any("group of 3" in w for w in map(str, layout.warnings))


def test_a_group_of_3_beside_the_starter_is_a_hand_said_as_a_guess():
    """A hand with a card hidden or not found, beside its starter: a hand, and the player is told
    the role is a guess (the notice names the cards and why)."""
    layout, codes = _arrange_codes(_row_of_four(300, 300)[:3] + [[900, 600, 1000, 740]], ["2D", "2S", "7C", "9S"])
    assert _groups_by_role(layout, codes) == [("hand", ("2D", "2S", "7C")), ("starter", ("9S",))]
    guessed = [w for w in layout.warnings if w.code == Code.ROLE_GUESSED]
    assert [w.args for w in guessed] == [("hand", ("2D", "2S", "7C"), "size")]
    assert str(guessed[0]) == ("2D 2S 7C taken for a hand on a guess: 3 cards where a hand has 4 "
                               "(a card hidden, not found or read twice?); check the photo")
    assert not any(w.code == Code.ODD_GROUP for w in layout.warnings)


def test_pack_under_the_starter_does_not_make_it_a_pair():
    codes, boxes, _indices, _groups = table("hand_starter")
    starter = boxes[codes.index("5D")]
    pack = starter + np.array([4, 3, 4, 3], np.float32)
    all_boxes = np.vstack([boxes, pack[None]])
    read = np.array([True] * len(boxes) + [False])
    layout = _arrange(all_boxes, read)
    roles = {g.role: g.members for g in layout.groups}
    assert set(roles) == {"hand", "starter"}
    assert codes.index("5D") in roles["starter"]


def test_a_group_of_unread_boxes_only_gets_no_role():
    codes, boxes, _indices, _groups = table("hand_starter")
    backs = np.array([[1100, 800, 1200, 940]], np.float32)
    layout = _arrange(np.vstack([boxes, backs]), np.array([True] * len(boxes) + [False]))
    assert sorted(g.role for g in layout.groups) == ["hand", "starter"]


def test_cluster_basics():
    # Card-shaped boxes (10 x 14): two side by side, one below the second, one far away.
    boxes = np.array([[0, 0, 10, 14], [13, 0, 23, 14], [13, 17, 23, 31], [100, 100, 110, 114]], np.float32)
    groups = cluster(boxes, DEFAULTS.layout)
    assert groups == [[0, 1, 2], [3]] or sorted(map(sorted, groups)) == [[0, 1, 2], [3]]
    assert cluster(np.zeros((0, 4), np.float32), DEFAULTS.layout) == []


def test_empty_and_single_card_layouts():
    assert _arrange(np.zeros((0, 4), np.float32)).groups == ()
    single = _arrange(np.array([[10, 10, 110, 150]], np.float32))
    assert [g.role for g in single.groups] == ["unknown"]
    assert any("single card" in w for w in map(str, single.warnings))


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _sidecar_detections(annotation):
    """The sidecar as perfect detector + classifier output: its card boxes, and its visible
    corner indices read as their card."""
    codes, index_boxes = [], []
    for card in annotation["cards"]:
        boxes = [i["box"] for i in card["indices"] if i["visible"]]
        if boxes:
            codes.append(card["card"])
            index_boxes.append(boxes)
    card_boxes = np.array([c["box"] for c in annotation["cards"]], np.float32)
    indices, _ = detections_for(codes, np.zeros((len(codes), 4), np.float32), index_boxes)
    cards = Detections(card_boxes, np.full(len(card_boxes), 0.95), np.full(len(card_boxes), CARD_CLASS))
    return indices, cards, set(codes)


def groups_touch(annotation) -> bool:
    """Whether cards of two different groups overlap in the photo."""
    group_of = {c: i for i, g in enumerate(annotation["groups"]) for c in g["cards"]}
    cards = [c for c in annotation["cards"] if c["card"] in group_of]
    for a in range(len(cards)):
        for b in range(a + 1, len(cards)):
            if group_of[cards[a]["card"]] == group_of[cards[b]["card"]]:
                continue
            (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = cards[a]["box"], cards[b]["box"]
            if min(ax2, bx2) > max(ax1, bx1) and min(ay2, by2) > max(ay1, by1):
                return True
    return False


@pytest.mark.parametrize("sidecar", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_sample_scenes_as_detections_group_like_their_sidecars(sidecar):
    annotation = json.loads(sidecar.read_text())
    indices, cards, visible = _sidecar_detections(annotation)
    photo = photo_from_array(np.zeros((annotation["height"], annotation["width"], 3), np.uint8))
    result = cards_then_table(indices, cards, photo, sidecar.stem)
    assert {c.card for c in result.cards} == visible

    def partition(groups):
        return sorted(tuple(sorted(c for c in cards if c in visible)) for cards in groups)

    if not annotation["groups"]:
        return  # loose cards or one card close up: no show laid out, no groups to compare
    if groups_touch(annotation):
        # Groups whose cards overlap cannot be told apart from the photo: the reader must say so.
        assert any("neither a hand" in w or "cannot tell" in w or "unsure" in w for w in map(str, result.warnings))
        return
    assert partition(g.cards for g in result.groups) == partition(g["cards"] for g in annotation["groups"])
    roles = {tuple(sorted(g.cards)): g.role for g in result.groups}
    for group in annotation["groups"]:
        cards = tuple(sorted(c for c in group["cards"] if c in visible))
        role = roles[cards]
        if len(cards) > 6:  # a row of 13, a fan of 7: no cribbage hand, said so
            assert role == "unknown" and any(f"a group of {len(cards)} cards is neither" in w for w in map(str, result.warnings))
            continue
        assert role == group["role"] or {role, group["role"]} == {"hand", "crib"}
    if [g["role"] for g in annotation["groups"]].count("crib"):
        # The documented convention: the crib is the group of 4 nearest the starter.
        boxes = {c.card: np.array(c.box).reshape(2, 2).mean(axis=0) for c in result.cards}
        centre = lambda g: np.mean([boxes[c] for c in g.cards], axis=0)  # noqa: E731
        starter = next(g for g in result.groups if g.role == "starter")
        fours = [g for g in result.groups if g.role in ("hand", "crib") and len(g.cards) == 4]
        nearest = min(fours, key=lambda g: np.hypot(*(centre(g) - centre(starter))))
        assert nearest.role == "crib"


def _tight_fan(n: int, turn: float, centre=(640.0, 480.0), step=7.0, radius=60.0):
    """A tight fan of ``n`` cards turning about a pivot ``radius`` below their centres, stepped by
    ``step`` degrees, the whole fan turned by ``turn``: (codes, card boxes, the top-left index of
    each card; the last card, on top, shows both)."""
    codes = ["AS", "2H", "3C", "4D", "5S", "6H", "7C", "8D", "9S", "TH", "JC", "QD", "KS"][:n]
    boxes_, indices = [], []
    for i in range(n):
        a = (i - (n - 1) / 2) * step + turn
        t = math.radians(a)
        pivot_x, pivot_y = centre[0] - radius * math.sin(math.radians(turn)), centre[1] + radius * math.cos(math.radians(turn))
        cx, cy = pivot_x + radius * math.sin(t), pivot_y - radius * math.cos(t)
        card, both = card_geometry(cx, cy, a)
        boxes_.append(card)
        indices.append(both if i == n - 1 else both[:1])
    return codes, np.array(boxes_, np.float32), indices


@pytest.mark.parametrize("turn", [0, 35, 90, 150, 200, 300])
@pytest.mark.parametrize("n", [5, 7, 13])
def test_a_tight_fan_at_any_turn_is_one_group(n, turn):
    """Axis-aligned boxes of a turned fan overlap their neighbours' indices; the fan must still
    come out as one group, whatever its size (7 and 13 fit no role: one group, with a warning)."""
    codes, card_boxes, index_boxes = _tight_fan(n, turn)
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "fan")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert [sorted(g.cards) for g in result.groups] == [sorted(codes)]
    assert result.groups[0].role == ("hand" if n in (4, 5, 6) else "unknown")


def test_a_box_beside_a_complete_hand_or_the_starter_does_not_change_their_roles():
    """A coin or sticker boxed as a card next to a hand of 4 read cards (or next to the starter)
    is not a fifth card: the hand stays a hand and the starter a starter."""
    codes, boxes_, _indices, _groups = table("hand_starter")
    hand = boxes_[:4]
    sticker_by_hand = hand[3] + np.array([95, 20, 95, 20], np.float32)
    sticker_by_starter = boxes_[4] + np.array([0, 120, 0, 120], np.float32)
    for extra in (sticker_by_hand, sticker_by_starter):
        layout = _arrange(np.vstack([boxes_, extra[None]]), np.array([True] * len(boxes_) + [False]))
        roles = sorted((g.role, len([m for m in g.members if m < len(codes)])) for g in layout.groups)
        assert roles == [("hand", 4), ("starter", 1)], roles


def test_the_pack_between_the_crib_and_the_starter_does_not_join_them():
    """The face-down pack boxed as a card with no index, lying between the crib and the starter: the
    read crib and starter make 5, a size with a role, so the box does not count (it made them a
    "deal" of 6) and the starter comes apart from the crib."""
    codes, boxes_, _indices, groups = table("two_hands_crib_starter")
    pack = np.array(card_geometry(1000, 480, 0)[0], np.float32)
    layout = _arrange(np.vstack([boxes_, pack[None]]), np.array([True] * len(codes) + [False]))
    read = sorted((g.role, tuple(sorted(codes[m] for m in g.members if m < len(codes)))) for g in layout.groups)
    assert read == _truth(groups)


def test_another_cards_corner_misread_as_the_starter_does_not_stretch_it_over_the_hand():
    """An index on a hand card misread as the starter's code, joined to the starter by a stray box
    spanning both: the starter's outline stays on the starter (not the union of both corners,
    which would lie over the hand and join the starter to it)."""
    codes, card_boxes, index_boxes, groups = table("hand_starter")
    starter = codes.index("5D")
    index_boxes = [list(b) for b in index_boxes]
    index_boxes[starter] = index_boxes[starter] + [index_boxes[0][0]]  # the first hand card's corner, read 5D
    stray = np.array([[min(card_boxes[0][0], card_boxes[starter][0]), min(card_boxes[0][1], card_boxes[starter][1]),
                       max(card_boxes[0][2], card_boxes[starter][2]), max(card_boxes[0][3], card_boxes[starter][3])]],
                     np.float32)
    indices, cards = detections_for(codes, np.vstack([card_boxes, stray]), index_boxes)
    cards = Detections(cards.xyxy, np.r_[cards.confidence[:-1], 0.3], cards.class_id)  # an unsure stray box
    confidence = indices.confidence.copy()
    confidence[-1] = 0.6  # the misread corner is less sure than the starter's own
    indices = Detections(indices.xyxy, confidence, indices.class_id, indices.card_id, indices.card_confidence,
                         indices.runner_up_id, indices.runner_up_confidence)
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "misread")
    got = sorted((g.role, tuple(sorted(g.cards))) for g in result.groups)
    assert got == _truth(groups)


# ------------------------------------------------------------------ who dealt: the crib, the pack, the dealer's hand

HANDS = ["7C", "8C", "8D", "9S", "2H", "3H", "4H", "KH"]
CRIB = ["QC", "QD", "TS", "JS"]
BELOW_THE_CRIB = [350, 890, 450, 1030]  # a card's box below the crib's row (clear of it)


def _column_table(starter_box=None, pack_box=None, crib_cards=CRIB):
    """Two hands and the crib in a column (hand at y 150, hand at 450, crib at 750), the starter
    and the pack where given: (layout, codes)."""
    boxes_ = _row_of_four(400, 150) + _row_of_four(400, 450) + _row_of_four(400, 750)[:len(crib_cards)]
    codes = HANDS + list(crib_cards)
    if starter_box is not None:
        boxes_, codes = boxes_ + [starter_box], codes + ["6D"]
    if pack_box is not None:
        boxes_, codes = boxes_ + [pack_box], codes + [None]
    return _arrange_codes(boxes_, codes)


def test_the_crib_beside_a_hand_makes_that_hand_the_dealers():
    """The crib lies by the dealer, the starter on the pack beside it: the crib is the group nearest
    the starter, and the hand next to the crib is the dealer's."""
    layout, codes = _column_table(starter_box=BELOW_THE_CRIB)
    assert _groups_by_role(layout, codes) == sorted([("crib", tuple(sorted(CRIB))), ("hand", tuple(sorted(HANDS[:4]))),
                                                     ("hand", tuple(sorted(HANDS[4:]))), ("starter", ("6D",))])
    dealer = layout.groups[layout.dealer]
    assert sorted(codes[m] for m in dealer.members) == sorted(HANDS[4:])  # the middle hand, next to the crib
    assert not any(w.code == Code.ROLE_GUESSED for w in layout.warnings)


def test_the_pack_tells_the_crib_where_the_starter_does_not():
    """The starter lies between two groups (almost equally near both); the pack beside the crib
    shows who dealt. Without the pack the crib is a guess, and said so."""
    starter = [850, 530, 950, 670]  # between the middle hand and the crib
    pack = [350, 930, 450, 1070]  # below the crib, no index read
    layout, codes = _column_table(starter_box=starter, pack_box=pack)
    assert ("crib", tuple(sorted(CRIB))) in _groups_by_role(layout, codes)
    assert not any(w.code == Code.ROLE_GUESSED for w in layout.warnings)

    layout, codes = _column_table(starter_box=starter)
    assert [g.role for g in layout.groups].count("crib") == 1
    guessed = [w for w in layout.warnings if w.code == Code.ROLE_GUESSED]
    assert len(guessed) == 1 and guessed[0].args[0] == "crib" and guessed[0].args[2] == "near_starter"
    crib = next(g for g in layout.groups if g.role == "crib")
    assert guessed[0].args[1] == tuple(codes[m] for m in crib.members)  # names the group it took
    assert str(guessed[0]).startswith("unsure which group is the crib: took ")


def test_the_pack_alone_shows_the_crib_when_no_starter_lies_apart():
    layout, codes = _column_table(pack_box=BELOW_THE_CRIB)
    assert ("crib", tuple(sorted(CRIB))) in _groups_by_role(layout, codes)
    assert not any(w.code == Code.NO_STARTER_FOR_CRIB for w in layout.warnings)


def test_a_table_with_no_clue_to_the_dealer_names_no_crib_and_says_so():
    layout, codes = _column_table()
    assert [g.role for g in layout.groups] == ["hand", "hand", "hand"]
    assert layout.dealer is None
    said = [w for w in layout.warnings if w.code == Code.NO_STARTER_FOR_CRIB]
    assert said and str(said[0]) == "3 groups of 4 and no starter or pack apart: cannot tell which is the crib"


def test_a_crib_short_of_a_card_on_a_whole_table_is_still_the_crib_as_a_guess():
    """A crib card not found: the group of 3 nearest the starter is the crib, said as a guess."""
    layout, codes = _column_table(starter_box=BELOW_THE_CRIB, crib_cards=CRIB[:3])
    assert ("crib", tuple(sorted(CRIB[:3]))) in _groups_by_role(layout, codes)
    guessed = [w.args for w in layout.warnings if w.code == Code.ROLE_GUESSED]
    assert guessed == [("crib", tuple(CRIB[:3]), "size")]
    assert "taken for the crib on a guess: 3 cards where a crib has 4" in str(layout.warnings[-1])


def test_of_two_lone_cards_the_one_turned_on_the_pack_is_the_starter():
    hand = _row_of_four(300, 200)
    starter, pack, stray = [900, 600, 1000, 740], [904, 603, 1004, 743], [150, 700, 250, 840]
    layout, codes = _arrange_codes(hand + [starter, pack, stray], HANDS[:4] + ["6D", None, "AS"])
    assert _groups_by_role(layout, codes) == [("hand", tuple(sorted(HANDS[:4]))), ("starter", ("6D",)),
                                              ("unknown", ("AS",))]
    assert not any(w.code == Code.LONE_CARDS for w in layout.warnings)


def test_the_count_uses_the_roles_of_a_capture_guide_table_as_before():
    """Two hands, the crib and the starter laid out as the capture guide asks: the count labels the
    hands in reading order and counts the crib with crib rules, with no role said to be a guess."""
    from companion.photo import count_recognition

    codes, card_boxes, index_boxes, groups = table("two_hands_crib_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "guide")
    shown = count_recognition(result)
    assert [(g.label, g.cards, g.crib) for g in shown.groups] == [
        ("hand 1", ("7C", "8C", "8D", "9S"), False), ("hand 2", ("2H", "3H", "4H", "KH"), False),
        ("crib", ("QC", "QD", "TS", "JS"), True)]
    assert shown.starter == "6D"
    assert not any(getattr(w, "code", None) in (Code.ROLE_GUESSED, Code.CRIB_UNSURE) for w in result.warnings)
