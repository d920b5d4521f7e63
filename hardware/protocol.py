"""The board protocol, pure encode/decode (no I/O); hardware/PROTOCOL.md is the reference.

A frame on the wire is COBS(type, seq, payload, CRC-16/CCITT-FALSE little-endian) + 0x00.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from enum import IntEnum, IntFlag

from hardware.state import Animation, BoardState

PROTOCOL_VERSION = (1, 0)
MAX_PAYLOAD = 68
READBACK_MAX = 64
NO_DEALER = 0xFF


class MessageType(IntEnum):
    HELLO = 0x01
    SET_STATE = 0x02
    READBACK = 0x03
    STATUS = 0x04
    PING = 0x05
    HEARTBEAT = 0xC0
    NAK = 0xFF

    @property
    def reply(self) -> int:
        return self | 0x80


class NakReason(IntEnum):
    VERSION = 1
    LENGTH = 2
    VALUE = 3
    UNKNOWN_TYPE = 4
    NO_HELLO = 5


class BoardFlags(IntFlag):
    HELLO_SEEN = 0x01
    HOST_LOST = 0x02
    ANIMATING = 0x04
    HAS_STATE = 0x08


class ProtocolError(ValueError):
    """Bytes that are not a valid message."""


class CobsError(ProtocolError):
    pass


class CrcError(ProtocolError):
    pass


class PayloadError(ProtocolError):
    pass


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as avr-libc's _crc_xmodem_update from 0xFFFF."""
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise CobsError("a zero byte inside a COBS block")
        end = i + code
        if end > len(data):
            raise CobsError("a COBS block runs past the end of the frame")
        block = data[i + 1:end]
        if 0 in block:
            raise CobsError("a zero byte inside a COBS block")
        out += block
        i = end
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    payload: bytes = b""

    def encode(self) -> bytes:
        if len(self.payload) > MAX_PAYLOAD:
            raise PayloadError(f"payload of {len(self.payload)} bytes (at most {MAX_PAYLOAD})")
        body = bytes((self.type, self.seq)) + self.payload
        return cobs_encode(body + struct.pack("<H", crc16(body))) + b"\x00"

    @classmethod
    def decode(cls, encoded: bytes) -> "Frame":
        """One frame without its 0x00 delimiter."""
        body = cobs_decode(encoded)
        if len(body) < 4:
            raise PayloadError(f"a frame of {len(body)} bytes is shorter than its header")
        (crc,) = struct.unpack("<H", body[-2:])
        if crc16(body[:-2]) != crc:
            raise CrcError("CRC mismatch")
        return cls(body[0], body[1], bytes(body[2:-2]))


class FrameDecoder:
    """Splits a byte stream at 0x00 delimiters; garbage costs only the frame it lands in."""

    def __init__(self, max_encoded: int = 2 + 2 + MAX_PAYLOAD + 4):
        self.max_encoded = max_encoded
        self._buffer = bytearray()
        self._discarding = False
        self.crc_errors = 0
        self.format_errors = 0

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        for byte in data:
            if byte:
                if self._discarding:
                    continue
                if len(self._buffer) >= self.max_encoded:
                    self._discarding = True
                    self.format_errors += 1
                    self._buffer.clear()
                else:
                    self._buffer.append(byte)
                continue
            encoded, discarding = bytes(self._buffer), self._discarding
            self._buffer.clear()
            self._discarding = False
            if discarding or not encoded:
                continue
            try:
                frames.append(Frame.decode(encoded))
            except CrcError:
                self.crc_errors += 1
            except ProtocolError:
                self.format_errors += 1
        return frames


# --- payloads ---------------------------------------------------------------------------

ANIMATION_CODES = {"win": 1}


def encode_state(state: BoardState) -> bytes:
    out = bytearray([state.tracks])
    for front, back in state.pegs:
        out += bytes((front, back))
    animation = state.animation
    out += bytes((
        NO_DEALER if state.dealer is None else state.dealer,
        state.brightness,
        0 if animation is None else ANIMATION_CODES[animation.kind],
        0 if animation is None else animation.track,
        state.skunk_line or 0,
        state.double_skunk_line or 0,
    ))
    return bytes(out)


def decode_state(payload: bytes) -> BoardState:
    if not payload or len(payload) != 1 + 2 * payload[0] + 6:
        raise PayloadError(f"a state of {len(payload)} bytes does not match its track count")
    tracks = payload[0]
    pegs = tuple((payload[1 + 2 * t], payload[2 + 2 * t]) for t in range(tracks))
    dealer, brightness, anim, anim_track, skunk, double_skunk = payload[1 + 2 * tracks:]
    kinds = {code: kind for kind, code in ANIMATION_CODES.items()}
    if anim and anim not in kinds:
        raise PayloadError(f"unknown animation code {anim}")
    return BoardState(
        pegs=pegs,
        dealer=None if dealer == NO_DEALER else dealer,
        brightness=brightness,
        animation=Animation(kinds[anim], anim_track) if anim else None,
        skunk_line=skunk or None,
        double_skunk_line=double_skunk or None,
    )


def encode_hello(version: tuple[int, int] = PROTOCOL_VERSION) -> bytes:
    return bytes(version)


def encode_readback(offset: int, count: int) -> bytes:
    if not 0 <= count <= READBACK_MAX:
        raise PayloadError(f"read-back of {count} bytes (at most {READBACK_MAX})")
    return struct.pack("<HB", offset, count)


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

    @classmethod
    def decode(cls, payload: bytes) -> "BoardInfo":
        _need(payload, 10, "hello reply")
        pmaj, pmin, fmaj, fmin, fpatch, tracks, leds, gid = struct.unpack("<6BHH", payload[:10])
        return cls((pmaj, pmin), (fmaj, fmin, fpatch), tracks, leds, gid, payload[10:].decode("ascii", "replace"))

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
class Pulse:
    """A pong or an unsolicited heartbeat: the board is alive and shows LED buffer ``led_crc``."""

    uptime_ms: int
    led_crc: int
    flags: BoardFlags

    @classmethod
    def decode(cls, payload: bytes) -> "Pulse":
        _need(payload, 7, "heartbeat")
        uptime, led_crc, flags = struct.unpack("<IHB", payload[:7])
        return cls(uptime, led_crc, BoardFlags(flags))


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

    @classmethod
    def decode(cls, payload: bytes) -> "BoardStatus":
        _need(payload, 21, "status reply")
        flags, uptime, led_crc, shown, crc_err, fmt_err, overflows, naks, reset, n = struct.unpack(
            "<BIHIHHHHBB", payload[:21])
        state = decode_state(payload[21:21 + n]) if n else None
        return cls(BoardFlags(flags), uptime, led_crc, shown, crc_err, fmt_err, overflows, naks, reset, state)


@dataclass(frozen=True)
class Nak:
    reason: int
    detail: int
    board_protocol: tuple[int, int]

    @classmethod
    def decode(cls, payload: bytes) -> "Nak":
        _need(payload, 4, "nak")
        return cls(payload[0], payload[1], (payload[2], payload[3]))

    def format(self) -> str:
        try:
            reason = NakReason(self.reason).name.lower().replace("_", " ")
        except ValueError:
            reason = f"reason {self.reason}"
        return f"board refused the request ({reason}, detail {self.detail})"
