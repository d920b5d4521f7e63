"""Hardware tests run the real firmware ELF in simavr; the builds happen once per session."""

import pytest

from hardware.geometry import Geometry
from hardware.simulator import Simulator, build


@pytest.fixture(scope="session")
def firmware_builds():
    for geometry in ("3-track", "2-track"):
        build(geometry)


@pytest.fixture(scope="session")
def geometry3():
    return Geometry.load("3-track")


@pytest.fixture
def sim(firmware_builds):
    with Simulator("3-track") as simulator:
        yield simulator
