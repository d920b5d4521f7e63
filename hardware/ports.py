"""Serial ports that may be a board: known USB serial chips of Arduino-class boards first."""

from __future__ import annotations

from dataclasses import dataclass


# VID:PID pairs of the USB serial chips on Arduino-class boards, best guesses first.
LIKELY_BOARDS = {
    (0x2341, None): "Arduino",
    (0x2A03, None): "Arduino (.org)",
    (0x1A86, 0x7523): "CH340",
    (0x1A86, 0x55D4): "CH9102",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x10C4, 0xEA60): "CP210x",
    (0x067B, 0x2303): "PL2303",
}


@dataclass(frozen=True)
class PortCandidate:
    device: str
    description: str
    chip: str | None    # the recognised USB serial chip, if any

    @property
    def likely(self) -> bool:
        return self.chip is not None


def find_ports(ports=None) -> list[PortCandidate]:
    """Serial ports, likely boards (known USB serial chips) first."""
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    out = []
    for p in ports:
        chip = LIKELY_BOARDS.get((p.vid, p.pid)) or LIKELY_BOARDS.get((p.vid, None)) if p.vid else None
        out.append(PortCandidate(p.device, p.description or "", chip))
    return sorted(out, key=lambda c: (not c.likely, c.device))
