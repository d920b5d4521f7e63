"""The layouts and seeds that exist render what they rendered before the 3- and 4-player show
layouts came (issue 54 item 5): the training recipes and benches replay seeds, so ``LAYOUTS``,
``LAYOUT_WEIGHTS``, the v3/v4 arrangements and every random draw of the existing layouts must stay.

``tests/vision/data/unchanged_renders.json`` was recorded on main's code (commit 760dbca) before
the new layouts were added, by ``python tests/vision/test_unchanged_renders.py --record``: for each
case, the SHA-256 of the annotation's JSON and of the image's pixels, and a 32x24 thumbnail
(compared within a grey level on average, should another OpenCV build warp a pixel differently);
and for ``layouts.place`` alone, one digest per (layout, conventions, style) over 200 seeds.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

RECORDED = Path(__file__).resolve().parent / "data" / "unchanged_renders.json"
EXISTING = ("hand_starter", "two_hands_crib_starter", "deal6", "fan", "scatter")
CONFIGS = (("v2", False), ("v2", True), ("v3", True), ("v4", True), ("v4", False))
# Seeds 9,000,000-9,000,004 of each existing layout, each in one of the five (mix, conventions);
# and the layout left to the seed (LAYOUT_WEIGHTS, LAYOUT_WEIGHTS_V3).
CASES = [(9_000_000 + k, layout, *CONFIGS[(k + j) % len(CONFIGS)]) for j, layout in enumerate(EXISTING)
         for k in range(5)] + [(9_000_000 + k, None, *CONFIGS[k]) for k in range(5)]
PLACE_SEEDS = range(200)


def _case_id(case) -> str:
    seed, layout, mix, conventions = case
    return f"{seed}-{layout or 'any'}-{mix}-{'conv' if conventions else 'free'}"


def fingerprint(case) -> dict:
    from vision.synth import render_scene

    seed, layout, mix, conventions = case
    image, annotation = render_scene(seed, layout=layout, mix=mix, table_conventions=conventions)
    thumb = cv2.resize(image, (32, 24), interpolation=cv2.INTER_AREA)
    return {"annotation": hashlib.sha256(json.dumps(annotation, sort_keys=True).encode()).hexdigest(),
            "image": hashlib.sha256(np.ascontiguousarray(image).tobytes()).hexdigest(),
            "thumbnail": base64.b64encode(thumb.tobytes()).decode(), "layout": annotation["layout"]}


def _place_styles():
    from vision.synth import arrangements, overlaps

    return {"default": None, "v3": arrangements.v3_hand_style, "v4": overlaps.v4_hand_style}


def place_digest(layout: str, conventions: bool, style: str) -> str:
    """One digest of ``layouts.place`` over PLACE_SEEDS (placements rounded to 1e-9, the groups)."""
    from vision.classes import CARD_CODES
    from vision.synth.layouts import place

    chosen = _place_styles()[style]
    digest = hashlib.sha256()
    for seed in PLACE_SEEDS:
        codes = [CARD_CODES[i] for i in np.random.default_rng(seed).permutation(52)[:13]]
        rng = np.random.default_rng(seed)
        placements, groups = place(rng, layout, codes, 0.7, conventions, hand_style=chosen, show_style=chosen)
        rows = [(c, round(x, 9), round(y, 9), round(a, 9), g) for c, x, y, a, g in placements]
        digest.update(json.dumps([rows, groups, float(rng.random())]).encode())  # the rng's state after, too
    return digest.hexdigest()


PLACE_CASES = [(layout, conventions, style) for layout in EXISTING for conventions in (False, True)
               for style in ("default", "v3", "v4")]


def _recorded() -> dict:
    return json.loads(RECORDED.read_text())


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_existing_layouts_and_seeds_render_as_before(case):
    recorded = _recorded()["renders"][_case_id(case)]
    now = fingerprint(case)
    assert now["layout"] == recorded["layout"]
    assert now["annotation"] == recorded["annotation"]  # every card, box, index and group as before
    thumbs = [np.frombuffer(base64.b64decode(r["thumbnail"]), np.uint8).astype(np.float32) for r in (now, recorded)]
    difference = np.abs(thumbs[0] - thumbs[1]).mean()
    assert difference < 1.0, difference
    assert now["image"] == recorded["image"]  # the same pixels (this OpenCV build)


@pytest.mark.parametrize("layout,conventions,style", PLACE_CASES)
def test_existing_layouts_place_cards_as_before(layout, conventions, style):
    assert place_digest(layout, conventions, style) == _recorded()["place"][f"{layout}-{conventions}-{style}"]


def test_existing_layout_tables_are_unchanged():
    from vision.synth import arrangements, layouts

    assert layouts.LAYOUTS == EXISTING
    assert layouts.LAYOUT_WEIGHTS == (0.24, 0.24, 0.18, 0.22, 0.12)
    assert arrangements.LAYOUT_WEIGHTS_V3 == (0.18, 0.18, 0.14, 0.34, 0.16)


def record() -> None:
    if RECORDED.exists() and "--force" not in sys.argv:
        sys.exit(f"{RECORDED} exists: it holds what main rendered before; --force to overwrite")
    out = {"renders": {_case_id(c): fingerprint(c) for c in CASES},
           "place": {f"{layout}-{conventions}-{style}": place_digest(layout, conventions, style)
                     for layout, conventions, style in PLACE_CASES}}
    RECORDED.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"recorded {len(out['renders'])} renders and {len(out['place'])} placements in {RECORDED}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    if "--record" in sys.argv:
        record()
