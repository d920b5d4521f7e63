"""Suite-wide set-up.

Kivy's headless rendering (tests/ui) uses Mesa's llvmpipe, which loads LLVM; torch imports
triton lazily (tests/vision compares with ultralytics), and triton's own bundled LLVM segfaults
when it loads into a process where Mesa's already is (reproduced: tests/ui then
tests/vision/test_infer_models.py). Triton only compiles GPU kernels, which these CPU tests never
use, so the suite runs without it: torch treats a triton that cannot be imported as absent.

A test that needs the real labelled photos (docs/CONTRIBUTING.md "Real photos") is marked
``@pytest.mark.real_photos("cardcounterml")`` (or ``"rf100-poker"``) and skipped with one line
where that dataset is absent.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"

if "triton" not in sys.modules:
    sys.modules["triton"] = None  # `import triton` raises ImportError in this process


@pytest.fixture(scope="session")
def bench_module():
    """``bench_module("misses")``: the bench script bench/misses.py loaded as a module (once a session;
    the bench is scripts, not a package)."""
    loaded = {}

    def load(name: str):
        if name not in loaded:
            spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # a pool's workers find its functions by this name
            spec.loader.exec_module(module)
            loaded[name] = module
        return loaded[name]
    return load


@pytest.fixture(autouse=True, scope="session")
def user_data_never_in_home(tmp_path_factory):
    """No test writes into the real user data folder (games, settings, Kivy's files): $CRIB_DATA_DIR
    points into the session's temporary folder unless a test sets its own (tests/game: one per test)."""
    import os

    before = os.environ.get("CRIB_DATA_DIR")
    os.environ["CRIB_DATA_DIR"] = str(tmp_path_factory.mktemp("user-data"))
    yield
    if before is None:
        os.environ.pop("CRIB_DATA_DIR", None)
    else:
        os.environ["CRIB_DATA_DIR"] = before


# --- the real labelled photos (docs/CONTRIBUTING.md "Real photos") ----------------------------------
# A test that needs a real dataset says so with @pytest.mark.real_photos("cardcounterml"); where
# the dataset is absent (a fresh clone, or $CRIB_REAL_CARDS set empty) it is skipped with one line.
# The committed fixtures (tests/fixtures/real/) need no marker: they are in every clone.


def pytest_configure(config):
    config.addinivalue_line("markers", "xdist_group(name): tests that run on one pytest-xdist worker together")
    config.addinivalue_line("markers", "real_photos(dataset): needs that real labelled dataset "
                                       "(docs/CONTRIBUTING.md 'Real photos'); skipped where it is absent")


def real_photos_missing(dataset: str) -> str | None:
    """Why ``dataset`` cannot be read here (one line naming it and the guide's section), or None."""
    from vision.train.real_cards import RealDataError, dataset_dir, real_root

    try:
        dataset_dir(dataset)
    except RealDataError:
        root = real_root()
        where = "$CRIB_REAL_CARDS is empty" if root is None else f"not in {root}"
        return f"needs the real photos {dataset}/ ({where}): see docs/CONTRIBUTING.md 'Real photos'"
    return None


# Under pytest-xdist (`make test`: -n auto --dist loadgroup) a test module runs whole on one worker,
# so a module fixture (a smoke training, one recogniser) is built once; a module that shares a
# session fixture worth building once with others names their group itself (tests/ui: the walk).
# tryfirst: the group is on each item before xdist reads it.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    missing: dict[str, str | None] = {}
    for item in items:
        for mark in item.iter_markers("real_photos"):
            dataset = mark.args[0] if mark.args else "cardcounterml"
            if dataset not in missing:
                missing[dataset] = real_photos_missing(dataset)
            if missing[dataset]:
                item.add_marker(pytest.mark.skip(reason=missing[dataset]))
