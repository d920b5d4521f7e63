"""`make dist` installs the build requirements pyproject.toml declares into the venv before it
builds (issue 56 §1: the build runs without build isolation, and a venv's own setuptools, 65.5
with Python 3.11, cannot read `license = "MIT"`), in a new venv and in one made before the rule.
Only `make -n` here (nothing runs); .ci/wheel runs `make dist` in a fresh clone for real."""

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def dry_run(venv: Path) -> list[str]:
    out = subprocess.run(["make", "-n", "-C", str(ROOT), "dist", f"VENV={venv}"],
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def index_of(lines: list[str], needle: str) -> int:
    return next(i for i, line in enumerate(lines) if needle in line)


def test_the_declared_setuptools_reads_the_license_field():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(pyproject["project"]["license"], str)  # an SPDX expression, not a table
    assert "setuptools>=77" in pyproject["build-system"]["requires"]  # the first to read one


@pytest.mark.parametrize("made_before", [False, True], ids=["new venv", "venv made before the rule"])
def test_dist_installs_the_build_requirements_before_building(tmp_path, made_before):
    venv = tmp_path / "venv"
    if made_before:  # a venv the old Makefile made: pip upgraded, run-time install done, no build stamp
        (venv / "bin").mkdir(parents=True)
        for name in ("bin/activate", ".run-stamp"):
            (venv / name).touch()
    lines = dry_run(venv)
    install = index_of(lines, '["build-system"]["requires"]')
    assert "pip install" in lines[install] + lines[install + 1]
    assert install < index_of(lines, "build_sdist") < index_of(lines, "pip wheel")
    assert any(line.startswith("python3 -m venv") for line in lines) is not made_before


def test_dist_with_the_build_stamp_installs_nothing(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("bin/activate", ".build-stamp"):
        (venv / name).touch()
    lines = dry_run(venv)
    assert not any("pip install" in line or "requires" in line for line in lines)
    assert any("build_sdist" in line for line in lines)
