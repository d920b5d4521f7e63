"""The recogniser: the one place that wires the steps, runs them on a photo and times them.

    decode (``decode``)                                     -> Photo
    detect (``detect``, ``postprocess``)                    -> Candidates
    read (``read``, ``kept_apart.restore``, ``second_look``)  -> Reads
    cards (``interpret.cards_of``: ``identify``, ``outlines``) -> Outlines
    table (``interpret.read_table``, ``layout``; ``ground``)  -> Recognition (``results``)
    amend (``amend``: ``phantoms``, ``index_column``; ``table``) -> Recognition, second readings
                                                               dropped, the index columns' cards added,
                                                               the table laid out again
    read_again (``second_reading``)                           -> Recognition, each card's index read a
                                                               second time (its evidence)
    weigh (``doubt``)                                         -> Recognition, each card's chance of
                                                               being right, flags where it is low

The values between the steps are ``vision.stages``; no step calls another step's module to get its
input: what one needs (the classifier, the photo's ground) is handed to it here.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from functools import lru_cache

import numpy as np

from vision.amend import amend
from vision.classes import CARD_CODES
from vision.config import RecognitionConfig
from vision.decode import Photo, decode_photo, photo_from_array, read_photo
from vision.detect import detect
from vision.detections import Detections
from vision.doubt import DoubtModel, weigh
from vision.ground import ground_check
from vision.interpret import cards_of, read_table
from vision.kept_apart import restore
from vision.model_config import LoadedModels, read_models
from vision.outlines import Outlines
from vision.read import read_indices
from vision.results import Recognition
from vision.runtime import OnnxModel
from vision.second_look import second_look
from vision.second_reading import read_again
from vision.stages import Candidates, Reads

# What ``recognize`` accepts: a photo file's path, its encoded bytes, BGR pixels or a Photo.
PhotoSource = str | os.PathLike | bytes | np.ndarray | Photo


class Recognizer:
    """Loads the detector and classifier once; ``recognize`` may then be called many times.

    ``confirm_below``: cards less likely right than this are flagged for the player to confirm
    (default: the threshold the models' doubt model ships, ``vision.doubt``; models without one:
    interpret's rules with their ``confirm_below``);
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
        loaded = read_models(models)
        self.models: LoadedModels = loaded
        # the tunables, with the values calibrated to these models (models.json "calibration");
        # the caller's thresholds over the models' (InterpretConfig checks each is in 0..1); where the
        # doubt model decides the flags, interpret keeps its own confirm_below (its flags still
        # steer the steps after it: ``vision.phantoms``)
        self.doubt: DoubtModel | None = loaded.doubt
        models_own = loaded.settings.interpret
        chosen = {"confirm_below": confirm_below, "lone_index_score": lone_index_score,
                  "unread_card_score": unread_card_score}
        interpret = replace(models_own, **{k: v for k, v in chosen.items() if v is not None})  # checks them
        if self.doubt is not None:
            interpret = replace(interpret, confirm_below=models_own.confirm_below)
        self.settings: RecognitionConfig = replace(loaded.settings, interpret=interpret)
        self.flag_below = loaded.flag_below if confirm_below is None else confirm_below
        self.zoom = loaded.zoom if zoom is None else zoom
        self.look_again = loaded.second_look if look_again is None else look_again
        self.detector_size, self.crop_size, self.crop_margin = loaded.detector_size, loaded.crop_size, loaded.crop_margin
        self.detector = OnnxModel(loaded.folder / loaded.detector_file, backend)
        self.classifier = OnnxModel(loaded.folder / loaded.classifier_file, backend)
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
        """Index and card boxes in photo pixels (the suppressed card boxes among them, by their
        ``origin``), with the ms spent in the model and in NMS."""
        return detect(self.detector.run, self.detector_size, pixels, self.zoom, config=self.settings.detect)

    def classify(self, pixels: np.ndarray, indices: Detections) -> Detections:
        read = self.settings.read
        return read_indices(self.classifier.run, pixels, indices, self.crop_size, self.crop_margin, read.margin_scales,
                            read.recheck_below)

    def read(self, pixels: np.ndarray, candidates: Candidates) -> Reads:
        """The candidates' indices read, and the card boxes with the suppressed ones whose corners
        read another card given back (``kept_apart.restore``)."""
        indices = self.classify(pixels, candidates.indices)
        given_back = restore(candidates.suppressed, candidates.cards, indices, self.settings.interpret)
        return Reads(indices, Detections.concatenate([candidates.cards, given_back]))

    def second_look(self, pixels: np.ndarray, reads: Reads) -> Reads:
        """``reads`` with the card boxes no index was read on surely read again (``second_look``)."""
        indices, looked = second_look(self.classifier.run, pixels, reads.cards, reads.indices, self.crop_size,
                                      self.crop_margin, min_score=self.settings.interpret.unread_card_score,
                                      config=self.settings.second_look,
                                      inside_share=self.settings.interpret.inside_share)
        return Reads(indices, reads.cards, looked)

    def cards(self, reads: Reads) -> Outlines:
        """The cards read from the indices, each with its outline, and the unread card boxes."""
        return cards_of(reads.indices, reads.cards, self.settings.interpret)

    def table(self, cards: Outlines, reads: Reads, photo: Photo, name: str) -> Recognition:
        """The cards named, laid out in groups with roles, and the notices (the photo's pixels only
        for the ground a lone index is printed on)."""
        return read_table(cards, reads.indices, photo, name, self.settings.interpret,
                          self.settings.layout, ground=ground_check(photo.pixels, self.settings.ground))

    def index_reader(self, photo: Photo):
        """A reader of index boxes in photo pixels (the index column's gaps, ``vision.index_column``):
        per box the card, the reader's probability, the runner-up and its probability."""
        def read(index_boxes: np.ndarray) -> list[tuple[str, float, str | None, float]]:
            n = len(index_boxes)
            got = self.classify(photo.pixels, Detections(photo.decoded_xyxy(np.asarray(index_boxes, np.float32)),
                                                         np.ones(n), np.zeros(n), scale=photo.scale))
            return [(CARD_CODES[got.card_id[i]], float(got.reader[i]),
                     CARD_CODES[got.runner_up_id[i]] if got.runner_up_id[i] >= 0 else None,
                     float(got.runner_up_confidence[i])) for i in range(n)]
        return read

    def amend(self, result: Recognition, reads: Reads, photo: Photo) -> Recognition:
        """``result`` with its second readings dropped and the cards on its index columns added
        (``vision.amend``)."""
        return amend(result, reads.indices, reads.cards, self.settings, self.index_reader(photo))

    def read_again(self, result: Recognition, photo: Photo) -> Recognition:
        """``result`` with each card's index read a second time (``vision.second_reading``); only the
        doubt model weighs that evidence, so models without one skip it."""
        if self.doubt is None:
            return result
        return read_again(self.classifier.run, photo, result, self.crop_size, self.crop_margin, self.doubt.needs_reading)

    def weigh(self, result: Recognition) -> Recognition:
        """``result`` with each card's chance of being right and the flags the doubt model gives
        (unchanged for models without one)."""
        return result if self.doubt is None else weigh(result, self.doubt, self.flag_below)

    def preview(self, frame: np.ndarray | Photo, name: str = "preview") -> Recognition:
        """The cards' names in a live view's frame (BGR pixels or a ``Photo``), lighter than
        ``recognize``: one detector pass (no closer pass), at the models' ``preview_size`` in a
        rectangle where their detector takes any input size, the indices read once, and no second
        look, index columns, second reading or doubt model; flags are interpret's rules'. The
        shutter's photo takes ``recognize``."""
        photo = frame if isinstance(frame, Photo) else photo_from_array(frame)
        size = self.models.preview_size or self.detector_size
        detections, infer_ms, post_ms = detect(self.detector.run, size, photo.pixels, zoom=False,
                                               config=self.settings.detect, rect=self.models.preview_size is not None)
        t0 = time.perf_counter()
        reads = self.read(photo.pixels, Candidates.of(detections.at_scale(photo.scale)))
        t1 = time.perf_counter()
        result = self.table(self.cards(reads), reads, photo, name)
        ms = {"decode": 0.0, "infer": infer_ms + (t1 - t0) * 1000, "second_look": 0.0,
              "post": post_ms + (time.perf_counter() - t1) * 1000}
        return replace(result, ms=ms)

    def recognize_photo(self, photo: Photo, name: str = "image", decode_ms: float = 0.0) -> Recognition:
        pixels = photo.pixels
        detections, infer_ms, post_ms = self.detect(pixels)
        candidates = Candidates.of(detections.at_scale(photo.scale))  # found on the decoded photo: its frame
        t0 = time.perf_counter()
        reads = self.read(pixels, candidates)
        t1 = time.perf_counter()
        if self.look_again:
            reads = self.second_look(pixels, reads)
        t2 = time.perf_counter()
        result = self.weigh(self.read_again(self.amend(self.table(self.cards(reads), reads, photo, name), reads, photo),
                                            photo))
        t3 = time.perf_counter()
        # "infer": letterbox, crops and model runs (and the suppressed boxes given back); "second_look":
        # the cards read again (part of neither); "post": NMS and everything after the models.
        ms = {"decode": decode_ms, "infer": infer_ms + (t1 - t0) * 1000, "second_look": (t2 - t1) * 1000,
              "post": post_ms + (t3 - t2) * 1000}
        return replace(result, ms=ms, looked_again=reads.looked_again)


def flag_threshold(models: str | os.PathLike | None = None) -> float:
    """The chance under which the models ``models_dir(models)`` finds flag a card for the player:
    their doubt model's threshold, else (models without one) interpret's ``confirm_below``."""
    return read_models(models).flag_below


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
