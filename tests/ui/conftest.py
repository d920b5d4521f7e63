"""Headless Kivy for the app's tests: real rendering offscreen (Mesa llvmpipe), no X server,
Kivy's own settings in a temporary folder, no command-line parsing by Kivy."""

import os
import tempfile

os.environ["SDL_VIDEODRIVER"] = "offscreen"
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_LOG_MODE"] = "PYTHON"
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"


@pytest.fixture(scope="session")
def firmware():
    from hardware.simulator import build

    build("2-track")


@pytest.fixture
def start_app(tmp_path):
    """start_app(camera=..., folder=...) -> Headless; every app started is closed after the test."""
    from companion.ui.headless import Headless

    started = []

    def start(camera=None, folder=None, demo=False):
        app = Headless(folder or tmp_path / "data", camera=camera, demo=demo)
        started.append(app)
        app.wait()
        return app
    yield start
    for app in started:
        try:
            app.close()
        except Exception:
            pass
