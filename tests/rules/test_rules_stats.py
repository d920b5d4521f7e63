"""The full-table statistics: the published distribution, and the counting method against brute force."""

from itertools import combinations

import pytest

from companion.rules.cards import DECK
from companion.rules.show import score_total
from companion.rules.stats import score_distribution


@pytest.fixture(scope="module")
def tables():
    return score_distribution(crib=False), score_distribution(crib=True)


def test_hand_table_matches_the_published_numbers(tables):
    hand, _ = tables
    assert hand.hands == 12_994_800 == sum(hand.counts)
    assert len(hand.counts) == 30
    assert hand.counts[0] == 1_009_008
    assert hand.counts[28] == 76
    assert hand.counts[29] == 4
    assert round(hand.mean, 6) == 4.769152


def test_crib_table_matches_the_published_numbers(tables):
    _, crib = tables
    assert crib.hands == 12_994_800 == sum(crib.counts)
    assert crib.counts[0] == 1_022_208
    # crib rules only take away 4-card flushes: the top of the table is unchanged
    assert crib.counts[28:] == (76, 4)


def test_impossible_totals_never_occur(tables):
    for table in tables:
        assert [table.counts[t] for t in (19, 25, 26, 27)] == [0, 0, 0, 0]


def brute_force(ranks, crib):
    deck = [card for card in DECK if card.rank in ranks]
    counts = [0] * 30
    for hand in combinations(deck, 4):
        for starter in deck:
            if starter not in hand:
                counts[score_total(hand, starter, crib)] += 1
    return tuple(counts)


@pytest.mark.parametrize("ranks", [(3, 4, 5, 10, 11), (1, 2, 5, 11, 13)])
@pytest.mark.parametrize("crib", [False, True])
def test_counting_equals_brute_force_on_a_smaller_deck(ranks, crib):
    # every suit of five ranks (20 cards, 77,520 hand + starter combinations): fifteens, pairs,
    # runs, flushes and nobs all occur
    assert score_distribution(crib, ranks).counts == brute_force(ranks, crib)
