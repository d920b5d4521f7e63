"""Issue 20: cards that overlap are two cards. Cards come from corners (two different sure reads in
one card box are two cards, a sure lone index on another card is a half-hidden card), marks in the
middle of a face are not cards, and the renderer's overlaps (mix v4: pairs at a corner, rows at
players' spacing, the starter on the pack, chips and printed matter)."""

import cv2
import numpy as np
import pytest

from infer_fixtures import CARD_H, CARD_W, card_geometry, cards_then_table, detections_for
from vision import boxes
from vision.classes import CARD_CLASS, CARD_INDEX, INDEX_CLASS
from vision.decode import photo_from_array
from vision.ground import ground_check
from vision.detections import Detections
from vision.config import DEFAULTS
from vision.sure_reads import edge_depth

LONE_SURE, SURE_READER = DEFAULTS.interpret.lone_sure_reader, DEFAULTS.interpret.sure_reader


def _photo():
    return photo_from_array(np.zeros((960, 1280, 3), np.uint8))


def _index(box, code, det=0.9, p=0.98):
    return Detections([box], [det], [INDEX_CLASS], [CARD_INDEX[code]], [p], [CARD_INDEX["8S"]], [1 - p])


def _pair_at_a_corner():
    """3D lying under 3C, 3C moved 45 % of a card's width and 30 % of its height to the lower right:
    3D shows its top-left index, 3C both of its own."""
    lower, (lower_tl, _lower_br) = card_geometry(500, 400)
    upper, upper_indices = card_geometry(545, 442)
    return lower, upper, lower_tl, upper_indices


def test_two_different_sure_reads_in_one_card_box_are_two_cards():
    """The detector gives the pair one box (NMS merged them): its indices read 3D and 3C surely.
    One deck holds each card once: two cards, not one card with disputed corners."""
    lower, upper, lower_tl, upper_indices = _pair_at_a_corner()
    merged = boxes.union(np.array([lower, upper], np.float32))
    indices = Detections.concatenate([_index(lower_tl, "3D"), *[_index(b, "3C", p=0.9) for b in upper_indices]])
    cards = Detections([merged], [0.95], [CARD_CLASS])
    result = cards_then_table(indices, cards, _photo(), "pair")
    assert sorted(c.card for c in result.cards) == ["3C", "3D"]
    assert not any("corners of one card" in w for w in map(str, result.warnings))


def test_one_card_whose_corners_disagree_is_still_one_card_to_confirm():
    """The other corner of a counted card (opposite its index through its box's centre) read as
    another code, even surely, is that card read differently: one card, flagged."""
    box, (top_left, bottom_right) = card_geometry(600, 450)
    indices = Detections.concatenate([_index(top_left, "5S"), _index(bottom_right, "6S", p=0.7)])
    cards = Detections([box], [0.95], [CARD_CLASS])
    result = cards_then_table(indices, cards, _photo(), "disputed")
    assert [c.card for c in result.cards] == ["5S"]
    assert result.cards[0].confirm and result.cards[0].runner_up == "6S"
    assert any("corners of one card read 5S and 6S" in w for w in map(str, result.warnings))


def test_a_sure_lone_index_at_the_edge_of_another_card_is_a_half_hidden_card():
    """The lower card's box was not found and its index scores low with the detector (0.35), but the
    reader is sure of it and it lies on the upper card's box near its edge: a card, flagged."""
    lower, upper, lower_tl, upper_indices = _pair_at_a_corner()
    indices = Detections.concatenate([_index(lower_tl, "7H", det=0.35, p=0.97),
                                      *[_index(b, "4C") for b in upper_indices]])
    cards = Detections([boxes.union(np.array([lower, upper], np.float32))], [0.95], [CARD_CLASS])
    result = cards_then_table(indices, cards, _photo(), "lower card")
    assert sorted(c.card for c in result.cards) == ["4C", "7H"]
    assert result.card("7H").confirm and not result.card("4C").confirm


def test_a_lone_index_read_just_surely_at_the_edge_of_another_card_is_a_card():
    """A sure read is a card (issue 20, item 1): the lower card's index scored 0.47 by the detector
    and read at 0.68 by the reader (a half-hidden index in a whole show; 0.32 sure, over the read
    floor) counts, flagged; read at 0.45 (under the reader's sure 0.5) it is said and not counted."""
    assert LONE_SURE == SURE_READER
    lower, upper, lower_tl, upper_indices = _pair_at_a_corner()
    cards = Detections([boxes.union(np.array([lower, upper], np.float32))], [0.95], [CARD_CLASS])
    for p, expected in ((0.68, ["4C", "7H"]), (0.45, ["4C"])):
        indices = Detections.concatenate([_index(lower_tl, "7H", det=0.47, p=p),
                                          *[_index(b, "4C") for b in upper_indices]])
        result = cards_then_table(indices, cards, _photo(), "lower card")
        assert sorted(c.card for c in result.cards) == expected, p
        if p < SURE_READER:
            assert any("unsure corner read (7H" in w for w in map(str, result.warnings))
        else:
            assert result.card("7H").confirm


GREEN_TABLE = (40, 110, 40)


def _printed_index(pixels, box):
    """Ink as an index prints it: a rank and a suit mark, dark, inside ``box``."""
    x1, y1, x2, y2 = (int(v) for v in box)
    cv2.putText(pixels, "2", (x1 + 1, y1 + (y2 - y1) // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (20, 20, 20), 2)
    cv2.circle(pixels, ((x1 + x2) // 2, y2 - (y2 - y1) // 4), max(2, (x2 - x1) // 4), (20, 20, 20), -1)


def _lone_index_on(ground: str, code: str = "2S"):
    """4C lying on a green table, and a lone ``code`` (detector 0.35, reader 0.99) printed on ``ground``:
    a poker chip's white inlay, or a white card cut by the photo's left edge (no card box found)."""
    pixels = np.full((960, 1280, 3), GREEN_TABLE, np.uint8)
    card, index_boxes = card_geometry(400, 400)
    cv2.rectangle(pixels, (int(card[0]), int(card[1])), (int(card[2]), int(card[3])), (245, 245, 245), -1)
    indices, cards = detections_for(["4C"], np.array([card], np.float32), [index_boxes])
    for box in index_boxes:
        _printed_index(pixels, box)
    if ground == "chip":
        centre, radius = (1000, 700), int(0.2 * CARD_H)
        cv2.circle(pixels, centre, radius, (40, 40, 180), -1)
        cv2.circle(pixels, centre, int(0.62 * radius), (245, 245, 245), -1)
        lone_box = [993, 688, 1007, 712]
    else:  # the card's right half shows at the left edge: its top-right index
        cv2.rectangle(pixels, (0, 600), (int(0.6 * CARD_W), 600 + int(CARD_H)), (245, 245, 245), -1)
        lone_box = [int(0.6 * CARD_W) - 19, 606, int(0.6 * CARD_W) - 5, 630]
    _printed_index(pixels, lone_box)
    lone = _index(lone_box, code, det=0.35, p=0.99)
    return cards_then_table(Detections.concatenate([indices, lone]), cards, photo_from_array(pixels), ground,
                     ground=ground_check(pixels, DEFAULTS.ground))


def test_a_sure_lone_index_printed_on_a_chip_is_not_a_card():
    """The suit mark and value on a poker chip's inlay: ground far smaller than a card, however sure
    the reader."""
    result = _lone_index_on("chip")
    assert [c.card for c in result.cards] == ["4C"]
    assert any("ignored a corner index read as 2S with no card around it" in w for w in map(str, result.warnings))


def test_a_sure_lone_index_printed_on_a_card_cut_by_the_photo_edge_is_a_card():
    """The same index on a card the photo's edge cuts (the detector found no box for it): a card,
    flagged for the player to confirm."""
    result = _lone_index_on("card")
    assert sorted(c.card for c in result.cards) == ["2S", "4C"]
    assert result.card("2S").confirm


def test_a_sure_lone_index_of_a_card_already_shown_is_not_a_second_card():
    """One deck holds one 4C: a lone 4C on card ground is that card's other corner (or a misread),
    not a second 4C to confirm."""
    result = _lone_index_on("card", "4C")
    assert [c.card for c in result.cards] == ["4C"]
    assert not any("seen 2 times" in w for w in map(str, result.warnings))


def test_a_lone_index_read_unsurely_or_with_no_print_under_it_is_not_a_card():
    """An unsure lone read on a card (its detector score over the floor, the reader's under sure),
    and a sure one where the photo shows nothing printed (a blank photo: no ink in the index box):
    said, not counted."""
    codes = ["4C"]
    card, index_boxes = card_geometry(400, 400)
    indices, cards = detections_for(codes, np.array([card], np.float32), [index_boxes])
    blank = _index([1000, 700, 1014, 724], "2S", det=0.35, p=0.99)
    doubtful = _index([card[0] + 4, (card[1] + card[3]) / 2, card[0] + 18, (card[1] + card[3]) / 2 + 24], "9H",
                      det=0.45, p=LONE_SURE - 0.1)
    result = cards_then_table(Detections.concatenate([indices, blank, doubtful]), cards, _photo(), "chip")
    assert [c.card for c in result.cards] == ["4C"]
    assert any("read as 2S with no card around it (detector score 0.35)" in w for w in map(str, result.warnings))
    assert any("unsure corner read (9H, 0.18)" in w for w in map(str, result.warnings))


def test_a_mark_in_the_middle_of_a_face_with_a_box_of_its_own_is_not_a_card():
    """A court's picture read as JS with a small card box of its own inside the queen's box."""
    box, index_boxes = card_geometry(600, 450, scale=2.0)
    indices, cards = detections_for(["QH"], np.array([box], np.float32), [index_boxes])
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    mark = _index([cx - 12, cy - 20, cx + 12, cy + 20], "JS", det=0.8, p=0.9)
    phantom = Detections([[cx - 60, cy - 80, cx + 60, cy + 80]], [0.7], [CARD_CLASS])
    result = cards_then_table(Detections.concatenate([indices, mark]), Detections.concatenate([cards, phantom]), _photo(),
                       "court")
    assert [c.card for c in result.cards] == ["QH"]
    assert any("ignored JS: read in the middle of another card's face" in w for w in map(str, result.warnings))


def _framed_jack(*marks: tuple[float, float]):
    """JS square to the frame with both corner indices, a second card box coinciding with its own
    (10 % larger), and QH read surely at each of ``marks`` (fractions of the jack's box)."""
    box, index_boxes = card_geometry(600, 450, scale=2.0)
    indices, cards = detections_for(["JS"], np.array([box], np.float32), [index_boxes])
    x1, y1, x2, y2 = box
    for mark_x, mark_y in marks:
        cx, cy = x1 + mark_x * (x2 - x1), y1 + mark_y * (y2 - y1)
        indices = Detections.concatenate([indices, _index([cx - 10, cy - 14, cx + 10, cy + 14], "QH", det=0.8, p=0.9)])
    w, h = (x2 - x1) * 0.05, (y2 - y1) * 0.05
    twin = Detections([[x1 - w, y1 - h, x2 + w, y2 + h]], [0.8], [CARD_CLASS])
    return cards_then_table(indices, Detections.concatenate([cards, twin]), _photo(), "framed")


def test_a_court_frames_marks_on_a_coinciding_box_are_not_a_card():
    """A court's frame marks (top right and bottom left of an upright jack, inside its face) read as
    QH, given a box of their own that coincides with the jack's: no card puts its indices there."""
    result = _framed_jack((0.75, 0.22), (0.25, 0.78))
    assert [c.card for c in result.cards] == ["JS"]
    assert any("ignored QH: read on another card's face, where no corner index lies" in w for w in map(str, result.warnings))


@pytest.mark.parametrize("marks", [[(0.75, 0.22)], [(0.25, 0.2), (0.75, 0.8)], [(0.93, 0.12), (0.07, 0.88)],
                                   [(0.75, 0.22), (0.25, 0.5)]],
                         ids=["one mark", "index diagonal", "at the edges", "not in a corner"])
def test_a_read_in_a_coinciding_box_is_kept_where_a_card_can_show_its_index(marks):
    """One index there (the next card of an overlapping row), indices on the jack's own index diagonal
    (a tight fan's next card), at the box's very edges (cards beside it) or out of a corner: a card."""
    result = _framed_jack(*marks)
    assert sorted(c.card for c in result.cards) == ["JS", "QH"]


def test_edge_depth_is_near_zero_at_a_corner_index_and_half_at_the_centre():
    box, (top_left, _) = card_geometry(500, 500)
    depth = edge_depth(np.array([boxes.centres(np.array([top_left], np.float32))[0], [500, 500]]),
                       np.array([box], np.float32))[:, 0]
    assert depth[0] < 0.15 and depth[1] == pytest.approx(0.5)


# ------------------------------------------------------------------------- the renderer (mix v4)

SMALL = (480, 360)


@pytest.mark.parametrize("seed", range(12))
def test_v4_renders_pairs_rows_and_packs_and_keeps_v3_as_it_was(seed):
    from vision.synth import render_scene

    image, ann = render_scene(7000 + seed, layout="fan", decks=("kennard",), size=SMALL, mix="v4")
    again, _ = render_scene(7000 + seed, layout="fan", decks=("kennard",), size=SMALL, mix="v4")
    assert np.array_equal(image, again)
    assert ann["mix"] == "v4" and "starter_on_pack" in ann
    if ann["arrangement"] == "corner_pairs":  # 2 or 3 pairs, judged on their cards (no cribbage role)
        assert ann["groups"] == [] and len(ann["cards"]) in (4, 6)
    if ann["arrangement"] == "player_row":
        assert 4 <= len(ann["groups"][0]["cards"]) <= 6


def test_v4_arrangements_cover_every_overlap_kind():
    import numpy as np

    from vision.synth import arrangements

    kinds, packs = set(), 0
    for seed in range(120):
        rng = np.random.default_rng(seed)
        codes = [f"{r}S" for r in "A23456789TJQK"]
        layout = ("fan", "hand_starter", "two_hands_crib_starter")[seed % 3]
        made = arrangements.arrange(rng, layout, codes, 0.7, table_conventions=layout != "fan", mix="v4")
        kinds.add(made.kind)
        packs += made.pack is not None
        if made.pack is not None:  # the pack lies under the starter
            starter = next(g for g in made.groups if g[0] == "starter")[1][0]
            _, x, y, _, _ = next(p for p in made.placements if p[0] == starter)
            assert np.hypot(made.pack[0] - x, made.pack[1] - y) < 0.4
    assert {"corner_pairs", "player_row", "tight_fan", "loose", "show"} <= kinds
    assert 20 <= packs <= 80


def test_chips_and_printed_matter_are_drawn_on_the_table():
    from vision.synth import overlaps

    rng = np.random.default_rng(3)
    table = np.full((300, 400, 3), 90, np.uint8)
    overlaps.draw_chip(rng, table, (100, 100), 200)
    overlaps.draw_printed(rng, table, (280, 200), 200)
    assert table[100, 100].mean() > 200  # the chip's white inlay
    assert (table[150:250, 200:360] > 200).mean() > 0.3 and (table[150:250, 200:360] < 80).any()  # paper and ink
    assert table[5, 5].tolist() == [90, 90, 90]  # nothing outside them


def test_a_card_read_from_one_corner_only_is_confirmed_unless_read_very_surely():
    CONFIRM_BELOW, ONE_CORNER_FACTOR = DEFAULTS.interpret.confirm_below, DEFAULTS.interpret.one_corner_factor

    box, (top_left, bottom_right) = card_geometry(600, 450)
    cards = Detections([box], [0.95], [CARD_CLASS])
    p = CONFIRM_BELOW * (1 + ONE_CORNER_FACTOR) / 2 / 0.9  # confidence between the two thresholds
    one = cards_then_table(_index(top_left, "6C", p=p), cards, _photo(), "one corner")
    assert one.card("6C").confirm
    assert any("6C read from one corner only" in w for w in map(str, one.warnings))
    both = cards_then_table(Detections.concatenate([_index(top_left, "6C", p=p), _index(bottom_right, "6C", p=p)]), cards,
                     _photo(), "both corners")
    assert not both.card("6C").confirm
    sure = cards_then_table(_index(top_left, "6C", p=0.99), cards, _photo(), "sure")
    assert not sure.card("6C").confirm


# ------------------------------------------- each kind of overlap, read by the committed models

# (kind, layout, table conventions, seed): mix v4 renders of the Kennard deck on procedural tables,
# seeds from 100 of each kind read exactly with the issue-20 logic (seed 104: models v4 with the
# logic before it missed 8C, and read 2S and 3H that are not there). Seed 100 is the first pair at a
# corner models v5 read exactly; they miss the half-hidden 2H of seed 103, which v4 read.
RENDERED_OVERLAPS = (
    ("corner_pairs", "fan", False, 100),
    ("corner_pairs", "fan", False, 104),
    ("player_row", "fan", False, 107),
    ("loose", "fan", False, 139),  # a loose fan
    ("starter on the pack", "hand_starter", True, 116),
)


def _read_like_the_truth(result, annotation):
    """Every card whose index shows, nothing else, and the annotation's groups (over the visible cards)."""
    visible = {c["card"] for c in annotation["cards"] if any(i["visible"] for i in c["indices"])}
    present = {c["card"] for c in annotation["cards"]}
    got = {c.card for c in result.cards}
    assert visible <= got <= present, (sorted(visible - got), sorted(got - present))
    want = sorted((g["role"], tuple(sorted(c for c in g["cards"] if c in visible))) for g in annotation["groups"])
    have = sorted((str(g.role), tuple(sorted(g.cards))) for g in result.groups)
    if annotation["groups"]:
        assert [g for g in want if g[1]] == have


@pytest.mark.parametrize("kind,layout,conventions,seed", RENDERED_OVERLAPS, ids=lambda v: str(v))
def test_a_rendered_overlap_of_each_kind_is_read_card_by_card(kind, layout, conventions, seed):
    from vision.pipeline import shared_recognizer
    from vision.synth import render_scene

    image, annotation = render_scene(seed, layout=layout, decks=("kennard",), packaged_surfaces=False,
                                     table_conventions=conventions, mix="v4")
    if kind == "starter on the pack":
        assert annotation["starter_on_pack"]
    else:
        assert annotation["arrangement"] == kind
    _read_like_the_truth(shared_recognizer().recognize(image), annotation)


def _sample_read_like_the_truth(name):
    """``sample_images/NAME.jpg`` recognised with the shipped models and checked against its sidecar."""
    import json
    from pathlib import Path

    from vision.pipeline import shared_recognizer

    samples = Path(__file__).resolve().parents[2] / "sample_images"
    result = shared_recognizer().recognize(samples / f"{name}.jpg")
    _read_like_the_truth(result, json.loads((samples / f"{name}.json").read_text()))
    return result


def test_the_real_overlapping_row_sample_is_one_group_of_six():
    """sample_images/real_table_overlapping_row.jpg (the real validation split, table family): six
    cards pushed into one row, read card by card and grouped as one deal."""
    result = _sample_read_like_the_truth("real_table_overlapping_row")
    assert [len(g.cards) for g in result.groups] == [6]


@pytest.mark.parametrize("name", ["hands_crib_starter_rows", "hands_crib_starter_spread"])
def test_a_whole_show_sample_is_read_card_by_card(name):
    """The whole show in one photo (two hands, the crib and the starter: 13 cards whose indices are
    20-30 px high, hands pushed into rows or spread): every card, nothing else, the groups and roles
    of the sidecar. Models v7's to v9's readers (trained on whole shows' crops) read both exactly; v6 read 2
    and 1 cards that are not there."""
    result = _sample_read_like_the_truth(name)
    assert len(result.cards) == 13


@pytest.mark.real_photos("cardcounterml")
def test_a_real_validation_photo_of_pairs_overlapping_at_a_corner_is_read_card_by_card():
    """WIN_20240630_19_35_16 (real validation split, table family; the real photos are not in the
    repository: skipped where they are absent): eight cards, three pairs overlapping at a corner.
    The split holds no starter on a pack; its fans are rf100-poker's (below)."""
    from vision.pipeline import shared_recognizer
    from vision.train.real_cards import parse_label, real_dir

    folder = real_dir()
    name = "WIN_20240630_19_35_16_Pro_jpg"
    assert (folder / "labels" / f"{name}.txt").is_file(), f"{name}: not among the real photos in {folder}"
    truth = {c.code for c in parse_label((folder / "labels" / f"{name}.txt").read_text()) if c.code}
    result = shared_recognizer().recognize(folder / "images" / f"{name}.jpg")
    assert {c.card for c in result.cards} == truth


@pytest.mark.real_photos("rf100-poker")
@pytest.mark.parametrize("name,kind", [("IMG_20220316_163527", "a fan of four"),
                                       ("IMG_20220316_173249", "an overlapping row of five")])
def test_a_real_validation_fan_and_row_are_read_card_by_card_as_one_group(name, kind):
    """rf100-poker validation photos (never trained on; skipped where the set is absent): a fan of
    four diamonds turned about a corner, and five clubs pushed into a row, each card half under the
    next. Chosen among the split's photos whose every card overlaps another, by looking at them;
    models v5 read both exactly; v4 read the fan, but cut the row's KC off as a starter."""
    from vision.pipeline import shared_recognizer
    from vision.train.rf100 import poker_photos_of

    photo = next((p for p in poker_photos_of("val") if p.name == name), None)
    assert photo is not None, f"{name}: not in rf100-poker's validation split"
    result = shared_recognizer().recognize(photo.image)
    assert {c.card for c in result.cards} == set(photo.cards), kind
    assert [sorted(g.cards) for g in result.groups] == [sorted(photo.cards)], kind


# ------------------------------------------------ NMS keeps two overlapping boxes of two cards

def test_a_suppressed_card_box_whose_corner_reads_another_card_comes_back():
    from vision.detections import Origin
    from vision.kept_apart import restore

    upper, (upper_tl, _) = card_geometry(515, 400)  # a tight row: the upper card 15 px to the right
    lower, (lower_tl, _) = card_geometry(500, 400)
    assert boxes.box_iou(np.array([upper], np.float32), np.array([lower], np.float32))[0, 0] > 0.6
    kept = Detections([upper], [0.9], [CARD_CLASS])
    shadow = Detections([lower], [0.8], [CARD_CLASS], origin=[Origin.SUPPRESSED])
    two = Detections.concatenate([_index(upper_tl, "5H"), _index(lower_tl, "9C")])
    back = restore(shadow, kept, two, DEFAULTS.interpret)
    assert len(back) == 1 and back.class_id.tolist() == [CARD_CLASS] and np.allclose(back.xyxy[0], lower)
    assert back.origin.tolist() == [Origin.SUPPRESSED]  # where the box came from stays said
    one = Detections.concatenate([_index(upper_tl, "5H"), _index(lower_tl, "5H")])  # the same card's box twice
    assert len(restore(shadow, kept, one, DEFAULTS.interpret)) == 0
    unsure = Detections.concatenate([_index(upper_tl, "5H"), _index(lower_tl, "9C", p=0.3)])
    assert len(restore(shadow, kept, unsure, DEFAULTS.interpret)) == 0


def test_nms_keeps_the_suppressed_card_boxes_aside():
    from infer_fixtures import raw_output_for
    from vision.detections import Origin
    from vision.kept_apart import shadow_cards
    from vision.letterbox import Letterbox
    from vision.postprocess import postprocess

    upper, _ = card_geometry(250, 250)
    lower, _ = card_geometry(235, 250)
    raw = raw_output_for(np.array([upper, lower], np.float32), [CARD_CLASS, CARD_CLASS], [0.9, 0.8])
    letterbox = Letterbox.fit(512, 512, 512)
    detect = DEFAULTS.detect
    kept = postprocess(raw, letterbox, 512, 512, detect.candidate_score, detect.nms_iou,
                       detect.max_candidates).of_class(CARD_CLASS)
    assert len(kept) == 1  # NMS merged the two cards' boxes
    shadows = shadow_cards(raw, letterbox, 512, 512, kept, 0.4, DEFAULTS.detect)
    assert shadows.class_id.tolist() == [CARD_CLASS] and shadows.origin.tolist() == [Origin.SUPPRESSED]
    assert len(shadows.kept()) == 0  # the callers that want the detector's boxes leave them out
    assert boxes.box_iou(shadows.xyxy, np.array([lower], np.float32))[0, 0] > 0.95
