"""The review of a recognised photo as plain data: what is flagged, corrections, moves, and
nothing counted while a flagged card is left."""

import pytest

from companion.ui.review import CRIB, IGNORED, STARTER, Place, Review, ReviewError, hand
from companion.ui import present
from vision import CardGroup, RecognizedCard, Recognition, Role


def recognition(unread=()):
    cards = (RecognizedCard("9H", 0.9, (0, 0, 10, 10)), RecognizedCard("6D", 0.9, (10, 0, 20, 10)),
             RecognizedCard("QH", 0.3, (20, 0, 30, 10), confirm=True, runner_up="TH"),
             RecognizedCard("5C", 0.9, (30, 0, 40, 10)), RecognizedCard("AD", 0.95, (50, 50, 60, 60)))
    groups = (CardGroup(Role.HAND, ("9H", "6D", "QH", "5C")), CardGroup(Role.STARTER, ("AD",)))
    return Recognition("photo.jpg", 100, 100, cards, groups, (), {}, tuple(unread))


def test_an_unsure_card_blocks_the_count_until_confirmed():
    review = Review(recognition())
    assert review.problems() == ["read as Q\u2665, 30 % sure, or 10\u2665: tap to confirm or correct"]
    with pytest.raises(ReviewError, match="1 card"):
        review.recognition()
    review.confirm(2)
    result = review.recognition()
    assert [g.cards for g in result.groups] == [("9H", "6D", "QH", "5C"), ("AD",)]
    assert not any(c.confirm for c in result.cards)


def test_a_correction_and_a_duplicate():
    review = Review(recognition())
    review.correct(2, "6D")   # now 6D twice: both flagged
    assert review.duplicates() == {"6D"} and len(review.problems()) == 2
    review.correct(2, "qs")
    assert review.cards[2].code == "QS" and review.cards[2].read_as == "QH" and not review.problems()
    assert review.groups()[hand(1)] == ["9H", "6D", "QS", "5C"]


def test_unread_cards_are_named_or_left_out_and_roles_move():
    review = Review(recognition(unread=[(70, 70, 80, 80)]))
    assert "unread" in review.problems()[-1]
    with pytest.raises(ReviewError):
        review.confirm(5)
    review.move(5, IGNORED)
    review.confirm(2)
    review.confirm(4)  # the starter, chosen while a card was unread
    assert not review.problems()
    review.move(0, STARTER)  # one starter only: the old one goes back to the unknown cards
    assert review.groups()[STARTER] == ["9H"] and review.groups()[Place.of(Role.UNKNOWN, 1)] == ["AD"]
    review.move(1, CRIB)
    roles = [g.role for g in review.recognition().groups]
    assert roles == [Role.HAND, Role.CRIB, Role.STARTER, Role.UNKNOWN]


def test_the_missed_items_named_for_muggins():
    items = [{"kind": "fifteen", "cards": ["7H", "8S"], "points": 2},
             {"kind": "pair", "cards": ["8S", "8D"], "points": 2},
             {"kind": "run", "cards": ["6C", "7H", "8S"], "points": 3}]
    assert present.missed_items(items, 3) == [items[2]]
    assert present.missed_items(items, 2) == [items[1]]   # the one counted last
    assert present.missed_items(items, 5) == [items[1], items[2]]
    assert present.missed_items(items, 1) == []
    assert present.item_words(items[0]) == "fifteen 7♥+8♠"  # with suits: 5 5 5 J has four fifteens 5+J
