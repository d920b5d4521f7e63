"""Card recognition as a library: a photo in, the cards, groups and roles on the table out.

    from vision import recognize
    result = recognize("sample_images/hand_starter_papers.jpg")
    for group in result.groups:
        print(group.role, group.cards)

``Recognizer`` loads the models once for many photos; ``recognize`` keeps one for you. The
steps, a module or two each, are declared once, in order, in ``pipeline`` (``PHOTO_STEPS``), which
alone wires them, passing the values of ``stages``. The table (groups, roles, their
notices, and the player's answers: named, left out and confirmed cards) has one owner,
``vision.table`` (its names are this package's). Shared with training: ``classes``, ``crops``,
``letterbox``, ``detections``, ``boxes``. ``synth/`` renders training photos and ``train/`` trains
the models (they need torch; recognition never imports them). This package never imports
``companion``, which uses only the names below (tests/test_layering.py), and ``train``/``synth``
from its training commands.
"""

from vision.decode import (EmptyImageError, ImageInputError, ImageNotFoundError, NotAFileError, NotAnImageError,
                           Photo, TruncatedImageError, UnreadableImageError, decode_photo, photo_from_array,
                           read_photo)
from vision.config import CalibrationError, RecognitionConfig, ThresholdError
from vision.model_config import LoadedModels, ModelConfigError, models_dir, models_version, read_models
from vision.doubt import DoubtModel, DoubtModelError
from vision.evidence import Evidence
from vision.notices import Code, Notice, percent_sure
from vision.options import RecognizeOptions
from vision.pipeline import PhotoSource, Recognizer, flag_threshold, recognize, shared_recognizer
from vision.results import CardGroup, RecognizedCard, Recognition, Role
from vision.photo_quality import PhotoQuality, assess_photo
from vision.table import LAYOUT_CODES, ROLE_ORDER, TABLE_CODES, answered, as_the_player_says, placed
from vision.runtime import BackendUnavailableError, ModelFileError

__all__ = [
    "Recognizer", "RecognizeOptions", "recognize", "shared_recognizer", "flag_threshold", "PhotoSource",
    "read_models", "LoadedModels", "models_dir", "models_version",
    "read_photo", "decode_photo", "photo_from_array", "Photo",
    "Recognition", "RecognizedCard", "CardGroup", "Role", "Notice", "Code", "percent_sure",
    "as_the_player_says", "answered", "placed", "LAYOUT_CODES", "TABLE_CODES", "ROLE_ORDER",
    "assess_photo", "PhotoQuality",
    "Evidence", "DoubtModel", "DoubtModelError",

    "ImageInputError", "ImageNotFoundError", "NotAFileError", "EmptyImageError", "NotAnImageError",
    "TruncatedImageError", "UnreadableImageError",
    "ModelConfigError", "ModelFileError", "BackendUnavailableError", "ThresholdError",
    "RecognitionConfig", "CalibrationError",
]
