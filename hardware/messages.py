"""Replies and events from the board, decoded (pure, no I/O).

Versioning: each decoder reads the fields it knows and ignores any bytes after them (a newer
board's trailing fields); fields a 1.0 board does not send are None.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from hardware.protocol import (
    BUTTON_TESTING,
    BoardFlags,
    ButtonAction,
    Features,
    MessageType,
    NakReason,
    PayloadError,
    decode_state,
)
from hardware.state import BoardState


def _need(payload: bytes, size: int, what: str) -> None:
    if len(payload) < size:
        raise PayloadError(f"{what} of {len(payload)} bytes (needs {size})")


@dataclass(frozen=True)
class BoardInfo:
    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    tracks: int
    led_count: int
    geometry_id: int
    geometry_name: str
    features: Features = Features(0)
    flags: BoardFlags | None = None     # 1.1: the board's flags when it answered (RESTORED, ...)
    current_limit_ma: int | None = None  # Features.TEST: the supply budget the firmware was built for
    light_budget: int | None = None      # ... and the largest sum of channel values a frame may have

    @classmethod
    def decode(cls, payload: bytes) -> "BoardInfo":
        """1.0 boards end the reply with the name; 1.1 ends the name with 0x00 and adds fields after."""
        _need(payload, 10, "hello reply")
        pmaj, pmin, fmaj, fmin, fpatch, tracks, leds, gid = struct.unpack("<6BHH", payload[:10])
        name, nul, rest = payload[10:].partition(b"\x00")
        features = Features(rest[0] & 0x0F) if nul and rest else Features(0)
        flags = BoardFlags(rest[1] & 0x7F) if nul and len(rest) > 1 else None
        limit = budget = None
        if features & Features.TEST and len(rest) >= 8:
            limit, budget = struct.unpack("<HI", rest[2:8])
        return cls((pmaj, pmin), (fmaj, fmin, fpatch), tracks, leds, gid, name.decode("ascii", "replace"),
                   features, flags, limit, budget)

    def format(self) -> str:
        return (f"protocol {self.protocol[0]}.{self.protocol[1]}, firmware {'.'.join(map(str, self.firmware))}, "
                f"geometry {self.geometry_name} ({self.tracks} tracks, {self.led_count} LEDs, id 0x{self.geometry_id:04X})")


@dataclass(frozen=True)
class Ack:
    state_crc: int
    led_crc: int
    flags: BoardFlags

    @classmethod
    def decode(cls, payload: bytes) -> "Ack":
        _need(payload, 5, "ack")
        state_crc, led_crc, flags = struct.unpack("<HHB", payload[:5])
        return cls(state_crc, led_crc, BoardFlags(flags))


@dataclass(frozen=True)
class TestReply:
    """The reply to TEST: the LED buffer now on show and the flags (TESTING while a pattern shows)."""

    led_crc: int
    flags: BoardFlags

    @classmethod
    def decode(cls, payload: bytes) -> "TestReply":
        _need(payload, 3, "test reply")
        led_crc, flags = struct.unpack("<HB", payload[:3])
        return cls(led_crc, BoardFlags(flags))


@dataclass(frozen=True)
class Pulse:
    """A pong or an unsolicited heartbeat: the board is alive and shows LED buffer ``led_crc``."""

    uptime_ms: int
    led_crc: int
    flags: BoardFlags
    events: int | None = None       # 1.1: button presses since power-up

    @classmethod
    def decode(cls, payload: bytes) -> "Pulse":
        _need(payload, 7, "heartbeat")
        uptime, led_crc, flags = struct.unpack("<IHB", payload[:7])
        events = struct.unpack("<H", payload[7:9])[0] if len(payload) >= 9 else None
        return cls(uptime, led_crc, BoardFlags(flags), events)


@dataclass(frozen=True)
class ReadbackChunk:
    offset: int
    data: bytes

    @classmethod
    def decode(cls, payload: bytes) -> "ReadbackChunk":
        _need(payload, 2, "read-back reply")
        return cls(struct.unpack("<H", payload[:2])[0], bytes(payload[2:]))


@dataclass(frozen=True)
class BoardStatus:
    flags: BoardFlags
    uptime_ms: int
    led_crc: int
    frames_shown: int
    crc_errors: int
    format_errors: int
    rx_overflows: int
    naks: int
    reset_flags: int
    state: BoardState | None
    eeprom_records: int | None = None   # 1.1: state records ever written to EEPROM
    eeprom_saves: int | None = None     # 1.1: ... since power-up
    anim_frame: int | None = None       # 1.1: the animation's frame counter
    events: int | None = None           # 1.1: button presses since power-up

    @property
    def restored(self) -> bool:
        return bool(self.flags & BoardFlags.RESTORED)

    @classmethod
    def decode(cls, payload: bytes) -> "BoardStatus":
        _need(payload, 21, "status reply")
        flags, uptime, led_crc, shown, crc_err, fmt_err, overflows, naks, reset, n = struct.unpack(
            "<BIHIHHHHBB", payload[:21])
        _need(payload, 21 + n, "status reply with its state")
        state = decode_state(payload[21:21 + n]) if n else None
        tail = payload[21 + n:]
        extra = struct.unpack("<IHHH", tail[:10]) if len(tail) >= 10 else (None,) * 4
        return cls(BoardFlags(flags), uptime, led_crc, shown, crc_err, fmt_err, overflows, naks, reset, state, *extra)


@dataclass(frozen=True)
class StateReply:
    """1.1: the reply to PEG and UNDO (and the tail of a BUTTON event): the board's new state."""

    led_crc: int
    flags: BoardFlags
    state: BoardState | None

    @classmethod
    def decode(cls, payload: bytes) -> "StateReply":
        _need(payload, 4, "state reply")
        led_crc, flags, n = struct.unpack("<HBB", payload[:4])
        _need(payload, 4 + n, "state reply with its state")
        return cls(led_crc, BoardFlags(flags), decode_state(payload[4:4 + n]) if n else None)


@dataclass(frozen=True)
class ButtonEvent:
    """1.1: a button pressed on the board, which the board has already applied (``result`` 0) or
    refused (a NakReason: nothing to undo, already pegged out)."""

    number: int            # counts presses since power-up: a gap means events were lost
    track: int             # from 0
    action: ButtonAction
    result: int
    reply: StateReply

    @property
    def applied(self) -> bool:
        return self.result == 0

    @classmethod
    def decode(cls, payload: bytes) -> "ButtonEvent":
        _need(payload, 9, "button event")
        number, track, action, result = struct.unpack("<HBBB", payload[:5])
        try:
            kind = ButtonAction(action)
        except ValueError:
            raise PayloadError(f"unknown button action {action}") from None
        return cls(number, track, kind, result, StateReply.decode(payload[5:]))

    @property
    def tested(self) -> bool:
        """Pressed while a test pattern showed: seen, and the game left as it was."""
        return self.result == BUTTON_TESTING

    def format(self) -> str:
        done = ("applied" if self.applied else "seen (self-test, not applied)" if self.tested
                else f"refused ({Nak(self.result, 0, (0, 0)).reason_name})")
        return f"button {self.action.format()} on track {self.track + 1}: {done}"


@dataclass(frozen=True)
class Nak:
    reason: int
    detail: int
    board_protocol: tuple[int, int]

    @classmethod
    def decode(cls, payload: bytes) -> "Nak":
        _need(payload, 4, "nak")
        return cls(payload[0], payload[1], (payload[2], payload[3]))

    @property
    def reason_name(self) -> str:
        try:
            return NakReason(self.reason).name.lower().replace("_", " ")
        except ValueError:
            return f"reason {self.reason}"

    def format(self) -> str:
        try:
            request = MessageType(self.detail).name
        except ValueError:
            request = f"type 0x{self.detail:02X}"
        return f"board refused the {request} request ({self.reason_name})"
