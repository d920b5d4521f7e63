"""Where a board is, and opening its port: a device path, any pyserial URL, or ``sim://``.

``sim://GEOMETRY[?reset_on_open=MS&eeprom=PATH]`` is a simulated board (the real firmware in
simavr) that the endpoint starts on first use and stops on ``close()``; each ``open_port()`` opens
a new port to it, as a host reconnecting to a real board would.
"""

from __future__ import annotations

import errno
import os
from urllib.parse import parse_qs

from hardware import timeouts as T
from hardware.errors import LinkClosedError, PortAbsentError
from hardware.geometry import Geometry

DEFAULT_BAUD = 115200
SIM_SCHEME = "sim://"
SIM_OPTIONS = {"reset_on_open": int, "eeprom": str}
# An open failing with one of these found no device at all (a USB adapter unplugged: its node is gone)
ABSENT_ERRNOS = {errno.ENOENT, errno.ENODEV, errno.ENXIO}


class EndpointError(ValueError):
    """A board address that cannot name a board."""


def parse_sim_url(url: str) -> dict:
    """``sim://2-track?reset_on_open=1600`` -> Simulator keyword arguments."""
    rest = url[len(SIM_SCHEME):]
    name, _, query = rest.partition("?")
    Geometry.load(name or "3-track")        # an unknown geometry is a clear GeometryError, not a make error
    options: dict = {"geometry": name or "3-track"}
    for key, values in parse_qs(query, keep_blank_values=True, strict_parsing=False).items():
        if key not in SIM_OPTIONS:
            raise EndpointError(f"{url}: unknown simulator option {key!r} (known: {', '.join(SIM_OPTIONS)})")
        try:
            options[key] = SIM_OPTIONS[key](values[-1])
        except ValueError:
            raise EndpointError(f"{url}: {key}={values[-1]!r} is not a {SIM_OPTIONS[key].__name__}") from None
    return options


def _keep_dtr(port) -> None:
    """Keeps a USB serial board from resetting the next time its port opens, where the OS allows.

    Opening the port raises DTR, and an Uno/Nano's auto-reset capacitor turns that edge into a
    reset. Windows opens with DTR held low when asked (``dtr = False`` before ``open()``). POSIX
    systems always raise DTR on open, but lower it on close only when HUPCL is set: clearing it
    leaves DTR raised after this process ends, so later opens make no edge and no reset.
    """
    if os.name == "nt":
        port.dtr = False
        port.rts = False
        return


def _clear_hupcl(port) -> None:
    fd = getattr(port, "fd", None)
    if os.name != "posix" or fd is None:
        return
    import termios

    try:
        attrs = termios.tcgetattr(fd)
        if attrs[2] & termios.HUPCL:
            attrs[2] &= ~termios.HUPCL
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except termios.error:
        pass   # not a terminal (a socket or a pipe): no DTR to keep


def open_port(url: str, baudrate: int = DEFAULT_BAUD):
    """A pyserial port for a device path or URL; a failure is a LinkClosedError (a PortAbsentError
    when there is no such device)."""
    import serial   # here, so that importing the package needs only the standard library

    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=T.READ_SLICE_S,
                                     write_timeout=T.WRITE_TIMEOUT_S, do_not_open=True)
        _keep_dtr(port)
        port.open()
    except (serial.SerialException, OSError, ValueError) as exc:
        error = PortAbsentError if getattr(exc, "errno", None) in ABSENT_ERRNOS else LinkClosedError
        raise error(f"cannot open {url}: {exc}") from exc
    _clear_hupcl(port)
    return port


class Endpoint:
    def __init__(self, url: str, baudrate: int = DEFAULT_BAUD):
        if not isinstance(url, str) or not url:
            raise EndpointError("a board port is needed: a device such as /dev/ttyUSB0, a URL, or sim://3-track")
        self.url = url
        self.baudrate = baudrate
        self.simulator = None
        self._sim_options = parse_sim_url(url) if url.startswith(SIM_SCHEME) else None

    @property
    def simulated(self) -> bool:
        return self._sim_options is not None

    def open_port(self):
        if self._sim_options is None:
            return open_port(self.url, self.baudrate)
        from hardware.simulator import Simulator, SimulatorError

        if self.simulator is None or not self.simulator.running:
            self.close()
            try:
                self.simulator = Simulator(baud=self.baudrate, **self._sim_options).start()
            except SimulatorError as exc:
                raise LinkClosedError(f"cannot start the simulated board: {exc}") from exc
        return open_port(self.simulator.url, self.baudrate)

    def close(self) -> None:
        sim, self.simulator = self.simulator, None
        if sim is not None:
            sim.stop()
