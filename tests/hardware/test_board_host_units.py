"""Host-side pieces that need no board: port ranking, error types, the newest-only mailbox, faults."""

from types import SimpleNamespace

import pytest
import serial

from hardware.driver import BoardDriver, _Newest, find_ports
from hardware.faults import FaultRateError, FaultRates, FaultyOpener, FaultyPort
from hardware.link import LinkClosedError, LinkError, LinkTimeoutError, ProtocolVersionError
from hardware.state import BoardState


def _port(device, vid=None, pid=None, description="n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description=description)


def test_likely_boards_are_listed_first():
    ports = [_port("/dev/ttyS0"), _port("/dev/ttyACM0", 0x2341, 0x0043, "Arduino Uno"),
             _port("/dev/ttyUSB1", 0x1A86, 0x7523, "USB2.0-Serial"), _port("/dev/ttyUSB0", 0x0BDA, 0x1234)]
    ranked = find_ports(ports)
    assert [p.device for p in ranked] == ["/dev/ttyACM0", "/dev/ttyUSB1", "/dev/ttyS0", "/dev/ttyUSB0"]
    assert [p.chip for p in ranked[:2]] == ["Arduino", "CH340"]


def test_error_types():
    assert issubclass(LinkTimeoutError, LinkError) and issubclass(LinkTimeoutError, TimeoutError)
    assert issubclass(ProtocolVersionError, LinkError) and issubclass(LinkError, OSError)


def test_mailbox_keeps_only_the_newest_state():
    box = _Newest()
    states = [BoardState(((n, 0), (0, 0))) for n in range(1, 6)]
    for state in states:
        box.put(state)
    version, newest = box.peek()
    assert newest == states[-1] and version == 5


def test_driver_needs_exactly_one_port_source():
    with pytest.raises(ValueError):
        BoardDriver()
    with pytest.raises(ValueError):
        BoardDriver("loop://", open_port_fn=lambda: None)


def test_faulty_port_damages_at_its_rates_and_unplugs():
    clean = FaultyPort(serial.serial_for_url("loop://", timeout=0.01), FaultRates(), seed=1)
    clean.write(b"hello board")
    assert clean.read(64) == b"hello board"
    lossy = FaultyPort(serial.serial_for_url("loop://", timeout=0.01), FaultRates(drop=1.0), seed=1)
    lossy.write(b"gone")
    assert lossy.read(64) == b"" and lossy.injected["drop"] == 4
    flips = FaultyPort(serial.serial_for_url("loop://", timeout=0.01), FaultRates(flip=1.0), seed=1)
    flips.write(bytes(8))
    assert flips.read(64) != bytes(8)
    assert flips.injected["flip"] == 16                          # every byte, out and back again
    opener = FaultyOpener("loop://", FaultRates())
    port = opener()
    opener.plug.unplug()
    with pytest.raises(serial.SerialException):
        port.write(b"x")
    with pytest.raises(LinkClosedError):
        opener()
    opener.plug.replug()
    assert opener().in_waiting == 0
    with pytest.raises(FaultRateError):
        FaultRates(drop=1.5)
