"""Game tests: scripted games from tests/game/scripts, a private data folder per test."""

from pathlib import Path

import pytest

from companion.game.script import load_script, run_script

SCRIPTS = Path(__file__).resolve().parent / "scripts"


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """Every test keeps its games in its own folder (never the user's)."""
    folder = tmp_path / "crib-data"
    monkeypatch.setenv("CRIB_DATA_DIR", str(folder))
    return folder


def script(name):
    return load_script(SCRIPTS / f"{name}.json")


def played(name):
    return run_script(script(name))
