"""Class lists shared by the data engine, training and inference (one source of truth).

Card codes are the rules core's canonical text: rank ``A 2-9 T J Q K`` + suit ``C D H S``.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"

# Classifier classes: index = suit * 13 + rank, e.g. CARD_CODES[0] == "AC", CARD_CODES[51] == "KS".
CARD_CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_INDEX: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}

# Detector classes: a corner index (rank + suit symbol) and a whole card (its axis-aligned box,
# occluded parts included).
DETECTOR_CLASSES: tuple[str, ...] = ("index", "card")
INDEX_CLASS = 0
CARD_CLASS = 1
