"""Where the cards lie on the table: layouts of groups in card-height units (before scaling).

A placement is (card code, centre x, centre y, angle in degrees, group number); later
placements lie on top of earlier ones.

With ``table_conventions`` the groups follow what a reader of the table relies on (see
vision/layout.py): groups at least a card width apart, the starter a card width clear of every
card, and the crib the group of 4 nearest the starter (the dealer's crib lies by the pack).
Training scenes keep the freer placement (the detector does not care where groups lie, and
``crib train`` keeps rendering the data the committed models were trained on); the bench and
the shipped samples use the conventions.
"""

from __future__ import annotations

import math

import numpy as np

from vision.synth.overlaps import player_row

LAYOUTS: tuple[str, ...] = ("hand_starter", "two_hands_crib_starter", "deal6", "fan", "scatter")
LAYOUT_WEIGHTS = (0.24, 0.24, 0.18, 0.22, 0.12)
# The 3- and 4-player shows (issue 54 item 5): three or four hands, the crib and the starter (17 and
# 21 cards). Only ever rendered when asked for by name (the show bench): never drawn by a mix, so
# every seed of LAYOUTS renders what it rendered before. They always follow the table conventions.
SHOW_LAYOUTS_MORE: tuple[str, ...] = ("three_hands_crib_starter", "four_hands_crib_starter")
HANDS_OF = {"hand_starter": 1, "two_hands_crib_starter": 2, "three_hands_crib_starter": 3, "four_hands_crib_starter": 4}
ROW_STYLES = ("spread", "overlap", "fan", "messy")


# Neighbours in tight fans and rows are offset by this share of a card's width at the index corner.
TIGHT_OFFSET = (0.12, 0.25)


class UnknownLayoutError(ValueError):
    """A layout name that is not one of LAYOUTS (or SHOW_LAYOUTS_MORE)."""


def cards_needed(layout: str | None) -> int:
    """How many cards a scene of ``layout`` draws: 13 for LAYOUTS (what they always drew), 4 a
    hand, 4 for the crib and the starter for the 3- and 4-player shows."""
    return 4 * HANDS_OF[layout] + 5 if layout in SHOW_LAYOUTS_MORE else 13


def _row(rng: np.random.Generator, n: int, aspect: float, style: str) -> list[tuple[float, float, float]]:
    """Offsets (x, y, angle) of n cards of one group around the group's centre."""
    reverse = rng.random() < 0.25  # cards stacked right-to-left: lower cards show their other corner
    if style == "fan":
        step = rng.uniform(7, 18)
        radius = rng.uniform(0.8, 1.5)
        angles = [(i - (n - 1) / 2) * step for i in range(n)]
        out = []
        for a in angles:
            t = math.radians(a)
            out.append((radius * math.sin(t), radius * (1 - math.cos(t)), a + rng.normal(0, 1.5)))
    elif style == "tight_fan":  # only the index column of each lower card shows (mix v3)
        out = tight_fan(rng, n, aspect)
    elif style == "player_row":  # mix v4: a hand pushed together as players do (stacked either way)
        return player_row(rng, n, aspect)
    elif style == "tight_row":
        gap = aspect * rng.uniform(*TIGHT_OFFSET)
        out = [((i - (n - 1) / 2) * gap, rng.normal(0, 0.005), rng.normal(0, 0.4)) for i in range(n)]
    elif style == "overlap":
        gap = aspect * rng.uniform(0.28, 0.6)
        out = [((i - (n - 1) / 2) * gap, rng.normal(0, 0.03), rng.normal(0, 3)) for i in range(n)]
    elif style == "messy":
        gap = aspect * rng.uniform(0.6, 1.2)
        out = [((i - (n - 1) / 2) * gap + rng.normal(0, 0.1), rng.normal(0, 0.12), rng.normal(0, 20)) for i in range(n)]
    else:
        gap = aspect * rng.uniform(1.04, 1.45)
        out = [((i - (n - 1) / 2) * gap, rng.normal(0, 0.02), rng.normal(0, 3)) for i in range(n)]
    if reverse and style != "tight_fan":  # a tight fan stacked the other way shows no index at all
        out = out[::-1]
    return out


def tight_fan(rng: np.random.Generator, n: int, aspect: float) -> list[tuple[float, float, float]]:
    """A fan turning about a pivot below the cards, stepped so that neighbouring top-left corners
    (the index) lie TIGHT_OFFSET card widths apart."""
    radius = rng.uniform(0.2, 0.9)  # pivot below the card centre, in card heights
    reach = math.hypot(aspect / 2, radius + 0.5)  # pivot to the top-left corner
    step = 2 * math.asin(min(1.0, rng.uniform(*TIGHT_OFFSET) * aspect / (2 * reach)))  # chord = offset
    out = []
    for i in range(n):
        t = (i - (n - 1) / 2) * step
        out.append((radius * math.sin(t), radius * (1 - math.cos(t)), math.degrees(t)))
    return out


def _group(rng, codes, aspect, style, cx, cy, angle, group_id):
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    placements = []
    for code, (dx, dy, da) in zip(codes, _row(rng, len(codes), aspect, style)):
        placements.append((code, cx + dx * cos - dy * sin, cy + dx * sin + dy * cos, angle + da, group_id))
    return placements


def _hand_style(rng) -> str:
    return str(rng.choice(ROW_STYLES, p=(0.45, 0.25, 0.15, 0.15)))



CRIB_NEARER = 1.4  # with the conventions, the crib is this much nearer the starter than any hand


def _bounds(placements, aspect: float) -> tuple[float, float, float, float]:
    """Axis-aligned bounds (x0, y0, x1, y1) of the turned cards, in card heights."""
    boxes = []
    for _, x, y, angle, _ in placements:
        c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
        half_w, half_h = (aspect * c + s) / 2, (aspect * s + c) / 2
        boxes.append((x - half_w, y - half_h, x + half_w, y + half_h))
    b = np.array(boxes)
    return float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()), float(b[:, 3].max())


def _moved(placements, dx: float, dy: float):
    return [(c, x + dx, y + dy, a, g) for c, x, y, a, g in placements]


def _centred_group(rng, codes, aspect, group_id, style=None):
    """A group of cards centred on (0, 0) in a style ``style(rng)`` picks (default the v2 mix's);
    returns (placements, half width, half height)."""
    placements = _group(rng, codes, aspect, (style or _hand_style)(rng), 0, 0, rng.normal(0, 4), group_id)
    x0, y0, x1, y1 = _bounds(placements, aspect)
    return _moved(placements, -(x0 + x1) / 2, -(y0 + y1) / 2), (x1 - x0) / 2, (y1 - y0) / 2


def _hand_and_starter(rng, codes, aspect, style=None):
    hand, half_w, half_h = _centred_group(rng, codes[:4], aspect, 0, style)
    angle = rng.normal(0, 8)
    _, _, s_w, s_h = _bounds([(codes[4], 0, 0, angle, 1)], aspect)
    clear = aspect * rng.uniform(1.0, 2.0)
    side, along = int(rng.choice(4, p=(0.35, 0.35, 0.15, 0.15))), rng.uniform(-1, 1)
    if side < 2:  # beside the hand
        sx, sy = (-1) ** side * (half_w + clear + s_w), along * max(half_h - s_h, 0.0)
    else:  # above or below it
        sx, sy = along * max(half_w - s_w, 0.0) * 0.6, (-1) ** side * (half_h + clear + s_h)
    return hand + [(codes[4], sx, sy, angle, 1)], [("hand", codes[:4]), ("starter", [codes[4]])]


def _starter_spots(centres, bounds, clear: float, s_w: float, s_h: float):
    """The places the starter may lie (and the group it lies in line with): beyond the layout's
    ``bounds``, ``clear`` of them, in line with a group that is then clearly the nearest
    (``CRIB_NEARER``; that group holds the crib)."""
    x0, y0, x1, y1 = bounds
    candidates = []
    for g, (gx, gy) in centres.items():
        for spot in ((x1 + clear + s_w, gy), (x0 - clear - s_w, gy), (gx, y1 + clear + s_h), (gx, y0 - clear - s_h)):
            d = sorted((math.dist(spot, centre), k) for k, centre in centres.items())
            if d[0][1] == g and d[1][0] >= CRIB_NEARER * d[0][0]:
                candidates.append((spot, g))
    return candidates


def _two_hands_crib_starter(rng, codes, aspect, style=None):
    h1, h2, crib, starter = codes[:4], codes[4:8], codes[8:12], codes[12]
    built = [_centred_group(rng, cards, aspect, g, style) for g, cards in enumerate((h1, h2, crib))]
    a, b, c = (built[i] for i in rng.permutation(3))  # which group lies in which slot
    gap_1, gap_2 = aspect * rng.uniform(1.0, 1.8, 2)
    pattern = int(rng.integers(3))
    if pattern == 0:  # two in a column, the third beside them
        slots = [(0, -(a[2] + gap_1 / 2)), (0, b[2] + gap_1 / 2), (max(a[1], b[1]) + gap_2 + c[1], 0)]
    elif pattern == 1:  # three in a column
        slots = [(rng.normal(0, 0.15), -(b[2] + gap_1 + a[2])), (0, 0), (rng.normal(0, 0.15), b[2] + gap_2 + c[2])]
    else:  # two side by side, the third below
        slots = [(-(a[1] + gap_1 / 2), 0), (b[1] + gap_1 / 2, 0), (rng.normal(0, 0.3), max(a[2], b[2]) + gap_2 + c[2])]
    placements = []
    for (group, _, _), (x, y) in zip((a, b, c), slots):
        placements += _moved(group, x, y)
    centres = {g: np.mean([(p[1], p[2]) for p in placements if p[4] == g], axis=0) for g in range(3)}
    # The starter goes beyond the whole layout, in line with one group; keep the places where one
    # group is clearly the nearest (that group then holds the crib).
    angle = rng.normal(0, 8)
    _, _, s_w, s_h = _bounds([(starter, 0, 0, angle, 3)], aspect)
    clear = aspect * rng.uniform(1.0, 1.8)
    candidates = _starter_spots(centres, _bounds(placements, aspect), clear, s_w, s_h)
    (sx, sy), nearest = candidates[int(rng.integers(len(candidates)))]
    if nearest != 2:  # the nearest group holds the crib: swap its cards with group 2's
        codes_of = {g: [p[0] for p in placements if p[4] == g] for g in (nearest, 2)}
        swap = dict(zip(codes_of[nearest], codes_of[2])) | dict(zip(codes_of[2], codes_of[nearest]))
        placements = [(swap.get(code, code), x, y, ang, 2 if g == nearest else nearest if g == 2 else g)
                      for code, x, y, ang, g in placements]
    placements.append((starter, sx, sy, angle, 3))
    return placements, [("hand", h1), ("hand", h2), ("crib", crib), ("starter", [starter])]

# Rows of groups the 3- and 4-player shows are laid out in (groups a row, top to bottom), and how
# often: a block of rows, as compact as the photo of a whole show asks for.
SHOW_ROWS = {
    4: (((2, 2), 0.55), ((3, 1), 0.15), ((1, 3), 0.15), ((1, 2, 1), 0.15)),
    5: (((2, 2, 1), 0.3), ((1, 2, 2), 0.15), ((3, 2), 0.25), ((2, 3), 0.15), ((2, 1, 2), 0.15)),
}


def _hands_crib_starter(rng, codes, aspect, hands: int, style=None):
    """``hands`` hands, the crib and the starter with the table conventions (3 or 4 players):
    the groups in rows a card width or more apart (``SHOW_ROWS``), the starter beyond the whole
    layout, a card width or more clear of it, in line with one group that is then clearly the
    nearest (``CRIB_NEARER``) and holds the crib (the dealer's crib lies by the pack). Group
    numbers: the hands 0 to hands - 1, the crib ``hands``, the starter ``hands + 1``."""
    n = hands + 1
    dealt = [codes[4 * g:4 * g + 4] for g in range(n)]
    starter = codes[4 * n]
    built = [_centred_group(rng, cards, aspect, g, style) for g, cards in enumerate(dealt)]
    angle = rng.normal(0, 8)
    _, _, s_w, s_h = _bounds([(starter, 0, 0, angle, n)], aspect)
    patterns, weights = zip(*SHOW_ROWS[n])
    for _ in range(100):  # a layout with no place where one group is clearly nearest is laid again
        rows = patterns[int(rng.choice(len(patterns), p=weights))]
        order = [int(i) for i in rng.permutation(n)]  # which group lies in which slot
        placements, at, top = [], 0, 0.0
        for count in rows:  # each row a band as tall as its tallest group, the bands a gap apart
            row = [built[g] for g in order[at:at + count]]
            at += count
            half_h = max(group[2] for group in row)
            gaps = aspect * rng.uniform(1.0, 1.8, count)  # after each group; the last one: to the next row
            width = sum(2 * group[1] for group in row) + float(gaps[:-1].sum())
            x = -width / 2 + rng.normal(0, 0.15)
            for k, (group, half_w, group_half_h) in enumerate(row):
                placements += _moved(group, x + half_w, top + half_h + rng.uniform(-1, 1) * (half_h - group_half_h))
                x += 2 * half_w + gaps[k]
            top += 2 * half_h + gaps[-1]
        centres = {g: np.mean([(p[1], p[2]) for p in placements if p[4] == g], axis=0) for g in range(n)}
        clear = aspect * rng.uniform(1.0, 1.8)
        candidates = _starter_spots(centres, _bounds(placements, aspect), clear, s_w, s_h)
        if candidates:
            break
    else:  # pragma: no cover - every pattern has a bottom corner group clearly nearest a spot below it
        raise RuntimeError("no place for the starter")
    (sx, sy), nearest = candidates[int(rng.integers(len(candidates)))]
    crib = hands
    if nearest != crib:  # the nearest group holds the crib: swap its cards with the crib's
        codes_of = {g: [p[0] for p in placements if p[4] == g] for g in (nearest, crib)}
        swap = dict(zip(codes_of[nearest], codes_of[crib])) | dict(zip(codes_of[crib], codes_of[nearest]))
        placements = [(swap.get(code, code), x, y, ang, crib if g == nearest else nearest if g == crib else g)
                      for code, x, y, ang, g in placements]
    placements.append((starter, sx, sy, angle, n))
    return placements, [("hand", cards) for cards in dealt[:hands]] + [("crib", dealt[hands]), ("starter", [starter])]


def place(rng: np.random.Generator, layout: str, codes: list[str], aspect: float, table_conventions: bool = False,
          hand_style=None, show_style=None):
    """Returns (placements, groups): groups are (role, [codes]) in the order of group numbers.

    ``hand_style(rng) -> style`` picks each hand's row style in the free placement, ``show_style``
    with the table conventions (both default to the v2 mix's). The 3- and 4-player shows
    (SHOW_LAYOUTS_MORE, asked for by name only, ``cards_needed`` codes) always follow the table
    conventions, their hands in ``show_style`` with them and in ``hand_style`` without.
    """
    choose_style = hand_style or _hand_style
    if layout in SHOW_LAYOUTS_MORE:
        return _hands_crib_starter(rng, codes, aspect, HANDS_OF[layout], show_style if table_conventions else hand_style)
    if layout not in LAYOUTS:
        raise UnknownLayoutError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS + SHOW_LAYOUTS_MORE)}")
    if table_conventions and layout == "hand_starter":
        return _hand_and_starter(rng, codes, aspect, show_style)
    if table_conventions and layout == "two_hands_crib_starter":
        return _two_hands_crib_starter(rng, codes, aspect, show_style)
    tilt = lambda: rng.normal(0, 4)  # noqa: E731 - a group's own small turn
    if layout == "hand_starter":
        hand, starter = codes[:4], codes[4]
        placements = _group(rng, hand, aspect, choose_style(rng), 0, 0, tilt(), 0)
        direction = rng.uniform(0, 2 * math.pi)
        dist = 2.4 * aspect + rng.uniform(0.6, 1.6) if abs(math.cos(direction)) > 0.5 else rng.uniform(1.4, 2.2)
        placements.append((starter, dist * math.cos(direction), dist * math.sin(direction), rng.normal(0, 8), 1))
        return placements, [("hand", hand), ("starter", [starter])]
    if layout == "two_hands_crib_starter":
        h1, h2, crib, starter = codes[:4], codes[4:8], codes[8:12], codes[12]
        gap = rng.uniform(1.25, 1.9)
        side = 2.7 * aspect + rng.uniform(0.4, 1.2)
        slots = [(0, -gap), (0, gap), (side, 0)]
        if rng.random() < 0.5:
            slots = [(0, -gap), (0, gap), (0, 3 * gap)] if rng.random() < 0.5 else [(-side / 2, -gap), (side / 2, -gap), (0, gap)]
        order = rng.permutation(3)
        placements = []
        for g, (cards, slot) in enumerate(zip((h1, h2, crib), (slots[i] for i in order))):
            placements += _group(rng, cards, aspect, choose_style(rng), slot[0], slot[1], tilt(), g)
        xs = [p[1] for p in placements]
        ys = [p[2] for p in placements]
        if rng.random() < 0.5:
            sx, sy = max(xs) + aspect + rng.uniform(0.6, 1.4), rng.uniform(min(ys), max(ys))
        else:
            sx, sy = rng.uniform(min(xs), max(xs)), min(ys) - rng.uniform(1.3, 1.9)
        placements.append((starter, sx, sy, rng.normal(0, 8), 3))
        return placements, [("hand", h1), ("hand", h2), ("crib", crib), ("starter", [starter])]
    if layout == "deal6":
        deal = codes[:6]
        if rng.random() < 0.3:  # two rows of three
            placements = _group(rng, deal[:3], aspect, "spread", 0, -0.6, tilt(), 0)
            placements += _group(rng, deal[3:], aspect, "spread", 0, 0.6, tilt(), 0)
        else:
            placements = _group(rng, deal, aspect, choose_style(rng), 0, 0, tilt(), 0)
        return placements, [("hand", deal)]
    if layout == "fan":
        n = int(rng.integers(4, 7))
        hand = codes[:n]
        placements = _group(rng, hand, aspect, "fan" if rng.random() < 0.7 else "overlap", 0, 0, tilt(), 0)
        groups = [("hand", hand)]
        if rng.random() < 0.5:
            placements.append((codes[n], rng.choice([-1, 1]) * (n * 0.3 * aspect + 1.6), rng.uniform(-0.5, 0.8), rng.normal(0, 10), 1))
            groups.append(("starter", [codes[n]]))
        return placements, groups
    # scatter: loose cards anywhere, any angle, sometimes overlapping
    n = int(rng.integers(1, 9))
    span = 1.0 + n * 0.5
    placements = [(c, rng.uniform(-span, span) * aspect * 1.3, rng.uniform(-span, span) * 0.8, rng.uniform(0, 360), 0)
                  for c in codes[:n]]
    return placements, []
