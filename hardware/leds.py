"""The LED buffer a board state should produce: the host's copy of the firmware's drawing rules.

Tests compare it with what the simulated strip really latched (decoded from the data pin), and
the driver compares its CRC with the one the board acknowledges.
"""

from __future__ import annotations

from enum import IntEnum

from hardware import palette, power
from hardware.geometry import GAME_HOLE, Geometry
from hardware.protocol import TestMode, crc16
from hardware.state import BoardState


class LinkStatus(IntEnum):
    """What the status LED shows (the firmware's LOOK_*)."""

    WAITING = 0     # no host has said hello since power-up
    CONNECTED = 1
    LOST = 2        # no valid frame for the host timeout: the last state stays on show
    IDLE = 3        # the host said goodbye (a one-shot command): calm, the last state stays
    RESTORED = 4    # the state came from EEPROM at power-on and no host has confirmed it yet


STATUS_RGB = {
    LinkStatus.WAITING: palette.STATUS_WAITING_RGB,
    LinkStatus.CONNECTED: palette.STATUS_CONNECTED_RGB,
    LinkStatus.LOST: palette.STATUS_LOST_RGB,
    LinkStatus.IDLE: palette.STATUS_IDLE_RGB,
    LinkStatus.RESTORED: palette.STATUS_RESTORED_RGB,
}
COMET_RGB = {"win": palette.WIN_HEAD_RGB, "skunk": palette.SKUNK_HEAD_RGB,
             "double_skunk": palette.DOUBLE_SKUNK_HEAD_RGB}


def render(geometry: Geometry, state: BoardState | None, status: LinkStatus = LinkStatus.CONNECTED,
           anim_frame: int = 0, light_budget: int | None = None) -> bytes:
    """GRB bytes, three per LED in strip order, exactly as the firmware fills its buffer; then
    scaled to ``light_budget`` (None: the default firmware's, 500 mA) as the firmware's limiter does."""
    return power.limit(draw(geometry, state, status, anim_frame), _budget(geometry, light_budget))


def _budget(geometry: Geometry, light_budget: int | None) -> int:
    return power.light_budget(geometry.led_count) if light_budget is None else light_budget


def track_leds(geometry: Geometry, track: int) -> tuple[int, ...]:
    """Every LED of a track: start, holes 1..120, game hole, dealer, games won (a TEST pattern)."""
    games = geometry.game_leds[track] if geometry.game_leds else ()
    return (*geometry.hole_leds[track], geometry.dealer_leds[track], *games)


def render_test(geometry: Geometry, mode: TestMode, rgb: tuple[int, int, int] = (0, 0, 0), index: int = 0,
                light_budget: int | None = None) -> bytes:
    """The buffer of a TEST pattern (not TestMode.END: that is the state's picture again)."""
    buf = bytearray(geometry.led_count * 3)
    lit = {TestMode.LED: (index,), TestMode.TRACK: track_leds(geometry, index) if mode == TestMode.TRACK else (),
           TestMode.ALL: range(geometry.led_count)}[mode]
    r, g, b = rgb
    for led in lit:
        buf[3 * led:3 * led + 3] = bytes((g, r, b))
    return power.limit(buf, _budget(geometry, light_budget))


def draw(geometry: Geometry, state: BoardState | None, status: LinkStatus = LinkStatus.CONNECTED,
         anim_frame: int = 0) -> bytes:
    """The picture before the limiter: what the firmware draws for a state."""
    buf = bytearray(geometry.led_count * 3)
    level = state.brightness if state else palette.DEFAULT_BRIGHTNESS

    def put(led: int, rgb) -> None:
        r, g, b = rgb
        buf[3 * led:3 * led + 3] = bytes((g, r, b))

    def scaled(rgb, shift: int = 0):
        return tuple(palette.scale(c, level) >> shift for c in rgb)

    if state is not None:
        if state.tracks != geometry.tracks:
            raise ValueError(f"a {state.tracks}-track state on the {geometry.tracks}-track board {geometry.name}")
        def hole(t: int, position: int) -> int:
            # the short game runs once round, then into the game hole
            return geometry.hole_leds[t][GAME_HOLE if position == state.target else position]

        for t in range(geometry.tracks):
            if state.skunk_line:
                put(hole(t, state.skunk_line + 1), scaled(palette.SKUNK_MARKER_RGB))
            if state.double_skunk_line:
                put(hole(t, state.double_skunk_line + 1), scaled(palette.DOUBLE_SKUNK_MARKER_RGB))
        if state.dealer is not None:
            put(geometry.dealer_leds[state.dealer], scaled(geometry.track_rgb[state.dealer]))
        for t, (front, back) in enumerate(state.pegs):
            colour = scaled(geometry.track_rgb[t])
            for led in geometry.game_leds[t][:state.games[t]] if geometry.game_leds else ():
                put(led, colour)
            put(hole(t, back), tuple(palette.dim(c) for c in colour))
            put(hole(t, front), colour)
        if state.animation is not None:
            head = anim_frame % state.target + 1
            for k in range(min(palette.WIN_TAIL, head)):
                put(hole(state.animation.track, head - k), scaled(COMET_RGB[state.animation.kind], k))
    put(geometry.status_led, scaled(STATUS_RGB[status]))
    return bytes(buf)


def led_crc(buffer: bytes) -> int:
    return crc16(buffer)


def lit(buffer: bytes) -> dict[int, tuple[int, int, int]]:
    """LED index -> (r, g, b) for every LED that is on."""
    out = {}
    for i in range(0, len(buffer) - 2, 3):
        g, r, b = buffer[i:i + 3]
        if r or g or b:
            out[i // 3] = (r, g, b)
    return out
