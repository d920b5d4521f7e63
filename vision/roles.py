"""What a group of cards on the table is: its own module, so the notices that word a group's role
and the results that hold it share one ``Role`` (``vision.results`` imports the notices)."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """What a group of cards on the table is. A deal of 5 or 6 cards is a ``HAND`` (to be
    discarded to 4: recognition warns). Members compare and serialise as their text."""

    HAND = "hand"
    CRIB = "crib"
    STARTER = "starter"
    UNKNOWN = "unknown"  # a group that fits no role (say 2 or 3 cards)
