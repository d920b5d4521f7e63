"""The show: every worked example of RULES.md and sources 000-004, itemised breakdowns, the
spoken count, and property tests against an independent naive scorer."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules.cards import DECK, Card, DuplicateCardError, parse_cards
from companion.rules.show import HandError, his_heels, number_words, score, score_total


def count(hand, starter, crib=False):
    return score(parse_cards(hand.split()), Card.parse(starter), crib=crib)


def kinds(show):
    out = {}
    for item in show.items:
        out[item.kind] = out.get(item.kind, 0) + item.points
    return out


# (hand, starter, crib, total, points by kind) — suits not given by a source are chosen so that
# they add no flush or nobs.
GOLDEN = [
    # RULES.md / source 003: 6+9, 7+8 and a run of five
    ("5S 6S 7D 9C", "8H", False, 9, {"fifteen": 4, "run": 5}),
    # RULES.md / source 002 example 1
    ("6C TD 5H 4S", "5D", False, 16, {"fifteen": 8, "pair": 2, "run": 6}),
    # source 002 example 2 (J-2 with both 3s, pair, two runs A-2-3, nobs)
    ("JD 3S 3C 2S", "AD", False, 13, {"fifteen": 4, "pair": 2, "run": 6, "nobs": 1}),
    # source 002 example 3: 3-3-4-4-A: one fifteen and two pairs
    ("3H 4D 3C 4S", "AH", False, 6, {"fifteen": 2, "pair": 4}),
    # source 001: the dealer's hand and crib, North's hand
    ("5H 5C 6D JD", "4D", False, 17, {"fifteen": 8, "pair": 2, "run": 6, "nobs": 1}),
    ("KC QH 4S AC", "4D", True, 10, {"fifteen": 8, "pair": 2}),
    ("TH 5S 7C 8S", "4D", False, 4, {"fifteen": 4}),
    # the 29 hand (sources 000, 002, RULES.md)
    ("5H 5C 5S JD", "5D", False, 29, {"fifteen": 16, "pair": 12, "nobs": 1}),
    # source 002: 8-7-7-A makes fifteen three ways, plus the pair of 7s
    ("8C 7H 7D AS", "KC", False, 8, {"fifteen": 6, "pair": 2}),
    # source 002: 9-T-J-Q run of four
    ("9C TD JH QS", "2C", False, 4, {"run": 4}),
    # source 003: four diamonds, starter another suit, scores 4; 5 with the starter
    ("2D 4D 8D KD", "6C", False, 4, {"flush": 4}),
    ("2D 4D 8D KD", "6D", False, 5, {"flush": 5}),
    # crib flush: only all five (sources 000-004, RULES.md)
    ("2D 4D 8D KD", "6C", True, 0, {}),
    ("2D 4D 8D KD", "6D", True, 5, {"flush": 5}),
    # source 003: jack of clubs in hand with a clubs starter
    ("JC 2D 4H 8S", "6C", False, 1, {"nobs": 1}),
    # the starter itself never scores nobs
    ("2D 4H 8S KS", "JC", False, 0, {}),
    # source 003 table: 6 and 9 score 2; 4-5-6 scores 3
    ("6C 9D AH KS", "2C", False, 2, {"fifteen": 2}),
    ("4C 5D 6H KS", "QC", False, 9, {"fifteen": 6, "run": 3}),
]


@pytest.mark.parametrize("hand, starter, crib, total, by_kind", GOLDEN)
def test_golden_counts(hand, starter, crib, total, by_kind):
    show = count(hand, starter, crib)
    assert show.total == total
    assert kinds(show) == by_kind


def test_items_name_their_cards():
    show = count("6C TD 5H 4S", "5D")
    fifteens = sorted(sorted(map(str, i.cards)) for i in show.items if i.kind == "fifteen")
    assert fifteens == [["4S", "5D", "6C"], ["4S", "5H", "6C"], ["5D", "TD"], ["5H", "TD"]]
    runs = sorted(sorted(map(str, i.cards)) for i in show.items if i.kind == "run")
    assert runs == [["4S", "5D", "6C"], ["4S", "5H", "6C"]]
    assert [sorted(map(str, i.cards)) for i in show.items if i.kind == "pair"] == [["5D", "5H"]]


@pytest.mark.parametrize("hand, starter, runs, length", [
    ("3C 3D 4H 5S", "KC", 2, 3),      # double run
    ("3C 3D 3H 4S", "5C", 3, 3),      # triple run
    ("3C 3D 4H 4S", "5C", 4, 3),      # double-double run
    ("3C 3D 4H 5S", "6C", 2, 4),      # double run of four
    ("3C 4D 5H 6S", "7C", 1, 5),      # run of five, not its runs of three or four
])
def test_multiple_runs_are_itemised(hand, starter, runs, length):
    items = [i for i in count(hand, starter).items if i.kind == "run"]
    assert len(items) == runs
    assert all(i.points == length and len(i.cards) == length for i in items)
    assert len({frozenset(i.cards) for i in items}) == runs


def test_double_double_run_totals_16():
    # 3-3-4-4-5: four runs of three (12), two pairs (4), and 3+3+4+5 with either 4 (4)
    show = count("3C 3D 4H 4S", "5C")
    assert kinds(show) == {"run": 12, "pair": 4, "fifteen": 4}
    assert show.total == 20


@pytest.mark.parametrize("hand, starter, crib, spoken", [
    ("5H 5C 5S JD", "5D", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
     "fifteen fourteen, fifteen sixteen and a double pair royal is twenty-eight, "
     "and one for his nob is twenty-nine"),
    ("5H 5C 6D JD", "4D", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight and a pair is ten, "
     "and two runs of three is sixteen, and one for his nob is seventeen"),
    ("3H 4D 3C 4S", "AH", False, "fifteen two and a pair is four, and another pair is six"),
    ("5S 6S 7D 9C", "8H", False, "fifteen two, fifteen four and a run of five is nine"),
    ("2H 4C 6D 8S", "KH", False, "nineteen"),
    ("2D 4D 8D KD", "6D", False, "five for the flush is five"),
    ("2D 4D 8D KD", "6C", False, "four for the flush is four"),
    ("2D 4D 8D QD", "AC", False, "fifteen two, fifteen four and four for the flush is eight"),
    ("3C 3D 3H 8S", "KD", False, "a pair royal is six"),
    ("3C 3D 3H 9S", "KD", False, "fifteen two, fifteen four, fifteen six and a pair royal is twelve"),
    ("JC 2D 4H 8S", "6C", False, "one for his nob is one"),
])
def test_spoken_count(hand, starter, crib, spoken):
    assert count(hand, starter, crib).spoken == spoken


def test_number_words():
    assert [number_words(n) for n in (0, 15, 20, 21, 29, 30, 121 % 100)] == [
        "zero", "fifteen", "twenty", "twenty-one", "twenty-nine", "thirty", "twenty-one"]


def test_his_heels_is_separate_from_the_hand():
    assert his_heels(Card.parse("JS")).points == 2
    assert his_heels(Card.parse("JS")).kind == "heels"
    assert his_heels(Card.parse("QS")) is None


@pytest.mark.parametrize("hand, starter, error", [
    ("5H 5C 5S", "5D", HandError),
    ("5H 5C 5S JD 2C", "5D", HandError),
    ("5H 5C 5S 5C", "5D", DuplicateCardError),
    ("5H 5C 5S JD", "5H", DuplicateCardError),
])
def test_bad_hands(hand, starter, error):
    with pytest.raises(error):
        count(hand, starter)


# ---------------------------------------------------------------- properties

def naive_points(hand, starter, crib):
    """The rules written out directly, independent of the pattern cache."""
    cards = list(hand) + [starter]
    points = 0
    for size in range(2, 6):
        points += 2 * sum(1 for c in combinations(cards, size) if sum(x.value for x in c) == 15)
    points += 2 * sum(1 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for length in (5, 4, 3):
        runs = [c for c in combinations(cards, length)
                if len({x.rank for x in c}) == length
                and max(x.rank for x in c) - min(x.rank for x in c) == length - 1]
        if runs:
            points += length * len(runs)
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return points


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=400, deadline=None)
@given(five_cards, st.booleans())
def test_matches_naive_scorer(cards, crib):
    hand, starter = cards[:4], cards[4]
    show = score(hand, starter, crib)
    assert show.total == naive_points(hand, starter, crib)
    assert show.total == sum(i.points for i in show.items) == score_total(hand, starter, crib)


@settings(max_examples=200, deadline=None)
@given(five_cards, st.randoms())
def test_order_independent(cards, rnd):
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    a, b = score(hand, starter), score(shuffled, starter)
    assert a.total == b.total
    assert Counter((i.kind, frozenset(i.cards), i.points) for i in a.items) == Counter(
        (i.kind, frozenset(i.cards), i.points) for i in b.items)


@settings(max_examples=300, deadline=None)
@given(five_cards)
def test_crib_never_beats_hand_and_impossible_totals_never_appear(cards):
    hand, starter = cards[:4], cards[4]
    as_hand, as_crib = score(hand, starter), score(hand, starter, crib=True)
    assert as_crib.total <= as_hand.total
    for total in (as_hand.total, as_crib.total):
        assert 0 <= total <= 29 and total not in (19, 25, 26, 27)


@settings(max_examples=200, deadline=None)
@given(five_cards)
def test_spoken_count_ends_on_the_total(cards):
    show = score(cards[:4], cards[4])
    last = show.spoken.rsplit(" ", 1)[-1]
    assert last == ("nineteen" if show.total == 0 else number_words(show.total))
