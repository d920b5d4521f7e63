"""Issue 56 s3: a count and its noun agree everywhere the product says one ("1 card", "2 cards",
never "1 cards" or "2 card(s)"): the helper, then representative messages made with counts of 1
and 2 and scanned for a noun that disagrees with its number."""

import re

import pytest

from companion.words import plural

NOUNS = {"card": "cards", "group": "groups", "photo": "photos", "hand": "hands", "entry": "entries",
         "player": "players", "turn": "turns", "move": "moves", "page": "pages"}
_ONE_MANY = re.compile(rf"(?<![\d.])\b1 ({'|'.join(NOUNS.values())})\b")
_MANY_ONE = re.compile(rf"(?<![\d.])\b(?:0|[2-9]|\d{{2,}}) ({'|'.join(NOUNS)})\b")
_EITHER = re.compile(r"\w\((?:s|es)\)")


def disagreements(text: str) -> list[str]:
    """Every "1 cards", "2 card" and "card(s)" in ``text``."""
    return [m.group(0) for pattern in (_ONE_MANY, _MANY_ONE, _EITHER) for m in pattern.finditer(text)]


def test_the_scan_finds_what_it_looks_for():
    assert disagreements("5 cards in 1 groups; 2 card; 1 card(s); 11 cards, 1 card, 2 of 5 cards") == [
        "1 groups", "2 card", "d(s)"]


@pytest.mark.parametrize("count, noun, many, said", [
    (0, "card", None, "0 cards"), (1, "card", None, "1 card"), (2, "card", None, "2 cards"),
    (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries")])
def test_plural(count, noun, many, said):
    assert plural(count, noun, many) == said
    assert plural(count, noun, many, number=False) == said.split(" ", 1)[1]


def _recognition(cards: list[str], groups: list[list[str]]):
    from vision import CardGroup, RecognizedCard, Recognition, Role

    return Recognition("table.jpg", 640, 480,
                       tuple(RecognizedCard(c, 0.99, (0.0, 0.0, 10.0, 10.0)) for c in cards),
                       tuple(CardGroup(Role.HAND, tuple(g)) for g in groups), (),
                       ms={"decode": 1.0, "infer": 2.0, "post": 3.0})


@pytest.mark.parametrize("cards, groups, head", [
    (["5H"], [["5H"]], "table.jpg (640x480): 1 card in 1 group"),
    (["5H", "5C"], [["5H"], ["5C"]], "table.jpg (640x480): 2 cards in 2 groups")])
def test_crib_recognize_says_one_card_in_one_group(cards, groups, head):
    from companion.cli.recognition_commands import format_recognition

    text = format_recognition(_recognition(cards, groups))
    assert text.startswith(head + "  [") and disagreements(text) == []


def test_crib_samples_lines_agree_with_their_counts():
    from companion.demo import DemoSummary, PhotoJudgement

    one = PhotoJudgement("a.jpg", expected=1, found=1, wrong=0, groups_right=True)
    two = PhotoJudgement("b.jpg", expected=2, found=1, wrong=1, groups_right=True)
    lines = [one.line(), two.line(), DemoSummary((one,)).line(), DemoSummary((one, two)).line()]
    assert lines[0] == "a.jpg: 1 of 1 card found, 0 wrong; exactly right"
    assert lines[2] == "1 photo: 1 / 1 card found (0 wrong), 1 / 1 photo exactly right (every card, group and role)"
    assert all(disagreements(line) == [] for line in lines), lines


def test_the_play_with_one_hand_given_says_one_hand():
    from companion.rules import parse_cards
    from companion.rules.play import peg

    with pytest.raises(ValueError) as info:
        peg(2, ["AC"], [parse_cards("AC 2C 3C 4C".split())])
    assert "1 hand given for 2 players" in str(info.value) and disagreements(str(info.value)) == []


def test_game_messages_with_one_card(tmp_path, monkeypatch):
    from companion.game import GameSession
    from companion.game.errors import EntryError

    monkeypatch.setenv("CRIB_DATA_DIR", str(tmp_path))
    three = GameSession.new(["Ann", "Ben", "Cy"], "acc", first_dealer="Cy")
    with pytest.raises(EntryError) as info:
        three.discard([["2C", "3C"], ["4C"], ["5C"]], blind="6C")
    assert "each player discards 1 card, got 2" in str(info.value)
    two = GameSession.new(["Ann", "Ben"], "acc", first_dealer="Ben")
    two.discard(None)
    two.cut("6S")
    for played in "AC AD AH AS 2C 2D 2H".split():  # Ben holds his last card at count 10
        two.lay(played)
    doubt = two.go_doubt()
    assert doubt.startswith("Ben says go holding 1 card at count 10") and disagreements(doubt) == []


@pytest.mark.parametrize("photos", [1, 2])
def test_crib_samples_list_says_one_photo(tmp_path, capsys, monkeypatch, photos):
    from companion.cli import main

    for n in range(photos):
        (tmp_path / f"p{n}.jpg").write_bytes(b"not read by --list")
        (tmp_path / f"p{n}.json").write_text("{}")
    monkeypatch.setattr("companion.cli.sample_commands.sample_images", lambda: tmp_path)
    assert main(["samples", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{photos} photo{'s' * (photos > 1)} in {tmp_path}" and disagreements(out) == []
