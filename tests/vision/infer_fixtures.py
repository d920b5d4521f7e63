"""Test helpers for the inference side: synthetic tables of card boxes and index boxes (exact
geometry, no rendering), and tiny ONNX models built with onnx.helper (no training, no torch)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from vision.classes import CARD_CLASS, CARD_CODES, CARD_INDEX, DETECTOR_CLASSES, INDEX_CLASS
from vision.detections import Detections

CARD_W, CARD_H = 100.0, 140.0


def _rotated_box(cx, cy, w, h, angle_deg):
    a = math.radians(angle_deg)
    c, s = abs(math.cos(a)), abs(math.sin(a))
    half_w, half_h = (w * c + h * s) / 2, (w * s + h * c) / 2
    return [cx - half_w, cy - half_h, cx + half_w, cy + half_h]


def card_geometry(cx, cy, angle=0.0, scale=1.0):
    """(card xyxy, [two index xyxy]) of a card centred at (cx, cy) rotated by ``angle`` degrees.
    The indices sit in the top-left and bottom-right corners of the card art."""
    w, h = CARD_W * scale, CARD_H * scale
    a = math.radians(angle)
    indices = []
    for sx, sy in ((-1, -1), (1, 1)):
        lx, ly = sx * (w / 2 - 0.09 * w), sy * (h / 2 - 0.13 * h)
        x = cx + lx * math.cos(a) - ly * math.sin(a)
        y = cy + lx * math.sin(a) + ly * math.cos(a)
        indices.append(_rotated_box(x, y, 0.13 * w, 0.22 * h, angle))
    return _rotated_box(cx, cy, w, h, angle), indices


# Each layout: list of (group role, [(card, cx, cy, angle)]) in a 1280x960 photo.
def _row(codes, x0, y, step, angle=0.0, dy=0.0, dangle=0.0):
    return [(c, x0 + i * step, y + i * dy, angle + i * dangle) for i, c in enumerate(codes)]


LAYOUTS = {
    "hand_starter": [
        ("hand", _row(["5H", "5C", "5S", "JD"], 300, 500, 110)),
        ("starter", [("5D", 900, 300, 8)]),
    ],
    "fan": [
        ("hand", _row(["AS", "2S", "3S", "4S"], 420, 520, 38, angle=-18, dy=-4, dangle=12)),
        ("starter", [("9H", 1000, 250, -20)]),
    ],
    "two_hands_crib_starter": [
        ("hand", _row(["7C", "8C", "8D", "9S"], 200, 170, 110)),
        ("hand", _row(["2H", "3H", "4H", "KH"], 200, 780, 110, angle=5)),
        ("crib", _row(["QC", "QD", "TS", "JS"], 760, 480, 60, angle=80, dangle=4)),
        ("starter", [("6D", 1130, 480, 0)]),
    ],
    "deal6": [
        ("hand", _row(["AH", "4C", "6S", "9D", "TC", "KS"], 220, 480, 112, angle=-3, dangle=1.5)),
    ],
    "rotated_scaled": [
        ("hand", _row(["3C", "3D", "7H", "8H"], 380, 420, 70, angle=135, dy=40, dangle=3)),
        ("starter", [("QS", 1050, 800, 45)]),
    ],
}


def table(layout: str, scale: float = 1.0, shift=(0.0, 0.0)):
    """Truth for a layout: (card codes, card boxes, index boxes per card, groups as (role, codes))."""
    codes, card_boxes, index_boxes, groups = [], [], [], []
    for role, cards in LAYOUTS[layout]:
        groups.append((role, [c for c, *_ in cards]))
        for code, cx, cy, angle in cards:
            card, indices = card_geometry(cx * scale + shift[0], cy * scale + shift[1], angle, scale)
            codes.append(code)
            card_boxes.append(card)
            index_boxes.append(indices)
    return codes, np.array(card_boxes, np.float32), index_boxes, groups


def detections_for(codes, card_boxes, index_boxes, index_prob=0.98, runner_up="8S"):
    """Detector + classifier output as the pipeline would see it: (classified indices, card boxes)."""
    rows, ids = [], []
    for code, boxes in zip(codes, index_boxes):
        for box in boxes:
            rows.append(box)
            ids.append(CARD_INDEX[code])
    n = len(rows)
    indices = Detections(np.array(rows, np.float32).reshape(-1, 4), np.full(n, 0.9), np.full(n, INDEX_CLASS),
                         ids, np.full(n, index_prob), np.full(n, CARD_INDEX[runner_up]), np.full(n, 1 - index_prob))
    cards = Detections(card_boxes, np.full(len(card_boxes), 0.95), np.full(len(card_boxes), CARD_CLASS))
    return indices, cards


# ---- tiny ONNX models (onnx.helper) -------------------------------------------------------------

def constant_detector(path: Path, raw: np.ndarray, imgsz: int) -> None:
    """A 'detector' whose output is ``raw`` (1x6xN) for any input (it still reads its input:
    out = raw + 0 * mean(input)), so a recorded output can drive the whole pipeline."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=1),
        helper.make_node("Mul", ["mean", "zero"], ["nothing4d"]),
        helper.make_node("Reshape", ["nothing4d", "shape3d"], ["nothing"]),
        helper.make_node("Add", ["raw", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes, "constant_detector",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, imgsz, imgsz])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(raw.shape))],
        [numpy_helper.from_array(raw.astype(np.float32), "raw"),
         numpy_helper.from_array(np.zeros((1, 1, 1, 1), np.float32), "zero"),
         numpy_helper.from_array(np.array([1, 1, 1], np.int64), "shape3d")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))


def tiny_cnn(path: Path, in_shape, out_channels: int, seed: int = 0) -> None:
    """conv 3x3 stride 2 -> relu -> conv 1x1 -> global average pool -> flatten: a real (random)
    network, used to check that both runtimes compute the same thing."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    w1 = rng.normal(0, 0.5, (8, 3, 3, 3)).astype(np.float32)
    b1 = rng.normal(0, 0.1, 8).astype(np.float32)
    w2 = rng.normal(0, 0.5, (out_channels, 8, 1, 1)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"]),
        helper.make_node("GlobalAveragePool", ["c2"], ["p"]),
        helper.make_node("Flatten", ["p"], ["y"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "tiny_cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(in_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [in_shape[0], out_channels])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"), numpy_helper.from_array(w2, "w2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))


def write_models_json(folder: Path, detector_file: str, imgsz: int, classifier_file: str) -> None:
    (folder / "models.json").write_text(json.dumps({
        # zoom off: a replayed detector output only describes the whole photo
        "detector": {"file": detector_file, "imgsz": imgsz, "classes": list(DETECTOR_CLASSES), "zoom": False},
        "classifier": {"file": classifier_file, "imgsz": 64, "margin": 1.25, "classes": list(CARD_CODES)},
        "version": "test", "trained": "never"}))


def raw_output_for(boxes_xyxy: np.ndarray, class_ids, scores, n_anchors: int = 400, seed: int = 0) -> np.ndarray:
    """A detector output (1x6xN, letterbox-input pixels) holding each box 3 times with jitter
    (as neighbouring anchors do) plus low-score noise rows, like a real YOLO head."""
    rng = np.random.default_rng(seed)
    raw = np.zeros((6, n_anchors), np.float32)
    raw[:4] = rng.uniform(10, 50, (4, n_anchors))
    raw[4:] = rng.uniform(0.0, 0.05, (2, n_anchors))
    column = 0
    for box, cls, score in zip(boxes_xyxy, class_ids, scores):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        w, h = box[2] - box[0], box[3] - box[1]
        for k, (jitter, factor) in enumerate(((0.0, 1.0), (0.8, 0.9), (-0.8, 0.8))):
            raw[:4, column] = (cx + jitter, cy - jitter, w * (1 + 0.01 * k), h)
            raw[4 + cls, column] = score * factor
            raw[5 - cls, column] = 0.01
            column += 1
    return raw[None]


def colour_of(code: str) -> np.ndarray:
    """A distinct BGR colour (0..1) per card code for the colour-reading classifier."""
    i = CARD_INDEX[code]
    return np.array([(i % 4) / 3, (i // 4 % 4) / 3, (i // 16) / 3], np.float32)


def colour_classifier(path: Path, temperature: float = 60.0) -> None:
    """A 'classifier' that reads a card from the mean colour of its crop: logits_k =
    T * (2 c_k . m - |c_k|^2), i.e. nearest colour (RGB input, so colours are flipped from BGR)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    colours_rgb = np.stack([colour_of(code)[::-1] for code in CARD_CODES])  # 52 x 3
    weight = (2 * temperature * colours_rgb.T).astype(np.float32)  # 3 x 52
    bias = (-temperature * (colours_rgb ** 2).sum(axis=1)).astype(np.float32)
    nodes = [
        helper.make_node("GlobalAveragePool", ["crops"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["mean"], axis=1),
        helper.make_node("Gemm", ["mean", "w", "b"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes, "colour_classifier", [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 64, 64])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 52])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))


def scripted_scene(folder: Path, layout: str, imgsz: int = 320, unread: tuple[str, ...] = ()):
    """A photo of coloured patches where the indices of ``layout`` are, with a detector that
    outputs that scene's boxes and a classifier that reads the colours: the whole pipeline
    and CLI run deterministically without trained weights. ``unread``: cards shown and detected
    without their indices (a card whose index cannot be read). Returns (models dir, photo, truth)."""
    import cv2

    from vision.letterbox import Letterbox

    codes, card_boxes, index_boxes, groups = table(layout)
    index_boxes = [[] if code in unread else boxes for code, boxes in zip(codes, index_boxes)]
    photo = np.full((960, 1280, 3), 90, np.uint8)
    for box in card_boxes:
        cv2.rectangle(photo, (int(box[0]), int(box[1])), (int(box[2]), int(box[3])), (235, 235, 235), -1)
    for code, boxes in zip(codes, index_boxes):
        for x1, y1, x2, y2 in boxes:
            cx, cy, half = (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1) * 0.75
            colour = tuple(int(v) for v in np.round(colour_of(code) * 255))
            cv2.rectangle(photo, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), colour, -1)
    path = folder / f"{layout}{'_unread' if unread else ''}.png"
    cv2.imwrite(str(path), photo)

    all_indices = np.array([b for pair in index_boxes for b in pair], np.float32)
    boxes = np.vstack([card_boxes, all_indices])
    classes = [CARD_CLASS] * len(card_boxes) + [INDEX_CLASS] * len(all_indices)
    lb = Letterbox.fit(1280, 960, imgsz)
    raw = raw_output_for(boxes * lb.gain + [lb.pad_left, lb.pad_top] * 2, classes, np.full(len(boxes), 0.9),
                         n_anchors=max(3 * len(boxes) + 10, 200))
    models = folder / f"models_{layout}{'_unread' if unread else ''}"
    models.mkdir()
    constant_detector(models / "detector.onnx", raw, imgsz)
    colour_classifier(models / "classifier.onnx")
    write_models_json(models, "detector.onnx", imgsz, "classifier.onnx")
    return models, path, {"codes": codes, "card_boxes": card_boxes, "groups": groups}


# ---- recorded outputs of the committed models ----------------------------------------------------

def record_scene(recognizer, image_path: Path, out_npz: Path) -> None:
    """Save what the committed models output on one photo: the detector rows that can matter
    (best class score >= 0.01, of 1x6xN) and the classifier's log-probabilities of the indices after NMS."""
    from vision.decode import read_photo
    from vision.letterbox import Letterbox
    from vision.postprocess import postprocess

    photo = read_photo(image_path)
    pixels = photo.pixels
    height, width = pixels.shape[:2]
    letterbox = Letterbox.fit(width, height, recognizer.detector_size)
    raw = recognizer.detector.run(letterbox.to_tensor(pixels))
    raw = raw[:, :, raw[0, 4:].max(axis=0) >= 0.01]
    detect, read = recognizer.settings.detect, recognizer.settings.read
    indices = postprocess(raw, letterbox, width, height, detect.candidate_score, detect.nms_iou,
                          detect.max_candidates).of_class(INDEX_CLASS)
    from vision.read import index_log_probs

    logits = index_log_probs(recognizer.classifier.run, pixels, indices, recognizer.crop_size, recognizer.crop_margin,
                             scales=read.margin_scales, recheck_below=read.recheck_below)
    np.savez_compressed(out_npz, raw=raw.astype(np.float32), logits=logits.astype(np.float32),
                        size=np.array([width, height]), imgsz=np.array(recognizer.detector_size))


def cards_then_table(indices: Detections, card_boxes: Detections, photo, name: str, settings=None, ground=None):
    """The pipeline's stages ``cards`` then ``table`` (``vision.interpret.cards_of``, ``read_table``)
    on reads made by hand, as ``vision.pipeline.Recognizer`` runs them (the stages after them,
    ``amend``, ``read_again`` and ``weigh``, left out). ``photo``: its size and scale (the hand-made
    rows are in its decoded pixels); ``ground``:
    whether an index is printed on card ground (``vision.ground.ground_check``; None: no lone index
    counts for its ground)."""
    from vision.config import DEFAULTS
    from vision.interpret import cards_of, read_table

    settings = DEFAULTS if settings is None else settings
    # the rows found on the decoded photo are in its frame, as the pipeline frames the detector's
    indices, card_boxes = indices.at_scale(photo.scale), card_boxes.at_scale(photo.scale)
    return read_table(cards_of(indices, card_boxes, settings.interpret), indices, photo, name, settings.interpret,
                      settings.layout, ground)
