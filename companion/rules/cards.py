"""Playing cards: a small frozen value type with a forgiving parser and one canonical text form.

Canonical text is rank ``A 2-9 T J Q K`` followed by suit ``C D H S`` (``"TD"``, ``"5H"``).
``Card.parse`` also accepts lower case, ``10`` for ten, suit symbols (``5♥``, ``5♡``) and names
(``"10 of hearts"``, ``"ace of spades"``, ``"Jack of Diamonds"``). ``str(Card.parse(t))`` is
always canonical and parses back to the same card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

RANK_CHARS = "A23456789TJQK"
SUITS = "CDHS"
JACK = 11

_SUIT_ALIASES = {
    "c": "C", "♣": "C", "♧": "C", "clubs": "C", "club": "C",
    "d": "D", "♦": "D", "♢": "D", "diamonds": "D", "diamond": "D",
    "h": "H", "♥": "H", "♡": "H", "hearts": "H", "heart": "H",
    "s": "S", "♠": "S", "♤": "S", "spades": "S", "spade": "S",
}
_RANK_ALIASES = {
    **{ch.lower(): i + 1 for i, ch in enumerate(RANK_CHARS)},
    **{str(n): n for n in range(2, 11)},
    "ace": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "jack": 11, "queen": 12, "king": 13,
}
_RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "jack", "queen", "king")
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_NAME_FORM = re.compile(r"^(\w+)\s+of\s+(\w+)$")


class CardParseError(ValueError):
    """A token that is not a card; the message names the token."""


class DuplicateCardError(ValueError):
    """The same card given twice where cards must be distinct."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card: ``rank`` 1 (ace) … 13 (king), ``suit`` one of ``C D H S``.

    Orders by rank, then suit (clubs, diamonds, hearts, spades); hashable.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardParseError(f"rank must be 1..13, got {self.rank!r}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardParseError(f"suit must be one of C D H S, got {self.suit!r}")

    @property
    def value(self) -> int:
        """Counting value: ace 1, pips at face value, J Q K 10."""
        return self.rank if self.rank < 10 else 10

    @property
    def name(self) -> str:
        """English name, e.g. ``"ten of diamonds"`` (parses back)."""
        return f"{_RANK_NAMES[self.rank - 1]} of {_SUIT_NAMES[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse one card token (see the module docstring for the accepted forms)."""
        if not isinstance(text, str):
            raise CardParseError(f"not a card: {text!r} (expected text like 5H)")
        token = text.strip()
        cached = _CANONICAL.get(token)
        if cached is not None:
            return cached
        low = token.lower()
        named = _NAME_FORM.match(low)
        if named:
            rank_part, suit_part = named.groups()
        elif len(low) >= 2:
            rank_part, suit_part = low[:-1].strip(), low[-1]
        else:
            raise CardParseError(f"not a card: {text!r} (expected rank A 2-10 T J Q K and suit C D H S)")
        rank = _RANK_ALIASES.get(rank_part)
        suit = _SUIT_ALIASES.get(suit_part)
        if rank is None or suit is None:
            swapped = _RANK_ALIASES.get(low[1:].strip()), _SUIT_ALIASES.get(low[0])
            if None not in swapped:  # suit first, as in "H5"
                raise CardParseError(f"not a card: {text!r} (did you mean {RANK_CHARS[swapped[0] - 1]}{swapped[1]}? "
                                     "rank first, then suit)")
            what = "rank" if rank is None else "suit"
            raise CardParseError(
                f"not a card: {text!r} (bad {what}; expected rank A 2-10 T J Q K and suit C D H S)")
        return _CANONICAL[RANK_CHARS[rank - 1] + suit]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


# One shared instance per card: parsing canonical text is a dictionary look-up.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
_CANONICAL: dict[str, Card] = {str(card): card for card in DECK}


def parse_cards(tokens: Iterable[str]) -> tuple[Card, ...]:
    """Parse several tokens into distinct cards (order kept)."""
    cards = tuple(Card.parse(token) for token in tokens)
    require_distinct(cards)
    return cards


def require_distinct(cards: Iterable[Card]) -> None:
    """Raise DuplicateCardError naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {card} appears twice")
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as canonical text separated by spaces."""
    return " ".join(str(card) for card in cards)
