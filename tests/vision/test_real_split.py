"""The real photos' committed split (vision/train/real_split.txt): complete, by scene, about 20 %
of every family in validation, and the same split the rule makes (it never moves); where the real
photos are looked for. The checks of the split file alone run in every clone; those against the
photos need the cardcounterml set (README "Real photos") and are skipped without it."""

from __future__ import annotations

from collections import Counter

import pytest

from vision.train import real_cards
from vision.train.real_cards import (FAMILIES, SPLIT_FILE, RealDataError, dataset_dir, family_of, load_photos,
                                     make_split, parse_label, photos_of, read_split, real_dir, real_root,
                                     scene_groups)

needs_photos = pytest.mark.real_photos("cardcounterml")


@pytest.fixture(scope="module")
def photos():
    return load_photos()


# --- the split file alone (every clone) ------------------------------------------------------------------
def split_lines() -> list[list[str]]:
    return [line.split() for line in SPLIT_FILE.read_text().splitlines() if line.strip() and not line.startswith("#")]


def test_the_split_file_is_well_formed_and_names_each_photo_once():
    lines = split_lines()
    assert len(lines) > 800 and all(len(parts) == 2 and parts[0] in ("train", "val") for parts in lines)
    names = [name for _side, name in lines]
    assert len(set(names)) == len(names), [n for n, k in Counter(names).items() if k > 1]
    assert names == sorted(names)  # as write_split writes it
    assert read_split() == {name: side for side, name in lines}


def test_every_family_of_the_split_file_holds_about_a_fifth_in_validation():
    lines = split_lines()
    total = Counter(family_of(name) for _side, name in lines)
    val = Counter(family_of(name) for side, name in lines if side == "val")
    assert set(total) == set(FAMILIES)
    for family in FAMILIES:
        assert 0.18 <= val[family] / total[family] <= 0.27, (family, val[family], total[family])


# --- against the photos (the cardcounterml set) ---------------------------------------------------------
@needs_photos
def test_every_labelled_photo_is_on_one_side(photos):
    split = read_split()
    assert set(split) == {p.name for p in photos}
    assert set(split.values()) == {"train", "val"}


@needs_photos
def test_the_committed_split_is_the_rule_applied_once(photos):
    assert read_split() == make_split(photos)


@needs_photos
def test_no_scene_is_on_both_sides(photos):
    split, groups = read_split(), scene_groups(photos)
    sides: dict[str, set] = {}
    for photo in photos:
        sides.setdefault(groups[photo.name], set()).add(split[photo.name])
    assert all(len(s) == 1 for s in sides.values())


@needs_photos
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


# --- where the photos are looked for -------------------------------------------------------------------
def dataset(folder):
    for sub in ("images", "labels"):
        (folder / sub).mkdir(parents=True)
    return folder


def test_crib_real_cards_names_the_root_and_empty_hides_the_photos(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB_REAL_CARDS", str(tmp_path))
    dataset(tmp_path / "cardcounterml")
    assert real_root() == tmp_path and dataset_dir("cardcounterml") == tmp_path / "cardcounterml"
    with pytest.raises(RealDataError, match=r"rf100-poker: no images/ and labels/ here"):
        dataset_dir("rf100-poker")
    monkeypatch.setenv("CRIB_REAL_CARDS", "")
    assert real_root() is None
    with pytest.raises(RealDataError, match=r"^cardcounterml: \$CRIB_REAL_CARDS is empty.*README 'Real photos'"):
        real_dir()


def test_a_root_that_is_itself_the_cardcounterml_folder_is_still_taken(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB_REAL_CARDS", str(dataset(tmp_path / "old")))
    assert real_dir() == tmp_path / "old"
    with pytest.raises(RealDataError):
        dataset_dir("rf100-poker")  # only cardcounterml was ever given that way


def test_the_folder_inside_the_repository_comes_before_the_fallback(tmp_path, monkeypatch):
    monkeypatch.delenv("CRIB_REAL_CARDS", raising=False)
    inside, beside = tmp_path / "repo" / "data" / "real-cards", tmp_path / "shared" / "data" / "real-cards"
    monkeypatch.setattr(real_cards, "IN_REPO_REAL_ROOT", inside)
    monkeypatch.setattr(real_cards, "FALLBACK_REAL_ROOT", beside)
    assert real_root() == beside  # no data/real-cards/ in the repository: the fallback
    dataset(inside / "cardcounterml")
    assert real_root() == inside and real_dir() == inside / "cardcounterml"
