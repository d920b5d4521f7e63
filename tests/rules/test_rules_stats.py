"""The full-table statistics: the published distribution, and the counting method against brute force."""

from itertools import combinations

import pytest

from companion.rules.cards import DECK
from companion.rules.show import score_total
from companion.rules.stats import IMPOSSIBLE_TOTALS, possible_total, score_distribution


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


def test_the_rules_cores_possible_totals_are_exactly_those_some_hand_and_crib_count(tables):
    """``possible_total`` (what a claim is refused by, issue 48) agrees with the exact count of
    every hand and every crib, and refuses what lies outside 0..29."""
    for table in tables:
        assert {t for t, n in enumerate(table.counts) if n == 0} == IMPOSSIBLE_TOTALS
        assert [possible_total(t) for t in range(30)] == [n > 0 for n in table.counts]
    assert not possible_total(-1) and not possible_total(30)


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
