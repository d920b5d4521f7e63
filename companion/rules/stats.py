"""Exact score distribution over every (4 cards + starter) combination, counted not dealt.

Fifteens, pairs and runs depend only on ranks, so the 12,994,800 combinations are grouped by
(hand rank multiset, starter rank): about 23,000 groups. For each group the rank score comes
from the scorer's own ``rank_points`` and the suit assignments are counted in closed form:

* all assignments: prod C(4, c_r) for the hand, times (4 - c_s) starter suits;
* his nobs: a hand jack with the starter's suit. Over all assignments the hand's jack suits
  and its starter-rank suits are independent subsets, so the count is
  ways * j * (4 - c_s) / 4 (j = jacks in hand; 0 when the starter is a jack);
* flushes need four distinct hand ranks: 4 suits for the hand; if the starter's rank is not in
  the hand, 1 starter suit of 4 makes a 5-card flush (with nobs when the hand has the jack),
  the other 3 a 4-card flush; if it is in the hand, all 3 starter suits give a 4-card flush.

Under crib rules a 4-card flush scores nothing. ``ranks`` restricts the deck (all four suits
of the given ranks) so a brute-force count can check this one on a smaller deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb
from typing import Iterable

from companion.rules.cards import JACK
from companion.rules.show import RANK_KEY, points_by_rank_key

MAX_SCORE = 29
# No 4 cards and a starter count these, as a hand or as a crib (RULES.md; ``score_distribution``
# counts none of them); players say "nineteen" for a hand worth nothing.
IMPOSSIBLE_TOTALS = frozenset({19, 25, 26, 27})


def possible_total(points: int) -> bool:
    """Whether some hand or crib (4 cards and the starter) counts exactly ``points``."""
    return 0 <= points <= MAX_SCORE and points not in IMPOSSIBLE_TOTALS


@dataclass(frozen=True, slots=True)
class Distribution:
    """How many (hand, starter) combinations score each total 0..29."""

    crib: bool
    hands: int
    counts: tuple[int, ...]

    @property
    def mean(self) -> float:
        return sum(points * n for points, n in enumerate(self.counts)) / self.hands


def score_distribution(crib: bool = False, ranks: Iterable[int] = range(1, 14)) -> Distribution:
    """Exact counts of each show total over all 4-card hands and starters from ``ranks``."""
    ranks = sorted(set(ranks))
    points = points_by_rank_key()
    counts = [0] * (MAX_SCORE + 7)  # room for base + 6 while adding zero counts
    for hand in combinations_with_replacement(ranks, 4):
        held = {rank: hand.count(rank) for rank in hand}
        if max(held.values()) > 4:
            continue
        ways = 1
        for c in held.values():
            ways *= comb(4, c)
        distinct = len(held) == 4
        jacks = held.get(JACK, 0)
        hand_key = RANK_KEY[hand[0]] + RANK_KEY[hand[1]] + RANK_KEY[hand[2]] + RANK_KEY[hand[3]]
        for starter in ranks:
            c_s = held.get(starter, 0)
            if c_s == 4:
                continue
            base = points[hand_key + RANK_KEY[starter]]
            total = ways * (4 - c_s)
            nobs = 0 if starter == JACK else ways * jacks * (4 - c_s) // 4
            flush4 = flush5 = flush5_nobs = 0
            if distinct:
                flush4 = 12
                if c_s == 0:
                    flush5 = 4
                    flush5_nobs = 4 * jacks if starter != JACK else 0
            plain = total - flush4 - flush5
            plain_nobs = nobs - flush5_nobs
            counts[base] += plain - plain_nobs
            counts[base + 1] += plain_nobs
            counts[base if crib else base + 4] += flush4
            counts[base + 5] += flush5 - flush5_nobs
            counts[base + 6] += flush5_nobs
    if any(counts[MAX_SCORE + 1:]):
        raise ArithmeticError("a show total above 29: the scorer is wrong")
    return Distribution(crib, sum(counts), tuple(counts[:MAX_SCORE + 1]))
