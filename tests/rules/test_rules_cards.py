"""Cards: parsing every accepted spelling, canonical text, errors that name the token."""

import pytest
from hypothesis import given, strategies as st

from companion.rules.cards import DECK, Card, CardParseError, DuplicateCardError, parse_cards


@pytest.mark.parametrize("text", ["5H", "5h", " 5h ", "5♥", "5♡", "five of hearts", "5 of Hearts"])
def test_five_of_hearts_spellings(text):
    assert Card.parse(text) == Card(5, "H")


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10♥", "10 of hearts", "ten of hearts"])
def test_ten_spellings_are_canonical_t(text):
    card = Card.parse(text)
    assert (card.rank, card.suit, str(card)) == (10, "H", "TH")


@pytest.mark.parametrize("text, canonical", [
    ("ace of spades", "AS"), ("Jack of Diamonds", "JD"), ("queen of clubs", "QC"),
    ("king of spades", "KS"), ("A♠", "AS"), ("J♦", "JD"), ("J♢", "JD"), ("2♣", "2C"), ("2♧", "2C"),
    ("Q♤", "QS"), ("td", "TD"),
])
def test_names_and_symbols(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["5X", "11H", "", "  ", "H", "1H", "0S", "ZZ", "5 of stars", "eleven of hearts"])
def test_bad_cards_raise_a_value_error_naming_the_token(text):
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


def test_non_text_is_rejected():
    with pytest.raises(CardParseError):
        Card.parse(5)


def test_constructor_validates():
    with pytest.raises(ValueError):
        Card(14, "H")
    with pytest.raises(ValueError):
        Card(5, "X")


def test_values_order_and_identity():
    assert [Card.parse(t).value for t in "AS 5D TC JH QS KD".split()] == [1, 5, 10, 10, 10, 10]
    assert sorted(parse_cards(["KS", "AH", "5D", "5C"])) == list(parse_cards(["AH", "5C", "5D", "KS"]))
    assert len({Card.parse("5h"), Card.parse("5♥"), Card(5, "H")}) == 1
    assert len(DECK) == 52 and len(set(DECK)) == 52


def test_duplicates_are_named():
    with pytest.raises(DuplicateCardError, match="5H appears twice"):
        parse_cards(["5H", "6D", "5h"])


@given(st.sampled_from(DECK))
def test_round_trip(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.name) == card
    assert Card.parse(str(card).lower()) == card
