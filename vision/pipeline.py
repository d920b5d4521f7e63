"""The recogniser: photo -> cards, groups and warnings, with the time each stage took.

Stages (one ``Detections`` flows through them): decode -> letterbox -> detector -> NMS ->
(closer detector pass for indices where the cards are) -> index crops -> classifier -> merge a
card's indices -> card outlines -> layout.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.classes import CARD_CLASS, CARD_CODES, DETECTOR_CLASSES, INDEX_CLASS
from vision.decode import Photo, decode_photo, photo_from_array, read_photo
from vision.detections import UNREAD, Detections
from vision.identify import index_log_probs, merge_indices, read_logits
from vision.layout import arrange
from vision.letterbox import Letterbox
from vision.outlines import assign_outlines
from vision.postprocess import box_containment, nms_per_class, postprocess
from vision.runtime import OnnxModel
from vision.zoom import cards_to_look_at_closer, zoom_regions

DEFAULT_MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_CONF = 0.5  # a card read with less confidence is flagged for the player to confirm
# Detector scores below which a box is not considered at all (per class; tuned on rendered
# scenes that neither training nor the bench use).
MIN_INDEX_SCORE = 0.25
MIN_CARD_SCORE = 0.4
DEFAULT_ZOOM = True
MAX_CARDS = 20  # more than two hands, a crib and a starter (and some slack): not a cribbage layout
DUPLICATE_INSIDE = 0.8  # an unread card box this much inside a read card's box is a second box of that card
# A card read with less confidence than this (detector score x classifier probability) is more
# often wrong than right: it is kept as a card whose index could not be read, its best guess in
# the warning, not reported as that card. Set with models v2 on 150 rendered scenes that neither
# training nor the bench use (seeds 8,500,000+): reads under 0.25 were wrong 37 times and right
# 19; 0.25-0.30: 13 right, 7 wrong; 0.30 and over: 986 right, 4 wrong.
READ_FLOOR = 0.25


class ModelConfigError(ValueError):
    """models.json is missing or does not describe the models this code expects."""


@dataclass(frozen=True)
class RecognizedCard:
    card: str
    confidence: float
    box: tuple[float, float, float, float]
    confirm: bool = False
    runner_up: str | None = None
    runner_up_confidence: float = 0.0

    def to_json(self) -> dict:
        data = {"card": self.card, "confidence": round(self.confidence, 4),
                "box": [round(v, 1) for v in self.box], "confirm": self.confirm}
        if self.confirm and self.runner_up:
            data["runner_up"] = self.runner_up
            data["runner_up_confidence"] = round(self.runner_up_confidence, 4)
        return data


@dataclass(frozen=True)
class CardGroup:
    role: str
    cards: tuple[str, ...]

    def to_json(self) -> dict:
        return {"role": self.role, "cards": list(self.cards)}


@dataclass(frozen=True)
class Recognition:
    image: str
    width: int
    height: int
    cards: tuple[RecognizedCard, ...]
    groups: tuple[CardGroup, ...]
    warnings: tuple[str, ...]
    ms: dict = field(default_factory=dict)
    unread_boxes: tuple[tuple[float, float, float, float], ...] = ()

    def to_json(self) -> dict:
        return {"image": self.image, "width": self.width, "height": self.height,
                "cards": [c.to_json() for c in self.cards],
                "groups": [g.to_json() for g in self.groups],
                "warnings": list(self.warnings),
                "ms": {k: round(v, 1) for k, v in self.ms.items()}}

    def card(self, code: str) -> RecognizedCard | None:
        return next((c for c in self.cards if c.card == code), None)


def load_models_config(models_dir: str | os.PathLike) -> dict:
    path = Path(models_dir) / "models.json"
    if not path.is_file():
        raise ModelConfigError(f"{path} not found: the recognition models are not installed")
    try:
        config = json.loads(path.read_text())
        detector, classifier = config["detector"], config["classifier"]
        if list(detector["classes"]) != list(DETECTOR_CLASSES):
            raise ModelConfigError(f"{path}: detector classes {detector['classes']} != {list(DETECTOR_CLASSES)}")
        if list(classifier["classes"]) != list(CARD_CODES):
            raise ModelConfigError(f"{path}: classifier classes are not the 52 card codes in order")
        int(detector["imgsz"]), int(classifier["imgsz"]), float(classifier["margin"])
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ModelConfigError(f"{path}: malformed ({exc.__class__.__name__}: {exc})") from exc
    return config


class Recognizer:
    """Loads the detector and classifier once; ``recognize_*`` may then be called many times."""

    def __init__(self, models_dir: str | os.PathLike | None = None, backend: str | None = None,
                 conf: float = DEFAULT_CONF, zoom: bool | None = None):
        models_dir = Path(models_dir or os.environ.get("CRIB_MODELS") or DEFAULT_MODELS_DIR)
        config = load_models_config(models_dir)
        self.config = config
        self.conf = conf
        # A closer pass for indices helps a detector that misses small ones; models.json may
        # switch it off ("detector": {"zoom": false}) for a detector that does not need it.
        self.zoom = bool(config["detector"].get("zoom", DEFAULT_ZOOM)) if zoom is None else zoom
        self.detector_size = int(config["detector"]["imgsz"])
        self.crop_size = int(config["classifier"]["imgsz"])
        self.crop_margin = float(config["classifier"]["margin"])
        self.detector = OnnxModel(models_dir / config["detector"]["file"], backend)
        self.classifier = OnnxModel(models_dir / config["classifier"]["file"], backend)
        self.backend = self.detector.backend

    def recognize_file(self, path: str | os.PathLike) -> Recognition:
        start = time.perf_counter()
        photo = read_photo(path)
        return self.recognize_photo(photo, str(path), decode_ms=(time.perf_counter() - start) * 1000)

    def recognize_bytes(self, data: bytes, name: str = "image") -> Recognition:
        start = time.perf_counter()
        photo = decode_photo(data, name)
        return self.recognize_photo(photo, name, decode_ms=(time.perf_counter() - start) * 1000)

    def recognize_array(self, pixels_bgr: np.ndarray, name: str = "image") -> Recognition:
        return self.recognize_photo(photo_from_array(pixels_bgr), name)

    def _detect_region(self, pixels: np.ndarray, region: tuple[int, int, int, int] | None = None,
                       times: list[float] | None = None) -> Detections:
        """Detector + NMS on the whole photo or a region of it, boxes in photo pixels; adds
        (model ms, NMS ms) to ``times``."""
        x1, y1, x2, y2 = region or (0, 0, pixels.shape[1], pixels.shape[0])
        crop = pixels[y1:y2, x1:x2]
        t0 = time.perf_counter()
        letterbox = Letterbox.fit(crop.shape[1], crop.shape[0], self.detector_size)
        raw = self.detector.run(letterbox.to_tensor(crop))
        t1 = time.perf_counter()
        found = postprocess(raw, letterbox, crop.shape[1], crop.shape[0], min(MIN_INDEX_SCORE, MIN_CARD_SCORE))
        minimum = np.where(found.class_id == INDEX_CLASS, MIN_INDEX_SCORE, MIN_CARD_SCORE)
        found = found[found.confidence >= minimum]
        if times is not None:
            times[0] += (t1 - t0) * 1000
            times[1] += (time.perf_counter() - t1) * 1000
        return Detections(found.xyxy + np.array([x1, y1, x1, y1], np.float32), found.confidence, found.class_id)

    def detect(self, pixels: np.ndarray) -> tuple[Detections, float, float]:
        """Index and card boxes in photo pixels, with the ms spent in the model and in NMS.
        With ``zoom``, indices are looked for again, closer, around the cards on which the first
        pass found no sure index."""
        times = [0.0, 0.0]
        detections = self._detect_region(pixels, times=times)
        if self.zoom:
            height, width = pixels.shape[:2]
            cards, indices = detections.of_class(CARD_CLASS), detections.of_class(INDEX_CLASS)
            closer_look = cards_to_look_at_closer(cards.xyxy, indices.xyxy, indices.confidence)
            regions = zoom_regions(cards.xyxy[closer_look], width, height)
            closer = [self._detect_region(pixels, region, times).of_class(INDEX_CLASS) for region in regions]
            start = time.perf_counter()
            indices = nms_per_class(Detections.concatenate([detections.of_class(INDEX_CLASS), *closer]))
            detections = Detections.concatenate([indices, detections.of_class(CARD_CLASS)])
            times[1] += (time.perf_counter() - start) * 1000
        return detections, times[0], times[1]

    def classify(self, pixels: np.ndarray, indices: Detections) -> Detections:
        if len(indices) == 0:
            return indices
        return read_logits(indices, index_log_probs(self.classifier.run, pixels, indices, self.crop_size, self.crop_margin))

    def recognize_photo(self, photo: Photo, name: str = "image", decode_ms: float = 0.0) -> Recognition:
        pixels = photo.pixels
        detections, infer_ms, post_ms = self.detect(pixels)
        t0 = time.perf_counter()
        indices = self.classify(pixels, detections.of_class(INDEX_CLASS))
        t1 = time.perf_counter()
        result = self.interpret(indices, detections.of_class(CARD_CLASS), photo, name)
        t2 = time.perf_counter()
        # "infer": letterbox, crops and model runs; "post": NMS and everything after the models.
        ms = {"decode": decode_ms, "infer": infer_ms + (t1 - t0) * 1000, "post": post_ms + (t2 - t1) * 1000}
        return replace(result, ms=ms)

    def interpret(self, indices: Detections, card_boxes: Detections, photo: Photo, name: str) -> Recognition:
        """Classified indices + card boxes (decoded-pixel coordinates) -> cards, groups, warnings."""
        return interpret(indices, card_boxes, photo, name, self.conf)


def interpret(indices: Detections, card_boxes: Detections, photo: Photo, name: str,
              conf: float = DEFAULT_CONF) -> Recognition:
    """Everything after the models: merge indices, outlines, confidence flags, layout."""
    warnings: list[str] = []
    identities = merge_indices(indices, card_boxes)
    outlines = assign_outlines(identities, card_boxes)
    cards, index_score = outlines.cards, outlines.index_score
    guessed = (cards.card_id != UNREAD) & (cards.card_confidence < READ_FLOOR)
    guess = np.array([f"{code}, {p:.2f}" if unsure else None  # row-aligned, filtered with the cards
                      for code, p, unsure in zip(cards.codes, cards.card_confidence, guessed)], object)
    if guessed.any():  # too unsure to name: the card stays, unread
        card_id = np.where(guessed, UNREAD, cards.card_id)
        cards = cards.with_cards(card_id, np.where(guessed, 0.0, cards.card_confidence),
                                 np.where(guessed, UNREAD, cards.runner_up_id),
                                 np.where(guessed, 0.0, cards.runner_up_confidence))
    read = cards.card_id != UNREAD
    disputed = np.zeros(len(cards), bool)
    for row, other in sorted(outlines.disputed.items()):
        if guessed[row]:
            continue  # said with the unread card
        disputed[row] = True
        warnings.append(f"the corners of one card read {cards.codes[row]} and {other}: confirm this card")
    # An index with no card box around it that the detector itself doubts is weak evidence
    # (a letter on a keyboard, a pip): said, not counted as a card.
    weak = read & outlines.estimated & (index_score < conf)
    for i in np.flatnonzero(weak):
        warnings.append(f"ignored a corner index read as {cards.codes[i]} with no card around it "
                        f"(detector score {index_score[i]:.2f})")
    # A card box with no readable index is reported only when the detector is sure it is a card,
    # and not when it lies mostly inside a read card's box: that is a second, partial box of the
    # same card (NMS keeps it when the IoU falls just under its threshold).
    inside_read = np.zeros(len(cards), bool)
    if read.any() and (~read).any():
        inside_read[~read] = box_containment(cards.xyxy[~read], cards.xyxy[read]).max(axis=1) >= DUPLICATE_INSIDE
    # A card read too unsurely to name is kept (unread) unless nothing but that index says a card
    # is there, or it lies inside a read card (a stray index on it: a pip, a court figure).
    stray = guessed & (outlines.estimated | inside_read)
    for i in np.flatnonzero(stray):
        where = "with no card around it" if outlines.estimated[i] else "on a card read otherwise"
        warnings.append(f"ignored an unsure corner read ({guess[i]}) {where}")
    keep = ((read & ~weak) | (~read & ~guessed & (cards.confidence >= conf) & ~inside_read)
            | (guessed & ~stray))
    cards, read, disputed, guess = cards[keep], read[keep], disputed[keep], guess[keep]
    layout = arrange(cards.xyxy, read)
    warnings.extend(layout.warnings)

    codes = cards.codes
    counts = Counter(c for c in codes if c)
    for code, count in sorted(counts.items()):
        if count > 1:
            warnings.append(f"{code} seen {count} times far apart: one deck has one {code}; check the photo")

    recognized: dict[int, RecognizedCard] = {}
    for i in np.flatnonzero(read):
        code = codes[i]
        confidence = float(cards.card_confidence[i])
        runner_up = CARD_CODES[cards.runner_up_id[i]] if cards.runner_up_id[i] >= 0 else None
        confirm = confidence < conf or counts[code] > 1 or bool(disputed[i])
        if confidence < conf:
            alternative = f" (or {runner_up}, {cards.runner_up_confidence[i]:.2f})" if runner_up else ""
            warnings.append(f"{code} read with low confidence {confidence:.2f}{alternative}: confirm this card")
        box = tuple(float(v) * photo.scale for v in cards.xyxy[i])
        recognized[int(i)] = RecognizedCard(code, confidence, box, confirm, runner_up,
                                            float(cards.runner_up_confidence[i]))

    ordered: list[RecognizedCard] = []
    groups: list[CardGroup] = []
    for group in layout.groups:
        members = [m for m in group.members if m in recognized]
        ordered.extend(recognized[m] for m in members)
        groups.append(CardGroup(group.role, tuple(codes[m] for m in members)))
    unread_rows = np.flatnonzero(~read)
    unread = tuple(tuple(float(v) * photo.scale for v in cards.xyxy[i]) for i in unread_rows)
    for row, box in zip(unread_rows, unread):
        best = f" (best guess {guess[row]})" if guess[row] else ""
        warnings.append(f"a card at [{', '.join(f'{v:.0f}' for v in box)}] has no readable index{best}: check it")
    if not ordered:
        warnings.insert(0, "no card found in the photo")
    elif len(ordered) > MAX_CARDS:
        warnings.insert(0, f"{len(ordered)} cards found: more than {MAX_CARDS}, this does not look like a cribbage layout")
    return Recognition(name, photo.width, photo.height, tuple(ordered), tuple(groups), tuple(warnings),
                       {}, unread)
