"""Reader crops cut at the detector's own index boxes (issue 39, item 3): each box is labelled by
the one visible index it covers, and cut at every margin the runtime reads it at."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classes import CARD_INDEX
from vision.synth import render_scene, scene_seed
from vision.train.runtime_crops import (build_runtime_crops, main, matched_boxes, photo_runtime_crops,
                                         scene_runtime_crops)

TRUTH = [("5H", (100, 100, 110, 120)), ("JS", (112, 100, 122, 120)), ("2C", (300, 300, 310, 320))]


def test_a_box_over_one_visible_index_takes_its_card():
    boxes = np.array([[98, 98, 111, 121], [301, 299, 312, 318]], np.float32)
    assert matched_boxes(boxes, TRUTH) == [(0, CARD_INDEX["5H"]), (1, CARD_INDEX["2C"])]


def test_a_box_over_two_indices_or_none_gives_no_crop():
    boxes = np.array([[98, 98, 124, 122],  # covers the 5H and the JS: its label would be a guess
                      [200, 200, 210, 220],  # on no index
                      [100, 100, 104, 120]], np.float32)  # 40 % of the 5H: not a reading of it
    assert matched_boxes(boxes, TRUTH) == []
    assert matched_boxes(np.zeros((0, 4), np.float32), TRUTH) == []
    assert matched_boxes(boxes, []) == []


@pytest.fixture(scope="module")
def recognizer():
    from vision.pipeline import Recognizer

    return Recognizer(backend="onnxruntime")


def test_a_whole_table_gives_crops_at_every_read_margin_labelled_with_its_cards(recognizer):
    seed = scene_seed(29, 0)
    crops, labels = scene_runtime_crops(recognizer, seed, "two_hands_crib_starter", True)
    _, annotation = render_scene(seed, layout="two_hands_crib_starter", table_conventions=True, mix="v4")
    visible = {CARD_INDEX[c["card"]] for c in annotation["cards"] if any(i["visible"] for i in c["indices"])}
    scales = len(recognizer.settings.read.margin_scales)
    assert crops.shape[1:] == (recognizer.crop_size, recognizer.crop_size, 3) and crops.dtype == np.uint8
    assert len(labels) >= 10 * scales and len(labels) % scales == 0
    assert set(labels) <= visible
    # the margins of one box follow each other: one label, crops differing (a wider cut each time)
    first = crops[:scales]
    assert len(set(labels[:scales])) == 1 and not np.array_equal(first[0], first[-1])
    # the crops are where the cards' indices are: the shipped reader names most of them right
    from vision.crops import crops_to_tensor

    named = np.argmax(recognizer.classifier.run(crops_to_tensor(list(crops))), axis=1)
    assert np.mean(named == labels) >= 0.8


def test_the_command_saves_the_crops_and_says_bad_arguments(tmp_path, recognizer, capsys):
    out = build_runtime_crops(tmp_path / "r.npz", 2, 29, recognizer, layout="fan")
    with np.load(out) as saved:
        assert len(saved["crops"]) == len(saved["labels"]) > 0
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "x.npz"), "--scenes", "0", "--seed", "1"])
    assert exit_.value.code == 2 and "--scenes must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "x.npz"), "--scenes", "1", "--seed", "1", "--models", str(tmp_path)])
    assert exit_.value.code == 2 and "no models.json" in capsys.readouterr().err


def rendered_real_photo(folder):
    """A rendered hand and starter saved as a labelled real photo (its visible indices the corners)."""
    import cv2

    from vision.train.real_cards import Corner, RealPhoto

    image, annotation = render_scene(scene_seed(29, 1), layout="hand_starter", mix="v4")
    path = folder / "table.jpg"
    cv2.imwrite(str(path), image)
    h, w = image.shape[:2]
    corners = tuple(Corner(card["card"], (x1 / w, y1 / h, x2 / w, y2 / h)) for card in annotation["cards"]
                    for index in card["indices"] if index["visible"] for x1, y1, x2, y2 in [index["box"]])
    return RealPhoto("table_jpg", "desk", path, corners)


def test_a_labelled_photo_gives_crops_at_the_boxes_over_its_trusted_corners(tmp_path, recognizer):
    from vision.train.real_cards import Corner, RealPhoto
    from vision.train.runtime_crops import build_real_runtime_crops

    labelled = rendered_real_photo(tmp_path)
    corners = labelled.corners
    crops, labels = photo_runtime_crops(recognizer, labelled)
    assert len(labels) >= 5 * 3 and set(labels) <= {CARD_INDEX[c.code] for c in corners}
    # a corner box too large to be a corner (a label error) is no truth: its card gives no crop
    loose = RealPhoto("loose_jpg", "desk", labelled.image, (Corner(corners[0].code, (0.0, 0.0, 0.9, 0.9)),))
    assert len(photo_runtime_crops(recognizer, loose)[1]) == 0
    out = build_real_runtime_crops(tmp_path / "real.npz", [labelled, loose], recognizer)
    with np.load(out) as saved:
        assert np.array_equal(saved["labels"], labels)


def test_renders_and_real_photos_are_asked_for_apart(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "x.npz"), "--real-train", "--scenes", "3"])
    assert exit_.value.code == 2 and "--real-train alone" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "x.npz"), "--scenes", "3"])
    assert exit_.value.code == 2 and "give --scenes and --seed" in capsys.readouterr().err


def test_real_photos_made_worse_each_by_one_look_give_other_crops_of_the_same_cards(tmp_path, recognizer, capsys):
    """``--looks-seed`` (issue 54: the reader taught by the doubt check's looks): each photo gets one
    look other than "as taken", the same every time for a seed, and its crops are cut at the
    boxes the detector draws on the photo so made worse."""
    from vision.train.doubt_looks import LOOKS
    from vision.train.real_cards import RealPhoto
    from vision.train.runtime_crops import looks_for

    photos = [RealPhoto(f"p{i}", "desk", tmp_path / f"p{i}.jpg", ()) for i in range(70)]
    drawn = looks_for(photos, 71)
    assert drawn == looks_for(photos, 71) != looks_for(photos, 72)
    assert "as_taken" not in drawn and set(drawn) == set(LOOKS) - {"as_taken"}

    labelled = rendered_real_photo(tmp_path)
    corners = labelled.corners
    taken, taken_labels = photo_runtime_crops(recognizer, labelled)
    tinted, tinted_labels = photo_runtime_crops(recognizer, labelled, "tinted", 71)
    assert len(tinted_labels) and set(tinted_labels) <= {CARD_INDEX[c.code] for c in corners}
    assert tinted.mean() < taken.mean() - 5  # either tint takes light away from two channels of three
    with pytest.raises(SystemExit) as exit_:
        main(["--out", str(tmp_path / "x.npz"), "--scenes", "3", "--seed", "1", "--looks-seed", "71"])
    assert exit_.value.code == 2 and "--looks-seed goes with --real-train" in capsys.readouterr().err
