"""Discard advisor: rank every discard of a deal by exact expected points.

A 6-card deal (2 players) discards 2; a 5-card deal (3 or 4 players) discards 1. For each
choice the value is

    expected hand  = mean show score of the kept 4 over every unseen card as the starter
                     (46 or 47 of them, all equally likely);
    expected crib  = mean crib score when the crib is the discards plus k cards drawn at random
                     from the unseen cards (k = 2 for 2 players: the opponent's discards;
                     k = 3 for 3-4 players: the others' discards and/or the blind card) and the
                     starter drawn from the rest; exact over all C(n, k) * (n - k) outcomes;
    expected net   = hand + crib for the dealer (the crib is yours, or your partner's), hand - crib
                     for the pone (the crib is an opponent's).

The crib model treats the other crib cards as uniformly random: it does not model how the other
players choose their discards. Nothing is sampled. His heels (the dealer's 2 for a jack starter)
is the same whatever you discard, so it is left out; the play (pegging) is not modelled. Fifteens, pairs and runs come from the
scorer's per-rank-pattern points, summed over rank multisets with their card counts as weights;
flush and nobs have closed forms (derived in the comments below).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Sequence

from companion.rules.cards import DECK, JACK, SUITS, Card, require_distinct
from companion.rules.show import RANK_KEY, points_by_rank_key

CRIB_MODEL = ("crib = your discards + other crib cards drawn uniformly from the unseen cards + "
              "a starter from the rest; exact expectation over every outcome")


class DealError(ValueError):
    """A deal the advisor cannot use (wrong number of cards, duplicates)."""


@dataclass(frozen=True, slots=True)
class DiscardOption:
    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    expected_hand: float
    expected_crib: float
    expected_net: float


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    dealt: tuple[Card, ...]
    dealer: bool
    options: tuple[DiscardOption, ...]  # best first

    def as_json(self) -> dict:
        """The ``crib discard --json`` shape (expectations rounded to 6 places)."""
        return {
            "dealt": [str(c) for c in self.dealt], "dealer": self.dealer, "crib_model": CRIB_MODEL,
            "options": [{"discard": [str(c) for c in o.discard], "keep": [str(c) for c in o.keep],
                         "expected_hand": round(o.expected_hand, 6), "expected_crib": round(o.expected_crib, 6),
                         "expected_net": round(o.expected_net, 6)} for o in self.options],
        }


def advise(dealt: Sequence[Card], dealer: bool) -> DiscardAdvice:
    """Every discard of a 6- or 5-card deal with its exact expected values, best first."""
    dealt = tuple(dealt)
    if len(dealt) not in (5, 6):
        raise DealError(f"a deal has 6 cards (2 players) or 5 cards (3-4 players), got {len(dealt)}")
    require_distinct(dealt)
    discards = 2 if len(dealt) == 6 else 1
    dealt_set = set(dealt)
    unseen = [card for card in DECK if card not in dealt_set]
    n = len(unseen)
    rank_left = [0] * 14
    suit_left = dict.fromkeys(SUITS, 0)
    for card in unseen:
        rank_left[card.rank] += 1
        suit_left[card.suit] += 1
    unseen_jacks = [card for card in unseen if card.rank == JACK]
    points = points_by_rank_key()
    others = 4 - discards  # crib cards you do not choose
    crib_table = _crib_rank_table(rank_left, others)
    crib_outcomes = comb(n, others) * (n - others)
    crib_by_ranks: dict[int, float] = {}

    options = []
    for thrown in combinations(dealt, discards):
        keep = tuple(card for card in dealt if card not in thrown)
        hand = _expected_hand(keep, rank_left, suit_left, n, points)
        thrown_key = sum(RANK_KEY[card.rank] for card in thrown)
        crib_rank = crib_by_ranks.get(thrown_key)
        if crib_rank is None:
            crib_rank = crib_by_ranks[thrown_key] = sum(
                weight * points[thrown_key + key] for key, weight in crib_table) / crib_outcomes
        crib = crib_rank + _crib_suit_points(thrown, suit_left, unseen_jacks, n, others)
        net = hand + crib if dealer else hand - crib
        options.append(DiscardOption(thrown, keep, hand, crib, net))
    options.sort(key=lambda o: (-o.expected_net, -o.expected_hand, o.discard))
    return DiscardAdvice(dealt, dealer, tuple(options))


def _expected_hand(keep, rank_left, suit_left, n, points) -> float:
    key = RANK_KEY[keep[0].rank] + RANK_KEY[keep[1].rank] + RANK_KEY[keep[2].rank] + RANK_KEY[keep[3].rank]
    total = 0
    for rank in range(1, 14):
        if rank_left[rank]:
            total += rank_left[rank] * points[key + RANK_KEY[rank]]
    expected = total / n
    suit = keep[0].suit
    if all(card.suit == suit for card in keep):
        expected += 4 + suit_left[suit] / n  # 5 when the starter matches
    for card in keep:
        if card.rank == JACK:
            expected += suit_left[card.suit] / n  # his nobs: starter of the jack's suit
    return expected


def _crib_rank_table(rank_left: list[int], others: int) -> list[tuple[int, int]]:
    """(rank key of the unknown crib cards + starter, number of card outcomes) pairs."""
    table: dict[int, int] = {}
    ranks = [rank for rank in range(1, 14) if rank_left[rank]]
    for drawn in combinations_with_replacement(ranks, others):
        weight = 1
        for rank in set(drawn):
            weight *= comb(rank_left[rank], drawn.count(rank))
        if not weight:
            continue
        key = sum(RANK_KEY[rank] for rank in drawn)
        for starter in ranks:
            starters = rank_left[starter] - drawn.count(starter)
            if starters > 0:
                table[key + RANK_KEY[starter]] = table.get(key + RANK_KEY[starter], 0) + weight * starters
    return list(table.items())


def _crib_suit_points(thrown, suit_left, unseen_jacks, n, others) -> float:
    value = 0.0
    suit = thrown[0].suit
    if all(card.suit == suit for card in thrown):
        # 5-card flush: the k other crib cards and the starter all of the discards' suit.
        f = suit_left[suit]
        value += 5 * comb(f, others) * max(f - others, 0) / (comb(n, others) * (n - others))
    for card in thrown:
        if card.rank == JACK:
            value += suit_left[card.suit] / n  # the starter is uniform over the unseen cards
    for jack in unseen_jacks:
        # P(this jack is among the k drawn) * P(starter of its suit | it is drawn)
        #   = k/n * (f - 1)/(n - 1): the starter is uniform over the n - k cards left, of
        #   which on average (f - 1)(n - k)/(n - 1) are of the jack's suit.
        value += others / n * (suit_left[jack.suit] - 1) / (n - 1)
    return value
