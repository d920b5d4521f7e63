"""The LED cribbage board: protocol, host driver, simulator and firmware, as a library.

    from hardware import BoardDriver, BoardState
    with BoardDriver("sim://3-track") as board:          # or "/dev/ttyUSB0", "socket://host:port"
        state = BoardState.start(3, dealer=0).advanced(0, 12)
        board.show(state)                                # never blocks
        board.wait_shown(state, timeout=3)

Importing this package needs only the standard library (pyserial is imported when a port
opens), so ``python3 -m hardware.geometry``, the firmware build's header generator, runs
without the venv.
"""

from hardware.demo import DemoResult, demo_states, play_demo
from hardware.driver import BoardDriver
from hardware.ports import PortCandidate, find_ports
from hardware.endpoint import EndpointError
from hardware.errors import (
    BoardRefusedError,
    GeometryMismatchError,
    LinkClosedError,
    LinkError,
    LinkTimeoutError,
    PortAbsentError,
    ProtocolVersionError,
    TrackCountError,
)
from hardware.geometry import Geometry, GeometryError
from hardware.link import Link, open_link
from hardware.messages import BoardInfo, BoardStatus, ButtonEvent
from hardware.protocol import PROTOCOL_VERSION, Shows, shown_by
from hardware.simulator import Simulator, SimulatorError
from hardware.state import GAME_HOLE, Animation, BoardState, BoardStateError, Comet

__all__ = [
    "Animation", "Comet", "BoardDriver", "BoardInfo", "BoardRefusedError", "BoardState", "BoardStateError",
    "BoardStatus", "DemoResult", "EndpointError", "GAME_HOLE", "Geometry", "GeometryError",
    "GeometryMismatchError", "Link", "LinkClosedError", "LinkError", "LinkTimeoutError", "PROTOCOL_VERSION",
    "PortAbsentError", "PortCandidate", "ProtocolVersionError", "Shows", "Simulator", "SimulatorError",
    "TrackCountError", "demo_states", "find_ports", "open_link", "play_demo", "shown_by",
]
