"""The real detector photos' variants: as phones see them, and close-ups (vision.train.real_looks)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.train import real_looks
from vision.train.real_looks import label_text, phone_look, read_labels, write_variant_set, zoomed

W, H = 640, 480
# Three "cards" (white) with a coloured "index" each: the label of an index must keep covering
# its colour, whatever the variant did to the photo.
MARKS = [((60, 60, 200, 260), (80, 75, 110, 125), (255, 0, 0)),
         ((300, 120, 440, 320), (320, 135, 350, 185), (0, 200, 0)),
         ((470, 200, 610, 400), (490, 215, 520, 265), (0, 0, 255))]


def scene() -> tuple[np.ndarray, np.ndarray]:
    pixels = np.full((H, W, 3), 60, np.uint8)
    rows = []
    for card, index, colour in MARKS:
        cv2.rectangle(pixels, card[:2], card[2:], (235, 235, 235), -1)
        cv2.rectangle(pixels, index[:2], index[2:], colour, -1)
        rows.append((CARD_CLASS, *(np.array(card) / [W, H, W, H])))
        rows.append((INDEX_CLASS, *(np.array(index) / [W, H, W, H])))
    return pixels, np.array(rows, np.float64)


def colour_box(pixels: np.ndarray, colour) -> tuple[float, float, float, float] | None:
    """Normalised box around the pixels of a mark's colour."""
    channel = int(np.argmax(colour))
    others = [c for c in range(3) if c != channel]
    top, rest = pixels[:, :, channel].astype(int), pixels[:, :, others].max(axis=2).astype(int)
    mask = (top > 60) & (top > 2 * rest + 20)  # dimmed or warmed, a mark still stands out in its channel
    ys, xs = np.nonzero(mask)
    if len(xs) < 20:
        return None
    h, w = pixels.shape[:2]
    return xs.min() / w, ys.min() / h, (xs.max() + 1) / w, (ys.max() + 1) / h


def index_labels_cover_their_marks(pixels: np.ndarray, labels: np.ndarray, tolerance: float = 0.02) -> int:
    """How many marks are whole in the photo with an index label on them; asserts each such label fits."""
    seen = 0
    for _, _, colour in MARKS:
        box = colour_box(pixels, colour)
        if box is None:
            continue
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        on = [row for row in labels if row[0] == INDEX_CLASS and row[1] <= centre[0] <= row[3] and row[2] <= centre[1] <= row[4]]
        if not on:
            continue
        assert np.allclose(on[0][1:], box, atol=tolerance), (on[0][1:], box)
        seen += 1
    return seen


def test_labels_round_trip_through_the_yolo_text(tmp_path):
    _, labels = scene()
    path = tmp_path / "a.txt"
    path.write_text(label_text(labels))
    assert np.allclose(read_labels(path), labels, atol=1e-6)
    (tmp_path / "empty.txt").write_text("")
    assert read_labels(tmp_path / "empty.txt").shape == (0, 5)


@pytest.mark.parametrize("seed", range(8))
def test_a_close_up_holds_one_whole_index_and_its_labels_follow_the_pixels(seed):
    pixels, labels = scene()
    made = zoomed(pixels, labels, np.random.default_rng(seed))
    assert made is not None
    crop, cut = made
    h, w = crop.shape[:2]
    zoom = W / w
    assert real_looks.ZOOM[0] - 0.05 <= zoom <= real_looks.ZOOM[1] + 0.05
    assert abs(H / h - zoom) < 0.05  # the window keeps the photo's shape
    assert index_labels_cover_their_marks(crop, cut, tolerance=0.03) >= 1
    assert ((cut[:, 1:] >= 0) & (cut[:, 1:] <= 1)).all()


def test_a_close_up_keeps_no_sliver_of_an_index_cut_by_the_window():
    pixels, labels = scene()
    index_area = 30 * 50  # every mark's index, in photo pixels (a close-up is not resized)
    kept = 0
    for seed in range(30):
        crop, cut = zoomed(pixels, labels, np.random.default_rng(seed))
        h, w = crop.shape[:2]
        for row in cut[cut[:, 0] == INDEX_CLASS]:
            assert (row[3] - row[1]) * w * (row[4] - row[2]) * h >= real_looks.KEEP_INDEX * index_area - 2 * (30 + 50)
            kept += 1
    assert kept >= 30


def test_a_photo_without_an_index_has_no_close_up():
    pixels, labels = scene()
    assert zoomed(pixels, labels[labels[:, 0] == CARD_CLASS], np.random.default_rng(0)) is None


@pytest.mark.parametrize("seed", range(6))
def test_a_phone_look_changes_the_pixels_and_keeps_labels_on_the_marks(seed, monkeypatch):
    pixels, labels = scene()
    monkeypatch.setattr(real_looks, "TILT_SHARE", 1.0)  # always tilted: the labels must move with it
    out, moved = phone_look(pixels, labels, np.random.default_rng(seed))
    assert out.shape == pixels.shape
    assert np.abs(out.astype(int) - pixels.astype(int)).mean() > 1.0
    # a tilted box is the box around the moved corners, a few pixels looser than the mark; blur spreads it
    assert index_labels_cover_their_marks(out, moved, tolerance=0.035) >= 2


def test_a_variant_set_is_the_same_set_when_written_again(tmp_path):
    source = tmp_path / "set"
    (source / "images").mkdir(parents=True)
    (source / "labels").mkdir()
    pixels, labels = scene()
    for k in range(3):
        cv2.imwrite(str(source / "images" / f"p{k}.png"), pixels)
        (source / "labels" / f"p{k}.txt").write_text(label_text(labels))
    first = write_variant_set(source, tmp_path / "a", "zoomed", 5)
    again = write_variant_set(source, tmp_path / "b", "zoomed", 5)
    assert first["photos"] == again["photos"] == 3
    for k in range(3):
        assert (tmp_path / "a" / "labels" / f"p{k}.txt").read_text() == (tmp_path / "b" / "labels" / f"p{k}.txt").read_text()
    assert write_variant_set(source, tmp_path / "c", "phone_look", 5, every=2)["photos"] == 2
    with pytest.raises(ValueError, match="unknown real-photo variant 'sepia'"):
        write_variant_set(source, tmp_path / "d", "sepia", 5)


def test_a_phone_look_without_tilt_keeps_the_photo_where_it_was():
    """The reader's crops are cut at the labelled boxes, so their look must not move the photo."""
    pixels, labels = scene()
    for seed in range(6):
        out, same = phone_look(pixels, labels, np.random.default_rng(seed), tilt_share=0.0)
        assert np.array_equal(same, labels) and np.abs(out.astype(int) - pixels.astype(int)).mean() > 1.0
        assert index_labels_cover_their_marks(out, labels, tolerance=0.03) == len(MARKS)


def test_the_readers_real_crops_can_be_cut_as_phones_see_them(tmp_path, monkeypatch):
    """``looks_share``: the labelled box's crop stays as the photo is, the moved crops come from the
    photo with a phone look (here a stand-in look painting it grey); with no share the crops are
    exactly the plain ones."""
    from vision.train.real_cards import Corner, RealPhoto
    from vision.train.real_crops import real_crops

    pixels, labels = scene()
    cv2.imwrite(str(tmp_path / "p.png"), pixels)
    corners = tuple(Corner(code, tuple(row[1:])) for code, row in zip(("AS", "7D", "KH"), labels[labels[:, 0] == INDEX_CLASS]))
    photo = RealPhoto("p", "desk", tmp_path / "p.png", corners)
    plain, plain_labels = real_crops([photo], 40, per_corner=3, seed=4, jpeg_share=0.0)
    again, _ = real_crops([photo], 40, per_corner=3, seed=4, jpeg_share=0.0, looks_share=0.0)
    assert np.array_equal(plain, again) and len(plain) == 9
    looks = []
    from vision.train import real_crops as real_crops_module

    monkeypatch.setattr(real_crops_module, "phone_look", lambda image, boxes, rng, tilt_share=None: (
        looks.append(tilt_share) or np.full_like(image, 77), boxes))
    looked, looked_labels = real_crops([photo], 40, per_corner=3, seed=4, jpeg_share=0.0, looks_share=1.0)
    assert looks == [0.0] and np.array_equal(plain_labels, looked_labels)  # one look a photo, never tilted
    assert np.array_equal(plain[0::3], looked[0::3])  # each corner's labelled box, as it is
    moved = [k for k in range(9) if k % 3]
    assert (looked[moved] == 77).all() and not (plain[moved] == 77).all()
