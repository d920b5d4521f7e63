"""Where the cards lie on the table: layouts of groups in card-height units (before scaling).

A placement is (card code, centre x, centre y, angle in degrees, group number); later
placements lie on top of earlier ones.
"""

from __future__ import annotations

import math

import numpy as np

LAYOUTS: tuple[str, ...] = ("hand_starter", "two_hands_crib_starter", "deal6", "fan", "scatter")
LAYOUT_WEIGHTS = (0.24, 0.24, 0.18, 0.22, 0.12)
ROW_STYLES = ("spread", "overlap", "fan", "messy")


class UnknownLayoutError(ValueError):
    """A layout name that is not one of LAYOUTS."""


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
    elif style == "overlap":
        gap = aspect * rng.uniform(0.28, 0.6)
        out = [((i - (n - 1) / 2) * gap, rng.normal(0, 0.03), rng.normal(0, 3)) for i in range(n)]
    elif style == "messy":
        gap = aspect * rng.uniform(0.6, 1.2)
        out = [((i - (n - 1) / 2) * gap + rng.normal(0, 0.1), rng.normal(0, 0.12), rng.normal(0, 20)) for i in range(n)]
    else:
        gap = aspect * rng.uniform(1.04, 1.45)
        out = [((i - (n - 1) / 2) * gap, rng.normal(0, 0.02), rng.normal(0, 3)) for i in range(n)]
    if reverse:
        out = out[::-1]
    return out


def _group(rng, codes, aspect, style, cx, cy, angle, group_id):
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    placements = []
    for code, (dx, dy, da) in zip(codes, _row(rng, len(codes), aspect, style)):
        placements.append((code, cx + dx * cos - dy * sin, cy + dx * sin + dy * cos, angle + da, group_id))
    return placements


def _hand_style(rng) -> str:
    return str(rng.choice(ROW_STYLES, p=(0.45, 0.25, 0.15, 0.15)))


def place(rng: np.random.Generator, layout: str, codes: list[str], aspect: float):
    """Returns (placements, groups): groups are (role, [codes]) in the order of group numbers."""
    if layout not in LAYOUTS:
        raise UnknownLayoutError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    tilt = lambda: rng.normal(0, 4)  # noqa: E731 - a group's own small turn
    if layout == "hand_starter":
        hand, starter = codes[:4], codes[4]
        placements = _group(rng, hand, aspect, _hand_style(rng), 0, 0, tilt(), 0)
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
            placements += _group(rng, cards, aspect, _hand_style(rng), slot[0], slot[1], tilt(), g)
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
            placements = _group(rng, deal, aspect, _hand_style(rng), 0, 0, tilt(), 0)
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
