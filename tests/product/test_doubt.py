"""Doubt where it matters (companion.doubt): a starter read unsure or taken while cards of the
photo are unread, and a count that changes with an unsure card's other readings, are asked (the
difference named); an unsure card that counts the same either way is marked, not asked; an other
reading already on the table is never offered; each count carries its chance of being right. On
hand-built recognitions (no model); and `crib show` says so, one line each and in --json."""

import json
from dataclasses import replace

import pytest

from companion.cli import main
from companion.doubt import CARD, STARTER, doubts
from companion.photo import count_show
from companion.rules import Card, score
from vision import CardGroup, RecognizedCard, Recognition, Role

UNREAD = (900.0, 300.0, 1000.0, 440.0)


def _recognition(*groups, unsure=None, unread=()) -> Recognition:
    """``unsure``: card -> its runner-up reading (the card is flagged, read at 0.4)."""
    unsure = unsure or {}
    cards = tuple(RecognizedCard(code, 0.4 if code in unsure else 0.95, (100.0 * i, 0.0, 100.0 * i + 90, 130.0),
                                 code in unsure, unsure.get(code), 0.3 if code in unsure else 0.0)
                  for i, code in enumerate(c for _, codes in groups for c in codes))
    return Recognition("table.jpg", 1280, 960, cards, tuple(CardGroup(r, c) for r, c in groups), (),
                       unread_boxes=tuple(unread))


def _total(cards, starter, crib=False):
    return score([Card.parse(c) for c in cards], Card.parse(starter), crib=crib).total


HAND = ("5H", "6C", "4D", "KS")  # with the 2S: 15 two, 15 four, a run of three = 7


def test_a_hand_whose_count_changes_with_an_unsure_card_is_flagged_with_both_totals():
    shown = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"5H": "6H"}))
    assert _total(HAND, "2S") == 7 and _total(("6H", "6C", "4D", "KS"), "2S") == 2  # what the message says
    [doubt] = doubts(shown)
    assert (doubt.kind, doubt.card, doubt.group, doubt.total, doubt.alternative, doubt.alternative_total) == (
        CARD, "5H", "hand 1", 7, "6H", 2)
    assert doubt.message == "hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H"
    assert doubt.asked and doubt.change == 5
    assert shown.doubts == (doubt,) and shown.warnings == (doubt.message,)  # the library's words and JSON too
    assert shown.as_json()["doubts"] == [doubt.as_json()]


def test_a_suit_read_unsure_matters_only_where_the_suit_scores():
    # JD or JS: his nobs with the starter 2S only if it is the JS
    nobs = count_show(_recognition((Role.HAND, ("JD", "6C", "4D", "KH")), (Role.STARTER, ("2S",)), unsure={"JD": "JS"}))
    assert [(d.card, d.total, d.alternative_total, d.asked) for d in doubts(nobs)] == [("JD", 0, 1, True)]
    # the crib needs all five of a suit for a flush, a hand its four: the starter 9C or 9H
    four_hearts = ("2H", "4H", "8H", "QH")
    as_hand = count_show(_recognition((Role.HAND, four_hearts), (Role.STARTER, ("9C",)), unsure={"9C": "9H"}))
    as_crib = count_show(_recognition((Role.CRIB, four_hearts), (Role.STARTER, ("9C",)), unsure={"9C": "9H"}))
    assert [d.message for d in doubts(as_hand)] == [
        "check the starter 9C: read as 9C, 40 % sure, or 9H",
        "hand 1 counts 6 with the starter 9C, or 7 if it is 9H: confirm the starter 9C"]  # a fifteen, a flush of 4 or 5
    assert [d.message for d in doubts(as_crib)][1] == (
        "crib counts 2 with the starter 9C, or 7 if it is 9H: confirm the starter 9C")  # a fifteen, then a flush of 5


def test_a_suit_only_doubt_where_no_flush_or_nobs_can_turn_on_it_is_marked_not_asked():
    # the photo: KH or KD in a hand with no flush and no jack, asked today
    shown = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"KS": "KD"}))
    [doubt] = doubts(shown)
    assert not doubt.asked and doubt.message == "hand 1: KS or KD: 7 either way"
    assert shown.asked == () and shown.marked == (doubt,) and shown.warnings == ()  # nothing to answer
    assert shown.as_json()["doubts"][0]["asked"] is False
    assert shown.unconfirmed(HAND) == ("KS",)  # kept as read: the game marks it unconfirmed
    # several other readings, all kings: still one count
    kings = _recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"KS": "KD"})
    kings = replace(kings, cards=tuple(replace(c, alternatives=(("KD", 0.3), ("KH", 0.2), ("QS", 0.1)))
                                       if c.card == "KS" else c for c in kings.cards))
    assert [d.message for d in doubts(count_show(kings))] == ["hand 1: KS, KD, KH or QS: 7 either way"]
    # a starter that counts the same in every group either way is marked too
    starter = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"2S": "2D"}))
    assert [(d.kind, d.asked, d.message) for d in doubts(starter)] == [
        (STARTER, False, "the starter 2S or 2D: every count the same either way")]


def test_a_rank_doubt_that_changes_a_fifteen_is_asked_with_the_difference_named():
    # 5H or 6H: the 5 makes two fifteens with the KS and the 4D + 6C; as a 6H a pair of sixes
    shown = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"5H": "6H"}))
    [doubt] = shown.asked
    assert doubt.message == "hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H"
    assert (doubt.total, doubt.alternative_total, doubt.change) == (7, 2, 5)
    # several readings: the totals named, the one that changes the count most first; one as read left out
    several = _recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"5H": "6H"})
    several = replace(several, cards=tuple(replace(c, alternatives=(("6H", 0.3), ("5D", 0.1), ("9H", 0.05)))
                                           if c.card == "5H" else c for c in several.cards))
    [doubt] = doubts(count_show(several))
    assert (_total(("5D", "6C", "4D", "KS"), "2S"), _total(("9H", "6C", "4D", "KS"), "2S")) == (7, 4)
    assert doubt.message == "hand 1 counts 7 with 5H, or 2 if it is 6H, or 4 if it is 9H: confirm 5H"
    # asked before a doubt that changes a count less
    two = count_show(_recognition((Role.HAND, HAND), (Role.HAND, ("JD", "6D", "4C", "KH")), (Role.STARTER, ("2S",)),
                                  unsure={"JD": "JS", "5H": "6H"}))
    assert [(d.card, d.change) for d in doubts(two)] == [("5H", 5), ("JD", 1)]


def test_the_chance_a_count_is_right_counts_the_readings_that_count_the_same():
    shown = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"KS": "KD"}))
    # three cards at 0.95, the starter at 0.95, the KS at 0.4 + its KD (0.3) that counts the same
    assert shown.groups[0].chance == pytest.approx(0.95 ** 4 * 0.7)
    asked = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"5H": "6H"}))
    assert asked.groups[0].chance == pytest.approx(0.95 ** 4 * 0.4)  # the 6H counts otherwise
    assert asked.as_json()["hands"][0]["chance"] == round(0.95 ** 4 * 0.4, 4)
    given = count_show(_recognition((Role.HAND, HAND), unsure={"5H": "6H"}), starter="2S")
    assert given.groups[0].chance == pytest.approx(0.95 ** 3 * 0.4)  # the player's starter is sure


def test_an_other_reading_already_on_the_table_is_never_offered():
    # the 6H in the other hand, the starter 5S given by the player: neither is what the 5H may be
    in_photo = count_show(_recognition((Role.HAND, HAND), (Role.HAND, ("6H", "7C", "8D", "9S")),
                                       (Role.STARTER, ("2S",)), unsure={"5H": "6H", "4D": "ZZ"}))
    assert doubts(in_photo) == ()
    starter = _recognition((Role.HAND, HAND), unsure={"5H": "6H"})
    starter = replace(starter, cards=tuple(replace(c, alternatives=(("6H", 0.3), ("5S", 0.2), ("5D", 0.1)))
                                           if c.card == "5H" else c for c in starter.cards))
    shown = count_show(starter, starter="5S")
    [doubt] = doubts(shown)
    assert [a.card for a in doubt.alternatives] == ["6H", "5D"] and "5S" not in doubt.message
    # the starter read unsure is not offered what is already in a hand either
    read = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"2S": "5H"}))
    assert [d.message for d in doubts(read)] == ["check the starter 2S: read as 2S, 40 % sure"]


def test_a_starter_read_unsure_is_flagged_with_every_count_it_changes():
    shown = count_show(_recognition((Role.HAND, HAND), (Role.CRIB, ("9H", "TC", "QD", "2C")), (Role.STARTER, ("2S",)),
                                    unsure={"2S": "3S"}))
    found = doubts(shown)
    assert [(d.kind, d.card) for d in found] == [(STARTER, "2S")] * 3
    assert found[0].message == "check the starter 2S: read as 2S, 40 % sure, or 3S" and found[0].group is None
    assert (found[0].unsure, found[0].alternative, found[0].unread) == (True, "3S", 0)
    assert [(d.group, d.total, d.alternative, d.alternative_total) for d in found[1:]] == [
        ("crib", 2, "3S", 4), ("hand 1", 7, "3S", 8)]  # a pair of 2s; with the 3S two fifteens: by how much


def test_a_starter_taken_while_cards_are_unread_is_flagged():
    # the photo: a crib card taken as the starter while the real one is among unread boxes
    shown = count_show(_recognition((Role.HAND, ("3H", "7C", "4S", "KC")), (Role.HAND, ("4H", "KH", "AD", "2S")),
                                    (Role.CRIB, ("TS", "QD", "AH")), (Role.STARTER, ("9C",)), unread=[UNREAD] * 5))
    [doubt] = doubts(shown)
    assert (doubt.kind, doubt.card, doubt.unsure, doubt.unread, doubt.group) == (STARTER, "9C", False, 5, None)
    assert doubt.message == ("check the starter 9C: taken while 5 cards of the photo could not be read: "
                             "the real starter may be one of them (then hand 1 counts 0 to 7, hand 2 counts 2 to 8)")
    # the count ranges over every card not read in the photo as the starter
    hand_1 = [_total(("3H", "7C", "4S", "KC"), rank + suit) for rank in "A23456789TJQK" for suit in "CDHS"
              if rank + suit not in ("3H", "7C", "4S", "KC", "4H", "KH", "AD", "2S", "TS", "QD", "AH", "9C")]
    assert (min(hand_1), max(hand_1)) == (0, 7)
    one = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unread=[UNREAD]))
    assert "while 1 card of the photo" in doubts(one)[0].message


def test_nothing_is_flagged_when_the_cards_are_sure_or_the_player_gave_the_starter():
    sure = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",))))
    assert doubts(sure) == () and sure.warnings == () and sure.as_json()["doubts"] == []
    given = count_show(_recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"2S": "3S"}, unread=[UNREAD]),
                       starter="2S")
    assert doubts(given) == ()
    # the given starter is not one of the hand's cards, and an unsure hand card still counts against it
    given = count_show(_recognition((Role.HAND, HAND), unsure={"5H": "6H"}), starter="2S")
    assert [d.message for d in doubts(given)] == ["hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H"]


class _Recognizer:
    """Stands in for the models: the CLI's photo recognised as ``recognition``."""

    def __init__(self, recognition):
        self.recognition = recognition

    def read_and_recognize(self, photo):
        return None, self.recognition


@pytest.fixture
def unsure_photo(monkeypatch, tmp_path):
    recognition = _recognition((Role.HAND, HAND), (Role.STARTER, ("2S",)), unsure={"5H": "6H"}, unread=[UNREAD])
    monkeypatch.setattr("companion.cli.recognition_commands._recognizer", lambda args: _Recognizer(recognition))
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"")  # the command checks the file is there; the stand-in models never read it
    return str(photo)


def test_crib_show_prints_each_doubt_as_a_warning_and_lists_them_in_json(unsure_photo, capsys):
    assert main(["show", unsure_photo]) == 0
    out = capsys.readouterr().out
    warnings = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert warnings[:2] == [
        "warning: check the starter 2S: taken while 1 card of the photo could not be read: "
        "the real starter may be one of them (then hand 1 counts 7 to 16)",
        "warning: hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H"]
    assert main(["show", unsure_photo, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["doubts"][0] == {"kind": "starter", "card": "2S", "message": warnings[0][len("warning: "):],
                                 "asked": True, "unsure": False, "alternative": None, "unread": 1, "alternatives": []}
    assert data["doubts"][1] == {"kind": "card", "card": "5H", "asked": True,
                                 "message": "hand 1 counts 7 with 5H, or 2 if it is 6H: confirm 5H",
                                 "group": "hand 1", "total": 7, "alternative": "6H", "alternative_total": 2,
                                 "alternatives": [{"card": "6H", "chance": 0.3, "total": 2}]}
    assert data["hands"][0]["chance"] == round(0.95 ** 4 * 0.4, 4)
    assert data["doubts"][1]["message"] in data["warnings"]
    assert main(["show", unsure_photo, "--starter", "2S", "--json"]) == 0  # the player named the starter
    assert [d["kind"] for d in json.loads(capsys.readouterr().out)["doubts"]] == ["card"]
