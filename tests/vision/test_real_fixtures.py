"""Real photos in every clone: the 13 validation photos committed in tests/fixtures/real/ (both
real sets, every family; credited in its README) are recognised and counted with the committed
models, and judged against their labels. The floors are what the shipped models measure, less a little:
a card read in each of the 13 photos, 50 of the 52 labelled cards found (measured 50 with v4 and v5, 52 with v6 to v10), no card
read wrong without a flag, each of the 4 hands counted as labelled."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.photo import count_show
from companion.rules import Card, score
from vision.pipeline import shared_recognizer
from vision.train.real_cards import FAMILIES, RealPhoto, dataset_dir, load_photos, read_split

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real"
POKER = "rf100-poker"
STARTER = "5C"  # in none of the hands below
HANDS = ("IMG_20220921_194834_jpg", "IMG_20220316_141053", "IMG_20220316_143308", "IMG_20220316_164620")


def poker_names(folder: Path) -> list[str]:
    """rf100-poker's class names (its data.yaml), as card codes."""
    line = next(line for line in (folder / "data.yaml").read_text().splitlines() if line.startswith("names:"))
    return [name.replace("10", "T") for name in ast.literal_eval(line.split(":", 1)[1].strip())]


def poker_cards(folder: Path, name: str, names: list[str]) -> frozenset[str]:
    """The cards a whole-card label file names."""
    text = (folder / "labels" / f"{name}.txt").read_text()
    return frozenset(names[int(line.split()[0])] for line in text.splitlines() if line.strip())


def fixture_photos() -> list[tuple[str, str, Path, frozenset[str]]]:
    """(family, name, image, labelled cards) of every fixture, cardcounterml's first."""
    photos = [(p.family, p.name, p.image, p.cards) for p in load_photos(FIXTURES / "cardcounterml")]
    folder, names = FIXTURES / POKER, poker_names(FIXTURES / POKER)
    photos += [("poker", image.stem, image, poker_cards(folder, image.stem, names))
               for image in sorted((folder / "images").glob("*.jpg"))]
    return photos


def test_the_fixtures_are_small_labelled_credited_validation_photos():
    photos = fixture_photos()
    assert len(photos) == 13
    assert sum(f.stat().st_size for f in FIXTURES.rglob("*") if f.is_file()) <= 2_000_000
    assert all(len(cards) >= 1 for *_, cards in photos)
    families = [family for family, *_ in photos]
    assert all(families.count(f) >= 2 for f in FAMILIES if f != "crops") and families.count("poker") == 4
    split = read_split()
    assert all(split[name] == "val" for family, name, *_ in photos if family != "poker")  # never trained on
    credits = (FIXTURES / "README.md").read_text()
    assert "Card Detection dataset by cadyzedevelopmenthub on Roboflow Universe, CC BY 4.0" in credits
    assert "poker-cards dataset (Roboflow 100, poker-cards-cxcvz) by Team Roboflow and Augmented Startups" in credits
    assert all(name[:12] in credits for _f, name, *_ in photos)


@pytest.mark.real_photos(POKER)
def test_the_rf100_fixtures_are_in_its_validation_split():
    """The set's split (vision.train.rf100: the last ceil(20 %) of each hand's photos by time, the
    file names): each fixture is a validation photo, its label unchanged."""
    from vision.train.rf100 import poker_photos_of

    folder = dataset_dir(POKER)
    val = {p.name for p in poker_photos_of("val")}
    for image in sorted((FIXTURES / POKER / "images").glob("*.jpg")):
        assert image.stem in val, image.stem
        assert (FIXTURES / POKER / "labels" / f"{image.stem}.txt").read_text() == \
            (folder / "labels" / f"{image.stem}.txt").read_text()


def test_the_real_fixtures_are_read_as_labelled():
    recognizer = shared_recognizer()
    found = truth = wrong_unflagged = 0
    read_photos: dict[str, int] = {}
    seen = []
    for family, name, image, cards in fixture_photos():
        result = recognizer.recognize(str(image), name)
        reported = {c.card: c.confirm for c in result.cards}
        truth += len(cards)
        found += len(cards & set(reported))
        wrong_unflagged += sum(1 for card, flagged in reported.items() if card not in cards and not flagged)
        read_photos[family] = read_photos.get(family, 0) + bool(cards & set(reported))
        seen.append(f"{name}: {sorted(cards)} read {reported}")
    assert truth == 52
    assert found >= 50, "\n".join(seen)  # measured 52 with models v6 to v10 (v4 and v5: 50, the black deck's TC and a table's 2S missed)
    assert wrong_unflagged == 0, "\n".join(seen)  # v6-v8: one wrong card (2C for 2S), flagged; v9, v10: none
    assert read_photos == {"desk": 2, "black": 2, "table": 3, "held": 2, "poker": 4}, "\n".join(seen)


@pytest.mark.parametrize("name", HANDS)
def test_a_real_hand_is_counted_as_its_labels_say(name):
    """The product's job on a real photo: one group of the 4 labelled cards, counted with the
    starter given exactly as the rules core counts the labelled cards."""
    family, _, image, cards = next(p for p in fixture_photos() if p[1] == name)
    shown = count_show(str(image), starter=STARTER)
    hands = [g for g in shown.groups if g.show is not None]
    assert len(hands) == 1 and set(hands[0].cards) == cards, [(g.label, g.cards, g.problem) for g in shown.groups]
    assert hands[0].show.total == score([Card.parse(c) for c in sorted(cards)], Card.parse(STARTER)).total


def test_fixture_photos_load_as_real_photos():
    """The fixture folder is laid out as a real-photo root (README "Real photos"): the library's own
    loader reads its cardcounterml part, labels and families."""
    photos = load_photos(FIXTURES / "cardcounterml")
    assert all(isinstance(p, RealPhoto) for p in photos) and len(photos) == 9
    assert {p.family for p in photos} == {"desk", "black", "table", "held"}
    assert sum(p.others for p in photos) == 0 and sum(p.label_errors for p in photos) == 0
