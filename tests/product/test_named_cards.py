"""Issue 36 section 3: doubtful cards never break a count. An unread box the player says is no
card is left out (CLI words and the library's None alike); a named card joins the group it lies in,
not the nearest card's; ``--claim`` with ``--card`` counts the hand; a flagged card sitting on a
trusted card does not change the groups until the player confirms it."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.photo import NOT_A_CARD, UnreadCardError, count_show, name_unread
from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role
from vision.table import as_the_player_says

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT / "sample_images" / "hand_starter_papers.jpg"  # 9H 6D QH 5C, starter AD, a printed page: unread card 1
HAND = "Hand 1: 9H 6D QH 5C + AD  = 6"
W, H = 100.0, 140.0  # a card's box in the constructed layouts


def show(capsys, *args):
    status = main(["show", str(PAPERS), *args])
    out, err = capsys.readouterr()
    return status, out, err


def box(x: float, y: float, scale: float = 1.0) -> tuple[float, float, float, float]:
    return (x, y, x + W * scale, y + H * scale)


# ------------------------------------------------------------------ "not a card"

@pytest.mark.parametrize("word", ["none", "-", "X", "skip", "not"])
def test_an_unread_box_said_to_be_no_card_is_left_out_and_the_hand_counts(capsys, word):
    status, out, err = show(capsys, "--card", "1", word)
    assert status == 0 and err == ""
    assert HAND in out and "unread card" not in out
    assert "taken while 1 card" not in out  # the starter no longer doubted for a box that is no card


def test_the_help_lists_the_words_for_no_card(capsys):
    with pytest.raises(SystemExit):
        main(["show", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--card 1 none (or -, x, skip, not)" in text
    assert NOT_A_CARD == ("none", "-", "x", "skip", "not")


def test_the_library_leaves_out_a_box_named_none_and_refuses_other_words():
    recognition = Recognition("t.jpg", 1000, 800, (RecognizedCard("5H", 0.9, box(100, 100)),), (
        CardGroup(Role.UNKNOWN, ("5H",)),), (Notice(Code.UNREAD_CARD, (1, box(600, 500), None)),),
        unread_boxes=(box(600, 500),))
    left = name_unread(recognition, {1: None})
    assert left.unread_boxes == () and [c.card for c in left.cards] == ["5H"]
    assert left.warnings == (Notice(Code.SINGLE_CARD),)  # the box's warning gone; the layout's, of the card left
    with pytest.raises(UnreadCardError, match="for no card at all: 'none', '-', 'x', 'skip', 'not'"):
        name_unread(recognition, {1: "page"})


# ------------------------------------------------------------------ a named card joins its own group

def test_a_card_named_for_the_page_far_from_the_hand_does_not_join_the_hand(capsys):
    status, out, _ = show(capsys, "--card", "1", "QS")
    assert status == 0
    assert HAND in out and "not counted, 5 cards" not in out
    assert "QS (named) lies apart from the hands and the starter AD: not counted" in out


def test_a_card_named_inside_a_hand_joins_that_hand_in_its_place():
    # a hand of 3 read cards and an unread 4th at its end, the starter apart
    hand = [RecognizedCard(code, 0.9, box(100 + 60 * i, 100)) for i, code in enumerate(("5H", "5C", "JD"))]
    unread = box(280, 100)
    starter = RecognizedCard("5D", 0.9, box(290, 290))
    recognition = Recognition("t.jpg", 1000, 800, tuple(hand) + (starter,),
                              (CardGroup(Role.HAND, ("5H", "5C", "JD")), CardGroup(Role.STARTER, ("5D",))),
                              (Notice(Code.UNREAD_CARD, (1, unread, None)),), unread_boxes=(unread,))
    shown = count_show(recognition, named={1: "5S"})
    [group] = shown.groups
    assert group.cards == ("5H", "5C", "JD", "5S") and shown.starter == "5D"
    assert group.show.total == 29


def test_a_claim_with_a_named_card_counts_the_hand(capsys):
    status, out, err = show(capsys, "--card", "1", "none", "--claim", "7")
    assert status == 0 and err == ""
    assert HAND in out and "claimed 7 of 6: 1 too many" in out
    status, out, err = show(capsys, "--card", "1", "QS", "--claim", "6")
    assert status == 0 and "claimed 6: correct" in out


def test_a_claim_no_hand_can_score_is_refused_in_one_line(capsys):
    status, _, err = show(capsys, "--claim", "40")
    assert status == 2 and err.strip().endswith("--claim: 40 is impossible: no hand counts more than 29")


# ------------------------------------------------------------------ a flagged card on another card's corner

def _pair_with_a_phantom() -> Recognition:
    """Two cards lying as one pair, AC (flagged, read unsure) beside AS, and a phantom 3C: a second,
    unsure reading of AS's corner, its box inside AS's."""
    ace_s = RecognizedCard("AS", 0.9, box(200, 200))
    ace_c = RecognizedCard("AC", 0.45, box(310, 205), confirm=True, runner_up="AH")
    phantom = RecognizedCard("3C", 0.3, (205.0, 205.0, 275.0, 305.0), confirm=True, runner_up="AS")
    return Recognition("t.jpg", 1000, 800, (ace_c, phantom, ace_s), (CardGroup(Role.UNKNOWN, ("AC", "3C", "AS")),),
                       (Notice(Code.ODD_GROUP, (3,)),))


def test_a_phantom_on_a_cards_corner_does_not_make_a_pair_a_group_of_3():
    trusted = as_the_player_says(_pair_with_a_phantom())
    groups = [(g.role, g.cards) for g in trusted.groups]
    assert (Role.UNKNOWN, ("AS", "AC")) in groups or (Role.UNKNOWN, ("AC", "AS")) in groups
    assert (Role.UNKNOWN, ("3C",)) in groups
    assert not any(len(g.cards) == 3 for g in trusted.groups)
    words = [str(w) for w in trusted.warnings]
    assert "3C (read unsure on AS's corner) is left out of the groups until confirmed" in words
    assert "a group of 2 cards is neither a hand (4) nor a deal (5 or 6)" in words
    assert not any("group of 3" in w for w in words)


def test_a_confirmed_card_is_trusted_and_joins_its_group_again():
    shown = count_show(_pair_with_a_phantom(), confirmed=["3c"])
    assert [sorted(g.cards) for g in shown.recognition.groups] == [["3C", "AC", "AS"]]
    with pytest.raises(UnreadCardError, match="confirm 9D: no 9D was read in the photo"):
        count_show(_pair_with_a_phantom(), confirmed=["9D"])


def test_a_phantom_on_a_hand_leaves_the_hand_of_4_to_be_counted():
    hand = [RecognizedCard(code, 0.9, box(100 + 60 * i, 100)) for i, code in enumerate(("5H", "5C", "JD", "4S"))]
    phantom = RecognizedCard("3C", 0.3, (105.0, 110.0, 150.0, 200.0), confirm=True)
    starter = RecognizedCard("5D", 0.9, box(600, 400))
    recognition = Recognition("t.jpg", 1000, 800, tuple(hand) + (phantom, starter),
                              (CardGroup(Role.HAND, ("5H", "3C", "5C", "JD", "4S")), CardGroup(Role.STARTER, ("5D",))),
                              (Notice(Code.DEAL_OF_FIVE),))
    shown = count_show(recognition)
    [hand_1] = shown.groups
    assert hand_1.cards == ("5H", "5C", "JD", "4S") and hand_1.show.total == 15  # 4 fifteens, pair royal, nobs
    assert not any("group of 5" in str(w) for w in shown.recognition.warnings)


def test_a_flagged_card_that_completes_a_fan_stays_in_it():
    # a tight fan of 4: the third card flagged, its box mostly inside its neighbour's; without it
    # the fan would be a group of 3, so it stays (the groups fit the table better with it)
    fan = [RecognizedCard(code, 0.9, box(100 + 25 * i, 100), confirm=(code == "JD"))
           for i, code in enumerate(("5H", "5C", "JD", "4S"))]
    starter = RecognizedCard("5D", 0.9, box(600, 400))
    recognition = Recognition("t.jpg", 1000, 800, tuple(fan) + (starter,),
                              (CardGroup(Role.HAND, ("5H", "5C", "JD", "4S")), CardGroup(Role.STARTER, ("5D",))), ())
    assert as_the_player_says(recognition) is recognition


# ------------------------------------------------------------------ the app's review: the same "not a card"

def test_the_reviews_not_a_card_leaves_the_box_out_as_crib_show_does():
    from companion.photo import count_recognition
    from companion.ui.review import IGNORED, Review

    hand = [RecognizedCard(code, 0.9, box(100 + 60 * i, 100)) for i, code in enumerate(("9H", "6D", "QH", "5C"))]
    starter = RecognizedCard("AD", 0.9, box(120, 400))
    page = box(700, 500, scale=2.5)
    recognition = Recognition("t.jpg", 1280, 960, tuple(hand) + (starter,),
                              (CardGroup(Role.HAND, ("9H", "6D", "QH", "5C")), CardGroup(Role.STARTER, ("AD",))),
                              (Notice(Code.UNREAD_CARD, (1, page, None)),), unread_boxes=(page,))
    review = Review(recognition)
    unread = next(i for i, c in enumerate(review.cards) if c.code is None)
    assert "unread: tap it to name it, or leave it out" in review.problems()
    review.not_a_card(unread)
    assert review.cards[unread].group == IGNORED and review.source.unread_boxes == ()
    assert review.problems() == []  # the starter no longer waits on a box that is no card
    by_cli = name_unread(recognition, {1: "none"})
    assert by_cli.unread_boxes == review.source.unread_boxes and by_cli.warnings == review.source.warnings
    counted = count_recognition(review.recognition())
    assert [g.show.total for g in counted.groups] == [6]
