"""bench/phantoms.py's command line: a candidate models folder is captured apart from the shipped one."""

import pytest


@pytest.fixture(scope="module")
def phantoms(bench_module):
    return bench_module("phantoms")


def test_a_folder_without_models_json_is_a_one_line_error(phantoms, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        phantoms.main(["judge", "real", "--models", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no models.json" in err


def test_a_candidate_s_capture_is_kept_apart_and_judged_from_there(phantoms, tmp_path, monkeypatch, capsys):
    candidate = tmp_path / "judge_r19"
    candidate.mkdir()
    (candidate / "models.json").write_text("{}")
    monkeypatch.setattr(phantoms, "CACHE", tmp_path / "cache")
    with pytest.raises(SystemExit) as exit_:  # nothing captured yet: named by the candidate's folder
        phantoms.main(["judge", "tuning", "--n", "3", "--models", str(candidate)])
    assert exit_.value.code == 2
    assert "judge_r19-tuning-v4-3.pkl" in capsys.readouterr().err
