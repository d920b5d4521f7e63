"""The show: score a 4-card hand or crib with the starter, as data, plus the spoken count.

Fifteens, pairs and runs depend only on the five ranks. They are worked out once per rank
pattern (sorted 5-tuple of ranks, 6,175 patterns) in terms of positions in the rank-sorted
cards, and cached; scoring a hand maps those positions back to its cards and adds the suit
parts (flush, his nobs). The full-table statistics (``stats.py``) and the discard advisor use
the same per-pattern points (``rank_points``), so the published tables check this scorer.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from operator import attrgetter, itemgetter
from typing import Callable, Iterable, NamedTuple, Sequence

from companion.rules.cards import JACK, Card, DuplicateCardError

FIFTEEN, PAIR, RUN, FLUSH, NOBS, HEELS = "fifteen", "pair", "run", "flush", "nobs", "heels"
SHOW_KINDS = (FIFTEEN, PAIR, RUN, FLUSH, NOBS, HEELS)  # every ScoreItem.kind

# A rank multiset as one integer: the sum of 5**(rank-1) over its cards (at most 4 per rank,
# so base 5 never carries). Additive, so partial keys combine without sorting.
RANK_KEY = (0,) + tuple(5 ** (rank - 1) for rank in range(1, 14))

_BY_RANK = attrgetter("rank")
_new_tuple = tuple.__new__


class HandError(ValueError):
    """Cards that do not form a hand + starter (wrong count, duplicates, not cards)."""


class ScoreItem(NamedTuple):
    """One scoring combination: ``kind`` is one of SHOW_KINDS."""

    kind: str
    cards: tuple[Card, ...]
    points: int


class Show(NamedTuple):
    """A counted hand or crib: every combination as an item, in the order players count."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ScoreItem, ...]
    total: int

    @property
    def spoken(self) -> str:
        return spoken_count(self.items)

    def as_json(self, with_cards: bool = True) -> dict:
        """The ``crib score --json`` shape (``with_cards=False``: just total and items)."""
        items = [{"kind": item.kind, "cards": [str(c) for c in item.cards], "points": item.points}
                 for item in self.items]
        if not with_cards:
            return {"total": self.total, "items": items}
        return {"hand": [str(c) for c in self.hand], "starter": str(self.starter), "crib": self.crib,
                "total": self.total, "items": items, "spoken": self.spoken}


@lru_cache(maxsize=None)
def _subsets(n: int) -> tuple[tuple[tuple[int, ...], itemgetter], ...]:
    """Every subset of 2+ positions out of n, with a getter that picks them (tuples always)."""
    return tuple((combo, itemgetter(*combo)) for size in range(2, n + 1)
                 for combo in combinations(range(n), size))


def _pattern_items(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Fifteens, pairs and runs of sorted ``ranks`` as (kind, positions, points)."""
    values = [rank if rank < 10 else 10 for rank in ranks]
    positions = range(len(ranks))
    items: list[tuple[str, tuple[int, ...], int]] = []
    subsets = _subsets(len(ranks))
    for combo, pick in subsets:
        if sum(pick(values)) == 15:
            items.append((FIFTEEN, combo, 2))
    for combo, _ in subsets[:len(ranks) * (len(ranks) - 1) // 2]:  # the 2-card subsets come first
        if ranks[combo[0]] == ranks[combo[1]]:
            items.append((PAIR, combo, 2))
    # Runs: the longest block of consecutive distinct ranks (>= 3); every choice of one card
    # per rank in the block is its own run (double, triple, double-double runs).
    distinct = sorted(set(ranks))
    best: list[int] = []
    block: list[int] = []
    for rank in distinct:
        block = block + [rank] if block and rank == block[-1] + 1 else [rank]
        if len(block) > len(best):
            best = block
    if len(best) >= 3:
        choices = [[i for i in positions if ranks[i] == rank] for rank in best]
        for run in product(*choices):
            items.append((RUN, tuple(run), len(best)))
    return tuple(items)


_ITEMS_BY_RANKS: dict[tuple[int, ...], tuple[tuple[str, tuple[int, ...], int], ...]] = {}
_POINTS_BY_KEY: dict[int, int] = {}
# sorted ranks -> (points, item builder, same-rank position pairs, has a jack)
_COMPILED: dict[tuple[int, ...], tuple[int, Callable, tuple, bool]] = {}


def rank_items(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Cached ``(kind, positions, points)`` for a sorted rank tuple (fifteens, pairs, runs)."""
    items = _ITEMS_BY_RANKS.get(ranks)
    if items is None:
        items = _ITEMS_BY_RANKS[ranks] = _pattern_items(ranks)
    return items


def _compiled(ranks: tuple[int, ...]) -> tuple[int, Callable, tuple, bool]:
    """What ``score`` needs per rank pattern, built once from ``rank_items``.

    The items are made by one small generated function per pattern, e.g. ``lambda c:
    [ScoreItem("fifteen", (c[0], c[3]), 2), ...]`` (the way namedtuple and dataclasses generate
    code): looping over item templates instead took half of the time of ``score``. The source
    is built from this module's constants and integer positions only.
    """
    if len(ranks) != 5 or not all(isinstance(rank, int) and 1 <= rank <= 13 for rank in ranks):
        raise KeyError(ranks)
    items = rank_items(ranks)
    made = ", ".join(f"_new(ScoreItem, ({kind!r}, ({', '.join(f'c[{i}]' for i in where)},), {points}))"
                     for kind, where, points in items)
    build = eval(f"lambda c: [{made}]", {"_new": _new_tuple, "ScoreItem": ScoreItem})  # noqa: S307
    compiled = _COMPILED[ranks] = (
        sum(points for _, _, points in items),
        build,
        tuple(where for kind, where, _ in items if kind == PAIR),
        JACK in ranks)
    return compiled


def rank_points(ranks: tuple[int, ...]) -> int:
    """Points for fifteens, pairs and runs of five ranks (any order); cached by rank key."""
    key = sum(RANK_KEY[rank] for rank in ranks)
    points = _POINTS_BY_KEY.get(key)
    if points is None:
        points = _POINTS_BY_KEY[key] = sum(item[2] for item in rank_items(tuple(sorted(ranks))))
    return points


def points_by_rank_key() -> dict[int, int]:
    """Rank key -> fifteens+pairs+runs points for every possible 5-card rank multiset."""
    if len(_POINTS_BY_KEY) < 6175:
        for combo in _five_rank_multisets():
            rank_points(combo)
    return _POINTS_BY_KEY


def prepare() -> None:
    """Build the per-pattern table for all 6,175 rank patterns now (about 0.1-0.2 s) instead of
    lazily on first sight; later ``score`` calls then never compute a pattern."""
    for ranks in _five_rank_multisets():
        if ranks not in _COMPILED:
            _compiled(ranks)


def _five_rank_multisets() -> Iterable[tuple[int, ...]]:
    for combo in combinations_with_replacement(range(1, 14), 5):
        if combo[0] != combo[4]:  # five of a kind does not exist
            yield combo


def score(hand: Sequence[Card], starter: Card, crib: bool = False) -> Show:
    """Count a hand (or, with ``crib=True``, the crib) with the starter; full breakdown."""
    hand = tuple(hand)
    if len(hand) != 4:
        raise HandError(f"a hand or crib has 4 cards, got {len(hand)}")
    try:
        cards = sorted((*hand, starter), key=_BY_RANK)  # stable: equal ranks keep input order
        ranks = (cards[0].rank, cards[1].rank, cards[2].rank, cards[3].rank, cards[4].rank)
        total, build_items, same_rank, has_jack = _COMPILED.get(ranks) or _compiled(ranks)
    except (AttributeError, TypeError, KeyError):
        bad = next((c for c in (*hand, starter) if not isinstance(c, Card)), None)
        raise HandError(f"not a Card: {bad!r}") from None
    for i, j in same_rank:  # only cards of equal rank can be the same card
        if cards[i].suit == cards[j].suit:
            card = cards[i]
            raise DuplicateCardError("the starter is also in the hand" if card == starter
                                     else f"card {card} appears twice")
    items = build_items(cards)
    suit = starter.suit
    first = hand[0].suit
    if hand[1].suit == first and hand[2].suit == first and hand[3].suit == first:
        if first == suit:
            items.append(_new_tuple(ScoreItem, (FLUSH, (*hand, starter), 5)))
            total += 5
        elif not crib:
            items.append(_new_tuple(ScoreItem, (FLUSH, hand, 4)))
            total += 4
    if has_jack:
        for card in hand:
            if card.rank == JACK and card.suit == suit:
                items.append(_new_tuple(ScoreItem, (NOBS, (card,), 1)))
                total += 1
    return _new_tuple(Show, (hand, starter, crib, tuple(items), total))


def score_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """Just the total of ``score`` (same rules, no breakdown, no validation)."""
    total = rank_points((hand[0].rank, hand[1].rank, hand[2].rank, hand[3].rank, starter.rank))
    total += _flush_points(hand, starter, crib)
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            total += 1
    return total


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    suit = hand[0].suit
    if hand[1].suit != suit or hand[2].suit != suit or hand[3].suit != suit:
        return 0
    if starter.suit == suit:
        return 5
    return 0 if crib else 4


def his_heels(starter: Card) -> ScoreItem | None:
    """The dealer's 2 when the starter is a jack (scored at the cut, never mugginsable)."""
    return ScoreItem(HEELS, (starter,), 2) if starter.rank == JACK else None


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                 "seventeen", "eighteen", "nineteen", "twenty")


def number_words(n: int) -> str:
    """English words for 0..99 (``29`` -> ``"twenty-nine"``)."""
    if n <= 20:
        return _NUMBER_WORDS[n]
    tens = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")[n // 10 - 2]
    return tens if n % 10 == 0 else f"{tens}-{_NUMBER_WORDS[n % 10]}"


_PAIR_GROUP_NAMES = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}
_RUN_COUNT_NAMES = {1: "a run", 2: "two runs", 3: "three runs", 4: "four runs"}


def spoken_count(items: Iterable[ScoreItem]) -> str:
    """The count as players say it, with the running total after each part.

    Order: fifteens ("fifteen two, fifteen four"), then pairs grouped by rank ("a pair",
    "another pair", "a pair royal", "a double pair royal"), then runs grouped by length
    ("a run of three", "two runs of four"; the pairs inside a double run were already said),
    then the flush ("four for the flush" / "five for the flush"), then "one for his nob".
    After the fifteens the first part is joined with " and ", later parts with ", and ".
    A zero hand is "nineteen". Example: "fifteen two, fifteen four, fifteen six and a pair
    is eight, and two runs of three is fourteen, and one for his nob is fifteen".
    """
    items = list(items)
    total = 0
    fifteens: list[str] = []
    others: list[str] = []
    for item in items:
        if item.kind == FIFTEEN:
            total += item.points
            fifteens.append(f"fifteen {number_words(total)}")

    pairs_by_rank: dict[int, int] = {}
    for item in items:
        if item.kind == PAIR:
            pairs_by_rank[item.cards[0].rank] = pairs_by_rank.get(item.cards[0].rank, 0) + 1
    said_a_pair = False
    for rank in sorted(pairs_by_rank):
        count = pairs_by_rank[rank]
        total += 2 * count
        name = "another pair" if count == 1 and said_a_pair else _PAIR_GROUP_NAMES[count]
        said_a_pair = said_a_pair or count == 1
        others.append(f"{name} is {number_words(total)}")

    runs_by_length: dict[int, int] = {}
    for item in items:
        if item.kind == RUN:
            runs_by_length[item.points] = runs_by_length.get(item.points, 0) + 1
    for length in sorted(runs_by_length):
        count = runs_by_length[length]
        total += length * count
        others.append(f"{_RUN_COUNT_NAMES[count]} of {number_words(length)} is {number_words(total)}")

    for item in items:
        if item.kind == FLUSH:
            total += item.points
            others.append(f"{number_words(item.points)} for the flush is {number_words(total)}")
    for item in items:
        if item.kind == NOBS:
            total += item.points
            others.append(f"one for his nob is {number_words(total)}")

    if not fifteens and not others:
        return "nineteen"
    text = ", ".join(fifteens)
    for index, part in enumerate(others):
        if not text:
            text = part
        elif index == 0:
            text = f"{text} and {part}"
        else:
            text = f"{text}, and {part}"
    return text
