"""Card and corner-index geometry in one place: measured on cards and the rendered decks, not tuned.

Shares are of the card's width (x) and height (y) when it stands upright.
"""

from __future__ import annotations

# A poker card is 2.5 x 3.5 in: height / width.
CARD_ASPECT = 1.4
# The upright card the second look reads: CARD_W x CARD_H pixels at that aspect.
CARD_W = 200
CARD_H = round(CARD_W * CARD_ASPECT)
# Where a corner index sits on an upright card (x1, y1, x2, y2 shares): rank + suit from the corner
# to about a fifth of the width, measured on the rendered decks; a tighter and a looser box, since
# decks differ (the reader was trained on boxes jittered about as much).
CORNER_BOXES = ((0.03, 0.02, 0.19, 0.27), (0.01, 0.01, 0.24, 0.33))
# An index centre's place in its card's box, in from each corner (share of the box's width, height:
# an upright card's index centre, rendered decks).
INDEX_CENTRE_IN_BOX = (0.15, 0.2)
# An index's long side is this share of its card box's long side (rendered tuning scenes, median;
# 10th-90th percentile 0.15-0.30).
INDEX_PER_CARD_BOX = 0.22
# Without any card box, a card's diagonal is estimated from its index (the index is ~1/5 as tall).
INDEX_TO_CARD_DIAGONAL = 6.0
