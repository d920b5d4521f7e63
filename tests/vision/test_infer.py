"""Inference stages on exact synthetic detections and tiny ONNX models (no trained weights)."""

import numpy as np
import pytest

from infer_fixtures import card_geometry, cards_then_table, detections_for, raw_output_for, table
from vision.classes import CARD_CLASS, CARD_CODES, CARD_INDEX, INDEX_CLASS
from vision.decode import Photo, photo_from_array
from vision.detections import UNREAD, Detections, Origin
from vision.evidence import Evidence
from vision.results import Recognition, RecognizedCard
from vision.second_reading import read_again
from vision.identify import merge_indices
from vision.read import index_log_probs, read_logits, softmax
from vision.letterbox import Letterbox
from vision.outlines import DISPUTED, ESTIMATED, INDEX_SCORE, assign_outlines
from vision.config import DEFAULTS

MAX_CARDS = DEFAULTS.interpret.max_cards
from vision.boxes import box_iou
from vision.postprocess import decode_raw, nms, nms_per_class, postprocess

READ_MARGIN_SCALES = DEFAULTS.read.margin_scales


# ---- the detections type ------------------------------------------------------------------------

def test_detections_select_filter_concatenate():
    d = Detections([[0, 0, 1, 1], [1, 1, 3, 4], [2, 2, 5, 5]], [0.9, 0.8, 0.7], [0, 1, 0])
    assert len(d) == 3 and d.card_id.tolist() == [UNREAD] * 3
    assert d.of_class(0).confidence.tolist() == pytest.approx([0.9, 0.7])
    assert len(d[d.confidence > 0.75]) == 2
    assert d[1].xyxy.tolist() == [[1, 1, 3, 4]]
    assert d.sizes.tolist()[1] == [2, 3] and d.centers.tolist()[1] == [2, 2.5]
    read = d.with_cards([0, 51, -1], [0.9, 0.8, 0], [1, 2, -1], [0.05, 0.1, 0])
    assert read.codes == ["AC", "KS", None]
    both = Detections.concatenate([read, Detections.empty(), d[:1]])
    assert len(both) == 4 and both.codes[-1] is None
    assert len(Detections.concatenate([])) == 0
    with pytest.raises(ValueError, match="rows"):
        Detections([[0, 0, 1, 1]], [0.5, 0.6], [0])


def test_detections_carry_the_readers_probability_and_each_boxs_origin():
    d = Detections([[0, 0, 1, 1], [1, 1, 3, 4]], [0.9, 0.8], [0, 1], [3, 4], [0.6, 0.7], origin=[Origin.CLOSER,
                                                                                                  Origin.SUPPRESSED])
    assert d.reader.tolist() == pytest.approx([0.6, 0.7])  # an index row: its confidence is the reader's
    assert d.kept().origin.tolist() == [Origin.CLOSER] and len(d.of_origin(Origin.SUPPRESSED)) == 1
    both = Detections.concatenate([d, d.with_origin(Origin.SECOND_LOOK)])
    assert both.origin.tolist() == [Origin.CLOSER, Origin.SUPPRESSED, Origin.SECOND_LOOK, Origin.SECOND_LOOK]
    merged = d.with_cards([3, 4], [0.3, 0.35], [-1, -1], [0, 0], reader=[0.6, 0.7])
    assert merged.card_confidence.tolist() == pytest.approx([0.3, 0.35])
    assert merged.reader.tolist() == pytest.approx([0.6, 0.7]) and merged.origin.tolist() == d.origin.tolist()


def test_a_cards_reader_probability_is_its_best_index_read_not_score_times_probability():
    codes, card_boxes, index_boxes, _ = table("fan")
    indices, cards = detections_for(codes, card_boxes, index_boxes, index_prob=0.7)
    scores = np.linspace(0.3, 0.9, len(indices)).astype(np.float32)
    indices = Detections(indices.xyxy, scores, indices.class_id, indices.card_id, indices.card_confidence,
                         indices.runner_up_id, indices.runner_up_confidence)
    identities = merge_indices(indices, cards, DEFAULTS.interpret.same_card_diagonals)
    for row, members in enumerate(identities.members):
        best = members[int(np.argmax(scores[members]))]
        assert identities.cards.reader[row] == pytest.approx(0.7)
        assert identities.cards.card_confidence[row] == pytest.approx(scores[best] * 0.7)
    outlined = assign_outlines(identities, cards, DEFAULTS.interpret)
    assert outlined.cards.reader.tolist() == pytest.approx([0.7] * len(codes))
    assert outlined.cards.card_confidence == pytest.approx(outlined.cards.data[INDEX_SCORE] * 0.7)


def test_every_box_says_where_it_came_from():
    """The whole photo's pass, the closer pass's tiles, and the card boxes NMS suppressed (as card
    rows of their own origin, not a class the detector does not have)."""
    from vision.detect import detect
    from vision.stages import Candidates

    upper, (upper_tl, _) = card_geometry(265, 250)
    lower, _ = card_geometry(250, 250)
    raw = raw_output_for(np.array([upper, lower, upper_tl], np.float32), [CARD_CLASS, CARD_CLASS, INDEX_CLASS],
                         [0.9, 0.8, 0.4])
    detections, _, _ = detect(lambda batch: raw, 512, np.zeros((512, 512, 3), np.uint8), zoom=True,
                              config=DEFAULTS.detect)
    candidates = Candidates.of(detections)
    assert set(candidates.indices.origin.tolist()) == {Origin.FIRST_PASS, Origin.CLOSER}  # an unsure index: a closer look
    assert candidates.cards.origin.tolist() == [Origin.FIRST_PASS]
    assert candidates.suppressed.origin.tolist() == [Origin.SUPPRESSED]
    assert candidates.suppressed.class_id.tolist() == [CARD_CLASS]
    assert len(detections.kept().of_class(CARD_CLASS)) == 1


# ---- letterbox and postprocess ------------------------------------------------------------------

@pytest.mark.parametrize("width,height,size", [(1280, 960, 640), (960, 1280, 512), (4032, 3024, 640), (641, 37, 320)])
def test_letterbox_matches_ultralytics(width, height, size):
    from ultralytics.data.augment import LetterBox

    # Same geometry as ultralytics (size, scale, padding). A smooth image: we average when we
    # shrink where ultralytics samples bilinearly, and on a gradient the two agree.
    ys, xs = np.mgrid[0:height, 0:width]
    image = np.stack([xs * 200 // width, ys * 200 // height, (xs + ys) * 100 // (width + height)], -1).astype(np.uint8)
    expected = LetterBox((size, size), auto=False, scale_fill=False, scaleup=True, center=True)(image=image)
    tensor = Letterbox.fit(width, height, size).to_tensor(image)
    ours = (tensor[0].transpose(1, 2, 0)[:, :, ::-1] * 255.0).round().astype(np.uint8)
    assert ours.shape == expected.shape
    assert np.abs(ours.astype(int) - expected.astype(int)).max() <= 2


def test_letterbox_averages_when_it_shrinks():
    """A fine pattern shrunk 8x becomes its mean grey, not an aliased sample of it: a 4000 px
    photo must look to the detector as the same photo at 500 px does."""
    stripes = np.zeros((4096, 4096, 3), np.uint8)
    stripes[:, ::2] = 255
    tensor = Letterbox.fit(4096, 4096, 512).to_tensor(stripes)
    assert np.abs(tensor * 255.0 - 127.5).max() < 2


def test_letterbox_round_trip_of_boxes():
    lb = Letterbox.fit(1280, 960, 640)
    assert (lb.gain, lb.pad_left, lb.pad_top) == (0.5, 0, 80)
    photo_boxes = np.array([[100, 200, 300, 500], [0, 0, 1280, 960]], np.float32)
    inp = photo_boxes * lb.gain + [lb.pad_left, lb.pad_top, lb.pad_left, lb.pad_top]
    assert np.allclose(lb.to_photo(inp, 1280, 960), photo_boxes, atol=1e-3)
    assert lb.to_photo([[-50, 0, 700, 700]], 1280, 960).tolist() == [[0, 0, 1280, 960]]  # clipped


def test_nms_keeps_best_of_overlaps_and_separate_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 20, 30, 30], [0, 0, 10, 9]], np.float32)
    assert nms(boxes, np.array([0.8, 0.9, 0.5, 0.7]), DEFAULTS.detect.nms_iou).tolist() == [1, 2]
    assert box_iou(boxes[:1], boxes[2:3]).tolist() == [[0.0]]
    assert nms(np.zeros((0, 4), np.float32), np.zeros(0), DEFAULTS.detect.nms_iou).tolist() == []


def test_nms_is_per_class():
    d = Detections([[0, 0, 10, 10], [0, 0, 10, 10], [0, 0, 10, 10]], [0.9, 0.8, 0.7], [0, 1, 1])
    kept = nms_per_class(d, DEFAULTS.detect.nms_iou)
    assert sorted(kept.class_id.tolist()) == [0, 1]
    assert kept.confidence.tolist() == pytest.approx([0.9, 0.8])


def test_postprocess_recovers_the_boxes_of_a_scene():
    codes, card_boxes, index_boxes, _groups = table("two_hands_crib_starter")
    indices = np.array([b for pair in index_boxes for b in pair], np.float32)
    photo_boxes = np.vstack([card_boxes, indices])
    classes = [CARD_CLASS] * len(card_boxes) + [INDEX_CLASS] * len(indices)
    lb = Letterbox.fit(1280, 960, 640)
    inp = photo_boxes * lb.gain + [lb.pad_left, lb.pad_top] * 2
    raw = raw_output_for(inp, classes, np.full(len(classes), 0.9), n_anchors=300)
    out = postprocess(raw, lb, 1280, 960, DEFAULTS.detect.candidate_score, DEFAULTS.detect.nms_iou,
                      DEFAULTS.detect.max_candidates)
    assert len(out) == len(photo_boxes)
    for cls in (CARD_CLASS, INDEX_CLASS):
        got, want = out.of_class(cls).xyxy, photo_boxes[np.array(classes) == cls]
        assert (box_iou(want, got).max(axis=1) > 0.97).all()
    assert len(decode_raw(raw, 0.95, DEFAULTS.detect.max_candidates)) == 0
    with pytest.raises(ValueError, match="shape"):
        decode_raw(np.zeros((6, 10), np.float32), DEFAULTS.detect.candidate_score, DEFAULTS.detect.max_candidates)


# ---- classification, merging, outlines ----------------------------------------------------------

def test_softmax_and_runner_up():
    logits = np.zeros((2, 52), np.float32)
    logits[0, CARD_INDEX["5H"]], logits[0, CARD_INDEX["5D"]] = 6.0, 4.0
    logits[1, CARD_INDEX["KS"]] = 9.0
    assert np.allclose(softmax(logits).sum(axis=1), 1.0)
    d = read_logits(Detections([[0, 0, 5, 5], [9, 9, 14, 14]], [0.9, 0.9], [0, 0]), logits)
    assert d.codes == ["5H", "KS"]
    assert [CARD_CODES[i] for i in d.runner_up_id] [0] == "5D"
    assert d.card_confidence[0] > d.runner_up_confidence[0] > 0.05
    with pytest.raises(ValueError, match="52"):
        read_logits(d, np.zeros((2, 10), np.float32))


def test_two_corner_indices_make_one_card_with_its_box():
    codes, card_boxes, index_boxes, _ = table("fan")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    identities = merge_indices(indices, cards, DEFAULTS.interpret.same_card_diagonals)
    assert sorted(identities.cards.codes) == sorted(codes)
    assert all(len(m) == 2 for m in identities.members)
    outlines = assign_outlines(identities, cards, DEFAULTS.interpret)
    outlined = outlines.cards
    assert not outlined.data[ESTIMATED].any() and (outlined.data[DISPUTED] == UNREAD).all()
    for code, box in zip(codes, card_boxes):
        row = outlined.codes.index(code)
        assert np.allclose(outlined.xyxy[row], box)


def test_four_indices_of_one_card_merge():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    card, (a, b) = card_boxes[0], index_boxes[0]
    other_corners = [[a[0], b[1], a[2], b[3]], [b[0], a[1], b[2], a[3]]]
    indices, cards = detections_for([codes[0]], card[None], [[a, b, *other_corners]])
    identities = merge_indices(indices, cards, DEFAULTS.interpret.same_card_diagonals)
    assert identities.cards.codes == [codes[0]] and len(identities.members[0]) == 4


def test_same_card_twice_far_apart_is_flagged_one_deck():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    codes = list(codes)
    codes[codes.index("5D")] = "5H"  # the starter reads as a second 5H, far from the hand's 5H
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "dup")
    assert [c.card for c in result.cards].count("5H") == 2
    assert all(c.confirm for c in result.cards if c.card == "5H")
    assert any("5H seen 2 times" in w and "one deck" in w for w in map(str, result.warnings))


def test_card_box_missed_by_the_detector_gets_an_estimated_box():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    without_starter_box = cards[np.arange(len(cards)) != codes.index("5D")]
    identities = merge_indices(indices, without_starter_box, DEFAULTS.interpret.same_card_diagonals)
    outlines = assign_outlines(identities, without_starter_box, DEFAULTS.interpret)
    outlined = outlines.cards
    estimated = outlined.data[ESTIMATED]
    row = outlined.codes.index("5D")
    assert estimated.tolist().count(True) == 1 and estimated[row]
    assert box_iou(outlined.xyxy[row:row + 1], card_boxes[codes.index("5D"):codes.index("5D") + 1])[0, 0] > 0.4


def test_card_without_a_readable_index_is_reported_not_dropped():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    hidden = codes.index("5C")
    keep = [i for i in range(len(codes)) if i != hidden]
    indices, _ = detections_for([codes[i] for i in keep], card_boxes[keep], [index_boxes[i] for i in keep])
    cards = Detections(card_boxes, np.full(len(card_boxes), 0.95), np.full(len(card_boxes), CARD_CLASS))
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "hidden")
    assert "5C" not in [c.card for c in result.cards]
    assert len(result.unread_boxes) == 1
    assert any("no readable index" in w for w in map(str, result.warnings))
    hand = next(g for g in result.groups if g.role == "hand")  # still a hand: 3 read + 1 unread card
    assert sorted(hand.cards) == ["5H", "5S", "JD"]


def test_a_second_partial_box_of_a_read_card_is_not_a_phantom_card():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    x1, y1, x2, y2 = card_boxes[codes.index("5S")]
    # The lower part of the 5S boxed again (IoU with its box under NMS's threshold, no index in it).
    partial = Detections([[x1, (y1 + y2) / 2, x2, y2]], [0.9], [CARD_CLASS])
    assert box_iou(partial.xyxy, card_boxes[codes.index("5S")][None])[0, 0] < 0.55
    result = cards_then_table(indices, Detections.concatenate([cards, partial]),
                       photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "partial")
    assert sorted(c.card for c in result.cards) == sorted(codes)
    assert result.unread_boxes == () and not any("no readable index" in w for w in map(str, result.warnings))
    hand = next(g for g in result.groups if g.role == "hand")
    assert len(hand.cards) == 4


def test_low_confidence_cards_are_flagged_with_their_runner_up():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes, index_prob=0.45, runner_up="6S")
    result = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "low", _with_confirm_below(0.5))
    assert sorted(c.card for c in result.cards) == sorted(codes)  # kept, not dropped
    assert all(c.confirm and c.runner_up == "6S" for c in result.cards)
    assert any("5H read with low confidence" in w and "or 6S" in w for w in map(str, result.warnings))
    assert result.as_json()["cards"][0]["confirm"] is True
    relaxed = cards_then_table(indices, cards, photo_from_array(np.zeros((960, 1280, 3), np.uint8)), "low", _with_confirm_below(0.3))
    assert not any(c.confirm for c in relaxed.cards)


def test_no_card_and_too_many_cards_are_clear_warnings():
    photo = photo_from_array(np.zeros((960, 1280, 3), np.uint8))
    empty = cards_then_table(Detections.empty(), Detections.empty(), photo, "none")
    assert empty.cards == () and str(empty.warnings[0]) == "no card found in the photo"
    codes = list(CARD_CODES[:28])
    grid = [(80 + 130 * (i % 8), 120 + 200 * (i // 8)) for i in range(28)]
    card_boxes = np.array([[x - 50, y - 70, x + 50, y + 70] for x, y in grid], np.float32)
    index_boxes = [[[x - 45, y - 65, x - 32, y - 35], [x + 32, y + 35, x + 45, y + 65]] for x, y in grid]
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    many = cards_then_table(indices, cards, photo, "many")
    assert len(many.cards) == 28 and MAX_CARDS >= 21  # a 4-player show (four hands, a crib, the starter) is one
    assert str(many.warnings[0]).startswith(f"28 cards found: more than {MAX_CARDS}")


def test_boxes_are_reported_in_the_photo_frame_of_a_downscaled_decode():
    codes, card_boxes, index_boxes, _ = table("hand_starter")
    indices, cards = detections_for(codes, card_boxes, index_boxes)
    from vision.decode import Photo

    photo = Photo(np.zeros((960, 1280, 3), np.uint8), 2560, 1920, 2.0)
    result = cards_then_table(indices, cards, photo, "big")
    row = codes.index("5D")
    assert result.card("5D").box == pytest.approx(tuple(card_boxes[row] * 2), abs=1e-3)
    assert (result.width, result.height) == (2560, 1920)


def test_unsure_indices_are_read_again_from_wider_crops_and_averaged():
    pixels = np.full((200, 300, 3), 255, np.uint8)
    indices = Detections([[10, 10, 30, 40], [100, 50, 120, 80]], [0.9, 0.8], [INDEX_CLASS] * 2)
    sure, unsure, wider = np.zeros(52), np.zeros(52), np.zeros(52)
    sure[CARD_INDEX["5H"]] = 20.0  # p ~ 1
    unsure[CARD_INDEX["6H"]] = 1.0  # p ~ 0.05: below the recheck line
    wider[CARD_INDEX["8H"]] = 20.0
    batches = []

    def classifier(batch):
        batches.append(batch.shape)
        if len(batches) == 1:
            return np.stack([sure, unsure])
        return np.stack([wider] * len(batch))

    probs = np.exp(index_log_probs(classifier, pixels, indices, 64, 1.25, scales=READ_MARGIN_SCALES,
                                   recheck_below=DEFAULTS.read.recheck_below))
    assert batches == [(2, 3, 64, 64), ((len(READ_MARGIN_SCALES) - 1), 3, 64, 64)]  # only the unsure one again
    assert probs[0].argmax() == CARD_INDEX["5H"] and probs[0].max() > 0.99
    first = softmax(unsure[None])[0]
    expected = (first + (len(READ_MARGIN_SCALES) - 1) * softmax(wider[None])[0]) / len(READ_MARGIN_SCALES)
    assert np.allclose(probs[1], expected, atol=1e-5) and probs[1].argmax() == CARD_INDEX["8H"]
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert index_log_probs(classifier, pixels, indices[:0], 64, 1.25, scales=READ_MARGIN_SCALES,
                           recheck_below=DEFAULTS.read.recheck_below).shape == (0, 52)


def _with_confirm_below(value: float):
    from dataclasses import replace

    return replace(DEFAULTS, interpret=replace(DEFAULTS.interpret, confirm_below=value))


def test_a_steps_own_columns_go_with_the_rows():
    """``Detections.data``: columns of a step's own, filtered with the rows, carried by a new reading,
    merged by ``concatenate`` (the same columns each side, else refused)."""
    rows = Detections(np.array([[0, 0, 10, 10], [5, 5, 20, 20], [30, 30, 40, 40]], np.float32), [0.9, 0.8, 0.7],
                      [0, 0, 0], data={"corners": [2, 1, 0], "centre": [[5, 5], [12, 12], [35, 35]]})
    kept = rows[np.array([True, False, True])]
    assert kept.data["corners"].tolist() == [2, 0] and kept.data["centre"].tolist() == [[5, 5], [35, 35]]
    read = kept.with_cards([0, 1], [0.9, 0.9], [-1, -1], [0, 0])
    assert read.data["corners"].tolist() == [2, 0] and read.with_origin(Origin.CLOSER).data.keys() == {"corners", "centre"}
    joined = Detections.concatenate([kept, rows[1]])
    assert joined.data["corners"].tolist() == [2, 0, 1]
    with pytest.raises(ValueError, match="other data columns"):
        Detections.concatenate([kept, Detections(np.zeros((1, 4)), [1.0], [0])])
    with pytest.raises(ValueError, match="data column 'corners' has 2 rows, expected 3"):
        Detections(np.zeros((3, 4)), [1, 1, 1], [0, 0, 0], data={"corners": [1, 2]})


def test_a_box_carries_its_frame():
    """Rows found on a photo decoded at half its size are in its decoded pixels, 2 photo pixels each:
    the frame travels with the rows (filtered, read, joined) and ``photo_xyxy`` is the one
    conversion; rows of two frames are never joined."""
    rows = Detections(np.array([[10, 20, 30, 40], [50, 60, 70, 80]], np.float32), [0.9, 0.8], [0, 0]).at_scale(2.0)
    assert rows.photo_xyxy.tolist() == [[20, 40, 60, 80], [100, 120, 140, 160]]
    read = rows[np.array([False, True])].with_cards([0], [0.9], [-1], [0.0])
    assert read.scale == 2.0 and read.photo_xyxy.tolist() == [[100, 120, 140, 160]]
    assert Detections.concatenate([rows, read]).scale == 2.0
    assert Detections.concatenate([rows[:0], rows[:0]]).scale == 2.0
    with pytest.raises(ValueError, match="other frames"):
        Detections.concatenate([rows, rows.at_scale(1.0)])
    # a box column of the rows' data converts as the rows do, and the photo takes boxes back
    assert rows.in_photo_pixels(np.array([[1, 2, 3, 4]], np.float32)).tolist() == [[2, 4, 6, 8]]
    photo = Photo(np.zeros((40, 50, 3), np.uint8), 100, 80, 2.0)
    assert photo.decoded_xyxy(rows.photo_xyxy).tolist() == rows.xyxy.tolist()
    assert photo.decoded_xyxy((20, 40, 60, 80)).tolist() == [10, 20, 30, 40]
    assert photo.decoded_xyxy(np.array([[20, 40, 60, 80]], np.float32)).dtype == np.float32


def test_the_second_reading_of_a_photo_decoded_smaller_reads_its_decoded_pixels():
    """A card's evidence holds its index box in photo pixels; on a photo decoded at half its size
    the second reading cuts the same crops from the decoded pixels as it does from a photo read
    whole with the box in those pixels (``Photo.decoded_xyxy``)."""
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 255, (120, 160, 3), np.uint8)

    def recognition(box):
        evidence = Evidence(0.9, 0.05, 0.8, 0.8, 2, index_box=box)
        card = RecognizedCard("7D", 0.9, box, evidence=evidence)
        return Recognition("p", 1, 1, (card,), (), ())

    crops = []

    def run(batch):
        crops.append(np.asarray(batch))
        return np.zeros((len(batch), len(CARD_CODES)), np.float32)

    read_again(run, Photo(pixels, 160, 120, 1.0), recognition((40.0, 30.0, 60.0, 58.0)), 32, 0.2)
    read_again(run, Photo(pixels, 320, 240, 2.0), recognition((80.0, 60.0, 120.0, 116.0)), 32, 0.2)
    assert len(crops) == 2 and crops[0].shape[0] == 2 and np.array_equal(crops[0], crops[1])
