"""Mix v3 placements and framing: the layouts players make and the ways they photograph them.

On top of ``layouts.place`` (whose free placement it reuses with tighter hand styles):
tight fans and overlapping rows where only the index column shows, 13-card rows, a hand held in
fingers over the table, one card filling the frame (a disputed card), small far-away shots, and
layouts cut by the photo's edge. ``arrange`` returns an ``Arrangement``; ``frame`` turns it into
pixels per card height and an offset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.synth import layouts, overlaps

COURT_RANKS = "JQK"
# Hand styles of the free v3 placement: tight rows/fans are what players really make.
V3_STYLES = ("spread", "overlap", "fan", "messy", "tight_row", "tight_fan")
V3_STYLE_WEIGHTS = (0.24, 0.14, 0.1, 0.12, 0.2, 0.2)
LAYOUT_WEIGHTS_V3 = (0.18, 0.18, 0.14, 0.34, 0.16)  # fans / rows weigh more: the cards most missed
# fan layout: (arrangement, weight); scatter layout likewise.
FAN_KINDS = (("tight_fan", 0.28), ("tight_row", 0.22), ("held", 0.22), ("loose", 0.28))
SCATTER_KINDS = (("single", 0.3), ("far", 0.25), ("loose", 0.45))
CUT_SHARE = 0.22  # scenes framed so that part of the layout leaves the photo


@dataclass(frozen=True)
class Arrangement:
    placements: list  # (code, x, y, angle, group) in card heights, bottom to top
    groups: list  # (role, [codes])
    kind: str  # what was made: "spread", "tight_fan", "held", "single", "far", ... (the annotation's "arrangement")
    framing: str = "normal"  # "normal", "single" (one card fills the frame), "far", "held" (close, over the table)
    hold: tuple | None = None  # held hand: (pivot x, y, angle of the cards' up direction in degrees), layout coords
    pack: tuple | None = None  # mix v4: a pack under the starter (x, y, angle, thickness in cards), layout coords


def v3_hand_style(rng: np.random.Generator) -> str:
    return str(rng.choice(V3_STYLES, p=V3_STYLE_WEIGHTS))


def _choice(rng, kinds) -> str:
    names, weights = zip(*kinds)
    return str(rng.choice(names, p=weights))


def _fan_arrangement(rng, codes, aspect, kinds=FAN_KINDS) -> Arrangement:
    kind = _choice(rng, kinds)
    if kind == "corner_pairs":
        return Arrangement(*overlaps.corner_pairs(rng, codes, aspect), kind)
    if kind == "player_row":  # a hand or a deal pushed together (v4): 4 to 6 cards
        n = int(rng.integers(4, 7))
    else:
        n = 13 if kind in ("tight_fan", "tight_row") and rng.random() < 0.25 else int(rng.integers(4, 8))
    hand = codes[:n]
    if kind == "held":
        style = "tight_fan" if rng.random() < 0.6 else "fan"
    elif kind == "loose":
        style = "fan" if rng.random() < 0.6 else "overlap"
    else:
        style = kind
    tilt = rng.normal(0, 4)
    placements = layouts._group(rng, hand, aspect, style, 0, 0, tilt, 0)
    groups = [("hand", hand)]
    hold = None
    if kind == "held":
        # The pivot the fan turns about lies below the middle card; fingers hold it there.
        mid = placements[len(placements) // 2]
        up = math.radians(mid[3])
        hold = (mid[1] - math.sin(up) * 0.45, mid[2] + math.cos(up) * 0.45, tilt)
    elif n < 13 and rng.random() < 0.4:  # a starter beside the hand
        side = rng.choice([-1, 1])
        placements.append((codes[n], side * (n * 0.2 * aspect + 1.4), rng.uniform(-0.5, 0.8), rng.normal(0, 10), 1))
        groups.append(("starter", [codes[n]]))
    if kind in ("tight_fan", "tight_row") and n == 13:
        kind = f"{kind}13"
    return Arrangement(placements, groups, kind, "held" if kind == "held" else "normal", hold)


def _scatter_arrangement(rng, codes, aspect) -> Arrangement:
    kind = _choice(rng, SCATTER_KINDS)
    if kind == "single":  # a player photographs one disputed card: often a court card
        courts = [c for c in codes if c[0] in COURT_RANKS]
        code = courts[0] if courts and rng.random() < 0.5 else codes[0]
        return Arrangement([(code, 0.0, 0.0, rng.uniform(0, 360), 0)], [], kind, "single")
    if kind == "far":  # a far-away shot of a whole table: rows and loose cards, small
        n = int(rng.integers(5, 14))
        placements = layouts._group(rng, codes[:n], aspect, v3_hand_style(rng), 0, 0, rng.normal(0, 6), 0)
        return Arrangement(placements, [], kind, "far")
    n = int(rng.integers(1, 9))
    span = 1.0 + n * 0.5
    placements = [(c, rng.uniform(-span, span) * aspect * 1.3, rng.uniform(-span, span) * 0.8, rng.uniform(0, 360), 0)
                  for c in codes[:n]]
    return Arrangement(placements, [], kind)


def arrange(rng: np.random.Generator, layout: str, codes: list[str], aspect: float,
            table_conventions: bool = False, mix: str = "v3") -> Arrangement:
    """Placements of a v3 scene. With the table conventions (show photos as the capture guide asks)
    the groups are the v2 conventions' (hands a card width apart, starter clear). Mix "v4" adds
    the overlaps of ``overlaps``: pairs at a corner and rows at players' spacing among the fans,
    hands pushed into rows in show photos, and the starter on the pack."""
    known = layouts.LAYOUTS + layouts.SHOW_LAYOUTS_MORE  # the 3- and 4-player shows: by name only
    if layout not in known:
        raise layouts.UnknownLayoutError(f"unknown layout {layout!r}; known: {', '.join(known)}")
    made = _arrange(rng, layout, codes, aspect, table_conventions, mix == "v4")
    if mix == "v4":
        made = replace(made, pack=overlaps.pack_under(rng, made.placements, made.groups))
    return made


def _arrange(rng, layout, codes, aspect, table_conventions: bool, v4: bool) -> Arrangement:
    if table_conventions or layout in ("hand_starter", "two_hands_crib_starter", "deal6") + layouts.SHOW_LAYOUTS_MORE:
        style = None if table_conventions else v3_hand_style
        show = overlaps.v4_hand_style if v4 else None
        placements, groups = layouts.place(rng, layout, codes, aspect, table_conventions, hand_style=style,
                                           show_style=show)
        return Arrangement(placements, groups, "show" if table_conventions else "table")
    if layout == "fan":
        return _fan_arrangement(rng, codes, aspect, overlaps.FAN_KINDS_V4 if v4 else FAN_KINDS)
    return _scatter_arrangement(rng, codes, aspect)


def card_corners(placements, aspect: float) -> np.ndarray:
    corners = []
    for _, x, y, a, _ in placements:
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        for dx, dy in ((-aspect / 2, -0.5), (aspect / 2, -0.5), (aspect / 2, 0.5), (-aspect / 2, 0.5)):
            corners.append((x + dx * c - dy * s, y + dx * s + dy * c))
    return np.array(corners)


def frame(rng: np.random.Generator, placements, aspect: float, w: int, h: int, framing: str,
          allow_cut: bool = True, smallest: float = 0.1) -> tuple[float, np.ndarray, bool]:
    """Pixels per card height, offset, and whether the layout was framed to leave the photo.

    The scale runs from small far-away cards (a card 0.11 of the short side) to one card larger
    than the frame (1.25 of the short side). A normal framing keeps a card at least ``smallest``
    of the short side (a whole 3- or 4-player show asks for less to fit the frame)."""
    pts = card_corners(placements, aspect)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 1e-6)
    short = min(w, h)
    if framing == "single":
        scale = short * rng.uniform(0.55, 1.25)
    elif framing == "far":
        scale = short * rng.uniform(0.11, 0.18)
        scale = min(scale, w * 0.95 / span[0], h * 0.95 / span[1])
    else:
        fill = rng.uniform(0.7, 1.0) if framing == "held" else rng.uniform(0.45, 0.95)
        scale = min(w * fill / span[0], h * fill / span[1])
        scale = float(np.clip(scale, smallest * short, 0.8 * short))
    cut = allow_cut and framing != "far" and (framing == "single" or rng.random() < CUT_SHARE)
    if cut and framing != "single":
        scale *= rng.uniform(1.0, 1.6)
    size = span * scale
    frame_wh = np.array([w, h], np.float64)
    if cut:  # the layout may stick out of any edge by up to 40 % of its size (never wholly out)
        low, high = -0.4 * size, frame_wh - 0.6 * size
    else:  # inside the frame when it fits, centred slack otherwise
        low, high = np.minimum(0, frame_wh - size), np.maximum(0, frame_wh - size)
    origin = np.array([rng.uniform(a, b) if b > a else (a + b) / 2 for a, b in zip(low, high)])
    return float(scale), origin - lo * scale, bool(cut)
