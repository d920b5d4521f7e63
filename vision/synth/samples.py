"""The shipped sample photos: curated seeds of the CC0 Kennard deck, one JSON sidecar each.

First what a player shoots following the app's capture guide (cards large enough, hands spread,
the starter apart: rendered with the table conventions), then a few hard photos, their names
starting ``hard_`` (tight fans, a 13-card row, a hand held in fingers, one card filling the frame,
a far-away table), so that a folder listing shows the guide's photos first."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.synth.scene import render_scene

# (file stem, layout, seed) rendered with the default data mix ("v2", what models v2 were trained
# on) and the table conventions; chosen by eye in the first sessions. Other code and tests name
# them (hand_starter_papers: the README, the app's tests; deal6_row_tokens: the app's discard help).
SAMPLES: tuple[tuple[str, str, int], ...] = (
    ("deal6_overlap_pen", "deal6", 603),
    ("deal6_row_tokens", "deal6", 605),
    ("hand_starter_keyboard", "hand_starter", 602),
    ("hand_starter_papers", "hand_starter", 608),
    ("hard_fan_glare_finger", "fan", 605),
)
# (file stem, layout, seed) rendered with data mix "v3" (phone-photo looks, the layouts players
# make). Guide photos (table conventions) were the first seeds from 700 whose every card is large
# (long side >= 0.16 of the photo's short side for a hand + starter, >= 0.13 with 13 cards), shows
# an index, overlaps no other card (bounding boxes share < 0.35 of the smaller one), with nothing
# over the cards; hard photos the first seeds from 700 of each arrangement named (for the single
# card close-up, the first court card: its face art must not read as an index).
V3_SAMPLES: tuple[tuple[str, str, int], ...] = (
    ("hand_starter_spread", "hand_starter", 701),
    ("hand_starter_spread_large", "hand_starter", 707),
    ("hands_crib_starter_rows", "two_hands_crib_starter", 703),
    ("hands_crib_starter_spread", "two_hands_crib_starter", 783),
    ("hard_fan_tight_starter", "fan", 705),
    ("hard_fan_held_in_fingers", "fan", 702),
    ("hard_row_of_13", "fan", 711),
    ("hard_fan_of_13", "fan", 737),
    ("hard_single_court_card", "scatter", 710),
    ("hard_far_table", "scatter", 701),
)
SAMPLE_DECKS = ("kennard",)
HARD_PREFIX = "hard_"
MAX_BYTES = 330_000  # a sample over this is saved at a lower JPEG quality (90, 85, ...)


def render_sample(stem: str) -> tuple:
    """(BGR image, annotation) of the sample named ``stem``."""
    for mix, samples in (("v2", SAMPLES), ("v3", V3_SAMPLES)):
        for name, layout, seed in samples:
            if name == stem:
                guide = not stem.startswith(HARD_PREFIX) or mix == "v2"
                image, annotation = render_scene(seed, layout=layout, decks=SAMPLE_DECKS, packaged_surfaces=False,
                                                 table_conventions=guide, mix=mix)
                annotation["image"] = f"{stem}.jpg"
                return image, annotation
    raise KeyError(f"no sample named {stem!r}")


def _jpeg(image) -> bytes:
    for quality in range(90, 50, -5):
        data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
        if len(data) <= MAX_BYTES:
            break
    return data


def write_samples(out: Path) -> list[Path]:
    """Render every sample as OUT/NAME.jpg with OUT/NAME.json (the scene annotation)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, _layout, _seed in SAMPLES + V3_SAMPLES:
        image, annotation = render_sample(stem)
        (out / f"{stem}.jpg").write_bytes(_jpeg(image))
        (out / f"{stem}.json").write_text(json.dumps(annotation, indent=1) + "\n")
        written.append(out / f"{stem}.jpg")
    return written
