"""Discard advisor: exact expectations checked by enumerating every outcome."""

from itertools import combinations

import pytest

from companion.rules.cards import DECK, Card, DuplicateCardError, parse_cards
from companion.rules.discard import DealError, advise
from companion.rules.show import score_total


def brute_force(dealt, option):
    unseen = [card for card in DECK if card not in set(dealt)]
    hand = sum(score_total(option.keep, s) for s in unseen) / len(unseen)
    others = 4 - len(option.discard)
    total = outcomes = 0
    for drawn in combinations(unseen, others):
        crib = option.discard + drawn
        for starter in unseen:
            if starter not in drawn:
                total += score_total(crib, starter, crib=True)
                outcomes += 1
    return hand, total / outcomes


@pytest.fixture(scope="module")
def six():
    dealt = parse_cards("5H 5C 6D JD 4S KC".split())
    return dealt, advise(dealt, dealer=True), advise(dealt, dealer=False)


def test_six_card_deal_is_exact(six):
    dealt, as_dealer, _ = six
    assert len(as_dealer.options) == 15
    by_discard = {frozenset(o.discard): o for o in as_dealer.options}
    # the best keep, a jack thrown with its suit-mate in the hand, and a flush-capable discard
    for thrown in (["JD", "KC"], ["6D", "JD"], ["5H", "5C"]):
        option = by_discard[frozenset(parse_cards(thrown))]
        hand, crib = brute_force(dealt, option)
        assert option.expected_hand == pytest.approx(hand, abs=1e-12)
        assert option.expected_crib == pytest.approx(crib, abs=1e-12)


def test_five_card_deal_is_exact():
    dealt = parse_cards("JH 5H 2H 9H 4S".split())  # a flush-capable keep and an unseen-jack mix
    advice = advise(dealt, dealer=True)
    assert len(advice.options) == 5
    option = next(o for o in advice.options if [str(c) for c in o.discard] == ["4S"])
    hand, crib = brute_force(dealt, option)
    assert option.expected_hand == pytest.approx(hand, abs=1e-12)
    assert option.expected_crib == pytest.approx(crib, abs=1e-12)


def test_dealer_adds_and_pone_subtracts_the_crib(six):
    _, as_dealer, as_pone = six
    for options in (as_dealer.options, as_pone.options):
        nets = [o.expected_net for o in options]
        assert nets == sorted(nets, reverse=True)
    for o in as_dealer.options:
        assert o.expected_net == pytest.approx(o.expected_hand + o.expected_crib)
    for o in as_pone.options:
        assert o.expected_net == pytest.approx(o.expected_hand - o.expected_crib)
    assert [str(c) for c in as_dealer.options[0].discard] == ["JD", "KC"]
    # never give the opponent both fives
    assert [str(c) for c in as_pone.options[-1].discard] == ["5H", "5C"]


def test_keep_and_discard_partition_the_deal(six):
    dealt, as_dealer, _ = six
    for o in as_dealer.options:
        assert sorted(o.keep + o.discard) == sorted(dealt) and len(o.keep) == 4


@pytest.mark.parametrize("cards, error, message", [
    ("5H 5C 6D JD", DealError, "6 cards"),
    ("5H 5C 6D JD 4S KC 2C", DealError, "6 cards"),
    ("5H 5C 6D JD 5H KC", DuplicateCardError, "5H appears twice"),
])
def test_bad_deals(cards, error, message):
    with pytest.raises(error, match=message):
        advise([Card.parse(token) for token in cards.split()], dealer=True)
