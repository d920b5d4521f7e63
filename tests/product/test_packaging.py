"""The package a player installs (issue 36 §1): the sdist and the wheel built from it carry the
run-time models (models.json and both ONNX files, byte for byte) and the sample photos, and no
training file; unpacked outside the checkout, the package reads a photo with its own models, gives
install advice without ``make``, and writes games only into the user data folder. CI (.ci/wheel)
does the same with a real virtual environment and pip."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from companion.cli import main
from companion.demo import read_truth

ROOT = Path(__file__).resolve().parents[2]
RUN_TIME_MODELS = ("models.json", "detector.onnx", "classifier.onnx")
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "companion", "vision", "hardware", "models", "sample_images")
SAMPLE = "hand_starter_spread.jpg"
# (looked up, not imported: importing Kivy here would take over this process's stderr)
NEEDS_KIVY = pytest.mark.skipif(importlib.util.find_spec("kivy") is None, reason="the app extra (kivy) is not installed")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The sdist of a copy of the source tree, and the wheel pip builds from that sdist."""
    work = tmp_path_factory.mktemp("package")
    src = work / "src"
    src.mkdir()
    # A copy, so that the build's own folders (build/, *.egg-info) never land in the checkout.
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info", "checkpoints")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    dist = work / "dist"
    made = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                           "print(b.build_sdist(sys.argv[1]))", str(dist)],
                          cwd=src, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-2000:]
    sdist = dist / made.stdout.strip().splitlines()[-1]
    wheel = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "-w", str(dist), str(sdist)], capture_output=True, text=True, timeout=300)
    assert wheel.returncode == 0, wheel.stderr[-2000:]
    (whl,) = dist.glob("*.whl")
    return {"sdist": sdist, "wheel": whl, "work": work}


def test_the_wheel_carries_the_run_time_models_byte_for_byte_and_no_training_file(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        for name in RUN_TIME_MODELS:
            assert _digest(wheel.read(f"vision/models/{name}")) == _digest((ROOT / "models" / name).read_bytes())
    assert not [n for n in names if n.endswith((".pt", ".pth")) or n.endswith("MODEL.md")]
    assert not [n for n in names if n.startswith(("models/", "sample_images/", "tests/"))]  # nothing top-level but ours
    samples = sorted(p.name for p in (ROOT / "sample_images").iterdir() if p.suffix in (".jpg", ".json"))
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("companion/sample_images/")
                  and not n.endswith(".md")) == samples
    assert "companion/sample_images/CREDITS.md" in names  # the real photos' CC BY credit travels with them


def test_the_sdist_carries_the_models_in_the_repository_layout(built):
    with tarfile.open(built["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {f"models/{name}" for name in RUN_TIME_MODELS} <= names
    assert "setup.py" in names and f"sample_images/{SAMPLE}" in names
    assert not {n for n in names if n.startswith("models/train/") or n == "models/MODEL.md"}


@pytest.fixture(scope="module")
def installed(built) -> dict[str, Path]:
    """The wheel unpacked as pip would into site-packages (a folder on PYTHONPATH), a home folder
    of its own, and a working folder that is not the checkout."""
    work = built["work"]
    site = work / "site"
    with zipfile.ZipFile(built["wheel"]) as wheel:
        wheel.extractall(site)
    (work / "home").mkdir()
    (work / "elsewhere").mkdir()
    return {"site": site, "home": work / "home", "elsewhere": work / "elsewhere"}


def _run_installed(installed, code: str, **extra_env) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRIB_MODELS", "CRIB_DATA_DIR", "XDG_DATA_HOME", "DISPLAY", "WAYLAND_DISPLAY",
                        "SDL_VIDEODRIVER", "KIVY_HOME", "PYTHONPATH",
                        # a new user's shell has none of these (tests/ui's conftest sets the log mode)
                        "KIVY_LOG_MODE", "KIVY_NO_CONSOLELOG", "KIVY_NO_ARGS", "KIVY_NO_FILELOG")}
    env.update({"PYTHONPATH": str(installed["site"]), "HOME": str(installed["home"]), **extra_env})
    preamble = ("import sys, companion, vision\n"
                f"assert companion.__file__.startswith({str(installed['site'])!r}), companion.__file__\n"
                f"assert vision.__file__.startswith({str(installed['site'])!r}), vision.__file__\n"
                "from companion.cli import main\n")
    return subprocess.run([sys.executable, "-c", preamble + code], cwd=installed["elsewhere"], env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_models_folder_stays_within_20_mb():
    # the two ONNX files and the one training checkpoint a continuation starts from; other
    # checkpoints live in git history (a recipe's git:<commit>:<path> start)
    files = [f for f in (ROOT / "models").rglob("*") if f.is_file()]
    assert sum(f.stat().st_size for f in files) <= 20_000_000, sorted(str(f.relative_to(ROOT)) for f in files)
    assert sorted(f.name for f in (ROOT / "models" / "train").iterdir()) == ["detector_last.pt"]


def test_the_installed_package_recognises_a_photo_with_its_own_models(installed):
    photo = installed["site"] / "companion" / "sample_images" / SAMPLE
    out = _run_installed(installed, f"sys.exit(main(['recognize', '--json', {str(photo)!r}]))")
    assert out.returncode == 0, out.stderr
    (result,) = json.loads(out.stdout)
    truth = read_truth(photo.with_suffix(".json"))
    assert result["groups"] and {c["card"] for c in result["cards"]} == truth.visible

    version = _run_installed(installed, "sys.exit(main(['--version']))")
    assert version.returncode == 0, version.stderr
    models = json.loads((ROOT / "models" / "models.json").read_text())["version"]
    from importlib.metadata import version as installed_version

    assert version.stdout == (f"crib (Crib Companion) {installed_version('crib-companion')}, models v{models} "
                              f"({installed['site'] / 'vision' / 'models'})\n")


def test_models_named_by_the_environment_still_win_over_the_installed_ones(installed, tmp_path):
    (tmp_path / "models.json").write_text("{}")
    out = _run_installed(installed, "sys.exit(main(['--version']))", CRIB_MODELS=str(tmp_path))
    assert out.returncode == 0 and f"models not found ({tmp_path / 'models.json'}: malformed" in out.stdout


def test_the_installed_package_writes_games_only_into_the_user_data_folder(installed):
    before = {p for p in installed["site"].rglob("*") if "__pycache__" not in p.parts}
    out = _run_installed(installed, "from companion.paths import data_dir\nprint(data_dir())\n"
                                    "sys.exit(main(['game', 'new', 'Ann', 'Bob']))")
    assert out.returncode == 0, out.stderr
    data = Path(out.stdout.splitlines()[0])
    assert data.is_relative_to(installed["home"]) and (data / "games.sqlite3").is_file()
    assert {p for p in installed["site"].rglob("*") if "__pycache__" not in p.parts} == before
    assert sorted(p.name for p in installed["elsewhere"].iterdir()) == []


def test_an_installed_user_is_told_pip_never_make(installed):
    no_kivy = _run_installed(installed, "sys.modules['kivy'] = None\nsys.exit(main(['app']))")
    assert no_kivy.returncode == 2 and no_kivy.stdout == ""
    # the app extra's own requirement, read from the package's metadata: the package is on no index
    assert no_kivy.stderr == ("crib app: error: kivy is not installed: pip install 'kivy>=2.3' in the environment "
                              "crib runs from (with pipx: pipx inject crib-companion 'kivy>=2.3')\n")
    no_display = _run_installed(installed, "sys.exit(main(['app']))")
    assert no_display.returncode == 2
    assert "no display" in no_display.stderr and "crib samples" in no_display.stderr
    for out in (no_kivy, no_display):
        assert "make" not in out.stderr and "-e " not in out.stderr and len(out.stderr.splitlines()) == 1


def test_an_installed_user_is_told_training_needs_a_checkout(installed):
    why = ("training needs a checkout of the repository: the installed package carries the models but not the "
           "recipes, checkpoints and real photos that train them (in a clone, `make models` replays the shipped "
           "models' recipe: models/MODEL.md, How to rebuild)")
    for args in (["--recipe", "v10"], [], ["--stage", "1"], ["--quick"]):
        out = _run_installed(installed, f"sys.exit(main(['train', *{args!r}]))")
        assert (out.returncode, out.stdout, out.stderr) == (2, "", f"crib train: error: {why}\n"), args
    helped = _run_installed(installed, "sys.exit(main(['train', '--recipe', 'v10', '--help']))")
    assert helped.returncode == 0 and helped.stdout.startswith("usage: crib train")
    assert helped.stdout.endswith(f"\n\n{why}\n") and "known:" not in helped.stdout
    assert sorted(p.name for p in installed["elsewhere"].iterdir()) == []  # nothing started in the working folder


def test_install_advice_outside_a_checkout_adds_the_extras_own_requirements(monkeypatch):
    from companion import paths

    monkeypatch.setattr(paths, "checkout", lambda: None)
    import tomllib

    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["train"]
    wanted = " ".join(f"'{r}'" for r in listed)
    assert paths.install_advice("train") == (f"pip install {wanted} in the environment crib runs from "
                                             f"(with pipx: pipx inject crib-companion {wanted})")
    assert paths.install_advice("nothing") == "reinstall crib-companion with its [nothing] extra"


def test_a_checkout_user_is_told_make(monkeypatch, capsys):
    from companion.ui import no_display

    monkeypatch.setitem(sys.modules, "kivy", None)  # find_spec("kivy") is None: not installed
    assert main(["app"]) == 2
    assert capsys.readouterr().err == "crib app: error: kivy is not installed: `make app` installs it (pip install -e '.[app]')\n"
    assert "`make screenshots`" in no_display()


@NEEDS_KIVY
def test_the_installed_app_starts_offscreen_on_a_fresh_install(installed, tmp_path):
    # a home no other command has run in: no data folder yet (Kivy's own mkdir of its folder in
    # it failed unseen, exit 2, while every other crib command made the folder first)
    home = tmp_path / "new-home"
    home.mkdir()
    out = _run_installed(installed, "sys.exit(main(['app', '--check', '--size', '800x1280']))", HOME=str(home))
    assert out.returncode == 0, out.stderr[-2000:]
    data = home / ".local" / "share" / "crib-companion"  # platformdirs on Linux
    assert out.stdout == f"crib app: the app starts ('home' screen, 800x1280, offscreen); games and settings in {data}\n"
    assert (data / "kivy" / "config.ini").is_file()  # Kivy's own settings and logs beside the games, not ~/.kivy
    assert not (home / ".kivy").exists()


@NEEDS_KIVY
def test_the_installed_app_makes_a_data_folder_named_that_does_not_exist_yet(installed, tmp_path):
    home, named = tmp_path / "home", tmp_path / "games" / "crib" / "table-1"
    home.mkdir()
    out = _run_installed(installed, f"sys.exit(main(['app', '--check', '--demo', '--data', {str(named)!r}]))",
                         HOME=str(home))
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.endswith(f"games and settings in {named}\n")
    assert (named / "kivy" / "config.ini").is_file()
    assert list(home.iterdir()) == []  # the folder named is used for everything, Kivy's files too


@NEEDS_KIVY
def test_an_impossible_data_folder_is_one_line_on_the_real_stderr(installed, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for data, why in ((blocker / "data", f"the data folder {blocker / 'data'} cannot be made: {blocker} is a file, "
                                         "not a folder"),
                      (blocker, f"the data folder {blocker} is a file, not a folder")):
        out = _run_installed(installed, "sys.exit(main(['app', '--check']))", CRIB_DATA_DIR=str(data))
        assert (out.returncode, out.stdout) == (2, "")
        assert out.stderr == f"crib app: error: {why} (choose another with --data FOLDER or $CRIB_DATA_DIR)\n"
    assert blocker.read_text() == "not a folder" and sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


@NEEDS_KIVY
def test_an_app_error_after_kivy_took_over_stderr_still_reaches_the_real_one(installed, tmp_path):
    # Kivy points sys.stderr at its log on import; the command's error line must not go there
    code = ("from companion.ui import headless\n"
            "def broken(folder, **_):\n"
            "    from companion.ui import quiet_kivy\n"
            "    quiet_kivy(folder)\n"
            "    import kivy  # takes over sys.stderr\n"
            "    assert sys.stderr is not sys.__stderr__\n"
            "    raise OSError('the window could not be made')\n"
            "headless.Headless = broken\n"
            f"sys.exit(main(['app', '--check', '--data', {str(tmp_path / 'data')!r}]))")
    out = _run_installed(installed, code)
    assert (out.returncode, out.stdout, out.stderr) == (2, "", "crib app: error: the window could not be made\n")


def test_a_writable_folder_is_made_with_its_parents_or_refused_in_words(tmp_path):
    from companion.paths import DataFolderError, writable_folder

    deep = tmp_path / "a" / "b" / "c"
    assert writable_folder(deep) == deep and deep.is_dir()
    assert writable_folder(deep) == deep  # already there: fine
    (tmp_path / "f").write_text("")
    with pytest.raises(DataFolderError, match=r"^Kivy's folder .*/f/k/l cannot be made: .*/f is a file, not a folder$"):
        writable_folder(tmp_path / "f" / "k" / "l", "Kivy's folder")
    with pytest.raises(DataFolderError, match=r"^the data folder .*/f is a file, not a folder$"):
        writable_folder(tmp_path / "f")
