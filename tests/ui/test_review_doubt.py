"""The review asks the player to confirm what the count doubts (companion.doubt): the starter
recognition chose while cards of the photo were unread, and a card whose other reading changes a
hand's total; as plain data, and on the app's Review screen (headless)."""

import pytest
from kivy.uix.button import Button

from companion.rules import Card, score
from companion.ui.review import IGNORED, STARTER, Place, Review, ReviewError, hand
from vision import CardGroup, RecognizedCard, Recognition, Role

HAND = ("5H", "6C", "4D", "KS")  # with the 2S: 15 two, 15 four, a run of three = 7; as 6H 6C 4D KS: a pair = 2
STARTER_LINE = "Starter 2\u2660 chosen while 1 card was unread (the starter may be one of them): tap to confirm or correct"
HAND_LINE = "read as 5\u2665, 40 % sure, or 6\u2665: hand 1 counts 7, or 2 if it is 6\u2665: tap to confirm or correct"


def recognition(unsure=None, unread=((900.0, 300.0, 1000.0, 440.0),)):
    """Hand 5H 6C 4D KS, starter 2S; ``unsure``: card -> its runner-up; one unread card."""
    unsure = unsure or {}
    cards = tuple(RecognizedCard(code, 0.4 if code in unsure else 0.95, (100.0 * i, 0.0, 100.0 * i + 90, 130.0),
                                 code in unsure, unsure.get(code)) for i, code in enumerate(HAND + ("2S",)))
    groups = (CardGroup(Role.HAND, HAND), CardGroup(Role.STARTER, ("2S",)))
    return Recognition("table.jpg", 1280, 960, cards, groups, (), {}, tuple(unread))


def test_a_starter_chosen_while_cards_were_unread_waits_for_the_player():
    review = Review(recognition())
    assert review.problems() == [STARTER_LINE, "unread: tap it to name it, or leave it out"]
    review.move(5, IGNORED)  # the unread card left out: the starter is still to be confirmed
    assert review.problems() == [STARTER_LINE]
    with pytest.raises(ReviewError, match="Starter 2"):
        review.recognition()
    review.confirm(4)
    assert review.problems() == [] and review.recognition().groups_of(Role.STARTER)[0].cards == ("2S",)


def test_the_starter_the_player_chooses_is_not_doubted():
    review = Review(recognition())
    review.correct(5, "3S")   # the unread card named: the real starter
    review.move(5, STARTER)  # the 2S goes back to the unknown cards
    assert review.problems() == []
    assert review.groups() == {hand(1): list(HAND), STARTER: ["3S"], Place.of(Role.UNKNOWN, 1): ["2S"]}


def test_a_card_whose_other_reading_changes_the_count_names_both_totals():
    review = Review(recognition(unsure={"5H": "6H"}, unread=()))
    assert review.problems() == [HAND_LINE]
    review.correct(0, "6H")  # the player's answer ends the doubt, whichever it is
    assert review.problems() == []
    same = Review(recognition(unsure={"KS": "KD"}, unread=()))  # a king either way: the same count, marked
    assert same.problems() == [] and same.marked(3) == "K\u2660 or K\u2666: 7 either way"


def test_the_games_starter_decides_the_doubts():
    # once cut, the game's starter is counted with: the photo's lone card is not doubted, the hand is against the 3S
    review = Review(recognition(unsure={"5H": "6H"}), starter="3S")
    with_3s = score([Card.parse(c) for c in HAND], Card.parse("3S")).total
    as_6h = score([Card.parse(c) for c in ("6H",) + HAND[1:]], Card.parse("3S")).total
    assert (with_3s, as_6h) == (8, 4)  # a run of four and two fifteens; a pair of 6s and a fifteen
    assert review.problems() == [
        f"read as 5\u2665, 40 % sure, or 6\u2665: hand 1 counts {with_3s}, or {as_6h} if it is 6\u2665: tap to confirm or correct",
        "unread: tap it to name it, or leave it out"]


def test_the_review_screen_asks_to_confirm_the_starter_and_the_card_before_counting(start_app):
    h = start_app()
    h.app.go("review", recognition=recognition(unsure={"5H": "6H"}), photo=None)
    h.wait()
    review = h.screen("review")
    # the starter first: with a card unread the count could be anything
    assert review.ids.problems.text.splitlines() == [STARTER_LINE, HAND_LINE, "unread: tap it to name it, or leave it out"]
    assert review.ids.count.disabled
    review.tap_card(4)  # the starter
    h.pump(0.2, frames=4)
    [yes] = [b for b in review.picker.walk() if isinstance(b, Button) and b.text.startswith("Yes")]
    assert yes.text == "Yes, the starter is 2\u2660"
    yes.dispatch("on_release")
    review.tap_card(0)
    h.pump(0.2, frames=4)
    [yes] = [b for b in review.picker.walk() if isinstance(b, Button) and b.text.startswith("Yes")]
    assert yes.text == "Yes, it is 5\u2665"
    yes.dispatch("on_release")
    review.review.move(5, IGNORED)
    review.refresh()
    assert not review.ids.count.disabled and review.ids.count.text == "Count"
    h.tap(review.ids.count)
    h.wait(lambda: h.current == "show", what="the reviewed photo counted")
    assert [g.show.total for g in h.screen("show").context["photo_show"].groups] == [7]


def test_the_review_screen_asks_what_changes_a_count_marks_the_rest_and_keeps_it_in_one_tap(start_app):
    h = start_app()
    # 5H or 6H changes the count (asked); KS or KD does not (marked); no unread card
    h.app.go("review", recognition=recognition(unsure={"5H": "6H", "KS": "KD"}, unread=()), photo=None)
    h.wait()
    review = h.screen("review")
    assert review.ids.problems.text.splitlines() == [HAND_LINE]
    assert review.ids.marked.text == "Kept as read: K\u2660 or K\u2666: 7 either way"
    assert [b["label"] for b in review.ids.photo.boxes][:4] == ["5\u2665?", "6\u2663", "4\u2666", "K\u2660*"]
    assert review.ids.count.disabled and review.ids.rest.text == "The rest are right" and review.ids.rest.opacity == 1
    h.tap(review.ids.rest)  # one tap: the 5H kept as read too
    h.pump(0.2, frames=4)
    assert not review.ids.count.disabled and review.ids.rest.opacity == 0
    assert [c.card for c in review.review.recognition().cards if c.confirm] == ["5H", "KS"]  # unconfirmed
