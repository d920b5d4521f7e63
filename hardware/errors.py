"""The host side's typed errors: link failures are OSErrors, bad input is a ValueError."""

from __future__ import annotations


class LinkError(OSError):
    """The board link failed."""


class LinkTimeoutError(LinkError, TimeoutError):
    """No reply within the deadline (after the retries)."""


class LinkClosedError(LinkError):
    """The port cannot be opened, went away (unplugged) or was closed."""


class PortAbsentError(LinkClosedError):
    """The port is not there to open (no such device: the cable is out). Looking again costs
    nothing, so the driver looks often and finds a replugged board at once."""


class ProtocolVersionError(LinkError):
    """The board speaks another major protocol version: refused, never guessed at."""

    @classmethod
    def between(cls, board: tuple[int, int], host: tuple[int, int]) -> "ProtocolVersionError":
        return cls(f"the board speaks protocol {board[0]}.{board[1]}, this host {host[0]}.{host[1]}: "
                   f"update the firmware or the host")


class BoardRefusedError(LinkError):
    """The board answered with a NAK."""

    def __init__(self, nak):
        super().__init__(nak.format())
        self.nak = nak


class GeometryMismatchError(LinkError):
    """The board's wiring is not the geometry the host expects."""


class TrackCountError(ValueError):
    """A state for another number of tracks than the board has (caught before sending)."""
