"""Framing, pure (no I/O): COBS(type, seq, payload, CRC-16/CCITT-FALSE little-endian) + 0x00.

The reference twins of the firmware's frame.c; tests check them against PyPI's ``cobs`` and
``crcmod``.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

MAX_PAYLOAD = 68


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
