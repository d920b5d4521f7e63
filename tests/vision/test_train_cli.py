"""Bad training input: one line naming what is wrong, exit status 2, nothing trained. `crib train`
replays recipes only: the one-shot pipeline's flags say where it went (the experiment
vision.train.experiments.one_shot), whose own bad input is one line too."""

from __future__ import annotations

import pytest

from companion.cli import main
from vision.train.experiments import one_shot

CHECKPOINT = "models/train/detector_last.pt"


@pytest.mark.parametrize("args, message", [
    (("--real",), "--real continues the detector: give --resume-from"),
    (("--real", "--resume-from", CHECKPOINT), "--resume-from and --epochs go together"),
    (("--real", "--only", "classifier", "--resume-from", "models/classifier.onnx", "--epochs", "1"),
     "--real is for the detector"),
    (("--real", "--resume-from", CHECKPOINT, "--epochs", "1", "--data-seed", "6"),
     "--data-seed does not apply with --real"),
    (("--only", "classifier", "--resume-from", CHECKPOINT, "--epochs", "1"),
     "the classifier continues from its exported .onnx"),
    (("--resume-from", "models/classifier.onnx", "--epochs", "1"), "the detector continues from a .pt checkpoint"),
    (("--real", "--resume-from", "models/nothing_here.pt", "--epochs", "1"), "no checkpoint at models/nothing_here.pt"),
    (("--threads", "0"), "--threads must be at least 1"),
])
def test_bad_one_shot_input_is_one_line(tmp_path, capsys, args, message):
    work = tmp_path / "work"
    assert one_shot.main(["--quick", "--work", str(work), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{one_shot.PROG}: error: ") and message in err and len(err.strip().splitlines()) == 1
    assert not work.exists()


@pytest.mark.parametrize("args, named", [
    (["--quick"], "--quick is the one-shot pipeline's"),
    (["--resume-from", CHECKPOINT, "--epochs", "1", "--real"], "--resume-from, --real and --epochs are the one-shot "),
    (["--only", "classifier", "--tiny"], "--only is the one-shot pipeline's"),
    (["--threads", "1"], "--threads is the one-shot pipeline's"),
])
def test_crib_train_replays_recipes_only_and_says_where_the_one_shot_flags_went(tmp_path, capsys, args, named):
    work = tmp_path / "work"
    assert main(["train", "--work", str(work), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"crib train: error: {named}") and len(err.strip().splitlines()) == 1
    assert "(python -m vision.train.experiments.one_shot takes " in err and "--tiny" in err
    assert not work.exists()
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "--quick" not in capsys.readouterr().out  # not offered


def test_real_continuation_without_the_photos_says_where_they_go(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "no-photos"  # a root holding no dataset folder
    empty.mkdir()
    monkeypatch.setenv("CRIB_REAL_CARDS", str(empty))
    work = tmp_path / "work"
    assert one_shot.main(["--quick", "--real", "--resume-from", CHECKPOINT, "--epochs", "1", "--work", str(work)]) == 2
    err = capsys.readouterr().err
    assert f"{empty / 'cardcounterml'}: no images/ and labels/ here" in err and "$CRIB_REAL_CARDS" in err
    assert len(err.strip().splitlines()) == 1
    assert not any(work.rglob("*.jpg"))  # stopped before rendering anything


@pytest.mark.parametrize("missing", ["torch", "ultralytics"])
def test_training_without_the_train_extra_says_how_to_add_it(tmp_path, capsys, monkeypatch, missing):
    import sys

    monkeypatch.setitem(sys.modules, missing, None)  # find_spec(missing) is None: not installed
    work = tmp_path / "work"
    for args in (["--work", str(work)], ["--recipe", "v10", "--tiny", "--work", str(work)], ["--quick"]):
        assert main(["train", *args]) == 2
        assert capsys.readouterr().err == f"crib train: error: training needs {missing}: pip install -e '.[train]'\n"
    assert not work.exists()


def test_real_mix_takes_renders_of_one_layout_as_layout_n_seed(capsys):
    import argparse

    from vision.train.real_mix import layout_renders, main

    assert layout_renders("fan:700:41") == ("fan", 700, 41)
    assert layout_renders("two_hands_crib_starter:5:40") == ("two_hands_crib_starter", 5, 40)
    for bad, said in (("fan:700", "LAYOUT:N:SEED"), ("fan:0:41", "N >= 1"), ("fan:x:41", "LAYOUT:N:SEED"),
                      ("spiral:10:1", "unknown layout 'spiral'")):
        with pytest.raises(argparse.ArgumentTypeError, match=said):
            layout_renders(bad)
    with pytest.raises(SystemExit) as stop:  # argparse's one-line error, before any data is written
        main(["--layout-renders", "spiral:10:1"])
    assert stop.value.code == 2 and "unknown layout 'spiral'" in capsys.readouterr().err
