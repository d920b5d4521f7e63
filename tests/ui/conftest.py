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


# --- one scripted walk for the tests that look along it --------------------------------------------
# The walk (companion.ui.walk: an app started, a deal played, every screen visited) takes most of a
# walk test's time, and the tests along it only look: a test module that defines
# ``look_along_the_walk(h, name, primary)`` and asks for ``the_walk`` has it called at each state of
# the session's one walk (every such module selected, in turn, at the same state). A look that
# raises stops looking and its own test fails with its error; the others go on. Each look leaves the
# window at the walk's size (landscape), as a walk of its own would have.


class WalkTaken:
    def __init__(self) -> None:
        self.visited: list[str] = []
        self.errors: dict = {}

    def looked(self, look) -> list[str]:
        """The states visited; raises what ``look`` raised along the walk, if it did."""
        if look in self.errors:
            raise self.errors[look]
        return self.visited


@pytest.fixture(scope="session")
def the_walk(request):
    from companion.ui.walk import SIZES, Walk

    looks = []
    for item in request.session.items:
        look = getattr(getattr(item, "module", None), "look_along_the_walk", None)
        if look is not None and "the_walk" in getattr(item, "fixturenames", ()) and look not in looks:
            looks.append(look)
    taken = WalkTaken()

    def visit(name, primary):
        taken.visited.append(name)
        for look in looks:
            if look in taken.errors:
                continue
            try:
                look(walk.h, name, primary)
            except Exception as error:  # noqa: BLE001 - its own test raises it
                taken.errors[look] = error
                walk.h.resize(SIZES["landscape"])
    walk = Walk(visit, size=SIZES["landscape"])
    walk.run()
    return taken
