"""Data engine: determinism, label geometry, visibility, dataset files, crib synth."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.classes import CARD_CODES
from vision.synth import LAYOUTS, TRAIN_DECKS, render_scene, scene_seed
from vision.synth.art import find_corner_index, load_deck
from vision.synth.kde_art import KDE_THEMES
from vision.synth.dataset import image_size, write_dataset, yolo_lines
from vision.synth.surfaces import PatternFormatError, read_gimp_pattern

SMALL = (480, 360)
DECK = ("kennard",)


def _inside(inner, outer, tol=1.5):
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def _point_in_polygon(point, polygon):
    return cv2.pointPolygonTest(np.float32(polygon).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def test_same_seed_same_scene_and_different_seed_differs():
    a_img, a_ann = render_scene(123, decks=DECK, size=SMALL)
    b_img, b_ann = render_scene(123, decks=DECK, size=SMALL)
    c_img, _ = render_scene(124, decks=DECK, size=SMALL)
    assert np.array_equal(a_img, b_img)
    assert a_ann == b_ann
    assert not np.array_equal(a_img, c_img)
    assert a_img.shape == (SMALL[1], SMALL[0], 3) and a_img.dtype == np.uint8


@pytest.mark.parametrize("mix", ["v2", "v3"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_label_geometry(layout, mix):
    for seed in range(6):
        image, ann = render_scene(1000 + seed, layout=layout, decks=DECK, size=SMALL, mix=mix)
        w, h = ann["width"], ann["height"]
        assert (w, h) == SMALL and ann["layout"] == layout and ann["deck"] == "kennard"
        codes = [c["card"] for c in ann["cards"]]
        assert len(codes) == len(set(codes)) and set(codes) <= set(CARD_CODES)
        for card in ann["cards"]:
            x1, y1, x2, y2 = card["box"]
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            assert len(card["corners"]) == 4
            assert len(card["indices"]) in (2, 4)
            for index in card["indices"]:
                if index["visible"]:
                    ix1, iy1, ix2, iy2 = index["box"]
                    assert 0 <= ix1 < ix2 <= w and 0 <= iy1 < iy2 <= h
                    assert _inside(index["box"], card["box"])
                    # the index is small next to its card
                    assert (ix2 - ix1) * (iy2 - iy1) < 0.25 * (x2 - x1) * (y2 - y1) + 1
        grouped = [c for g in ann["groups"] for c in g["cards"]]
        assert len(grouped) == len(set(grouped))
        assert {g["role"] for g in ann["groups"]} <= {"hand", "crib", "starter"}


def test_layout_groups_have_cribbage_shapes():
    _, ann = render_scene(7, layout="two_hands_crib_starter", decks=DECK, size=SMALL)
    assert [(g["role"], len(g["cards"])) for g in ann["groups"]] == [("hand", 4), ("hand", 4), ("crib", 4), ("starter", 1)]
    _, ann = render_scene(7, layout="hand_starter", decks=DECK, size=SMALL)
    assert [(g["role"], len(g["cards"])) for g in ann["groups"]] == [("hand", 4), ("starter", 1)]
    _, ann = render_scene(7, layout="deal6", decks=DECK, size=SMALL)
    assert [(g["role"], len(g["cards"])) for g in ann["groups"]] == [("hand", 6)]


@pytest.mark.parametrize("mix", ["v2", "v3"])
def test_visible_flags_agree_with_the_cards_on_top(mix):
    checked_hidden = checked_shown = 0
    for seed in range(40):
        _, ann = render_scene(2000 + seed, layout="fan" if seed % 2 else "deal6", decks=DECK, size=SMALL, mix=mix)
        cards = ann["cards"]  # bottom to top
        for k, card in enumerate(cards):
            above = cards[k + 1:]
            for index in card["indices"]:
                x1, y1, x2, y2 = index["box"]
                if x2 - x1 < 1:
                    continue
                corners = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
                # Wholly under one card above: cannot be visible.
                if any(all(_point_in_polygon(p, top["corners"]) for p in corners) for top in above):
                    assert not index["visible"]
                    checked_hidden += 1
                # Nothing above touches it, nothing else lies over the cards, wholly in frame: visible.
                clear = all(not _boxes_overlap(index["box"], top["box"]) for top in above)
                in_frame = not _touches_border(index["box"], ann["width"], ann["height"])
                if clear and in_frame and ann["objects_over_cards"] == 0:
                    assert index["visible"]
                    checked_shown += 1
    assert checked_hidden > 5 and checked_shown > 20


def _boxes_overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches_border(box, w, h):
    return box[0] <= 0.5 or box[1] <= 0.5 or box[2] >= w - 0.5 or box[3] >= h - 0.5


def test_yolo_lines_match_visible_indices():
    _, ann = render_scene(31, decks=DECK, size=SMALL)
    lines = [line.split() for line in yolo_lines(ann)]
    visible = sum(i["visible"] for c in ann["cards"] for i in c["indices"])
    assert sum(1 for parts in lines if parts[0] == "0") == visible
    assert sum(1 for parts in lines if parts[0] == "1") >= 1
    for parts in lines:
        assert len(parts) == 5 and parts[0] in ("0", "1")
        cx, cy, bw, bh = map(float, parts[1:])
        assert 0 <= cx - bw / 2 + 1e-6 and cx + bw / 2 <= 1 + 1e-6
        assert 0 <= cy - bh / 2 + 1e-6 and cy + bh / 2 <= 1 + 1e-6


def test_dataset_files_and_reproducible_images(tmp_path):
    out = tmp_path / "ds"
    data = write_dataset(out, 3, seed=5, decks=DECK, longest=320, mixed=True, workers=1)
    assert data == out / "data.yaml" and "names:" in data.read_text()
    manifest = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(manifest) == 3
    for i, ann in enumerate(manifest):
        image = cv2.imread(str(out / ann["image"]))
        assert image.shape[:2] == (ann["height"], ann["width"])
        assert max(ann["width"], ann["height"]) == 320
        assert ann["seed"] == scene_seed(5, i)
        labels = (out / "labels" / f"{i:06d}.txt").read_text().split("\n")
        assert [l for l in labels if l] == yolo_lines(ann)
        _, again = render_scene(ann["seed"], decks=DECK, size=image_size(ann["seed"], 320, True))
        again["image"] = ann["image"]
        assert again == ann


def test_dataset_resumes_an_interrupted_run_and_grows_or_shrinks(tmp_path):
    out = tmp_path / "ds"
    args = dict(decks=DECK, longest=256, mixed=True, workers=1, mix="v3")
    write_dataset(out, 3, seed=5, **args)
    first = (out / "manifest.jsonl").read_text()
    kept = (out / "images" / "000000.jpg").stat().st_mtime_ns
    # Interrupted: scene 1 never finished, the run never wrote its stamp.
    (out / "dataset.json").unlink()
    (out / "annotations" / "000001.json").unlink()
    calls = []
    write_dataset(out, 3, seed=5, progress=lambda done, total: calls.append((done, total)), **args)
    assert (out / "manifest.jsonl").read_text() == first
    assert (out / "images" / "000000.jpg").stat().st_mtime_ns == kept  # not rendered again
    assert calls == [(2, 3), (3, 3)]
    write_dataset(out, 4, seed=5, **args)  # grown: the first three kept
    assert (out / "images" / "000000.jpg").stat().st_mtime_ns == kept
    assert (out / "manifest.jsonl").read_text().startswith(first)
    write_dataset(out, 2, seed=5, **args)  # shrunk: nothing past the end stays for the trainer to find
    assert sorted(p.name for p in (out / "images").iterdir()) == ["000000.jpg", "000001.jpg"]
    assert len(list((out / "labels").iterdir())) == 2
    write_dataset(out, 2, seed=6, **args)  # another seed: nothing reused
    assert (out / "images" / "000000.jpg").stat().st_mtime_ns != kept


def test_corner_index_found_on_a_drawn_card():
    face = np.full((480, 340, 4), 255, np.uint8)
    cv2.putText(face, "K", (14, 58), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (0, 0, 0, 255), 4)
    cv2.circle(face, (32, 92), 14, (0, 0, 200, 255), -1)  # the small suit under the rank
    cv2.rectangle(face, (110, 120), (230, 360), (30, 120, 30, 255), -1)  # the picture
    x1, y1, x2, y2 = find_corner_index(face)
    assert 5 <= x1 <= 18 and 15 <= y1 <= 30
    assert 44 <= x2 <= 60 and 100 <= y2 <= 115


def test_kennard_indices_sit_in_opposite_corners():
    deck = load_deck("kennard")
    assert len(deck.faces) == 52
    for code in ("AS", "TH", "QD", "7C"):
        h, w = deck.faces[code].shape[:2]
        top, bottom = deck.indices[code]
        assert top[2] < 0.3 * w and top[3] < 0.35 * h
        assert bottom[0] > 0.7 * w and bottom[1] > 0.65 * h


@pytest.mark.parametrize("name", sorted(KDE_THEMES))
def test_kde_deck_indices_sit_in_opposite_corners(name):
    """Every face of the KDE decks: one rank-over-suit box in the top-left corner, its mirror in the
    bottom-right, inside the card, and found on the face itself (the deck's median box is the
    fallback; a deck where many faces fall back would show here as identical boxes)."""
    deck = load_deck(name)
    assert sorted(deck.faces) == sorted(CARD_CODES)
    tops = []
    for code, face in deck.faces.items():
        h, w = face.shape[:2]
        assert 0.6 < w / h < 0.8, (code, w, h)
        assert len(deck.indices[code]) == 2
        top, bottom = deck.indices[code]
        assert 0 <= top[0] < top[2] < 0.34 * w and 0 <= top[1] < top[3] < 0.4 * h, (code, top)
        assert w >= bottom[2] > bottom[0] > 0.66 * w and h >= bottom[3] > bottom[1] > 0.6 * h, (code, bottom)
        assert np.allclose(bottom, (w - top[2], h - top[3], w - top[0], h - top[1]))
        assert top[3] - top[1] > 0.9 * (top[2] - top[0])  # rank over suit: taller than wide
        found = find_corner_index(face)
        tops.append(found is not None and np.allclose(found, top))
    assert sum(tops) >= 40  # found on the face itself; the median fallback only where art touches the index


def test_kde_cards_by_element_id_and_embedded_bitmaps():
    import base64

    from vision.synth.kde_art import _embedded_png, element_id

    assert [element_id(c) for c in ("AC", "TH", "JS", "QD", "KH", "7C")] == \
        ["1_club", "10_heart", "jack_spade", "queen_diamond", "king_heart", "7_club"]
    bitmap = np.zeros((12, 8, 3), np.uint8)
    bitmap[:, :, 2] = 200
    data = base64.b64encode(cv2.imencode(".png", bitmap)[1].tobytes()).decode()
    svg = f'<svg><image\n id="1_club" width="8" height="12"\n xlink:href="data:image/png;base64,{data[:20]}\n{data[20:]}" /></svg>'
    face = _embedded_png(svg, "1_club")
    assert face.shape == (12, 8, 4) and face[0, 0, 2] == 200 and face[0, 0, 3] == 255
    assert _embedded_png(svg, "2_club") is None


def test_gimp_pattern_reader(tmp_path):
    import struct

    pixels = bytes(range(2 * 3 * 3))
    name = b"tiny\0"
    header = struct.pack(">5I", 24 + len(name), 1, 3, 2, 3) + b"GPAT" + name
    path = tmp_path / "tiny.pat"
    path.write_bytes(header + pixels)
    image = read_gimp_pattern(path)
    assert image.shape == (2, 3, 3)
    assert tuple(image[0, 0]) == (2, 1, 0)  # RGB stored, BGR returned
    path.write_bytes(b"not a pattern at all, no magic here")
    with pytest.raises(PatternFormatError):
        read_gimp_pattern(path)


def test_every_training_deck_is_known_and_unknown_deck_rejected():
    from vision.synth.art import EVAL_DECKS, V2_DECKS
    from vision.synth.scene import _pick_deck
    from vision.train.experiments.one_shot import FULL

    assert "kennard" in TRAIN_DECKS and not any(d.startswith("anglo") for d in TRAIN_DECKS)
    assert set(EVAL_DECKS).isdisjoint(TRAIN_DECKS) and FULL.decks is None  # training: TRAIN_DECKS only
    rng = np.random.default_rng(0)
    assert {_pick_deck(rng, None, "v3") for _ in range(800)} == set(TRAIN_DECKS)  # evaluation decks only when asked
    assert {_pick_deck(rng, None) for _ in range(500)} == set(V2_DECKS)  # the default mix: models v2's decks
    refused = _crib("synth", "--out", "/tmp/never-written", "--n", "1", "--deck", "anglo")  # no training data
    assert refused.returncode == 2 and "unknown deck 'anglo'" in refused.stderr
    with pytest.raises(ValueError, match="unknown deck"):
        render_scene(1, decks=("bicycle",), size=SMALL)
    with pytest.raises(ValueError, match="unknown layout"):
        render_scene(1, layout="pyramid", decks=DECK, size=SMALL)


def _crib(*args):
    code = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_crib_synth_writes_a_dataset_with_progress(tmp_path):
    result = _crib("synth", "--out", str(tmp_path / "s"), "--n", "2", "--seed", "3", "--deck", "kennard",
                   "--longest", "256", "--layout", "fan", "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "2/2" in result.stderr
    assert len(list((tmp_path / "s" / "images").glob("*.jpg"))) == 2
    lines = (tmp_path / "s" / "manifest.jsonl").read_text().splitlines()
    assert all(json.loads(line)["layout"] == "fan" for line in lines)
    assert all("mix" not in json.loads(line) for line in lines)  # v2, the default, is models v2's data


def test_crib_synth_renders_the_v3_mix_on_request(tmp_path):
    result = _crib("synth", "--out", str(tmp_path / "s"), "--n", "2", "--seed", "3", "--longest", "256",
                   "--mix", "v3", "--workers", "1")
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "s" / "manifest.jsonl").read_text().splitlines()
    assert [json.loads(line)["mix"] for line in lines] == ["v3", "v3"]
    refused = _crib("synth", "--out", str(tmp_path / "t"), "--mix", "v6")
    assert refused.returncode == 2 and "invalid choice: 'v6'" in refused.stderr


def test_crib_synth_v5_without_the_real_cut_outs_names_the_command_that_builds_them(tmp_path):
    code = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    refused = subprocess.run([sys.executable, "-c", code, "synth", "--out", str(tmp_path / "s"), "--n", "1", "--mix", "v5"],
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "CRIB_ART_CACHE": str(tmp_path / "no-art")})
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "deck 'rf100-real' is not built" in refused.stderr and "python -m vision.train.cutouts" in refused.stderr
    assert not (tmp_path / "s" / "images").exists() or not list((tmp_path / "s" / "images").iterdir())


@pytest.mark.parametrize("args, message", [
    (("--n", "0"), "must be at least 1"),
    (("--n", "x"), "not a whole number"),
    (("--layout", "pyramid"), "unknown layout"),
    (("--deck", "bicycle"), "unknown deck"),
])
def test_crib_synth_bad_input_is_one_line(tmp_path, args, message):
    result = _crib("synth", "--out", str(tmp_path / "s"), *args)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def _card_polygon(x, y, angle, aspect):
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    half = np.array([[-aspect, -1], [aspect, -1], [aspect, 1], [-aspect, 1]]) / 2
    return half @ np.array([[c, s], [-s, c]]) + (x, y)


def _polygon_gap(a, b):
    """Edge-to-edge distance of two convex quads (0 when they overlap)."""
    if any(_point_in_polygon(p, b) for p in a) or any(_point_in_polygon(p, a) for p in b):
        return 0.0

    def to_segment(p, q, r):
        t = np.clip(np.dot(p - q, r - q) / np.dot(r - q, r - q), 0, 1)
        return np.linalg.norm(p - (q + t * (r - q)))
    return min(to_segment(p, poly[i], poly[(i + 1) % 4]) for pts, poly in ((a, b), (b, a)) for p in pts for i in range(4))


@pytest.mark.parametrize("layout", ["hand_starter", "two_hands_crib_starter"])
def test_table_conventions_keep_groups_apart_and_the_crib_by_the_starter(layout):
    """What vision/layout.py relies on: groups (and the starter) a card width apart, and the crib
    the group nearest the starter, clearly (the free training placement promises neither)."""
    from vision.synth.layouts import CRIB_NEARER, place

    aspect = 0.7
    for seed in range(60):
        codes = [CARD_CODES[i] for i in np.random.default_rng(seed).permutation(52)[:13]]
        placements, groups = place(np.random.default_rng(seed), layout, codes, aspect, table_conventions=True)
        role_of = {c: role for role, cards in groups for c in cards}
        group_of = {c: i for i, (_, cards) in enumerate(groups) for c in cards}
        assert sorted(p[0] for p in placements) == sorted(group_of)
        polygons = {p[0]: _card_polygon(p[1], p[2], p[3], aspect) for p in placements}
        for a in polygons:
            for b in polygons:
                if group_of[a] < group_of[b]:
                    assert _polygon_gap(polygons[a], polygons[b]) >= aspect * 0.999, (seed, a, b)
        centre = {i: np.mean([(p[1], p[2]) for p in placements if group_of[p[0]] == i], axis=0)
                  for i in range(len(groups))}
        starter = next(i for i, (role, _) in enumerate(groups) if role == "starter")
        by_distance = sorted((np.linalg.norm(centre[i] - centre[starter]), groups[i][0])
                             for i in centre if i != starter)
        if layout == "two_hands_crib_starter":
            assert by_distance[0][1] == "crib" and by_distance[1][0] >= CRIB_NEARER * by_distance[0][0], seed
        assert role_of[codes[0]] == "hand"


@pytest.mark.parametrize("stem", ["hard_fan_glare_finger", "hand_starter_keyboard"])
def test_default_mix_still_renders_the_committed_samples(stem):
    """The "v2" mix (the default) is the data models v2 were trained on: new decks, layouts and
    looks must not change it. The committed sample photos were rendered with it."""
    from pathlib import Path

    from vision.synth.samples import SAMPLE_DECKS, SAMPLES

    folder = Path(__file__).resolve().parents[2] / "sample_images"
    _, layout, seed = next(s for s in SAMPLES if s[0] == stem)
    image, ann = render_scene(seed, layout=layout, decks=SAMPLE_DECKS, packaged_surfaces=False, table_conventions=True)
    committed = json.loads((folder / f"{stem}.json").read_text())
    ann["image"] = committed["image"]
    assert ann == committed
    shipped = cv2.imread(str(folder / f"{stem}.jpg")).astype(np.float32)
    assert np.abs(shipped - image).mean() < 2.0  # the same pixels, up to the JPEG


def _top_left(x, y, angle, aspect):
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    dx, dy = -aspect / 2, -0.5
    return np.array([x + dx * c - dy * s, y + dx * s + dy * c])


@pytest.mark.parametrize("style", ["tight_row", "tight_fan"])
def test_tight_rows_and_fans_offset_neighbours_by_an_index_column(style):
    """Only the index column of each lower card shows: neighbours' top-left corners lie 12-25 % of a
    card's width apart (the row's tiny jitter aside), for hands of 4 to 13."""
    from vision.synth.layouts import TIGHT_OFFSET, _row

    aspect = 0.7
    seen = []
    for seed in range(80):
        rng = np.random.default_rng(seed)
        n = 13 if seed % 4 == 0 else 4 + seed % 5
        offsets = _row(rng, n, aspect, style)
        corners = [_top_left(x, y, a, aspect) for x, y, a in offsets]
        steps = [np.linalg.norm(b - a) / aspect for a, b in zip(corners, corners[1:])]
        assert len(offsets) == n
        assert min(steps) >= TIGHT_OFFSET[0] - 0.03 and max(steps) <= TIGHT_OFFSET[1] + 0.03, (seed, steps)
        seen += steps
    assert min(seen) < 0.14 and max(seen) > 0.23  # the whole range is used


def _v3_scenes(layout, seeds, size=SMALL):
    return [render_scene(seed, layout=layout, decks=DECK, size=size, mix="v3")[1] for seed in seeds]


def test_v3_fans_rows_held_hands_and_thirteen_card_rows():
    anns = _v3_scenes("fan", range(3000, 3060))
    lower_shown = lower = 0
    kinds = {a["arrangement"] for a in anns}
    assert {"tight_fan", "tight_row", "held", "loose"} <= kinds and kinds & {"tight_fan13", "tight_row13"}
    for ann in anns:
        hand = ann["groups"][0]["cards"]
        assert ann["groups"][0]["role"] == "hand"
        assert len(hand) == (13 if ann["arrangement"].endswith("13") else len(hand))
        assert 4 <= len(hand) <= 13
        if ann["arrangement"] == "held":
            assert ann["objects_over_cards"] >= 1  # the fingers holding them
        # In a tight fan or row the top card shows its index and most lower cards their index column
        # (at 12 % of a card's width some index is more than 40 % covered: then it is not labelled).
        if ann["arrangement"].startswith("tight") and not ann["cut_by_frame"] and not ann["objects_over_cards"]:
            shown = [any(i["visible"] for i in c["indices"]) for c in ann["cards"] if c["card"] in hand]
            assert shown[-1], ann["seed"]
            lower_shown, lower = lower_shown + sum(shown[:-1]), lower + len(shown) - 1
    assert lower > 30 and lower_shown >= 0.8 * lower


def test_v3_scale_runs_from_one_card_filling_the_frame_to_far_shots():
    anns = _v3_scenes("scatter", range(4000, 4060))
    w, h = SMALL
    singles = [a for a in anns if a["arrangement"] == "single"]
    fars = [a for a in anns if a["arrangement"] == "far"]
    assert len(singles) >= 8 and len(fars) >= 6
    for ann in singles:
        (card,) = ann["cards"]
        side = max(np.linalg.norm(np.subtract(card["corners"][1], card["corners"][2])),
                   np.linalg.norm(np.subtract(card["corners"][0], card["corners"][1])))
        assert side >= 0.4 * min(w, h)  # the long side: one card, large
    assert sum(a["cards"][0]["card"][0] in "JQK" for a in singles) >= len(singles) * 0.35  # court art shows
    for ann in fars:
        for card in ann["cards"]:
            long_side = max(np.linalg.norm(np.subtract(card["corners"][k], card["corners"][k + 1])) for k in range(2))
            assert long_side <= 0.25 * min(w, h)


def test_v3_turns_cards_every_way_and_cuts_layouts_by_the_frame():
    anns = [render_scene(seed, decks=DECK, size=SMALL, mix="v3")[1] for seed in range(5000, 5040)]
    quadrants = set()
    for ann in anns:
        for card in ann["cards"]:
            (x0, y0), (x1, y1) = card["corners"][0], card["corners"][1]  # the face's top edge
            quadrants.add(int(((np.degrees(np.arctan2(y1 - y0, x1 - x0)) + 45) % 360) // 90))
    assert quadrants == {0, 1, 2, 3}  # upright, both quarter turns, upside down
    cut = [a for a in anns if a["cut_by_frame"]]
    assert cut and any(_touches_border(c["box"], a["width"], a["height"]) for a in cut for c in a["cards"])
    assert all(a["mix"] == "v3" for a in anns)


def test_v3_show_photos_keep_the_table_conventions():
    for seed in range(10):
        _, ann = render_scene(6000 + seed, layout="two_hands_crib_starter", decks=DECK, size=SMALL, mix="v3",
                              table_conventions=True)
        assert ann["arrangement"] == "show" and not ann["cut_by_frame"]
        assert [(g["role"], len(g["cards"])) for g in ann["groups"]] == [("hand", 4), ("hand", 4), ("crib", 4), ("starter", 1)]


def test_v3_looks_are_deterministic_per_seed():
    for seed in (71, 72):
        a_img, a_ann = render_scene(seed, decks=DECK, size=SMALL, mix="v3")
        b_img, b_ann = render_scene(seed, decks=DECK, size=SMALL, mix="v3")
        assert np.array_equal(a_img, b_img) and a_ann == b_ann
    assert not np.array_equal(render_scene(71, decks=DECK, size=SMALL, mix="v3")[0],
                              render_scene(71, decks=DECK, size=SMALL)[0])  # v3 is not v2
    with pytest.raises(ValueError, match="unknown data mix"):
        render_scene(1, decks=DECK, size=SMALL, mix="v9")


@pytest.mark.parametrize("axis, amount", [(0, 0.05), (1, 0.05), (0, -0.03), (1, -0.02)])
def test_curl_moves_the_art_where_the_labels_say(axis, amount):
    """The curled face and Bend.forward (which moves outline and index boxes) agree: a mark drawn
    on the flat face lands where forward() maps it."""
    from vision.synth.looks import Bend, _curl

    face = np.zeros((300, 210, 4), np.uint8)
    face[:, :, 3] = 255
    face[:, :, :3] = 255
    marks = [(0.2, 0.15), (0.5, 0.05), (0.8, 0.9), (0.5, 0.5), (0.1, 0.6)]
    for u, v in marks:
        cv2.circle(face, (int(u * 210), int(v * 300)), 5, (0, 0, 0, 255), -1)
    bend = Bend(axis, amount)
    curled, pad = _curl(face, bend)
    dark = (curled[:, :, 0] < 100) & (curled[:, :, 3] > 200)
    count, _, _, centroids = cv2.connectedComponentsWithStats(dark.astype(np.uint8))
    found = centroids[1:]
    assert count - 1 == len(marks)
    for (u, v), (fu, fv) in zip(marks, bend.forward(marks)):
        want = np.array([fu * 210 + pad, fv * 300 + pad])
        assert np.min(np.linalg.norm(found - want, axis=1)) < 2.0
    if amount > 0:  # the middle of an edge bulges out past the flat card
        mid_y, mid_x = curled.shape[0] // 2, curled.shape[1] // 2
        margin = curled[mid_y, :pad, 3] if axis == 1 else curled[:pad, mid_x, 3]  # left edge / top edge
        assert margin.max() > 0 and curled[pad // 2, pad // 2, 3] == 0  # the corner stays put


def test_gloss_shines_on_cards_only_and_keeps_ink_darker_than_paper():
    from vision.synth.looks import gloss_on_cards

    image = np.full((120, 160, 3), 60, np.uint8)
    image[20:100, 40:120] = 240  # a card
    image[40:60, 60:70] = 10  # its ink
    cards = np.zeros((120, 160), bool)
    cards[20:100, 40:120] = True
    table = ~cv2.dilate(cards.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)  # 3 px off the card
    shone = 0
    for seed in range(10):
        out = gloss_on_cards(np.random.default_rng(seed), image, cards).astype(int)
        assert np.all(out >= image) and np.all(out[table] == image[table])  # only the cards shine
        assert out[40:60, 60:70].max() < 0.75 * out[20:100, 40:120].max()  # ink darker than the paper
        shone += out[40:60, 60:70].max() > 40
    assert shone >= 1


def test_holding_hand_covers_the_fans_base_not_its_indices():
    from vision.synth.objects import draw_holding_hand

    for seed in range(8):
        image = np.full((300, 300, 3), 200, np.uint8)
        covered = draw_holding_hand(np.random.default_rng(seed), image, (150, 200), (150, 100))  # cards point up
        assert covered[240, 150] and covered.sum() > 2000  # the palm under the pivot
        assert not covered[:110].any()  # the top of the fan, where its indices are, stays clear
        assert np.any(image[covered] != 200, axis=1).mean() > 0.99  # skin drawn where it says


def test_reader_crops_of_one_layout_are_that_layouts_visible_indices(tmp_path):
    """``python -m vision.train.crops_data --layout fan``: one crop per visible index of each fan
    scene (the reader's weak layouts get crops of their own, issue 20), labelled with its card."""
    from vision.train import crops_data

    out = tmp_path / "fans.npz"
    crops_data.main(["--out", str(out), "--scenes", "2", "--seed", "3", "--layout", "fan", "--per-index", "1",
                     "--crop-size", "48", "--workers", "1"])
    saved = np.load(out)
    expected = []
    for i in range(2):
        _, annotation = render_scene(scene_seed(3, i), layout="fan", mix="v4")
        assert annotation["layout"] == "fan"
        expected += [CARD_CODES.index(c["card"]) for c in annotation["cards"] for ix in c["indices"] if ix["visible"]]
    assert saved["crops"].shape == (len(expected), 48, 48, 3)
    assert saved["labels"].tolist() == expected


@pytest.mark.parametrize("bad", [["--layout", "fans"], ["--scenes", "0"]])
def test_reader_crops_command_refuses_bad_options_in_one_line(tmp_path, bad, capsys):
    from vision.train import crops_data

    argv = ["--out", str(tmp_path / "c.npz"), "--scenes", "1", "--seed", "3", *bad]
    with pytest.raises(SystemExit) as stop:
        crops_data.main(argv)
    assert stop.value.code == 2
    assert bad[0] in capsys.readouterr().err.splitlines()[-1]
    assert not (tmp_path / "c.npz").exists()
