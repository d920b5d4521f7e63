"""The recogniser: runs the steps on a photo and times them.

decode (``decode``) -> detect (``detect``, ``postprocess``) -> read (``read``) -> interpret
(``interpret``: ``identify``, ``outlines``) -> layout (``layout``). One ``Detections`` flows
through detect, read and interpret; the result is a ``Recognition`` (``results``).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from functools import lru_cache

import numpy as np

from vision.classes import CARD_CLASS, INDEX_CLASS
from vision.config import RecognitionConfig, from_models_json
from vision.decode import Photo, decode_photo, photo_from_array, read_photo
from vision.detect import detect
from vision.detections import Detections
from vision.interpret import Thresholds, interpret
from vision.kept_apart import SHADOW_CLASS, restore
from vision.model_config import load_models_config, models_dir
from vision.read import read_indices
from vision.results import Recognition
from vision.runtime import OnnxModel
from vision.second_look import second_look

DEFAULT_ZOOM = True

# What ``recognize`` accepts: a photo file's path, its encoded bytes, BGR pixels or a Photo.
PhotoSource = str | os.PathLike | bytes | np.ndarray | Photo


class Recognizer:
    """Loads the detector and classifier once; ``recognize`` may then be called many times.

    ``confirm_below``: cards read with less confidence are flagged for the player to confirm;
    ``lone_index_score``: an index with no card box around it needs this detector score to count;
    ``unread_card_score``: a card box with no readable index needs this detector score to be
    reported (default: the models' calibration, ``vision.config.InterpretConfig``; measured in
    docs/TUNING.md). ``zoom``: the closer detector
    pass for small indices (default: as models.json says, on unless it says otherwise).
    """

    def __init__(self, models: str | os.PathLike | None = None, backend: str | None = None, *,
                 confirm_below: float | None = None, lone_index_score: float | None = None,
                 unread_card_score: float | None = None, zoom: bool | None = None,
                 look_again: bool | None = None):
        folder = models_dir(models)
        config = load_models_config(folder)
        self.config = config
        # the tunables, with the values calibrated to these models (models.json "calibration")
        self.settings: RecognitionConfig = from_models_json(config)
        given = self.settings.interpret
        self.thresholds = Thresholds(given.confirm_below if confirm_below is None else confirm_below,
                                     given.lone_index_score if lone_index_score is None else lone_index_score,
                                     given.unread_card_score if unread_card_score is None else unread_card_score)
        # A closer pass for indices helps a detector that misses small ones; models.json may
        # switch it off ("detector": {"zoom": false}) for a detector that does not need it.
        self.zoom = bool(config["detector"].get("zoom", DEFAULT_ZOOM)) if zoom is None else zoom
        self.look_again = bool(config["classifier"].get("second_look", True)) if look_again is None else look_again
        self.detector_size = int(config["detector"]["imgsz"])
        self.crop_size = int(config["classifier"]["imgsz"])
        self.crop_margin = float(config["classifier"]["margin"])
        self.detector = OnnxModel(folder / config["detector"]["file"], backend)
        self.classifier = OnnxModel(folder / config["classifier"]["file"], backend)
        self.backend = self.detector.backend

    def recognize(self, source: PhotoSource, name: str | None = None) -> Recognition:
        """Recognise a photo given as a path, encoded bytes, BGR pixels or a ``Photo``."""
        return self.read_and_recognize(source, name)[1]

    def read_and_recognize(self, source: PhotoSource, name: str | None = None) -> tuple[Photo, Recognition]:
        """The decoded photo (to draw on) and its recognition; decoding is timed as "decode"."""
        if isinstance(source, (Photo, np.ndarray)):  # already decoded
            photo = source if isinstance(source, Photo) else photo_from_array(source)
            return photo, self.recognize_photo(photo, name or "image")
        start = time.perf_counter()
        if isinstance(source, (bytes, bytearray)):
            name = name or "image"
            photo = decode_photo(bytes(source), name)
        else:
            name = name or str(source)
            photo = read_photo(source)
        return photo, self.recognize_photo(photo, name, (time.perf_counter() - start) * 1000)

    def recognize_file(self, path: str | os.PathLike) -> Recognition:
        return self.recognize(path)

    def recognize_bytes(self, data: bytes, name: str = "image") -> Recognition:
        return self.recognize(data, name)

    def recognize_array(self, pixels_bgr: np.ndarray, name: str = "image") -> Recognition:
        return self.recognize(pixels_bgr, name)

    def detect(self, pixels: np.ndarray) -> tuple[Detections, float, float]:
        """Index and card boxes in photo pixels, with the ms spent in the model and in NMS."""
        return detect(self.detector.run, self.detector_size, pixels, self.zoom, config=self.settings.detect)

    def classify(self, pixels: np.ndarray, indices: Detections) -> Detections:
        read = self.settings.read
        return read_indices(self.classifier.run, pixels, indices, self.crop_size, self.crop_margin, read.margin_scales,
                            read.recheck_below)

    def interpret(self, indices: Detections, card_boxes: Detections, photo: Photo, name: str) -> Recognition:
        """Read indices + card boxes (decoded-pixel coordinates) -> cards, groups, warnings."""
        return interpret(indices, card_boxes, photo, name, self.thresholds, self.settings)

    def recognize_photo(self, photo: Photo, name: str = "image", decode_ms: float = 0.0) -> Recognition:
        pixels = photo.pixels
        detections, infer_ms, post_ms = self.detect(pixels)
        t0 = time.perf_counter()
        indices = self.classify(pixels, detections.of_class(INDEX_CLASS))
        t1 = time.perf_counter()
        card_boxes = detections.of_class(CARD_CLASS)
        card_boxes = Detections.concatenate([card_boxes, restore(detections.of_class(SHADOW_CLASS), card_boxes, indices,
                                                                   self.settings.interpret)])
        looked = 0
        if self.look_again:
            indices, looked = second_look(self.classifier.run, pixels, card_boxes, indices, self.crop_size,
                                          self.crop_margin, min_score=self.thresholds.unread_card_score,
                                          config=self.settings.second_look,
                                          inside_share=self.settings.interpret.inside_share)
        t2 = time.perf_counter()
        result = self.interpret(indices, card_boxes, photo, name)
        t3 = time.perf_counter()
        # "infer": letterbox, crops and model runs; "second_look": the cards read again (part of
        # neither); "post": NMS and everything after the models.
        ms = {"decode": decode_ms, "infer": infer_ms + (t1 - t0) * 1000, "second_look": (t2 - t1) * 1000,
              "post": post_ms + (t3 - t2) * 1000}
        return replace(result, ms=ms, looked_again=looked)


def shared_recognizer(models: str | os.PathLike | None = None, backend: str | None = None, *,
                      confirm_below: float | None = None, lone_index_score: float | None = None,
                      unread_card_score: float | None = None, zoom: bool | None = None) -> Recognizer:
    """A recogniser loaded once per set of options and kept for the process (loading the models
    takes longer than recognising a photo)."""
    return _kept(None if models is None else str(models), backend, confirm_below, lone_index_score,
                 unread_card_score, zoom)


@lru_cache(maxsize=4)
def _kept(models, backend, confirm_below, lone_index_score, unread_card_score, zoom) -> Recognizer:
    return Recognizer(models, backend, confirm_below=confirm_below, lone_index_score=lone_index_score,
                      unread_card_score=unread_card_score, zoom=zoom)


def recognize(source: PhotoSource, name: str | None = None, *, models: str | os.PathLike | None = None,
              backend: str | None = None, confirm_below: float | None = None,
              lone_index_score: float | None = None, unread_card_score: float | None = None,
              zoom: bool | None = None) -> Recognition:
    """Recognise one photo (a path, encoded bytes, BGR pixels or a ``Photo``) with the shared
    recogniser for these options."""
    recognizer = shared_recognizer(models, backend, confirm_below=confirm_below, lone_index_score=lone_index_score,
                                   unread_card_score=unread_card_score, zoom=zoom)
    return recognizer.recognize(source, name)
