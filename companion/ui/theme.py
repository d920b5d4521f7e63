"""Sizes and colours: numbers readable at arm's length from a tablet lying on the table,
touch targets of at least 48 dp (56 dp used), high contrast on a felt green."""

from __future__ import annotations

import os

from kivy.metrics import dp, sp

TOUCH = dp(56)            # every button's height (>= 48 dp)
TOUCH_MIN = dp(48)
GAP = dp(8)
PAD = dp(12)
SCORE_SP = sp(88)         # the scores on the table
BIG_SP = sp(40)
HEADING_SP = sp(28)
TEXT_SP = sp(20)
SMALL_SP = sp(16)
BUTTON_SP = sp(22)

FELT = (0.05, 0.22, 0.15, 1)
PANEL = (0.09, 0.30, 0.21, 1)
WOOD = (0.55, 0.36, 0.18, 1)
HOLE = (0.20, 0.12, 0.06, 1)
TEXT = (0.97, 0.95, 0.88, 1)
MUTED = (0.75, 0.80, 0.74, 1)
ACCENT = (0.98, 0.78, 0.25, 1)
BUTTON = (0.16, 0.45, 0.32, 1)
BUTTON_DOWN = (0.24, 0.58, 0.42, 1)
DANGER = (0.80, 0.20, 0.18, 1)
WARN = (0.95, 0.55, 0.10, 1)
OK = (0.35, 0.78, 0.35, 1)
HIGHLIGHT = (1.0, 0.85, 0.1, 1)
# One colour per track (side): the board's peg colours.
TRACKS = ((0.90, 0.25, 0.20, 1), (0.25, 0.55, 0.95, 1), (0.95, 0.85, 0.25, 1), (0.70, 0.40, 0.90, 1))
ROLE_COLOURS = {"hand": (0.35, 0.85, 0.35, 1), "crib": (1.0, 0.63, 0.0, 1), "starter": (0.0, 0.8, 1.0, 1),
                "unknown": (0.7, 0.7, 0.7, 1), "not counted": (0.4, 0.4, 0.4, 1)}
FLAG_COLOUR = (0.95, 0.15, 0.15, 1)

# Suit symbols need a font that has them (DejaVu on a desktop); else letters.
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CARD_FONT = _DEJAVU if os.path.exists(_DEJAVU) else "Roboto"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"} if CARD_FONT != "Roboto" else \
    {"S": "S", "H": "H", "D": "D", "C": "C"}
SUIT_COLOURS = {"S": (0.1, 0.1, 0.1, 1), "C": (0.1, 0.1, 0.1, 1), "H": (0.8, 0.1, 0.1, 1), "D": (0.8, 0.1, 0.1, 1)}


def card_text(code: str) -> str:
    """``"TH"`` -> ``"10♥"`` (the way a card reads on the screen)."""
    if not code or len(code) != 2:
        return code or "?"
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS.get(code[1], code[1])
