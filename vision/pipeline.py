"""The recogniser: the one place that wires the steps, runs them on a photo and times them.

The steps are declared once, in order, as ``PHOTO_STEPS`` (the shutter's photo) and
``PREVIEW_STEPS`` (a live view's frame): each a ``Step`` with its name, the module that does its
work, what it makes and the time it counts under (``Recognition.ms``). ``Recognizer`` runs them in
turn on a ``Flow``, the values the steps have made of one photo so far (``vision.stages``).
docs/RECOGNITION.md names them in the same order (a test holds the two in step). No step calls
another step's module to get its input: what one needs (the classifier, the photo's ground) is
handed to it here.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

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
from vision.options import RecognizeOptions
from vision.read import read_indices
from vision.results import Recognition
from vision.runtime import OnnxModel
from vision.second_look import second_look
from vision.second_reading import read_again
from vision.stages import Candidates, Flow, Outlines, Reads

# What ``recognize`` accepts: a photo file's path, its encoded bytes, BGR pixels or a Photo.
PhotoSource = str | os.PathLike | bytes | np.ndarray | Photo


class Recognizer:
    """Loads the detector and classifier once; ``recognize`` may then be called many times:
    ``Recognizer(models, options).recognize(source)``. ``options`` (``RecognizeOptions``, each
    None: the models' own) says how to read over what the models say; keyword arguments named as
    its fields replace those of ``options`` (``Recognizer(confirm_below=0.9)``); ``backend``: the
    model runtime (``vision.runtime``; None: onnxruntime where installed, else OpenCV)."""

    def __init__(self, models: str | os.PathLike | None = None, options: RecognizeOptions | None = None, *,
                 backend: str | None = None, **chosen):
        options = replace(options or RecognizeOptions(), **chosen)  # a name it lacks: TypeError, as any call
        self.options = options
        confirm_below, zoom, look_again = options.confirm_below, options.zoom, options.look_again
        loaded = read_models(models)
        self.models: LoadedModels = loaded
        # the tunables, with the values calibrated to these models (models.json "calibration");
        # the caller's thresholds over the models' (InterpretConfig checks each is in 0..1); where the
        # doubt model decides the flags, interpret keeps its own confirm_below (its flags still
        # steer the steps after it: ``vision.phantoms``)
        self.doubt: DoubtModel | None = loaded.doubt
        models_own = loaded.settings.interpret
        thresholds = {"confirm_below": confirm_below, "lone_index_score": options.lone_index_score,
                      "unread_card_score": options.unread_card_score}
        interpret = replace(models_own, **{k: v for k, v in thresholds.items() if v is not None})  # checks them
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

    def detect(self, pixels: np.ndarray, preview: bool = False) -> tuple[Detections, float, float]:
        """Index and card boxes in photo pixels (the suppressed card boxes among them, by their
        ``origin``), with the ms spent in the model and in NMS. ``preview``: a live view's frame,
        one pass (no closer one) at the models' ``preview_size``, in a rectangle of whole strides
        where their detector takes any input size (else in its square)."""
        if not preview:
            return detect(self.detector.run, self.detector_size, pixels, self.zoom, config=self.settings.detect)
        size = self.models.preview_size
        return detect(self.detector.run, size or self.detector_size, pixels, zoom=False, config=self.settings.detect,
                      rect=size is not None)

    def classify(self, pixels: np.ndarray, indices: Detections) -> Detections:
        read = self.settings.read
        return read_indices(self.classifier.run, pixels, indices, self.crop_size, self.crop_margin,
                            scales=read.margin_scales, recheck_below=read.recheck_below)

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
        ``recognize``: ``PREVIEW_STEPS`` (one detector pass, no closer pass, at the models'
        ``preview_size`` in a rectangle where their detector takes any input size; no second look,
        index columns, second reading or doubt model: flags are interpret's rules'). The
        shutter's photo takes ``recognize``."""
        photo = frame if isinstance(frame, Photo) else photo_from_array(frame)
        return self.run_steps(PREVIEW_STEPS, photo, name)

    def recognize_photo(self, photo: Photo, name: str = "image", decode_ms: float = 0.0) -> Recognition:
        """``PHOTO_STEPS`` on a decoded photo."""
        return self.run_steps(PHOTO_STEPS, photo, name, decode_ms)

    def run_steps(self, steps: tuple["Step", ...], photo: Photo, name: str, decode_ms: float = 0.0) -> Recognition:
        """Each of ``steps`` in turn (those this recogniser runs: ``Step.runs``), timed: a step's
        time counts under its ``timed_as``, or as the step splits it itself (the detector's model
        and NMS)."""
        ms = {"decode": decode_ms, "infer": 0.0, "second_look": 0.0, "post": 0.0}
        flow = Flow(photo, name)
        for step in steps:
            if not step.runs(self):
                continue
            start = time.perf_counter()
            flow = step.run(self, flow)
            split = flow.split_ms or {step.timed_as: (time.perf_counter() - start) * 1000}
            for key, value in split.items():
                ms[key] += value
            flow = replace(flow, split_ms=None)
        return replace(flow.result, ms=ms, looked_again=flow.reads.looked_again)


@dataclass(frozen=True)
class Step:
    """One recognition step: its ``name``, the modules that do its work (``does``), what it makes
    (``makes``), the ``Recognition.ms`` key its time counts under, and ``run(recognizer, flow)``.
    ``runs(recognizer)``: whether this recogniser runs it (the second look may be off)."""

    name: str
    does: str
    makes: str
    timed_as: str
    run: Callable[[Recognizer, Flow], Flow]
    runs: Callable[[Recognizer], bool] = lambda recognizer: True

    def __str__(self) -> str:
        return f"{self.name}: {self.does} -> {self.makes}"


def _detect(recognizer: Recognizer, flow: Flow, preview: bool = False) -> Flow:
    detections, model_ms, nms_ms = recognizer.detect(flow.photo.pixels, preview)
    candidates = Candidates.of(detections.at_scale(flow.photo.scale))  # found on the decoded photo: its frame
    return replace(flow, candidates=candidates, split_ms={"infer": model_ms, "post": nms_ms})


DETECT = Step("detect", "detect, postprocess, kept_apart", "Candidates", "infer", _detect)
READ = Step("read", "read, kept_apart.restore", "Reads", "infer",
            lambda r, f: replace(f, reads=r.read(f.photo.pixels, f.candidates)))
SECOND_LOOK = Step("second_look", "second_look", "Reads, the unread cards read again", "second_look",
                   lambda r, f: replace(f, reads=r.second_look(f.photo.pixels, f.reads)), lambda r: r.look_again)
CARDS = Step("cards", "interpret.cards_of: identify, outlines", "Outlines", "post",
             lambda r, f: replace(f, outlines=r.cards(f.reads)))
TABLE = Step("table", "interpret.read_table, layout, ground", "Recognition", "post",
             lambda r, f: replace(f, result=r.table(f.outlines, f.reads, f.photo, f.name)))
AMEND = Step("amend", "amend: phantoms, index_column; table", "Recognition, second readings dropped, the index "
             "columns' cards added, the table laid out again", "post",
             lambda r, f: replace(f, result=r.amend(f.result, f.reads, f.photo)))
READ_AGAIN = Step("read_again", "second_reading", "Recognition, each card's index read a second time (its "
                  "evidence)", "post", lambda r, f: replace(f, result=r.read_again(f.result, f.photo)))
WEIGH = Step("weigh", "doubt", "Recognition, each card's chance of being right, flags where it is low", "post",
             lambda r, f: replace(f, result=r.weigh(f.result)))
DETECT_ONCE = Step("detect_once", "detect (one pass, the models' preview size), postprocess, kept_apart",
                   "Candidates", "infer", lambda r, f: _detect(r, f, preview=True))

# The shutter's photo (after decode: ``read_photo``, ``decode_photo``) and a live view's frame.
PHOTO_STEPS: tuple[Step, ...] = (DETECT, READ, SECOND_LOOK, CARDS, TABLE, AMEND, READ_AGAIN, WEIGH)
PREVIEW_STEPS: tuple[Step, ...] = (DETECT_ONCE, READ, CARDS, TABLE)


def flag_threshold(models: str | os.PathLike | None = None) -> float:
    """The chance under which the models ``models_dir(models)`` finds flag a card for the player:
    their doubt model's threshold, else (models without one) interpret's ``confirm_below``."""
    return read_models(models).flag_below


def shared_recognizer(models: str | os.PathLike | None = None, options: RecognizeOptions | None = None, *,
                      backend: str | None = None, **chosen) -> Recognizer:
    """A recogniser loaded once per models, backend and options, kept for the process (loading the
    models takes longer than recognising a photo); ``chosen`` as for ``Recognizer``."""
    return _kept(None if models is None else str(models), replace(options or RecognizeOptions(), **chosen), backend)


@lru_cache(maxsize=4)
def _kept(models, options: RecognizeOptions, backend) -> Recognizer:
    return Recognizer(models, options, backend=backend)


def recognize(source: PhotoSource, name: str | None = None, *, models: str | os.PathLike | None = None,
              backend: str | None = None, options: RecognizeOptions | None = None, **chosen) -> Recognition:
    """Recognise one photo (a path, encoded bytes, BGR pixels or a ``Photo``) with the shared
    recogniser for these models, backend and options."""
    return shared_recognizer(models, options, backend=backend, **chosen).recognize(source, name)
