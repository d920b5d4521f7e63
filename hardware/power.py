"""The board's current: the model, the firmware's frame limiter (host copy) and the worst frames.

Model (stated in docs/BOARD.md): a WS2812B channel draws ``CHANNEL_MA`` at PWM value 255 and
proportionally less below (value / 255); every LED's controller draws ``IDLE_UA`` even when dark
(PJRC measured "just under 1 mA" on two kinds of WS2812B); the Nano/Uno itself (ATmega328P at
16 MHz, its USB chip and power LED) ``CONTROLLER_MA``. A frame's current is therefore

    CONTROLLER_MA + leds * IDLE_UA / 1000 + CHANNEL_MA * (sum of every channel value) / 255

The firmware keeps the sum of channel values ("light units") of every frame within
``light_budget(geometry, limit_ma)`` by scaling the whole frame when it is over (``limit``), so
the board never asks more of its supply than ``limit_ma`` (500 mA: a USB 2.0 port).
The C header carries these constants, so the firmware and this copy cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass

CHANNEL_MA = 20            # one colour channel at full PWM
IDLE_UA = 1000             # one dark WS2812B (its controller chip)
CONTROLLER_MA = 30         # the Nano/Uno: ATmega328P at 16 MHz, USB-serial chip, power LED
DEFAULT_LIMIT_MA = 500     # a USB 2.0 port; set another at build time: make firmware CURRENT_LIMIT_MA=...
UNLIMITED = 1 << 24        # a board that does not limit (firmware before the limiter)
MAX_BUDGET = 65535         # the firmware's scale factor keeps 16 bits (a limit of about 5.5 A)


class PowerError(ValueError):
    """A current limit the board cannot keep (below what the dark strip and controller draw)."""


def overhead_ma(led_count: int) -> int:
    """What the board draws with every LED dark (integer mA, as the firmware computes it)."""
    return CONTROLLER_MA + led_count * IDLE_UA // 1000


def light_budget(led_count: int, limit_ma: int = DEFAULT_LIMIT_MA) -> int:
    """The largest sum of channel values a frame may have (the firmware's LIGHT_BUDGET)."""
    spare = limit_ma - overhead_ma(led_count)
    if spare <= 0:
        raise PowerError(f"a limit of {limit_ma} mA is below the {overhead_ma(led_count)} mA the board "
                         f"draws dark ({led_count} LEDs x {IDLE_UA / 1000:g} mA + {CONTROLLER_MA} mA)")
    return min(spare * 255 // CHANNEL_MA, MAX_BUDGET)


def light_units(grb: bytes) -> int:
    return sum(grb)


def current_ma(grb: bytes) -> float:
    """The model's current for one frame (GRB bytes, three per LED)."""
    return overhead_ma(len(grb) // 3) + CHANNEL_MA * light_units(grb) / 255


def limit(grb: bytes | bytearray, budget: int) -> bytes:
    """The firmware's limiter: a frame over ``budget`` is scaled by ``floor(budget * 65536 / sum)``/65536,
    each byte rounded down, so the result is always within the budget (one division a frame)."""
    total = sum(grb)
    if total <= budget:
        return bytes(grb)
    factor = (budget << 16) // total
    return bytes((b * factor) >> 16 for b in grb)


@dataclass(frozen=True)
class WorstFrame:
    """The brightest frame the firmware can draw at one brightness level, before the limiter."""

    level: int
    units: int            # sum of channel values
    lit: int              # LEDs lit

    def current_ma(self, led_count: int) -> float:
        return overhead_ma(led_count) + CHANNEL_MA * self.units / 255


WORST_COMET_FRAME = 19     # the comet's head in hole 20: its whole tail is on the board, clear of the pegs


def worst_state(geometry, level: int, kind: str = "win", dealer: int = 0):
    """The brightest state at ``level``: every track's pegs, all games-won LEDs, a dealer, both
    skunk markers and the winner's comet, none of them on another's LED (so nothing drawn later
    hides anything). Track 0 has won; show it at anim_frame WORST_COMET_FRAME."""
    from hardware.state import GAME_HOLE, Animation, BoardState

    pegs = [(GAME_HOLE, 110)] + [(50 + 2 * t, 45 + 2 * t) for t in range(1, geometry.tracks)]
    return BoardState(tuple(pegs), dealer=dealer, brightness=level, animation=Animation(kind, 0),
                      skunk_line=90, double_skunk_line=60, games=(geometry.games_per_track,) * geometry.tracks)


def worst_frame(geometry, level: int) -> tuple[WorstFrame, object, object]:
    """The brightest frame the firmware draws at ``level``, before its limiter, over every comet
    colour, dealer and status LED look: (the frame, its state, its status look)."""
    from hardware import leds

    best = None
    for kind in ("win", "skunk", "double_skunk"):
        for dealer in range(geometry.tracks):
            state = worst_state(geometry, level, kind, dealer)
            for look in leds.LinkStatus:
                grb = leds.draw(geometry, state, look, WORST_COMET_FRAME)
                frame = WorstFrame(level, light_units(grb), len(leds.lit(grb)))
                if best is None or frame.units > best[0].units:
                    best = (frame, state, look)
    return best  # type: ignore[return-value]


def table(geometry, limit_ma: int = DEFAULT_LIMIT_MA) -> list[dict]:
    """Per brightness level: the worst frame's current as drawn and as the limiter lets it out."""
    from hardware import palette

    budget = light_budget(geometry.led_count, limit_ma)
    rows = []
    for level in palette.BRIGHTNESS_LEVELS:
        frame, _, _ = worst_frame(geometry, level)
        shown = min(frame.units, budget)
        rows.append({"level": level, "lit": frame.lit, "units": frame.units,
                     "drawn_ma": frame.current_ma(geometry.led_count),
                     "shown_ma": overhead_ma(geometry.led_count) + CHANNEL_MA * shown / 255,
                     "scaled": frame.units > budget})
    return rows


def markdown_table(geometry, limit_ma: int = DEFAULT_LIMIT_MA) -> str:
    """The guide's table for one geometry (docs/BOARD.md; a test checks it is there as computed)."""
    lines = [f"| {geometry.name} ({geometry.led_count} LEDs, {overhead_ma(geometry.led_count)} mA dark) "
             f"| LEDs lit | light units | drawn | shown at {limit_ma} mA |",
             "|---|---|---|---|---|"]
    for row in table(geometry, limit_ma):
        shown = f"**{row['shown_ma']:.0f} mA** (scaled)" if row["scaled"] else f"{row['shown_ma']:.0f} mA"
        lines.append(f"| level {row['level']} | {row['lit']} | {row['units']} | {row['drawn_ma']:.0f} mA | {shown} |")
    return "\n".join(lines)
