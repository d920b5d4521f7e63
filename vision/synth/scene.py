"""One synthetic table photo and its annotation (the contract's scene format)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.classes import CARD_CODES
from vision.synth import arrangements, art, layouts, looks, objects, overlaps, photo, surfaces

# Data mixes: "v2" is what the committed models were trained on (kept reproducible, the default);
# "v3" adds the KDE decks, the layouts players make (tight fans, 13-card rows, held hands, single
# cards, far shots, cut by the frame) and the looks of phone photos (curl, gloss, wear, processing).
# "v4" (issue 20) is v3 with the overlaps players make (pairs at a corner, rows at players' spacing,
# the starter on the pack) and chips and printed matter on the table (``overlaps``).
# "v5" (issue 21) is v4 with real cards: a share of its scenes (REAL_SHARE) drawn with the deck of
# cards cut out of rf100-poker's train photos (``art.REAL_DECK``, several faces a code), which
# must be built first (``python -m vision.train.cutouts``).
MIXES: tuple[str, ...] = ("v2", "v3", "v4", "v5")
REAL_SHARE = 0.3
VISIBLE_FRACTION = 0.6  # an index counts as visible when at least this share of it is unoccluded and in frame
DEFAULT_SIZE = (1280, 960)
# A 3- or 4-player show (layouts.SHOW_LAYOUTS_MORE) fills the frame with cards down to this share
# of its short side (the other layouts keep theirs: 0.1, v2 0.14): 17 or 21 cards in one photo.
WHOLE_SHOW_SMALLEST = 0.04


def scene_seed(seed: int, i: int) -> int:
    """Seed of image ``i`` of a dataset made with ``seed``: every image can be re-rendered alone."""
    return int(np.random.SeedSequence([int(seed), int(i)]).generate_state(1)[0])


def _perspective(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Table plane -> image: a camera tilted towards one edge, with small random skew."""
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src.copy()
    if rng.random() < 0.75:
        t = rng.uniform(0.0, 0.32)
        edge = int(rng.choice(4, p=(0.55, 0.15, 0.15, 0.15)))
        a, b = edge, (edge + 1) % 4  # the far edge: corners a and b move towards each other
        shrink = (dst[b] - dst[a]) * t / 2
        dst[a] += shrink
        dst[b] -= shrink
        inward = np.float32([w / 2, h / 2]) - (dst[a] + dst[b]) / 2
        dst[a] += inward * t * 0.25
        dst[b] += inward * t * 0.25
    dst += rng.normal(0, 0.015, (4, 2)).astype(np.float32) * np.float32([w, h])
    return cv2.getPerspectiveTransform(src, dst)


def _similarity(face_w: int, face_h: int, scale: float, angle: float, cx: float, cy: float) -> np.ndarray:
    c, s = math.cos(math.radians(angle)) * scale, math.sin(math.radians(angle)) * scale
    centre = np.array([[1, 0, -face_w / 2], [0, 1, -face_h / 2], [0, 0, 1]], np.float64)
    rot = np.array([[c, -s, cx], [s, c, cy], [0, 0, 1]], np.float64)
    return rot @ centre


def _project(m: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, m).reshape(-1, 2)


def _fit(rng, placements, aspect, w, h, whole_show: bool = False):
    """Pixels per card height and the offset that put the layout in the frame (far to close). A
    whole 3- or 4-player show (``whole_show``) may make the cards smaller to fit, and is never a
    close-up cut by the frame."""
    corners = []
    for _, x, y, a, _ in placements:
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        for dx, dy in ((-aspect / 2, -0.5), (aspect / 2, -0.5), (aspect / 2, 0.5), (-aspect / 2, 0.5)):
            corners.append((x + dx * c - dy * s, y + dx * s + dy * c))
    pts = np.array(corners)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 1e-6)
    fill = rng.uniform(0.5, 0.95)
    scale = min(w * fill / span[0], h * fill / span[1])
    scale = float(np.clip(scale, (WHOLE_SHOW_SMALLEST if whole_show else 0.14) * min(w, h), 0.7 * min(w, h)))
    if not whole_show and rng.random() < 0.12:  # close-up: part of the layout leaves the frame
        scale *= rng.uniform(1.2, 1.8)
    slack = np.array([w, h]) - span * scale
    offset = np.array([rng.uniform(min(0, s), max(0, s)) for s in slack]) - lo * scale
    return scale, offset


def _pick_deck(rng, decks, mix: str = "v2"):
    if not decks and mix == "v5" and rng.random() < REAL_SHARE:
        return art.REAL_DECK
    names = tuple(decks) if decks else art.V2_DECKS if mix == "v2" else art.TRAIN_DECKS  # evaluation decks only when asked for
    for name in names:
        if name not in art.KNOWN_DECKS:
            raise art.UnknownDeckError(f"unknown deck {name!r}; known: {', '.join(art.KNOWN_DECKS)}")
    return names[int(rng.integers(len(names)))]


def _draw_card(image_f: np.ndarray, face: np.ndarray, m: np.ndarray, boxes, scale: float, light, shadow_strength: float,
               looks_rng: np.random.Generator | None = None):
    """Composite one card (and its drop shadow) into ``image_f`` in place through the face -> image
    homography ``m``; with ``looks_rng`` the card gets the v3 looks (curl, paper, wear, gloss).
    Returns (the card's mask, its 4 corners, its outline polygon, the quads of its index boxes)."""
    h, w = image_f.shape[:2]
    face_h, face_w = face.shape[:2]
    corners = _project(m, [(0, 0), (face_w, 0), (face_w, face_h), (0, face_h)])
    pad = scale * 0.08  # also holds a curled card's bulge (at most 2.5 % of its height)
    x0, y0 = np.floor(corners.min(axis=0) - pad).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + pad).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    mask = np.zeros((h, w), bool)
    bend = looks.FLAT
    if x1 > x0 and y1 > y0:
        # Pre-shrink the art so the warp samples it without aliasing.
        shrink = min(1.0, 1.5 * scale / face_h)
        src = face if shrink >= 1.0 else cv2.resize(face, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        pre = np.diag([face.shape[1] / src.shape[1], face.shape[0] / src.shape[0], 1.0])
        if looks_rng is not None:  # on the shrunk face: cheaper, and grain and wear at the size they show
            src, margin, bend = looks.card_looks(looks_rng, _card_tint(looks_rng, src))
            pre = pre @ np.array([[1, 0, -margin], [0, 1, -margin], [0, 0, 1]], np.float64)
        roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ m @ pre
        warped = cv2.warpPerspective(src, roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        blur = max(1.0, scale * 0.025)
        shift = np.float32([[1, 0, light[0] * scale * 0.03], [0, 1, light[1] * scale * 0.03]])
        shadow = cv2.warpAffine(cv2.GaussianBlur(alpha[:, :, 0], (0, 0), blur), shift, (x1 - x0, y1 - y0))
        region = image_f[y0:y1, x0:x1]
        region *= 1.0 - shadow_strength * shadow[:, :, None]
        region[:] = region * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        mask[y0:y1, x0:x1] = alpha[:, :, 0] > 0.5

    def through(points):  # face pixels -> image pixels, following the curl
        if bend is looks.FLAT:
            return _project(m, points)
        uv = np.asarray(points, np.float64) / (face_w, face_h)
        return _project(m, bend.forward(uv) * (face_w, face_h))

    if bend is looks.FLAT:
        outline = corners
    else:
        t = np.linspace(0, 1, 9)[:-1]
        edge = np.concatenate([np.c_[t, 0 * t], np.c_[1 + 0 * t, t], np.c_[1 - t, 1 + 0 * t], np.c_[0 * t, 1 - t]])
        outline = through(edge * (face_w, face_h))
    quads = [through([(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])]) for b in boxes]
    return mask, corners, outline, quads


def _card_tint(rng, face: np.ndarray) -> np.ndarray:
    """Per-card paper and print variation (aged paper, ink strength)."""
    rgb = face[:, :, :3].astype(np.float32)
    rgb = rgb * rng.uniform(0.9, 1.05, 3)[None, None, :] + rng.uniform(-10, 5)
    return np.dstack([np.clip(rgb, 0, 255).astype(np.uint8), face[:, :, 3]])


def render_scene(seed: int, *, layout: str | None = None, decks: tuple[str, ...] | None = None,
                 size: tuple[int, int] = DEFAULT_SIZE, packaged_surfaces: bool = True,
                 table_conventions: bool = False, mix: str = "v2",
                 index_shares: bool = False) -> tuple[np.ndarray, dict]:
    """Render one photo-like scene; returns (BGR uint8 image, annotation dict).

    ``index_shares=True`` also gives each index the share of it that shows (``"shown"``, 0-1: the
    reader's sliver crops); off, the annotation is the one the committed samples hold.

    ``packaged_surfaces=False`` draws only procedural table textures (used for the shipped samples).
    ``table_conventions=True`` lays groups out as players do (see ``layouts``): bench and samples.
    ``mix`` picks the data mix (see ``MIXES``); "v2" renders exactly what models v2 were trained on.
    """
    if mix not in MIXES:
        raise ValueError(f"unknown data mix {mix!r}; known: {', '.join(MIXES)}")
    if mix == "v5" and not decks:
        art.require_built(art.REAL_DECK)  # DeckNotBuiltError (a ValueError) names the command that builds it
    rng = np.random.default_rng(int(seed))
    w, h = int(size[0]), int(size[1])
    if w < 64 or h < 64:
        raise ValueError(f"scene size {w}x{h} too small (at least 64x64)")
    v3 = mix != "v2"
    v4 = mix in ("v4", "v5")
    if layout is None:
        weights = arrangements.LAYOUT_WEIGHTS_V3 if v3 else layouts.LAYOUT_WEIGHTS
        layout = str(rng.choice(layouts.LAYOUTS, p=weights))
    deck_name = _pick_deck(rng, decks, mix)
    deck = art.load_deck(deck_name)
    face_h, face_w = deck.faces[CARD_CODES[0]].shape[:2]
    aspect = face_w / face_h
    codes = [CARD_CODES[i] for i in rng.permutation(52)[:layouts.cards_needed(layout)]]
    if v3:
        made = arrangements.arrange(rng, layout, codes, aspect, table_conventions, mix="v4" if v4 else mix)
    else:
        made = arrangements.Arrangement(*layouts.place(rng, layout, codes, aspect, table_conventions), kind="")
    groups = made.groups

    whole_show = layout in layouts.SHOW_LAYOUTS_MORE
    placements, scale, offset, homography, turn, cut = _frame_layout(rng, made, aspect, w, h, v3, table_conventions,
                                                                     whole_show)
    pack = _turned_pack(made.pack, turn)
    image, masks, cards = _compose(rng, deck, placements, (scale, offset, homography), (w, h), made.framing,
                                   packaged_surfaces, v3, v4, pack)
    covered, occluders = _cover(rng, image, cards, made, turn, (scale, offset, homography))
    min_card_h = scale * 0.8
    image = looks.phone_camera(rng, image, min_card_h) if v3 else photo.apply_camera(rng, image, min_card_h)

    annotation = {
        "image": "", "width": w, "height": h, "seed": int(seed), "deck": deck_name, "layout": layout,
        "cards": _annotate(cards, masks, covered, w, h, index_shares),
        "groups": [{"role": role, "cards": list(cs)} for role, cs in groups],
        "objects_over_cards": occluders,
    }
    if v3:
        annotation.update({"mix": mix, "arrangement": made.kind, "cut_by_frame": cut})
    if v4:
        annotation["starter_on_pack"] = made.pack is not None
    return image, annotation


def _turned_pack(pack, turn: float):
    """The pack under the starter (layout coords) turned with the layout, or None."""
    if pack is None:
        return None
    x, y, angle, thickness = pack
    ct, st = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return x * ct - y * st, x * st + y * ct, angle + turn, thickness


def _frame_layout(rng, made, aspect: float, w: int, h: int, v3: bool, table_conventions: bool,
                  whole_show: bool = False):
    """Turn the whole layout, frame it and tilt the camera; returns (turned placements, pixels per
    card height, offset, table -> image homography, the turn in degrees, cut by the frame). A
    whole 3- or 4-player show (``whole_show``) is never cut by the frame, its cards as small as
    it takes (down to ``WHOLE_SHOW_SMALLEST`` of the short side)."""
    # Mostly near upright, often any angle (v3: more often, a single card always).
    any_angle = 1.0 if made.framing == "single" else 0.6 if v3 else 0.4
    turn = rng.uniform(0, 360) if rng.random() < any_angle else rng.normal(0, 12)
    ct, st = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    placements = [(c, x * ct - y * st, x * st + y * ct, a + turn, g) for c, x, y, a, g in made.placements]
    cut = False
    if v3:
        scale, offset, cut = arrangements.frame(rng, placements, aspect, w, h, made.framing,
                                                allow_cut=not (table_conventions or whole_show),
                                                **({"smallest": WHOLE_SHOW_SMALLEST} if whole_show else {}))
    else:
        scale, offset = _fit(rng, placements, aspect, w, h, whole_show)
    return placements, scale, offset, _perspective(rng, w, h), turn, cut


def _compose(rng, deck, placements, view, size, framing: str, packaged_surfaces: bool, v3: bool, v4: bool = False,
             pack=None):
    """The table with its clutter (v4: chips, printed matter, the pack under the starter) and the
    cards on it, bottom to top; returns (BGR image, each card's mask, each card's (code, corners,
    outline, index quads))."""
    scale, offset, homography = view
    w, h = size
    face_h, face_w = deck.faces[CARD_CODES[0]].shape[:2]
    table = surfaces.surface(rng, h, w, packaged_surfaces)
    objects.draw_clutter(rng, table, scale)
    if v4:
        overlaps.draw_distractors(rng, table, scale)
    if pack is not None:
        x, y, angle, thickness = pack
        overlaps.draw_pack(rng, table, (x * scale + offset[0], y * scale + offset[1]), angle, scale, face_w / face_h,
                           thickness)
    image = cv2.warpPerspective(table, homography, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    if framing == "held":  # cards held over the table: the table lies out of focus
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(1.2, 3.5) * max(w, h) / 1280)
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)])
    shadow_strength = rng.uniform(0.15, 0.5) * (0.5 if framing == "held" else 1.0)
    masks, cards = [], []
    image_f = image.astype(np.float32)
    for code, x, y, angle, _ in placements:
        face, boxes = deck.faces[code], deck.indices[code]
        if deck.variants:  # several faces a code (real cut-outs): one of them
            face, boxes = deck.variants[code][int(rng.integers(len(deck.variants[code])))]
        face = face if v3 else _card_tint(rng, face)  # v3 tints in _draw_card
        cx, cy = x * scale + offset[0], y * scale + offset[1]
        m = homography @ _similarity(face_w, face_h, scale / face_h, angle, cx, cy)
        mask, corners, outline, index_quads = _draw_card(image_f, face, m, boxes, scale, light,
                                                         shadow_strength, rng if v3 else None)
        masks.append(mask)
        cards.append((code, corners, outline, index_quads))
    image = np.clip(image_f, 0, 255).astype(np.uint8)
    if v3 and rng.random() < 0.3:
        image = looks.gloss_on_cards(rng, image, np.any(masks, axis=0))
    return image, masks, cards


def _cover(rng, image: np.ndarray, cards, made, turn: float, view) -> tuple[np.ndarray, int]:
    """Fingers, pens or coins over the cards and the hand holding a fan (drawn into ``image``);
    returns (the covered mask, how many things lie over the cards)."""
    scale, offset, homography = view
    covered = np.zeros(image.shape[:2], bool)
    occluders = 0
    if rng.random() < 0.3:
        occluders = 1
        centres = [corners.mean(axis=0) for _, corners, _, _ in cards]
        covered |= objects.draw_occluders(rng, image, centres, scale)
    if made.hold is not None:  # the fingers holding the fan, over its lower part
        occluders += 1
        hx, hy, up = made.hold
        ct, st = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        pivot_and_top = [(hx + math.sin(math.radians(up)) * k, hy - math.cos(math.radians(up)) * k) for k in (0, 1)]
        turned = [(x * ct - y * st, x * st + y * ct) for x, y in pivot_and_top]
        pivot, top = _project(homography, [(x * scale + offset[0], y * scale + offset[1]) for x, y in turned])
        covered |= objects.draw_holding_hand(rng, image, pivot, top)
    return covered, occluders


def _annotate(cards, masks, covered: np.ndarray, w: int, h: int, index_shares: bool = False) -> list[dict]:
    """Cards bottom to top with their boxes and which indices show (>= VISIBLE_FRACTION unoccluded
    by cards above and ``covered``, and in frame); cards wholly out of frame are left out."""
    covered = covered.copy()
    annotated = []
    for (code, corners, outline, quads), mask in reversed(list(zip(cards, masks))):
        visible_mask = mask & ~covered
        covered |= mask
        box = _clip_box(outline, w, h)
        if box is None:
            continue
        indices = []
        for quad in quads:
            area = max(cv2.contourArea(quad.astype(np.float32)), 1e-6)
            quad_mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(quad_mask, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, 4)
            seen = np.count_nonzero(quad_mask.astype(bool) & visible_mask)
            ibox = _clip_box(quad, w, h)
            indices.append({"box": ibox or [0.0, 0.0, 0.0, 0.0], "visible": bool(ibox is not None and seen / area >= VISIBLE_FRACTION)})
            if index_shares:
                indices[-1]["shown"] = round(min(float(seen) / area, 1.0), 3) if ibox is not None else 0.0
        card_area = max(cv2.contourArea(outline.astype(np.float32)), 1e-6)
        annotated.append({
            "card": code,
            "box": box,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
            "indices": indices,
            "visible_fraction": round(float(np.count_nonzero(visible_mask) / card_area), 3),
        })
    annotated.reverse()  # back to bottom-to-top order
    return annotated


def _clip_box(points: np.ndarray, w: int, h: int) -> list[float] | None:
    x1, y1 = np.clip(points.min(axis=0), 0, [w, h])
    x2, y2 = np.clip(points.max(axis=0), 0, [w, h])
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return [round(float(x1), 1), round(float(y1), 1), round(float(x2), 1), round(float(y2), 1)]
