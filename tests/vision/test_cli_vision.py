"""`crib recognize` and `crib show` end to end on scripted models (a detector replaying a scene's
boxes, a classifier reading colours): the real pipeline and CLI, no trained weights."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.rules.cards import Card
from companion.rules.show import score
from infer_fixtures import constant_detector, scripted_scene, write_models_json, colour_classifier


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes")
    return {name: scripted_scene(folder, name) for name in ("two_hands_crib_starter", "hand_starter", "deal6")}


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def _truth_groups(truth):
    return sorted((role, sorted(cards)) for role, cards in truth["groups"])


def test_recognize_json_follows_the_contract(scenes, capsys):
    models, photo, truth = scenes["two_hands_crib_starter"]
    status, out, err = _run(capsys, "recognize", photo, "--json", "--models", models)
    assert status == 0 and err == ""
    [result] = json.loads(out)
    assert set(result) == {"image", "width", "height", "cards", "groups", "warnings", "ms"}
    assert (result["image"], result["width"], result["height"]) == (str(photo), 1280, 960)
    assert set(result["ms"]) == {"decode", "infer", "second_look", "post"}
    assert sorted(c["card"] for c in result["cards"]) == sorted(truth["codes"])
    for card in result["cards"]:
        assert {"card", "confidence", "box"} <= set(card) and len(card["box"]) == 4
        row = truth["codes"].index(card["card"])
        assert np.allclose(card["box"], truth["card_boxes"][row], atol=2.0)
        assert card["confirm"] is False
    assert sorted((g["role"], sorted(g["cards"])) for g in result["groups"]) == _truth_groups(truth)
    assert result["warnings"] == []


def test_recognize_backends_agree(scenes, capsys):
    models, photo, _truth = scenes["hand_starter"]
    outputs = []
    for backend in ("onnxruntime", "opencv"):
        status, out, _ = _run(capsys, "recognize", photo, "--json", "--models", models, "--backend", backend)
        assert status == 0
        outputs.append(json.loads(out)[0])
    assert [(c["card"], c["box"]) for c in outputs[0]["cards"]] == [(c["card"], c["box"]) for c in outputs[1]["cards"]]
    assert outputs[0]["groups"] == outputs[1]["groups"]


def test_recognize_text_is_readable(scenes, capsys):
    models, photo, _ = scenes["hand_starter"]
    status, out, _ = _run(capsys, "recognize", photo, "--models", models)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"{photo} (1280x960): 5 cards in 2 groups")
    assert lines[1].split() == ["hand", "5H", "5C", "5S", "JD"]
    assert lines[2].split() == ["starter", "5D"]


def test_show_counts_every_hand_and_the_crib(scenes, capsys):
    models, photo, _ = scenes["two_hands_crib_starter"]
    status, out, err = _run(capsys, "show", photo, "--json", "--models", models)
    assert status == 0, err
    data = json.loads(out)
    assert data["starter"] == "6D" and data["starter_source"] == "photo"
    labels = [(h["label"], h["crib"]) for h in data["hands"]]
    assert labels == [("hand 1", False), ("hand 2", False), ("crib", True)]
    starter = Card.parse("6D")
    for hand in data["hands"]:
        expected = score([Card.parse(c) for c in hand["cards"]], starter, crib=hand["crib"])
        assert hand["total"] == expected.total and hand["spoken"] == expected.spoken
    # Each hand's JSON mirrors `crib score --json` for the same cards.
    hand = data["hands"][0]
    status, out, _ = _run(capsys, "score", *hand["hand"], "--starter", "6D", "--json")
    reference = json.loads(out)
    assert {k: hand[k] for k in reference} == reference


def test_show_text_has_breakdown_spoken_count_and_claims(scenes, capsys):
    models, photo, _ = scenes["hand_starter"]
    status, out, err = _run(capsys, "show", photo, "--models", models, "--claim", "28")
    assert status == 0, err
    assert "starter 5D (from the photo)" in out
    assert "Hand 1: 5H 5C 5S JD + 5D  = 29" in out
    assert "one for his nob is twenty-nine" in out
    assert "claimed 28 of 29" in out and "1 missed" in out
    status, out, err = _run(capsys, "show", photo, "--models", models, "--claim", "29", "--json")
    assert json.loads(out)["hands"][0]["claim"] == {"claimed": 29, "entitled": 29, "muggins": 0, "overclaim": 0}
    status, out, err = _run(capsys, "show", photo, "--models", models, "--claim", "31", "--json")
    assert json.loads(out)["hands"][0]["claim"]["overclaim"] == 2
    status, out, err = _run(capsys, "show", photo, "--models", models, "--claim", "28", "12")
    assert status == 2 and err.strip() == "crib show: error: 2 claims but 1 hands to count in the photo"


def test_show_with_starter_flag_and_all_groups_as_crib(scenes, capsys):
    models, photo, _ = scenes["two_hands_crib_starter"]
    status, out, _ = _run(capsys, "show", photo, "--models", models, "--json", "--starter", "5C", "--crib")
    assert status == 0
    data = json.loads(out)
    assert data["starter"] == "5C" and data["starter_source"] == "flag"
    assert all(h["crib"] for h in data["hands"])
    assert any("starter 5C from --starter (the photo shows 6D apart)" == w for w in data["warnings"])
    status, _, err = _run(capsys, "show", photo, "--models", models, "--starter", "ZZ")
    assert status == 2 and err.startswith("crib show: error: --starter:") and err.count("\n") == 1


def test_show_on_a_deal_says_what_is_missing_and_does_not_count_six_cards(scenes, capsys):
    models, photo, _ = scenes["deal6"]
    status, out, err = _run(capsys, "show", photo, "--models", models)
    assert status == 0 and "starter - (none in the photo)" in out
    assert "Hand 1: AH 4C 6S 9D TC KS: not counted, 6 cards: a deal, discard 2" in out
    assert "warning: no starter in the photo (no lone card apart from the hands): give --starter CARD to count" in out
    status, out, _ = _run(capsys, "show", photo, "--models", models, "--starter", "2D")
    assert status == 0 and "not counted, 6 cards: a deal, discard 2" in out


def test_show_annotate_writes_a_png(scenes, capsys, tmp_path):
    models, photo, _ = scenes["two_hands_crib_starter"]
    target = tmp_path / "annotated.png"
    status, out, _ = _run(capsys, "show", photo, "--models", models, "--annotate", target)
    assert status == 0 and f"annotated picture: {target}" in out
    picture = cv2.imread(str(target))
    original = cv2.imread(str(photo))
    assert picture.shape[0] == 960 and picture.shape[1] > 1280
    assert not np.array_equal(picture[:, :1280], original)  # boxes and combinations were drawn


@pytest.mark.parametrize("command", ["recognize", "show"])
def test_every_bad_input_is_one_line_and_exit_2(scenes, capsys, tmp_path, command):
    models, photo, _ = scenes["hand_starter"]
    good = photo.read_bytes()
    jpeg = cv2.imencode(".jpg", cv2.imread(str(photo)))[1].tobytes()
    files = {"empty.jpg": b"", "text.jpg": b"just text\n", "truncated.jpg": jpeg[: len(jpeg) // 3],
             "truncated.png": good[: len(good) // 2]}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    expected = {"empty.jpg": "empty file", "text.jpg": "not an image", "truncated.jpg": "truncated",
                "truncated.png": "truncated", "missing.jpg": "no such file", ".": "is a directory"}
    for name, phrase in expected.items():
        target = tmp_path if name == "." else tmp_path / name
        status, out, err = _run(capsys, command, target, "--models", models)
        assert status == 2, name
        assert err.count("\n") == 1 and err.startswith(f"crib {command}: error: ") and phrase in err, err
        assert out == ""


def test_recognize_reports_good_images_and_fails_on_the_bad_one(scenes, capsys, tmp_path):
    models, photo, _ = scenes["hand_starter"]
    bad = tmp_path / "bad.jpg"
    bad.write_text("nope")
    status, out, err = _run(capsys, "recognize", photo, bad, "--json", "--models", models)
    assert status == 2 and len(json.loads(out)) == 1 and err.count("\n") == 1


def test_missing_models_and_bad_conf_are_one_line_errors(scenes, capsys, tmp_path):
    _models, photo, _ = scenes["hand_starter"]
    status, _, err = _run(capsys, "recognize", photo, "--models", tmp_path)
    assert status == 2 and "models.json not found" in err and err.count("\n") == 1
    status, _, err = _run(capsys, "recognize", photo, "--conf", "1.5", "--models", _models)
    assert status == 2 and "--conf" in err


def test_no_card_found_is_a_message_not_a_crash(capsys, tmp_path):
    raw = np.zeros((1, 6, 100), np.float32)
    raw[0, :4] = 20.0  # boxes with no score: nothing detected
    constant_detector(tmp_path / "detector.onnx", raw, 320)
    colour_classifier(tmp_path / "classifier.onnx")
    write_models_json(tmp_path, "detector.onnx", 320, "classifier.onnx")
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 60, np.uint8))
    status, out, _ = _run(capsys, "recognize", photo, "--json", "--models", tmp_path)
    assert status == 0 and json.loads(out)[0]["warnings"] == ["no card found in the photo"]
    status, out, err = _run(capsys, "show", photo, "--models", tmp_path)
    assert status == 2 and err.strip() == f"crib show: error: {photo}: no card found in the photo"
