"""The shipped sample photos: curated seeds of the CC0 Kennard deck, one JSON sidecar each."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.synth.scene import render_scene

# (file stem, layout, seed): rendered with the table conventions, chosen by eye to cover every layout, turned and tilted cards,
# clutter, objects over cards, and overlapping/fanned hands. Procedural table textures only,
# so every pixel is ours or CC0.
SAMPLES: tuple[tuple[str, str, int], ...] = (
    ("hand_starter_keyboard", "hand_starter", 602),
    ("hand_starter_papers", "hand_starter", 608),
    ("hand_starter_overlap", "hand_starter", 609),
    ("two_hands_crib_starter_turned", "two_hands_crib_starter", 608),
    ("two_hands_crib_starter_paper", "two_hands_crib_starter", 603),
    ("two_hands_crib_starter_shadow", "two_hands_crib_starter", 607),
    ("deal6_grid_shadow", "deal6", 600),
    ("deal6_grid_clutter", "deal6", 601),
    ("deal6_overlap_pen", "deal6", 603),
    ("deal6_row_tokens", "deal6", 605),
    ("fan_starter", "fan", 600),
    ("fan_pen_over_cards", "fan", 602),
    ("fan_close_up", "fan", 604),
    ("fan_glare_finger", "fan", 605),
)
SAMPLE_DECKS = ("kennard",)


def write_samples(out: Path) -> list[Path]:
    """Render every sample as OUT/NAME.jpg with OUT/NAME.json (the scene annotation)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, layout, seed in SAMPLES:
        image, annotation = render_scene(seed, layout=layout, decks=SAMPLE_DECKS, packaged_surfaces=False,
                                         table_conventions=True)
        annotation["image"] = f"{stem}.jpg"
        cv2.imwrite(str(out / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (out / f"{stem}.json").write_text(json.dumps(annotation, indent=1) + "\n")
        written.append(out / f"{stem}.jpg")
    return written
