"""The second look (vision/second_look.py): a card box with no sure index read is cut out, its
outline found, turned upright and its corners read; pips confirm a number card's rank."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.classes import CARD_CLASS, CARD_INDEX, INDEX_CLASS
from vision.config import DEFAULTS
from vision.detections import Detections
from vision.geometry import CARD_H, CARD_W
from vision.second_look import boxes_to_look_at, card_outline, count_pips, second_look, upright_card
from vision.synth.art import load_deck

LOOK, INTERPRET = DEFAULTS.second_look, DEFAULTS.interpret
# ``second_look``'s settings as a recogniser passes them, the standard ones
LOOK_SETTINGS = {"config": LOOK, "min_score": INTERPRET.unread_card_score, "inside_share": INTERPRET.inside_share}


def table_with_card(code: str, angle: float, centre=(400, 300), height=260, size=(800, 600)):
    """A felt-green table with one Kennard card pasted at ``angle`` degrees; returns the photo,
    the card's four corners and its axis-aligned box."""
    face = load_deck("kennard").faces[code]
    scale = height / face.shape[0]
    face = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - np.array([w / 2, h / 2])
    photo = np.full((size[1], size[0], 3), (40, 110, 50), np.uint8)
    warped = cv2.warpAffine(face, m, size, flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    photo = (photo * (1 - alpha) + cv2.cvtColor(warped[:, :, :3], cv2.COLOR_RGB2BGR) * alpha).astype(np.uint8)
    corners = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), m)[0]
    box = np.array([*corners.min(axis=0), *corners.max(axis=0)], np.float32)
    return photo, corners, box


def _matched_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance from a true corner to the nearest found corner."""
    return float(max(np.linalg.norm(found - t, axis=1).min() for t in truth))


@pytest.mark.parametrize("angle", [0, 17, -35, 90, 160])
def test_outline_found_at_any_turn(angle):
    photo, corners, box = table_with_card("7C", angle)
    # the detector's box is never exact: grow it a little
    loose = box + np.array([-6, -4, 5, 7], np.float32)
    quad = card_outline(photo, loose, LOOK)
    assert quad is not None
    assert _matched_error(quad, corners) < 0.04 * 260


@pytest.mark.parametrize("angle", [0, 25, 180, -70])
def test_upright_card_shows_an_index_in_a_read_corner(angle):
    """Turned upright, the card's rank sits in the top-left or (half turned) bottom-right corner:
    the ink of the index lies in one of the two corner boxes read, and pips fill the middle."""
    photo, corners, _ = table_with_card("7C", angle)
    card, to_photo = upright_card(photo, corners, LOOK.oversample)
    assert card.shape[:2] == (CARD_H, CARD_W)
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    top_left = gray[: int(0.27 * CARD_H), : int(0.19 * CARD_W)]
    bottom_right = gray[int(0.73 * CARD_H):, int(0.81 * CARD_W):]
    assert min(top_left.min(), bottom_right.min()) < 80  # black ink of the 7 and the club
    # the map back to the photo puts the upright card's corners on the card's corners
    back = cv2.perspectiveTransform(np.array([[[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]], np.float32),
                                    to_photo)[0]
    assert _matched_error(back, corners) < 0.04 * 260


@pytest.mark.parametrize("code, pips", [("7C", 7), ("4H", 4), ("9S", 9), ("TD", 10), ("2S", 2)])
def test_pips_counted_on_number_cards(code, pips):
    photo, corners, _ = table_with_card(code, 12)
    card, _ = upright_card(photo, corners, LOOK.oversample)
    assert count_pips(card, LOOK) == pips


@pytest.mark.parametrize("code", ["KH", "QS", "JD"])
def test_court_cards_have_no_pip_count(code):
    photo, corners, _ = table_with_card(code, -8)
    card, _ = upright_card(photo, corners, LOOK.oversample)
    assert count_pips(card, LOOK) is None


def _reader_that_says(code: str, probability: float = 0.9):
    def run(batch: np.ndarray) -> np.ndarray:
        logits = np.full((len(batch), 52), -10.0, np.float32)
        logits[:, CARD_INDEX[code]] = np.log(probability / (1 - probability)) - 10.0 + np.log(51)
        return logits
    return run


def test_second_look_reads_a_card_with_no_sure_index_and_replaces_the_unsure_read():
    photo, corners, box = table_with_card("7C", 20)
    cards = Detections(box[None], [0.9], [CARD_CLASS])
    # the first pass read this card's corner as 1C, unsure
    inner = np.array([[box[0] + 20, box[1] + 20, box[0] + 40, box[1] + 45]], np.float32)
    unsure = Detections(inner, [0.8], [INDEX_CLASS], [CARD_INDEX["AC"]], [0.3], [CARD_INDEX["7C"]], [0.2])
    rows, looked = second_look(_reader_that_says("7C"), photo, cards, unsure, 80, 1.25, **LOOK_SETTINGS)
    assert looked == 1
    assert rows.codes == ["7C"]  # the unsure AC read is replaced
    assert rows.class_id.tolist() == [INDEX_CLASS]
    assert rows.card_confidence[0] > 0.9  # the pips (7) confirmed the rank
    # the read corner's box lies on the card, in one of its index corners
    x1, y1, x2, y2 = rows.xyxy[0]
    assert box[0] - 2 <= x1 < x2 <= box[2] + 2 and box[1] - 2 <= y1 < y2 <= box[3] + 2
    assert min(np.linalg.norm(corners - [(x1 + x2) / 2, (y1 + y2) / 2], axis=1)) < 0.3 * 260


def test_a_look_naming_another_card_less_surely_than_the_first_pass_adds_nothing():
    # a court card (no pips to weigh in): the first pass read JC at 0.48; a look that reads
    # the box as JD at 0.3 is no new evidence, while one surer than the first pass is
    photo, _, box = table_with_card("JC", 10)
    cards = Detections(box[None], [0.9], [CARD_CLASS])
    inner = np.array([[box[0] + 20, box[1] + 20, box[0] + 40, box[1] + 45]], np.float32)
    first = Detections(inner, [0.8], [INDEX_CLASS], [CARD_INDEX["JC"]], [0.6], [CARD_INDEX["QC"]], [0.1])
    rows, looked = second_look(_reader_that_says("JD", 0.3), photo, cards, first, 80, 1.25, **LOOK_SETTINGS)
    assert looked == 1 and rows.codes == ["JC"]
    rows, _ = second_look(_reader_that_says("JD", 0.9), photo, cards, first, 80, 1.25, **LOOK_SETTINGS)
    assert rows.codes == ["JD"]  # 0.9 x 0.9 is sure: the unsure JC read is replaced
    rows, _ = second_look(_reader_that_says("JC", 0.3), photo, cards, first, 80, 1.25, **LOOK_SETTINGS)
    assert rows.codes == ["JC", "JC"]  # the same card, said again: kept beside the first read


def test_pips_that_disagree_halve_the_read():
    photo, _, box = table_with_card("7C", -10)
    cards = Detections(box[None], [0.9], [CARD_CLASS])
    rows, _ = second_look(_reader_that_says("8C"), photo, cards, Detections.empty(), 80, 1.25, **LOOK_SETTINGS)
    assert rows.codes == ["8C"]
    assert rows.card_confidence[0] == pytest.approx(0.45, abs=0.01)


def test_cards_read_surely_are_not_looked_at_again():
    thresholds = (LOOK.sure, INTERPRET.unread_card_score, INTERPRET.inside_share, LOOK.max_looks)
    cards = Detections(np.array([[0, 0, 100, 140], [200, 0, 300, 140]], np.float32), [0.9, 0.9], [CARD_CLASS] * 2)
    sure = Detections(np.array([[5, 5, 20, 30]], np.float32), [0.9], [INDEX_CLASS], [CARD_INDEX["5H"]], [0.95])
    unsure = Detections(np.array([[205, 5, 220, 30]], np.float32), [0.9], [INDEX_CLASS], [CARD_INDEX["6H"]], [0.3])
    assert boxes_to_look_at(cards, Detections.concatenate([sure, unsure]), *thresholds).tolist() == [1]
    assert boxes_to_look_at(cards, Detections.empty(), *thresholds).tolist() == [0, 1]
