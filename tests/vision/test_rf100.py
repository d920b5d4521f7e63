"""rf100-poker, the second real set: its labels parse, its split goes by time within each hand,
and the committed derived corners are well formed and sit on their labelled cards."""

from pathlib import Path

import pytest

from vision.classes import CARD_CODES
from vision.train.real_cards import RealDataError, RealPhoto
from vision.train.rf100 import (CORNERS_FILE, FAMILY, NAMES, hands, load_poker_photos, parse_card_label,
                                poker_split, read_corners)


def photo(name: str, cards: tuple[str, ...]) -> RealPhoto:
    return RealPhoto(name, FAMILY, Path(name), (), tuple((c, (0.1, 0.1, 0.3, 0.4)) for c in cards))


def test_names_are_the_52_cards_in_data_yaml_order():
    assert sorted(NAMES) == sorted(CARD_CODES) and NAMES[0] == "TC" and NAMES[-1] == "QS"


def test_card_labels_parse_and_bad_lines_are_named():
    cards = parse_card_label("39 0.5 0.5 0.2 0.4\n\n15 0.25 0.25 0.1 0.1\n", "x.txt")
    assert [code for code, _ in cards] == ["AS", "4S"]
    assert cards[0][1] == pytest.approx((0.4, 0.3, 0.6, 0.7))
    with pytest.raises(RealDataError, match="x.txt:1: class 52"):
        parse_card_label("52 0.5 0.5 0.2 0.2", "x.txt")
    with pytest.raises(RealDataError, match="x.txt:2: not 'class cx cy w h'"):
        parse_card_label("1 0.5 0.5 0.2 0.2\n1 0.5 zero", "x.txt")


def test_split_takes_the_last_fifth_of_each_hand_by_time():
    run = [photo(f"IMG_1_{k:03d}", ("AC", "2C", "3C", "4C")) for k in range(10)]
    part = [photo("IMG_1_500", ("AC", "2C"))]  # a photo of part of a hand belongs to that hand
    other = [photo(f"IMG_2_{k:03d}", ("5H", "6H", "7H", "8H")) for k in range(5)]
    split = poker_split(other + part + run)
    assert len(hands(other + part + run)) == 2
    # 11 photos in the first hand: the last ceil(2.2) = 3 by time (name) are val
    assert [split[p.name] for p in run] == ["train"] * 8 + ["val"] * 2
    assert split["IMG_1_500"] == "val"  # the latest photo of its hand
    assert [split[p.name] for p in other] == ["train"] * 4 + ["val"]


def test_committed_corners_are_well_formed():
    corners = read_corners()
    assert len(corners) > 1000 and CORNERS_FILE.read_text().startswith("# rf100-poker corner labels")
    for found in corners.values():
        for corner in found:
            x1, y1, x2, y2 = corner.box
            assert corner.code in CARD_CODES and 0 <= x1 < x2 <= 1 and 0 <= y1 < y2 <= 1


@pytest.mark.real_photos("rf100-poker")
def test_the_set_has_twelve_hands_and_every_corner_lies_on_its_labelled_card():
    photos = load_poker_photos()
    assert len(photos) == 1285
    groups = hands(photos)
    assert len(groups) == 12 and all(len(members) >= 90 for members in groups.values())
    split = poker_split(photos)
    assert 0.19 <= sum(side == "val" for side in split.values()) / len(split) <= 0.22
    for p in photos:
        boxes = dict(p.card_boxes)
        for corner in p.corners:
            x1, y1, x2, y2 = boxes[corner.code]
            cx, cy = (corner.box[0] + corner.box[2]) / 2, (corner.box[1] + corner.box[3]) / 2
            assert x1 <= cx <= x2 and y1 <= cy <= y2, (p.name, corner)
