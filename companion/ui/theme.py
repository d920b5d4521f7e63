"""Sizes and colours: numbers readable at arm's length from a tablet lying on the table,
touch targets of at least 48 dp (56 dp used), high contrast on a felt green."""

from __future__ import annotations

from pathlib import Path

from kivy.core.text import LabelBase
from kivy.metrics import dp, sp

from companion.ui.cardtext import SUIT_SYMBOLS, card_text  # noqa: F401  (the screens' card words)

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
# Names written in a track's colour: the colour lightened, to read at 4.5:1 on the felt (WCAG AA).
TRACK_TEXT = tuple((c[0] + (1 - c[0]) * 0.45, c[1] + (1 - c[1]) * 0.45, c[2] + (1 - c[2]) * 0.45, 1) for c in TRACKS)
INPUT = (0.97, 0.97, 0.94, 1)      # a text box: dark text on near white
INPUT_TEXT = (0.05, 0.05, 0.05, 1)
INPUT_HINT = (0.33, 0.33, 0.33, 1)
ROLE_COLOURS = {"hand": (0.35, 0.85, 0.35, 1), "crib": (1.0, 0.63, 0.0, 1), "starter": (0.0, 0.8, 1.0, 1),
                "unknown": (0.7, 0.7, 0.7, 1), "not counted": (0.4, 0.4, 0.4, 1)}
FLAG_COLOUR = (0.95, 0.15, 0.15, 1)

# Every text in the app is drawn in DejaVu Sans, bundled: it has the four suit symbols (Kivy's
# Roboto has none, so "10♣" read "10▯"). app.kv makes it every Label's, TextInput's and Popup title's font.
FONTS = Path(__file__).resolve().parent / "fonts"
UI_FONT = "CribSans"
LabelBase.register(UI_FONT, fn_regular=str(FONTS / "DejaVuSans.ttf"), fn_bold=str(FONTS / "DejaVuSans-Bold.ttf"))
CARD_FONT = UI_FONT
SUIT_COLOURS = {"S": (0.1, 0.1, 0.1, 1), "C": (0.1, 0.1, 0.1, 1), "H": (0.8, 0.1, 0.1, 1), "D": (0.8, 0.1, 0.1, 1)}
