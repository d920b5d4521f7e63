"""How a card reads on the screen (no Kivy: the review model uses it too). The app's font
(theme.UI_FONT, DejaVu Sans, bundled) has the four suit symbols."""

from __future__ import annotations

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_text(code: str) -> str:
    """``"TH"`` -> ``"10♥"``."""
    if not code or len(code) != 2:
        return code or "?"
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS.get(code[1], code[1])
