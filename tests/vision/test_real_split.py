"""The real photos' committed split (vision/train/real_split.txt): complete, by scene, about 20 %
of every family in validation, and the same split the rule makes (it never moves)."""

from __future__ import annotations

from collections import Counter

import pytest

from vision.train.real_cards import (FAMILIES, RealDataError, family_of, load_photos, make_split, parse_label,
                                     photos_of, read_split, real_dir, scene_groups)


@pytest.fixture(scope="module")
def photos():
    return load_photos()


def test_every_labelled_photo_is_on_one_side(photos):
    split = read_split()
    assert set(split) == {p.name for p in photos}
    assert set(split.values()) == {"train", "val"}


def test_the_committed_split_is_the_rule_applied_once(photos):
    assert read_split() == make_split(photos)


def test_no_scene_is_on_both_sides(photos):
    split, groups = read_split(), scene_groups(photos)
    sides: dict[str, set] = {}
    for photo in photos:
        sides.setdefault(groups[photo.name], set()).add(split[photo.name])
    assert all(len(s) == 1 for s in sides.values())


def test_every_family_holds_about_a_fifth_in_validation(photos):
    split = read_split()
    total, val = Counter(p.family for p in photos), Counter(p.family for p in photos if split[p.name] == "val")
    assert set(total) == set(FAMILIES)
    for family in FAMILIES:
        assert 0.18 <= val[family] / total[family] <= 0.27, (family, val[family], total[family])
    assert len(photos_of("val")) == sum(val.values())


def test_families_by_name():
    assert family_of("IMG_20220921_200128_jpg") == "desk"
    assert family_of("IMG_7836_JPG") == "black" and family_of("IMG_7702_JPG") == "black"
    assert family_of("WIN_20240627_17_19_03_Pro_jpg") == "table"
    assert family_of("10c-fd3b3136-3991-11ed-a342-ec2e98cc7ff6_jpg") == "held"
    assert family_of("10_1_png") == "crops"


def test_labels_name_cards_and_leave_backs_and_jokers_out():
    corners = parse_label("0 0.5 0.5 0.1 0.2\n40 0.2 0.2 0.1 0.1\n36 0.1 0.1 0.02 0.04\n")
    assert [c.code for c in corners] == ["TC", None, "AC"]
    assert corners[0].box == pytest.approx((0.45, 0.4, 0.55, 0.6))
    with pytest.raises(RealDataError, match="class 55"):
        parse_label("55 0.5 0.5 0.1 0.1", "x.txt")
    with pytest.raises(RealDataError, match="x.txt:1"):
        parse_label("3 0.5 oops", "x.txt")


def test_a_missing_folder_is_one_clear_error(tmp_path):
    with pytest.raises(RealDataError, match="no images/ and labels/"):
        real_dir(tmp_path)
