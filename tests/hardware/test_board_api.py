"""The hardware library's public face: one import, one way to open any board, pure demo logic,
named time limits, and the reference COBS/CRC checked against independent implementations."""

import ast
import random
from pathlib import Path

import crcmod.predefined
import pytest
from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

import hardware
from hardware import protocol as proto
from hardware import timeouts
from hardware.demo import DemoError, TYPICAL_TURNS, demo_states, play_demo
from hardware.state import GAME_HOLE

HARDWARE = Path(hardware.__file__).resolve().parent
CCITT_FALSE = crcmod.predefined.mkCrcFun("crc-ccitt-false")


def test_public_api_is_importable_from_the_package():
    for name in ("BoardDriver", "BoardState", "Animation", "open_link", "find_ports", "Simulator", "play_demo",
                 "LinkError", "LinkTimeoutError", "LinkClosedError", "ProtocolVersionError", "BoardRefusedError",
                 "TrackCountError", "GeometryMismatchError", "BoardStateError"):
        assert name in hardware.__all__ and getattr(hardware, name) is not None
    assert issubclass(hardware.LinkTimeoutError, TimeoutError)


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_hardware_never_imports_companion_nor_holds_cli_code():
    for path in HARDWARE.rglob("*.py"):
        names = _imports(path)
        assert not any(n == "companion" or n.startswith("companion.") for n in names), path
        assert "importlib" not in names, f"{path.name} imports by a string"
    assert not (HARDWARE / "cli.py").exists()
    # argparse only in the firmware header generator's own command line
    assert {p.name for p in HARDWARE.rglob("*.py") if "argparse" in _imports(p)} == {"geometry.py"}


def test_link_and_driver_take_their_time_limits_from_timeouts():
    """No bare seconds in link.py, driver.py, endpoint.py or simulator.py: every limit is a named
    constant with its reason in timeouts.py."""
    for name in ("link.py", "driver.py", "endpoint.py", "simulator.py"):
        floats = [n.value for n in ast.walk(ast.parse((HARDWARE / name).read_text()))
                  if isinstance(n, ast.Constant) and isinstance(n.value, float) and n.value not in (0.0,)]
        assert floats == [], f"{name}: bare seconds {floats}"
    assert timeouts.RESET_WAIT_S > 1.6      # longer than the slowest bootloader it waits out


def test_the_version_error_is_worded_once():
    sources = [p.read_text() for p in HARDWARE.rglob("*.py")]
    assert sum(s.count("update the firmware or the host") for s in sources) == 1
    error = hardware.ProtocolVersionError.between((2, 0), (1, 1))
    assert str(error) == "the board speaks protocol 2.0, this host 1.1: update the firmware or the host"


@given(st.binary(max_size=600))
def test_cobs_matches_the_independent_pypi_cobs(data):
    assert proto.cobs_encode(data) == cobs.encode(data)
    assert proto.cobs_decode(cobs.encode(data)) == data


@given(st.binary(max_size=300))
def test_crc16_matches_crcmod_ccitt_false(data):
    assert proto.crc16(data) == CCITT_FALSE(data)
    assert proto.crc16(b"123456789") == CCITT_FALSE(b"123456789") == 0x29B1


def test_demo_states_are_a_whole_game_ending_in_the_winners_comet():
    states = list(demo_states(3, random.Random(3)))
    *play, final = states
    assert all(s.animation is None for s in play) and final.animation.kind == "win"
    assert final.pegs[final.animation.track][0] == GAME_HOLE
    assert sum(1 for s in play if any(f == GAME_HOLE for f, _ in s.pegs)) == 1   # stops at the win
    assert {s.dealer for s in play} == {0, 1, 2}
    lengths = [len(list(demo_states(3, random.Random(seed)))) - 1 for seed in range(40)]
    assert TYPICAL_TURNS * 0.6 < sum(lengths) / len(lengths) < TYPICAL_TURNS * 1.4   # the pacing's premise


class _FakeDriver:
    def __init__(self, tracks=2):
        self.info = hardware.BoardInfo((1, 1), (1, 1, 0), tracks, 247, 0, "2-track")
        self.shown = []

    def show(self, state):
        self.shown.append(state)

    def wait_shown(self, state, timeout):
        return True


def test_play_demo_paces_the_game_and_refuses_a_negative_length():
    driver, slept = _FakeDriver(), []
    result = play_demo(driver, 6.0, random.Random(1), sleep=slept.append)
    assert driver.shown[-1] == result.final and result.final.animation.track == result.winner
    assert slept[0] == pytest.approx(6.0 / TYPICAL_TURNS) and len(slept) == result.turns + 1
    with pytest.raises(DemoError, match="positive length"):
        play_demo(driver, -5, random.Random(1), sleep=slept.append)


def test_driver_opens_a_simulated_board_by_url(firmware_builds):
    state = hardware.BoardState(((5, 0), (9, 3), (0, 0)), dealer=1)
    with hardware.BoardDriver("sim://3-track") as driver:
        driver.show(state)
        assert driver.wait_shown(state, 5)
        assert driver.connected and driver.info.tracks == 3
        sim = driver.simulator
        assert sim is not None and sim.running
    assert not sim.running             # the simulated board lived as long as the driver
