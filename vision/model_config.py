"""models.json: which model files to load and the sizes, margin and class lists they expect;
``read_models`` parses it once into ``LoadedModels``, what a recogniser is built from."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from vision.classes import CARD_CODES, DETECTOR_CLASSES

if TYPE_CHECKING:
    from vision.config import RecognitionConfig
    from vision.doubt import DoubtModel

# The repository's models/ beside vision/ (a clone or an editable install). An installed wheel
# carries the same files inside the package, as vision/models/ (setup.py maps the folder there).
CHECKOUT_MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


class ModelConfigError(ValueError):
    """models.json is missing or does not describe the models this code expects."""


def bundled_models_dir() -> Path:
    """The shipped models: a source tree's own models/, else the copy installed in the package."""
    if (CHECKOUT_MODELS_DIR / "models.json").is_file():
        return CHECKOUT_MODELS_DIR
    return Path(str(resources.files("vision") / "models"))


def models_dir(path: str | os.PathLike | None = None) -> Path:
    """The models folder: ``path``, else $CRIB_MODELS, else the shipped models."""
    return Path(path or os.environ.get("CRIB_MODELS") or bundled_models_dir())


def models_version(folder: str | os.PathLike | None = None) -> str:
    """models.json's "version" of the models ``models_dir(folder)`` finds, from their one parse
    (``read_models``: ModelConfigError, CalibrationError or DoubtModelError, all ValueError, one
    line each, when models.json cannot be used)."""
    return read_models(folder).version


def load_models_config(folder: str | os.PathLike) -> dict:
    path = Path(folder) / "models.json"
    if not path.is_file():
        raise ModelConfigError(f"{path} not found: the recognition models are not installed "
                               "(set $CRIB_MODELS or --models to a folder holding models.json)")
    try:
        config = json.loads(path.read_text())
        detector, classifier = config["detector"], config["classifier"]
        if list(detector["classes"]) != list(DETECTOR_CLASSES):
            raise ModelConfigError(f"{path}: detector classes {detector['classes']} != {list(DETECTOR_CLASSES)}")
        if list(classifier["classes"]) != list(CARD_CODES):
            raise ModelConfigError(f"{path}: classifier classes are not the 52 card codes in order")
        int(detector["imgsz"]), int(classifier["imgsz"]), float(classifier["margin"])
        preview = detector.get("preview_imgsz")
        if preview is not None and (isinstance(preview, bool) or not isinstance(preview, int) or preview < 32
                                    or preview % 32):
            raise ModelConfigError(f"{path}: detector preview_imgsz {preview!r} is not a whole number of 32-pixel "
                                   "strides")
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ModelConfigError(f"{path}: malformed ({exc.__class__.__name__}: {exc})") from exc
    return config


@dataclass(frozen=True)
class LoadedModels:
    """models.json read once: what a recogniser is built from, every value from one place.

    ``settings``: the tunables with the models' ``calibration`` applied; ``doubt``: their doubt
    model (None: interpret's rules flag); ``flag_below``: the chance under which they flag a card;
    ``provenance``: how they were made; ``preview_size``: the long side
    of a live view's frame in the detector input, set where the detector takes any input size
    (models.json detector "preview_imgsz"; None: the live view uses ``detector_size``)."""

    folder: Path
    version: str
    detector_file: str
    detector_size: int
    zoom: bool  # the closer pass for small indices (models.json may switch it off)
    classifier_file: str
    crop_size: int
    crop_margin: float
    second_look: bool
    settings: "RecognitionConfig"
    doubt: "DoubtModel | None"
    provenance: dict = field(default_factory=dict, compare=False)
    preview_size: int | None = None

    @property
    def flag_below(self) -> float:
        return self.doubt.flag_below if self.doubt is not None else self.settings.interpret.confirm_below


def read_models(folder: str | os.PathLike | None = None) -> LoadedModels:
    """The models ``models_dir(folder)`` finds, parsed once (ModelConfigError, CalibrationError or
    DoubtModelError, one line each, when models.json cannot be used)."""
    from vision.config import from_models_json
    from vision.doubt import doubt_model_of

    path = models_dir(folder)
    raw = load_models_config(path)
    detector, classifier = raw["detector"], raw["classifier"]
    return LoadedModels(path, str(raw.get("version", "unversioned")), str(detector["file"]), int(detector["imgsz"]),
                        bool(detector.get("zoom", True)), str(classifier["file"]), int(classifier["imgsz"]),
                        float(classifier["margin"]), bool(classifier.get("second_look", True)),
                        from_models_json(raw), doubt_model_of(raw), dict(raw.get("provenance") or {}),
                        detector.get("preview_imgsz"))
