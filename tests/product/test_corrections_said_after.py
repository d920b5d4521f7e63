"""What `crib show` says is worked out after the player's corrections (issue 48 section 2, issue 50
item 5): a box left out (`--card N none`) is laid out again without it, so no warning counts it;
`--confirm CARD` clears the card's flag and every warning asking to confirm it, whatever in
recognition flagged it; and the command's own words (issue 48 section 5): its usage takes one
photo, and the annotated picture wraps its text between words."""

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.photo import count_show, name_unread
from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role
from vision.config import DEFAULTS
from vision.table import laid_out

ROOT = Path(__file__).resolve().parents[2]
SCATTERED = ROOT / "sample_images" / "real_table_scattered.jpg"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def laid_out_recognition(cards, unread=(), warnings=()) -> Recognition:
    """A recognition laid out as recognition lays it out (groups, roles and the layout's notices)."""
    layout, rows = laid_out(cards, unread, DEFAULTS.layout)
    members = [[rows[m] for m in g.members if rows[m] is not None] for g in layout.groups]
    return Recognition("t.jpg", 1280, 960, tuple(c for group in members for c in group),
                       tuple(CardGroup(Role(g.role), tuple(c.card for c in m)) for g, m in zip(layout.groups, members)),
                       tuple(warnings) + tuple(layout.warnings), unread_boxes=tuple(unread))


# ------------------------------------------------------------------ a box left out

def test_a_box_left_out_leaves_the_group_it_lay_in():
    # 8 cards in a row and a box at its end (a card cut off by the photo's edge, a chip): a group of 9
    row = [RecognizedCard(code, 0.95, (100.0 + 60 * i, 100.0, 200.0 + 60 * i, 240.0))
           for i, code in enumerate(("9H", "6D", "QH", "5C", "2C", "3C", "4C", "7C"))]
    box = (580.0, 100.0, 680.0, 240.0)
    recognition = laid_out_recognition(row, [box], [Notice(Code.UNREAD_CARD, (1, box, None))])
    assert Notice(Code.ODD_GROUP, (9,)) in recognition.warnings
    left = name_unread(recognition, {1: "none"})
    assert left.unread_boxes == () and left.warnings == (Notice(Code.ODD_GROUP, (8,)),)
    assert [len(g.cards) for g in left.groups] == [8]
    # a hand of 3 and the box beside it: a hand of 4 while the box counts, 3 cards once it is left out
    three = laid_out_recognition(row[:3] + [RecognizedCard("AD", 0.95, (120.0, 600.0, 220.0, 740.0))],
                                 [(280.0, 100.0, 380.0, 240.0)])
    assert not any(n.code == Code.ODD_GROUP for n in three.warnings)
    shown = count_show(three, named={1: "none"})
    [hand] = shown.groups
    assert hand.cards == ("9H", "6D", "QH") and hand.problem == "3 readable cards: a hand has 4"
    assert any(n.code == Code.ROLE_GUESSED and n.args[1] == hand.cards for n in shown.recognition.warnings)


def test_crib_show_with_a_box_left_out_counts_no_group_larger_than_the_cards_left(capsys):
    status, out, err = run(capsys, "show", SCATTERED, "--json")
    assert status == 0, err
    before = json.loads(out)["recognition"]
    assert before["warnings"] and any(w.startswith("unread card 1 at") for w in before["warnings"])
    status, out, err = run(capsys, "show", SCATTERED, "--card", "1", "none")
    assert status == 0, err
    cards = int(re.match(r".*: (\d+) cards;", out).group(1))
    assert cards == len(before["cards"])
    sizes = [int(n) for n in re.findall(r"a group of (\d+) cards", out)]
    assert sizes and all(n <= cards for n in sizes), out  # was "8 cards" and "a group of 9 cards"
    assert "unread card" not in out


# ------------------------------------------------------------------ --confirm

HAND = ("5H", "6C", "4D", "KS")  # with the 2S: 7; with 6H for the 5H: 2


def flagged_hand() -> Recognition:
    """Hand 5H 6C 4D KS and the starter 2S apart; 5H flagged (read unsure, or 6H), KS flagged with
    its corners disagreeing, and every kind of notice that names a card first."""
    cards = tuple(RecognizedCard(code, {"5H": 0.42, "KS": 0.7}.get(code, 0.95),
                                 (100.0 * i, 0.0, 100.0 * i + 90, 130.0), code in ("5H", "KS"),
                                 {"5H": "6H", "KS": "KD"}.get(code), 0.29 if code == "5H" else 0.0)
                  for i, code in enumerate(HAND))
    starter = RecognizedCard("2S", 0.95, (700.0, 500.0, 790.0, 630.0))
    warnings = (Notice(Code.LOW_CONFIDENCE, ("5H", 0.42, "6H", 0.29)),
                Notice(Code.ONE_CORNER, ("5H", 0.42, "6H", 0.29)),
                Notice(Code.DISPUTED_CORNERS, ("KS", "KD")),
                Notice(Code.SEEN_TWICE, ("5H", 2)),
                Notice(Code.SECOND_READING, ("5H", 0.2, "6C", "corner")))
    return Recognition("table.jpg", 1280, 960, cards + (starter,),
                       (CardGroup(Role.HAND, HAND), CardGroup(Role.STARTER, ("2S",))), warnings)


def test_confirm_clears_the_flag_its_warnings_and_its_doubt():
    before = count_show(flagged_hand())
    assert [d.message for d in before.doubts] == ["hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H",
                                                  "hand 1: KS or KD: 7 either way"]  # marked, not asked
    assert [d.asked for d in before.doubts] == [True, False]
    assert before.groups[0].confirm == ("5H", "KS")
    shown = count_show(flagged_hand(), confirmed=["5h"])
    assert not shown.recognition.card("5H").confirm and shown.recognition.card("KS").confirm
    assert shown.asked == () and shown.groups[0].confirm == ("KS",)
    assert shown.recognition.warnings == (
        Notice(Code.DISPUTED_CORNERS, ("KS", "KD")),             # another card: still to confirm
        Notice(Code.SEEN_TWICE, ("5H", 2)),                      # still in the photo twice
        Notice(Code.SECOND_READING, ("5H", 0.2, "6C", "corner")))  # an ignored reading stays ignored
    both = count_show(flagged_hand(), confirmed=["5H", "KS"])
    assert not any(c.confirm for c in both.recognition.cards) and both.groups[0].confirm == ()
    assert [w.code for w in both.recognition.warnings] == [Code.SEEN_TWICE, Code.SECOND_READING]


class _Recognizer:
    """Stands in for the models: the recognition is given, however its flags were decided."""

    def read_and_recognize(self, _photo):
        return None, flagged_hand()


def test_crib_show_confirm_clears_the_flag_and_its_warning(capsys, monkeypatch, tmp_path):
    import companion.cli.recognition_commands as commands

    monkeypatch.setattr(commands, "_recognizer", lambda args: _Recognizer())
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"")  # the command checks the file is there; the stand-in models never read it
    status, out, err = run(capsys, "show", photo)
    assert status == 0, err
    assert "warning: 5H read with low confidence 0.42 (or 6H, 0.29): confirm this card" in out
    assert "warning: hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H" in out
    assert "  check: 5H (flagged by the recogniser: confirm before pegging)" in out
    assert "  marked: KS or KD: 7 either way (kept as read, not asked)" in out  # a king either way
    status, out, err = run(capsys, "show", photo, "--confirm", "5H")
    assert status == 0, err
    assert "confirm this card" in out and "the corners of one card read KS and KD" in out  # KS still asks
    assert not re.search(r"5H .*confirm|confirm 5H", out), out
    assert "  check:" not in out and "  marked: KS or KD: 7 either way" in out
    status, out, err = run(capsys, "show", photo, "--confirm", "5H", "KS", "--json")
    data = json.loads(out)
    assert status == 0 and not any(c["confirm"] for c in data["recognition"]["cards"])
    assert not any("confirm" in w for w in data["warnings"] + data["recognition"]["warnings"])
    assert data["hands"][0]["total"] == 7 and data["doubts"] == []


# ------------------------------------------------------------------ the command's own words

def test_crib_show_usage_takes_one_photo(capsys):
    with pytest.raises(SystemExit):
        main(["show", "--help"])
    out = capsys.readouterr().out
    usage = out.split("\n\n")[0]
    assert usage.rstrip().endswith(" IMG") and "[IMG ...]" not in out


def test_the_annotated_pictures_text_wraps_between_words():
    from companion.drawing import panel_lines

    text = ("! no starter in the photo (no lone card apart from the hands): give --starter CARD to count; "
            "starter 5D from --starter (the photo shows KS apart)")
    lines = panel_lines(text)
    assert len(lines) > 1
    words = text.split()
    assert [w for line in lines for w in line.split()] == words  # every word whole, in order ("--sta rter" was two)
    assert all(line.startswith("    ") for line in lines[1:])
    long_word = "x" * 200  # a word wider than the panel is cut: nothing is lost, and the wrapping ends
    assert "".join(line.strip() for line in panel_lines(long_word)) == long_word
