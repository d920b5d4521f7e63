"""Counts said in words the way a reader expects them: "1 card", "2 cards", never "1 cards".

    plural(1, "card")                  -> "1 card"
    plural(3, "entry", "entries")      -> "3 entries"
    plural(2, "card", number=False)    -> "cards"   (the noun alone, for "2 of 4 cards")
"""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None, *, number: bool = True) -> str:
    """``count`` and ``noun``, the noun in the plural (``many``, else noun + "s") unless count is 1."""
    word = noun if count == 1 else (many if many is not None else noun + "s")
    return f"{count} {word}" if number else word
