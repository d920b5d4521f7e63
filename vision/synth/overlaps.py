"""Mix v4 (issue 20): the overlaps players make, and things on the table that look like indices.

Layouts, in card heights like ``layouts``: pairs of cards overlapping at a corner, rows pushed
together at the spacing players use (the lower cards show their index column and a little more),
fans, and the starter turned face up on the pack. Distractors: poker chips with suit marks and
printed matter (labels, a printed page) with rank letters and digits, drawn on the table texture.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# fan layout of mix v4: (arrangement, weight). The v3 kinds stay (tight fans and rows, held hands,
# loose fans); pairs and rows at players' spacing join them.
FAN_KINDS_V4 = (("corner_pairs", 0.25), ("player_row", 0.25), ("tight_fan", 0.12), ("tight_row", 0.1),
                ("held", 0.1), ("loose", 0.18))
# A pair at a corner: the upper card moved this share of a card's width and height from the lower.
PAIR_SHIFT = ((0.35, 0.65), (0.25, 0.5))
# Rows at players' spacing: neighbours this share of a card's width apart (an index column shows
# at 0.12-0.25, the v3 tight rows; players leave more when they push a hand together).
PLAYER_ROW_GAP = (0.22, 0.5)
STARTER_ON_PACK = 0.5  # share of v4 scenes with a starter whose starter lies face up on the pack
PACK_CARDS = (6, 26)  # the pack's thickness in cards (what is left after the deal)
CHIPS_PER_SCENE = (0, 5)
PRINTED_PER_SCENE = (0, 3)
SUITS = "SHDC"


def corner_pairs(rng: np.random.Generator, codes: list[str], aspect: float):
    """Two or three pairs, each two cards overlapping at a corner, the pairs a card width apart.
    Returns (placements, groups): no groups (a pair has no cribbage role; judged on its cards)."""
    n_pairs = int(rng.integers(2, 4))
    placements, groups = [], []  # groups stay empty: see the docstring
    for p in range(n_pairs):
        lower, upper = codes[2 * p], codes[2 * p + 1]
        base = rng.normal(0, 6)
        sx = rng.uniform(*PAIR_SHIFT[0]) * aspect * rng.choice([-1, 1])
        sy = rng.uniform(*PAIR_SHIFT[1]) * rng.choice([-1, 1])
        cx = p * (aspect * 2.6 + rng.uniform(0.1, 0.4))
        cy = rng.normal(0, 0.15)
        placements.append((lower, cx - sx / 2, cy - sy / 2, base, p))
        placements.append((upper, cx + sx / 2, cy + sy / 2, base + rng.normal(0, 8), p))
    return placements, groups


def player_row(rng: np.random.Generator, n: int, aspect: float) -> list[tuple[float, float, float]]:
    """Offsets (x, y, angle) of a row pushed together as players do: neighbours PLAYER_ROW_GAP card
    widths apart, a little uneven, stacked either way."""
    gap = aspect * rng.uniform(*PLAYER_ROW_GAP)
    out = [((i - (n - 1) / 2) * gap + rng.normal(0, 0.02 * aspect), rng.normal(0, 0.03), rng.normal(0, 2.5))
           for i in range(n)]
    return out[::-1] if rng.random() < 0.3 else out


def v4_hand_style(rng: np.random.Generator) -> str:
    """Hand styles of v4 show photos: the capture guide's spread hands, and hands pushed into rows."""
    return str(rng.choice(("spread", "overlap", "fan", "player_row"), p=(0.35, 0.3, 0.15, 0.2)))


def pack_under(rng: np.random.Generator, placements, groups):
    """With STARTER_ON_PACK, the starter's placement gets a pack under it: returns (the pack's centre
    x, y and angle in layout units, or None). The starter stays where it is; the pack lies under
    it, a little offset and turned (the starter is never square on the pack)."""
    starters = [g for g in groups if g[0] == "starter"]
    if not starters or rng.random() >= STARTER_ON_PACK:
        return None
    code = starters[0][1][0]
    _, x, y, angle, _ = next(p for p in placements if p[0] == code)
    return (x + rng.normal(0, 0.07), y + rng.normal(0, 0.07), angle + rng.normal(0, 10), int(rng.integers(*PACK_CARDS)))


def draw_pack(rng: np.random.Generator, table: np.ndarray, centre, angle: float, card_h: float, aspect: float,
              thickness: int) -> None:
    """A face-down pack on the table texture (table pixels): its side edges stepped under the top back."""
    back = tuple(float(v) for v in rng.integers(20, 200, 3))
    size = (card_h * aspect, card_h)
    step = np.array([rng.uniform(-1, 1), rng.uniform(0.3, 1)]) * max(0.6, card_h * 0.004)
    layers = max(2, thickness // 4)
    for k in range(layers, -1, -1):
        cx, cy = np.asarray(centre, np.float64) + step * k
        box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.int32)
        shade = 225 - 3 * k
        cv2.fillConvexPoly(table, box, (shade, shade, shade - 8), cv2.LINE_AA)
    cx, cy = centre
    inner = cv2.boxPoints(((cx, cy), (size[0] * 0.88, size[1] * 0.92), angle)).astype(np.int32)
    cv2.fillConvexPoly(table, inner, back, cv2.LINE_AA)
    lines = tuple(min(255.0, c + 50) for c in back)
    for t in np.linspace(0.1, 0.9, 5):
        a = inner[0] + (inner[1] - inner[0]) * t
        b = inner[3] + (inner[2] - inner[3]) * t
        cv2.line(table, tuple(int(v) for v in a), tuple(int(v) for v in b), lines, 1, cv2.LINE_AA)


def _suit_mark(image: np.ndarray, suit: str, centre, size: float, colour) -> None:
    """A small suit symbol (spade, heart, diamond, club) drawn with OpenCV primitives."""
    cx, cy = float(centre[0]), float(centre[1])
    r = max(1, int(round(size * 0.3)))
    if suit == "D":
        pts = np.array([[cx, cy - size / 2], [cx + size * 0.35, cy], [cx, cy + size / 2], [cx - size * 0.35, cy]])
        cv2.fillConvexPoly(image, pts.astype(np.int32), colour, cv2.LINE_AA)
        return
    if suit == "C":
        for dx, dy in ((0, -0.22), (-0.22, 0.08), (0.22, 0.08)):
            cv2.circle(image, (int(cx + dx * size), int(cy + dy * size)), r, colour, -1, cv2.LINE_AA)
    else:  # heart (lobes up) or spade (lobes down, a stem)
        sign = 1 if suit == "H" else -1
        for dx in (-0.2, 0.2):
            cv2.circle(image, (int(cx + dx * size), int(cy - sign * 0.12 * size)), r, colour, -1, cv2.LINE_AA)
        tip = [cx, cy + sign * 0.5 * size]
        pts = np.array([[cx - 0.48 * size, cy - sign * 0.05 * size], [cx + 0.48 * size, cy - sign * 0.05 * size], tip])
        cv2.fillConvexPoly(image, pts.astype(np.int32), colour, cv2.LINE_AA)
    if suit in "SC":
        stem = np.array([[cx, cy + 0.1 * size], [cx - 0.2 * size, cy + 0.5 * size], [cx + 0.2 * size, cy + 0.5 * size]])
        cv2.fillConvexPoly(image, stem.astype(np.int32), colour, cv2.LINE_AA)


def draw_chip(rng: np.random.Generator, table: np.ndarray, centre, card_h: float) -> None:
    """A poker chip: a coloured disc, white inserts round its edge, a white inlay with suit marks
    and often a value (the marks a reader may take for a card's small suit, the value for a rank)."""
    r = card_h * rng.uniform(0.17, 0.24)
    cx, cy = int(centre[0]), int(centre[1])
    colour = tuple(float(v) for v in rng.integers(20, 220, 3))
    white = (float(rng.uniform(225, 250)),) * 3
    cv2.circle(table, (cx, cy), int(r), colour, -1, cv2.LINE_AA)
    start = rng.uniform(0, 360)
    for k in range(int(rng.choice([4, 6, 8]))):
        a = start + k * 360 / 6
        cv2.ellipse(table, (cx, cy), (int(r * 0.9), int(r * 0.9)), 0, a - 8, a + 8, white, max(2, int(r * 0.18)))
    cv2.circle(table, (cx, cy), int(r * 0.62), white, -1, cv2.LINE_AA)
    ink = (30.0, 30.0, 190.0) if rng.random() < 0.5 else (30.0, 30.0, 30.0)
    if rng.random() < 0.6:  # suit marks round the inlay
        for k in range(4):
            a = math.radians(start + 45 + k * 90)
            _suit_mark(table, SUITS[k], (cx + math.cos(a) * r * 0.4, cy + math.sin(a) * r * 0.4), r * 0.25, ink)
    else:  # a value in the middle with a suit under it, like a card's index
        text = str(rng.choice(["1", "5", "10", "25", "2", "A", "K"]))
        scale = r * 0.02
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(scale * 2)))
        cv2.putText(table, text, (int(cx - tw / 2), int(cy)), cv2.FONT_HERSHEY_DUPLEX, scale, ink, max(1, int(scale * 2)),
                    cv2.LINE_AA)
        _suit_mark(table, SUITS[int(rng.integers(4))], (cx, cy + th * 0.8), th * 0.9, ink)


def draw_printed(rng: np.random.Generator, table: np.ndarray, centre, card_h: float) -> None:
    """Printed matter: a label or a page with lines of capitals and digits (rank letters A, K, Q, J
    and numbers among them), sometimes with suit marks, in a dark ink."""
    w = card_h * rng.uniform(0.6, 2.2)
    h = card_h * rng.uniform(0.4, 1.6)
    angle = rng.uniform(-30, 30)
    paper = (float(rng.uniform(215, 250)),) * 3
    box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (w, h), angle)).astype(np.int32)
    cv2.fillConvexPoly(table, box, paper, cv2.LINE_AA)
    sheet = table.copy()  # the print is drawn here and kept only on the paper
    ink = (float(rng.uniform(0, 60)),) * 3 if rng.random() < 0.7 else (30.0, 30.0, 170.0)
    size = card_h * rng.uniform(0.06, 0.14)  # about an index's rank (0.1-0.15 of the card's height)
    scale = size / 22.0
    thick = max(1, int(round(scale * 2)))
    x0, y0 = box.min(axis=0) + [size * 0.4, size * 1.4]
    x1, y1 = box.max(axis=0) - [size * 0.4, size * 0.4]
    y = y0
    alphabet = "AKQJ2345678910ABCDEFGHLMNPRSTUVWXYZ"
    while y < y1:
        x = x0
        while x < x1 - size:
            word = "".join(rng.choice(list(alphabet), int(rng.integers(1, 5))))
            cv2.putText(sheet, word, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thick, cv2.LINE_AA)
            if rng.random() < 0.15:
                _suit_mark(sheet, SUITS[int(rng.integers(4))], (x + size * 0.4, y + size * 0.9), size * 0.8, ink)
            x += size * (len(word) * 0.75 + 1.2)
        y += size * rng.uniform(1.8, 2.6)
    inside = np.zeros(table.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, cv2.boxPoints(((float(centre[0]), float(centre[1])), (w * 0.94, h * 0.94), angle)).astype(np.int32), 1)
    table[inside.astype(bool)] = sheet[inside.astype(bool)]


def draw_distractors(rng: np.random.Generator, table: np.ndarray, card_h: float) -> None:
    """Chips and printed matter anywhere on the table texture (under the cards, drawn first)."""
    h, w = table.shape[:2]
    for _ in range(int(rng.integers(*CHIPS_PER_SCENE))):
        draw_chip(rng, table, (rng.uniform(0, w), rng.uniform(0, h)), card_h)
    for _ in range(int(rng.integers(*PRINTED_PER_SCENE))):
        draw_printed(rng, table, (rng.uniform(0, w), rng.uniform(0, h)), card_h)
