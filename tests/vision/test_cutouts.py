"""Real cards cut out of rf100-poker's train photos (vision/train/cutouts.py) and mix v5, which draws
them: the outline finder on a card warped onto a surface, the deck folder and its variants, mix
v5's refusal without the deck, and cut-outs of a few real train photos."""

import math

import cv2
import numpy as np
import pytest

from vision.classes import CARD_CODES
from vision.synth import art
from vision.synth.dataset import write_dataset
from vision.synth.scene import REAL_SHARE, _pick_deck, render_scene
from vision.train import cutouts

FACE_W, FACE_H = cutouts.FACE_W, cutouts.FACE_H


def drawn_face(paper=(236, 236, 232), ink=(20, 20, 20), rank: str = "7") -> np.ndarray:
    """A card face like this deck's: light paper, rounded corners, a rank over a suit in all four
    corners, pips in the middle."""
    face = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    face[:, :, :3] = paper
    face[:, :, 3] = cutouts.rounded_alpha()
    for flip in (False, True):
        for mirror in (False, True):
            corner = np.zeros_like(face)
            cv2.putText(corner, rank, (18, 70), cv2.FONT_HERSHEY_DUPLEX, 2.0, (*ink, 255), 5, cv2.LINE_AA)
            cv2.circle(corner, (38, 100), 14, (*ink, 255), -1)
            if mirror:
                corner = corner[:, ::-1]
            if flip:
                corner = corner[::-1]
            on = corner[:, :, 3] > 0
            face[on, :3] = corner[on, :3]
    for x, y in ((120, 150), (220, 150), (170, 240), (120, 330), (220, 330)):
        cv2.circle(face, (x, y), 26, (*ink, 255), -1)
    return face


def on_surface(face: np.ndarray, corners: np.ndarray, surface: str, seed: int = 0) -> np.ndarray:
    """The face warped onto a 960 x 720 surface so that its corners land on ``corners``."""
    rng = np.random.default_rng(seed)
    if surface == "wood":
        base = np.array([60, 90, 140], np.float32)
        noise = cv2.GaussianBlur(rng.normal(0, 40, (720, 960)).astype(np.float32), (0, 0), 3)
        image = base[None, None, :] + noise[:, :, None] * np.array([0.6, 0.8, 1.0], np.float32)
    else:  # a grey cloth, lighter than most tables
        image = np.full((720, 960, 3), 150, np.float32) + cv2.GaussianBlur(
            rng.normal(0, 30, (720, 960)).astype(np.float32), (0, 0), 1.5)[:, :, None]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]]),
                                    np.float32(corners))
    warped = cv2.warpPerspective(face, m, (960, 720), flags=cv2.INTER_LINEAR)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    image = image * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
    return np.clip(image, 0, 255).astype(np.uint8)


def turned_card(cx, cy, height, angle, squeeze=0.0) -> np.ndarray:
    """Corners of a card ``height`` px tall turned by ``angle`` degrees, its far (top) side
    ``squeeze`` shorter: a camera looking from an angle."""
    w, h = height * FACE_W / FACE_H, height
    top = w / 2 * (1 - squeeze)
    pts = np.array([[-top, -h / 2], [top, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return pts @ np.array([[c, s], [-s, c]]) + [cx, cy]


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance, the quad read either way round (a card turned 180 degrees is
    the same card)."""
    found = cutouts.portrait_corners(found)
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in (0, 2))


def loose_box(corners: np.ndarray, pad: float = 6.0):
    (x1, y1), (x2, y2) = corners.min(axis=0) - pad, corners.max(axis=0) + pad
    return x1, y1, x2, y2


@pytest.mark.parametrize("surface, angle, squeeze", [("wood", 25, 0.0), ("wood", -62, 0.08), ("cloth", 10, 0.05)])
def test_the_outline_of_a_card_warped_onto_a_surface_is_found_within_a_few_pixels(surface, angle, squeeze):
    truth = turned_card(480, 360, 330, angle, squeeze)
    image = on_surface(drawn_face(), truth, surface)
    quad, why = cutouts.find_card_quad(image, loose_box(truth))
    assert quad is not None, why
    assert corner_error(quad, truth) < 3.0  # the sharp corners, though the card's own are rounded
    short, _ = cutouts.quad_shape(quad)
    assert 0.62 < short < 0.8


def test_a_light_patch_of_the_wrong_shape_is_not_taken_for_a_card():
    square = np.zeros((FACE_W, FACE_W, 4), np.uint8)
    square[:, :, :3], square[:, :, 3] = 235, 255
    corners = np.array([[300, 200], [600, 200], [600, 500], [300, 500]], np.float64)
    image = on_surface(np.ascontiguousarray(cv2.resize(square, (FACE_W, FACE_H))), corners, "wood")
    quad, why = cutouts.find_card_quad(image, loose_box(corners))
    assert quad is None and why == "aspect"


def test_a_card_seen_from_a_steep_angle_is_turned_by_its_corner_ink_not_its_outline():
    """Foreshortened until its long sides look the shorter, a card read by its outline alone would
    be warped lying down; the ink at its corners, against the template of cards whose outline is
    sure, turns it back."""
    sure = []
    for k, angle in enumerate((0, 12, -20, 95)):
        truth = turned_card(480, 360, 300, angle, 0.05)
        image = on_surface(drawn_face(rank="A8K"[k % 3]), truth, "wood", seed=k)
        quad, _ = cutouts.find_card_quad(image, loose_box(truth))
        inks = tuple(cutouts.corner_ink(cutouts.warp_face(image, quad, turn)[0]) for turn in (0, 1))
        sure.append(cutouts.Cutout("AS", f"p{k}", (0, 0, 1, 1), cutouts.portrait_corners(quad), None,
                                   aspect=cutouts.quad_shape(quad)[0], inks=inks))
    # Squashed along its length to 0.55 of its height: its long sides now look the shorter.
    truth = turned_card(480, 360, 300, 30)
    centre = truth.mean(axis=0)
    axis = np.array([-math.sin(math.radians(30)), math.cos(math.radians(30))])  # the card's long axis
    truth = centre + (truth - centre) - np.outer((truth - centre) @ axis, axis) * 0.45
    image = on_surface(drawn_face(rank="5"), truth, "wood", seed=9)
    quad, why = cutouts.find_card_quad(image, loose_box(truth))
    assert quad is not None, why
    first, second = (np.linalg.norm(truth[1] - truth[0]), np.linalg.norm(truth[2] - truth[1]))
    assert first > second  # the card's short side now looks the longer
    inks = tuple(cutouts.corner_ink(cutouts.warp_face(image, quad, turn)[0]) for turn in (0, 1))
    steep = cutouts.Cutout("5S", "steep", (0, 0, 1, 1), cutouts.portrait_corners(quad), None,
                           aspect=cutouts.quad_shape(quad)[0], inks=inks)
    assert steep.aspect > cutouts.GEOMETRY_SURE
    _, agreement = cutouts.way_round(sure + [steep])
    assert agreement["ink_agrees_with_outline"] == agreement["outline_sure"] == 4
    assert steep.turn == 1
    # Its face's top side now runs along the card's true short side (truth[0] -> truth[1]).
    top = steep.quad[1] - steep.quad[0]
    assert abs(float(top @ (truth[1] - truth[0]))) / (np.linalg.norm(top) * first) > 0.99


# --- the deck folder and mix v5 ---------------------------------------------------------------------

@pytest.fixture
def art_cache(tmp_path, monkeypatch):
    """The built decks' folders in ``tmp_path`` (the other decks stay where they are)."""
    monkeypatch.setattr(art, "built_deck_dir", lambda name: tmp_path / name)
    art.load_deck.cache_clear()
    yield tmp_path
    art.load_deck.cache_clear()


def test_mix_v5_without_the_built_deck_is_refused_naming_the_command(art_cache):
    with pytest.raises(ValueError, match=r"rf100-real.*not built.*python -m vision\.train\.cutouts --out"):
        render_scene(1, mix="v5", size=(160, 120))
    with pytest.raises(art.DeckNotBuiltError, match="python -m vision.train.cutouts"):
        art.load_deck(art.REAL_DECK)
    with pytest.raises(art.DeckNotBuiltError):  # before any image is rendered
        write_dataset(art_cache / "set", 1, 0, longest=160, workers=1, mix="v5")
    assert not (art_cache / "set" / "images").exists()


def test_mix_v5_draws_the_real_deck_for_its_share_of_scenes_and_v4_never():
    rng = np.random.default_rng(0)
    picks = [_pick_deck(rng, None, "v5") for _ in range(2000)]
    assert abs(picks.count(art.REAL_DECK) / len(picks) - REAL_SHARE) < 0.04
    assert set(picks) - {art.REAL_DECK} <= set(art.TRAIN_DECKS)
    rng = np.random.default_rng(0)
    assert art.REAL_DECK not in {_pick_deck(rng, None, "v4") for _ in range(500)}


def fake_cutouts(per_code: int = 2) -> list:
    out = []
    for code in CARD_CODES:
        for k in range(per_code):
            face = drawn_face(paper=(236, 236 - 40 * k, 232), rank=code[0])
            boxes = tuple(cutouts._from_top_left((14.0, 14.0, 64.0, 120.0), c, FACE_W, FACE_H) for c in range(4))
            out.append(cutouts.Cutout(code, f"photo{k}", (0, 0, 1, 1), np.zeros((4, 2)), face, boxes))
    return out


def test_a_built_deck_loads_with_every_face_of_a_code_and_v5_renders_it(art_cache):
    folder = cutouts.write_deck(fake_cutouts(), art.built_deck_dir(art.REAL_DECK))
    assert (folder / "indices.json").exists() and (folder / "AS_1.png").exists()
    deck = art.load_deck(art.REAL_DECK)
    assert all(len(deck.variants[c]) == 2 for c in CARD_CODES)
    face, boxes = deck.variants["KH"][1]
    assert face.shape == (FACE_H, FACE_W, 4) and len(boxes) == 4
    assert np.array_equal(deck.variants["KH"][0][0], deck.faces["KH"]) and not np.array_equal(face, deck.faces["KH"])
    assert art.load_deck("kennard").variants == {}  # a deck of one face a code is as it was
    # With a layout given, the deck is the scene's first draw: these seeds draw the real deck.
    seeds = [s for s in range(40) if np.random.default_rng(s).random() < REAL_SHARE][:2]
    for seed in seeds:
        image, ann = render_scene(seed, layout="fan", size=(320, 240), mix="v5")
        again, _ = render_scene(seed, layout="fan", size=(320, 240), mix="v5")
        assert np.array_equal(image, again)
        assert ann["deck"] == art.REAL_DECK and ann["mix"] == "v5" and "starter_on_pack" in ann
        assert ann["cards"] and all(len(card["indices"]) == 4 for card in ann["cards"])  # four indices a card


# --- real photos ------------------------------------------------------------------------------------

# Train photos (rf100.poker_split) with clear cards, on a grey desk and a light table; in
# IMG_20220316_171126 the 2C is seen so steeply that its long sides look the shorter.
REAL_PHOTOS = ("IMG_20220316_170657", "IMG_20220316_171055", "IMG_20220316_171126", "IMG_20220316_172440")


@pytest.mark.real_photos("rf100-poker")
def test_cutouts_of_a_few_real_train_photos_are_their_labelled_cards_upright_with_indices_on_the_index():
    from vision.train.rf100 import load_poker_photos, poker_split

    photos = load_poker_photos()
    split = poker_split(photos)
    chosen = [p for p in photos if p.name in REAL_PHOTOS]
    assert len(chosen) == len(REAL_PHOTOS) and all(split[p.name] == "train" for p in chosen)
    made, report = cutouts.build_cutouts(chosen, log=lambda *_: None)
    # 5 clear cards, and (each code having under MIN_PER_CODE) cards whose box meets another's a little
    assert report.candidates == 5 and len(made) >= 6 and any(c.relaxed for c in made)
    by_photo = {p.name: p for p in chosen}
    derived = on_index = 0
    for c in made:
        photo = by_photo[c.photo]
        labelled = dict(photo.card_boxes)
        assert c.code in labelled
        assert c.face.shape == (FACE_H, FACE_W, 4)
        assert c.face[0, 0, 3] == 0 and c.face[FACE_H // 2, FACE_W // 2, 3] == 255  # rounded corners
        x1, y1, x2, y2 = c.box
        slack = 0.06 * max(x2 - x1, y2 - y1)
        assert (c.quad.min(axis=0) >= (x1 - slack, y1 - slack)).all()
        assert (c.quad.max(axis=0) <= (x2 + slack, y2 + slack)).all()
        # upright: its index boxes stand (rank over suit), in its four corners
        assert len(c.indices) == 4
        for bx1, by1, bx2, by2 in c.indices:
            assert by2 - by1 > 1.6 * (bx2 - bx1) and (bx2 < 0.25 * FACE_W or bx1 > 0.75 * FACE_W)
        derived += c.derived_total
        on_index += c.derived_agree or 0
    # most corners' index found on the face itself (dim photos and pips beside the index leave some
    # to the deck's typical box), and the committed models' corners of the card land on the boxes
    assert sum(c.found_indices for c in made) >= 0.5 * 4 * len(made)
    assert derived >= 10 and on_index >= 0.9 * derived
    steep = [c for c in made if c.photo == "IMG_20220316_171126" and c.code == "2C"]
    assert steep and steep[0].turn == 1
