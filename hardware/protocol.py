"""The board protocol, pure encode/decode (no I/O); hardware/PROTOCOL.md is the reference.

Message types and flags, the state payload and the request payloads here; framing in
``hardware.framing``; the decoded replies and events in ``hardware.messages``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum, IntFlag

from hardware.framing import (  # noqa: F401 - the wire format's names, re-exported
    MAX_PAYLOAD,
    CobsError,
    CrcError,
    Frame,
    FrameDecoder,
    PayloadError,
    ProtocolError,
    cobs_decode,
    cobs_encode,
    crc16,
)

from hardware.state import GAME_HOLE, Animation, BoardState, Comet

PROTOCOL_VERSION = (1, 1)
READBACK_MAX = 64
NO_DEALER = 0xFF


class MessageType(IntEnum):
    HELLO = 0x01
    SET_STATE = 0x02
    READBACK = 0x03
    STATUS = 0x04
    PING = 0x05
    BYE = 0x06          # 1.1
    PEG = 0x07          # 1.1
    UNDO = 0x08         # 1.1
    TEST = 0x09         # 1.1 with Features.TEST: a test pattern (the self-test)
    HEARTBEAT = 0xC0
    BUTTON = 0xC1       # 1.1, board -> host
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
    RESTORED = 0x10     # 1.1: showing the state kept in EEPROM, not yet confirmed by a host
    HOST_LEFT = 0x20    # 1.1: the host said goodbye: idle, not lost
    TESTING = 0x40      # Features.TEST: a test pattern shows instead of the state


class Features(IntFlag):
    """1.1: what the board can do (HELLO reply, after the geometry name)."""

    EEPROM = 0x01       # keeps its state across resets and power cuts
    BUTTONS = 0x02      # +1 / +2 / undo buttons per track, reported as BUTTON events
    GAMES = 0x04        # games won, the short game, skunk animations, PEG and UNDO
    TEST = 0x08         # the frame limiter (its budget in HELLO) and TEST patterns


class TestMode(IntEnum):
    """What a TEST request shows (the firmware's TEST_*)."""

    END = 0             # the state again
    LED = 1             # one LED of the strip, by index
    TRACK = 2           # every LED of one track: start, holes, game hole, dealer, games won
    ALL = 3             # every LED


BUTTON_TESTING = 6      # a BUTTON event's result while a test pattern shows: seen, not applied


class ButtonAction(IntEnum):
    PLUS1 = 1
    PLUS2 = 2
    UNDO = 3

    def format(self) -> str:
        return {1: "+1", 2: "+2", 3: "undo"}[self.value]


# --- payloads ---------------------------------------------------------------------------

ANIMATION_CODES = {"win": 1, "skunk": 2, "double_skunk": 3}
UNDO_LAST_PEGGED = 0xFF


@dataclass(frozen=True)
class Shows:
    """What a board speaking one protocol version can show of a game (PROTOCOL.md "Versioning")."""

    games_won: bool         # games won per track
    short_game: bool        # a game to 61 in its own game hole (else once round into hole 121)
    skunk_comets: bool      # a skunk's and a double skunk's own comet (else every win alike)

    def can_show(self, state: BoardState) -> bool:
        return ((self.short_game or state.target == GAME_HOLE) and (self.games_won or not any(state.games))
                and (self.skunk_comets or state.animation is None or state.animation.kind is Comet.WIN))


SHOWN_BY_VERSION = {
    (1, 0): Shows(games_won=False, short_game=False, skunk_comets=False),
    (1, 1): Shows(games_won=True, short_game=True, skunk_comets=True),
}


def shown_by(version: tuple[int, int]) -> Shows:
    """What a board of protocol ``version`` (its HELLO's) can show: what the newest version known
    here at or below it shows (a newer minor only adds); anything older is taken as 1.0."""
    known = [v for v in SHOWN_BY_VERSION if v <= tuple(version)]
    return SHOWN_BY_VERSION[max(known, default=min(SHOWN_BY_VERSION))]


def needs_minor(state: BoardState) -> int:
    """The protocol minor version a board must speak to show ``state``."""
    return min(minor for (_, minor), shows in SHOWN_BY_VERSION.items() if shows.can_show(state))


def encode_state(state: BoardState, minor: int = PROTOCOL_VERSION[1]) -> bytes:
    """The SET_STATE payload for a board of protocol 1.``minor`` (1.0: without the 1.1 fields)."""
    if needs_minor(state) > minor:
        raise PayloadError(f"this state (short game, games won or a skunk animation) needs firmware of "
                           f"protocol 1.{needs_minor(state)}; the board speaks 1.{minor}: update its firmware")
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
    if minor >= 1:
        out += bytes((state.target, *state.games))
    return bytes(out)


def decode_state(payload: bytes) -> BoardState:
    """A 1.0 or 1.1 state; 1.1 fields a 1.0 peer leaves out take their defaults, bytes past them
    (a newer peer's fields) are ignored."""
    if not payload or len(payload) < 1 + 2 * payload[0] + 6:
        raise PayloadError(f"a state of {len(payload)} bytes is too short for its track count")
    tracks = payload[0]
    pegs = tuple((payload[1 + 2 * t], payload[2 + 2 * t]) for t in range(tracks))
    base = 1 + 2 * tracks
    dealer, brightness, anim, anim_track, skunk, double_skunk = payload[base:base + 6]
    target = payload[base + 6] if len(payload) > base + 6 and payload[base + 6] else GAME_HOLE
    games = tuple(payload[base + 7 + t] if len(payload) > base + 7 + t else 0 for t in range(tracks))
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
        games=games,
        target=target,
    )


def encode_hello(version: tuple[int, int] = PROTOCOL_VERSION) -> bytes:
    return bytes(version)


def encode_peg(track: int, points: int) -> bytes:
    if not 0 <= track < 0xFF or not 1 <= points <= 0xFF:
        raise PayloadError(f"peg {points} points on track {track + 1}: points must be 1..255")
    return bytes((track, points))


def encode_undo(track: int | None) -> bytes:
    return bytes((UNDO_LAST_PEGGED if track is None else track,))


def encode_readback(offset: int, count: int) -> bytes:
    if not 0 <= count <= READBACK_MAX:
        raise PayloadError(f"read-back of {count} bytes (at most {READBACK_MAX})")
    return struct.pack("<HB", offset, count)


def encode_test(mode: TestMode, rgb: tuple[int, int, int] = (0, 0, 0), index: int = 0) -> bytes:
    """TEST: ``index`` is the LED (TestMode.LED) or the track (TestMode.TRACK)."""
    if not all(0 <= c <= 255 for c in rgb):
        raise PayloadError(f"colour {rgb}: channels are 0..255")
    if mode == TestMode.END:
        return bytes((mode,))
    if mode == TestMode.LED:
        return bytes((mode, *rgb)) + struct.pack("<H", index)
    if mode == TestMode.TRACK:
        return bytes((mode, *rgb, index))
    return bytes((mode, *rgb))
