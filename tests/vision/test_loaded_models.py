"""models.json is read once into ``LoadedModels`` and a recogniser is built from it alone; every
tunable has one home (``RecognitionConfig``), with no module-level copies of its defaults."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path

import pytest

from vision import LoadedModels, Recognizer, ThresholdError, flag_threshold, models_version, read_models
from vision.config import DEFAULTS, from_models_json
from vision.doubt import doubt_model_of

VISION = Path(__file__).resolve().parents[2] / "vision"


def test_the_shipped_models_are_read_once_into_one_value():
    loaded = read_models()
    raw = json.loads((loaded.folder / "models.json").read_text())
    assert isinstance(loaded, LoadedModels) and models_version() == loaded.version
    assert (loaded.version, loaded.detector_size, loaded.crop_size) == (raw["version"], 640, raw["classifier"]["imgsz"])
    assert loaded.crop_margin == raw["classifier"]["margin"] and loaded.zoom is True
    assert loaded.settings == from_models_json(raw) and loaded.doubt == doubt_model_of(raw)
    assert loaded.flag_below == loaded.doubt.flag_below == flag_threshold()
    assert loaded.provenance["recipe"] == "v10" and loaded.preview_size == raw["detector"]["preview_imgsz"]


def test_the_version_and_the_threshold_come_from_the_one_parse(monkeypatch):
    """``models_version`` and ``flag_threshold`` read ``read_models``, not the file again."""
    import vision.model_config as model_config

    parses = []
    real = model_config.load_models_config
    monkeypatch.setattr(model_config, "load_models_config", lambda folder: parses.append(folder) or real(folder))
    models_version(), flag_threshold()
    assert len(parses) == 2  # once a call, through read_models
    monkeypatch.setattr(model_config, "read_models", lambda folder=None: replace(read_models(), version="v-test"))
    assert models_version() == "v-test"


def test_a_recogniser_takes_every_value_from_the_loaded_models(tmp_path):
    shipped = read_models()
    for name in (shipped.detector_file, shipped.classifier_file):
        (tmp_path / name).symlink_to(shipped.folder / name)
    raw = json.loads((shipped.folder / "models.json").read_text())
    raw["detector"]["zoom"] = False
    raw.pop("doubt")
    (tmp_path / "models.json").write_text(json.dumps(raw))
    recognizer = Recognizer(tmp_path, unread_card_score=0.7)
    assert recognizer.models.folder == tmp_path and recognizer.zoom is False and recognizer.doubt is None
    assert recognizer.flag_below == recognizer.settings.interpret.confirm_below == flag_threshold(tmp_path)
    assert recognizer.settings.interpret == replace(shipped.settings.interpret, unread_card_score=0.7)


def test_a_callers_threshold_outside_0_to_1_is_refused_by_the_config_itself():
    with pytest.raises(ThresholdError, match="^lone_index_score must be between 0 and 1, got -0.1$"):
        replace(DEFAULTS.interpret, lone_index_score=-0.1)
    with pytest.raises(ThresholdError, match="^confirm_below must be between 0 and 1, got 1.5$"):
        Recognizer(confirm_below=1.5)


def test_no_module_copies_a_default_of_the_recognition_config():
    copies = []
    for path in sorted(VISION.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and "DEFAULTS." in ast.unparse(node.value):
                copies.append(f"{path.name}: {ast.unparse(node)}")
    assert copies == []


def test_one_options_value_says_how_to_read_over_the_models():
    """``RecognizeOptions`` (issue 55 s3): the recogniser, the shared one and ``recognize`` take the
    same value; a keyword replaces its field; a name it lacks is refused; equal options share one
    recogniser."""
    from vision import RecognizeOptions, shared_recognizer

    options = RecognizeOptions(confirm_below=0.9, zoom=False, look_again=False)
    built = Recognizer(None, options)  # the form: Recognizer(models, options)
    assert built.options == options and (built.flag_below, built.zoom, built.look_again) == (0.9, False, False)
    assert Recognizer(options=options, zoom=True).options == replace(options, zoom=True)
    assert Recognizer(confirm_below=0.9, zoom=False, look_again=False).options == options
    assert shared_recognizer(options=options) is shared_recognizer(None, RecognizeOptions(0.9, None, None, False, False))
    assert shared_recognizer(options=options) is not shared_recognizer()
    with pytest.raises(TypeError, match="conf"):
        Recognizer(conf=0.9)
