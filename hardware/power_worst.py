"""The brightest frames the firmware can draw, per brightness level, and the guide's power table
(docs/BOARD.md): drawn with ``hardware.leds`` and measured with the model in ``hardware.power``."""

from __future__ import annotations

from dataclasses import dataclass

from hardware import leds, palette
from hardware.power import CHANNEL_MA, DEFAULT_LIMIT_MA, light_budget, light_units, overhead_ma
from hardware.state import GAME_HOLE, Animation, BoardState


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
    pegs = [(GAME_HOLE, 110)] + [(50 + 2 * t, 45 + 2 * t) for t in range(1, geometry.tracks)]
    return BoardState(tuple(pegs), dealer=dealer, brightness=level, animation=Animation(kind, 0),
                      skunk_line=90, double_skunk_line=60, games=(geometry.games_per_track,) * geometry.tracks)


def worst_frame(geometry, level: int) -> tuple[WorstFrame, object, object]:
    """The brightest frame the firmware draws at ``level``, before its limiter, over every comet
    colour, dealer and status LED look: (the frame, its state, its status look)."""
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
