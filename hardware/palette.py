"""Colours and brightness shared by the firmware (through the generated header) and the host.

The firmware's C tables are generated from these values, so the host's expected picture and the
board's real one cannot drift apart.
"""

from __future__ import annotations

# Brightness levels 1 (dim room) .. 8 (daylight): scale factor s, channel value c -> c*(s+1)>>8.
BRIGHTNESS_SCALE = (6, 12, 24, 40, 64, 100, 160, 255)
BRIGHTNESS_LEVELS = range(1, len(BRIGHTNESS_SCALE) + 1)
DEFAULT_BRIGHTNESS = 4

SKUNK_MARKER_RGB = (60, 60, 60)
DOUBLE_SKUNK_MARKER_RGB = (60, 0, 60)
WIN_HEAD_RGB = (255, 255, 255)            # the winner's comet: a plain win
SKUNK_HEAD_RGB = (255, 110, 0)            # ... a skunk (a loser at or below the skunk line)
DOUBLE_SKUNK_HEAD_RGB = (255, 0, 140)     # ... a double skunk
STATUS_WAITING_RGB = (0, 0, 80)   # no host has said hello since power-up, nothing restored
STATUS_CONNECTED_RGB = (0, 80, 0)
STATUS_LOST_RGB = (160, 0, 0)     # the host went quiet: the last good state stays on show
STATUS_IDLE_RGB = (0, 24, 8)      # the host said goodbye (a one-shot command): calm, last state on show
STATUS_RESTORED_RGB = (120, 60, 0)  # the state shown came from EEPROM at power-on; no host has confirmed it

# Animation geometry: the win comet's head moves one hole per frame, tail of WIN_TAIL holes.
WIN_FRAME_MS = 50
WIN_TAIL = 4


def scale(value: int, level: int) -> int:
    """One channel at a brightness level, exactly as the firmware computes it."""
    return (value * (BRIGHTNESS_SCALE[level - 1] + 1)) >> 8


def scale_rgb(rgb: tuple[int, int, int], level: int) -> tuple[int, int, int]:
    return tuple(scale(c, level) for c in rgb)  # type: ignore[return-value]


def dim(value: int) -> int:
    """The back peg: a quarter, but never dark where the front peg is lit."""
    return max(1, value >> 2) if value else 0
