"""The self-test of a freshly built board, over an open link (a real port or the simulator).

Three parts, each reported step by step through ``report`` so a person can watch the board:

1. the walk: one LED at a time along the strip in wiring order, naming the hole it should light;
2. the colours: red, green, blue and the track's own colour on every LED of each track in turn
   (a dead channel, red and green swapped, a track wired to the wrong place);
3. the buttons: each button asked for in turn, waited for up to ``button_timeout`` seconds, or
   skipped when ``skip()`` says so; a press is reported by the board but not applied (the game on
   the board stays as it was).

The board shows its state again at the end (TEST END), or by itself if the host vanishes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from hardware.geometry import BUTTON_ACTIONS, Geometry
from hardware.link import Link
from hardware.protocol import TestMode

WALK_RGB = (80, 80, 80)         # a white every channel of the LED shows
COLOURS = (("red", (120, 0, 0)), ("green", (0, 120, 0)), ("blue", (0, 0, 120)))
BUTTON_POLL_S = 0.05


@dataclass
class SelftestResult:
    walked: int = 0                                   # LEDs lit one by one
    colour_steps: int = 0
    buttons: dict[str, str] = field(default_factory=dict)   # "track 1 +1" -> pressed / timeout / skipped

    @property
    def buttons_ok(self) -> bool:
        return all(result == "pressed" for result in self.buttons.values())

    def format(self) -> str:
        pressed = sum(1 for r in self.buttons.values() if r == "pressed")
        missing = [name for name, r in self.buttons.items() if r != "pressed"]
        line = f"walked {self.walked} LEDs, {self.colour_steps} colour steps, buttons {pressed} of {len(self.buttons)}"
        return line + (f" (not pressed: {', '.join(missing)})" if missing else "")


def walk(link: Link, geometry: Geometry, report: Callable[[str], None], step_s: float = 0.0,
         first: int = 0, rgb=WALK_RGB) -> int:
    names = geometry.led_names()
    for led in range(first, geometry.led_count):
        link.test(TestMode.LED, rgb, led)
        report(f"LED {led:>3}: {names[led]}")
        if step_s:
            time.sleep(step_s)
    return geometry.led_count - first


def colours(link: Link, geometry: Geometry, report: Callable[[str], None], step_s: float = 0.0) -> int:
    steps = 0
    for track in range(geometry.tracks):
        own = tuple(geometry.track_rgb[track])
        for name, rgb in (*COLOURS, ("its own colour", own)):
            link.test(TestMode.TRACK, rgb, track)
            report(f"track {track + 1}: {name} on every hole, its dealer LED and games-won LEDs")
            steps += 1
            if step_s:
                time.sleep(step_s)
    return steps


def button_names(geometry: Geometry) -> list[str]:
    return [f"track {t + 1} {action}" for t in range(geometry.tracks) for action in BUTTON_ACTIONS]


def buttons(link: Link, geometry: Geometry, report: Callable[[str], None], timeout_s: float,
            skip: Callable[[], bool] = lambda: False, asked: Callable[[int, str], None] | None = None,
            pins: tuple[str, ...] = ()) -> dict[str, str]:
    """Asks for each button in the firmware's order; ``asked(index, name)`` is called once a button
    is asked for (the simulator's test presses it there)."""
    results: dict[str, str] = {}
    link.test(TestMode.ALL, (0, 0, 0))      # dark: a press cannot peg during the test anyway
    link.events.clear()
    for index, name in enumerate(button_names(geometry)):
        pin = f" (pin {pins[index]})" if index < len(pins) else ""
        report(f"press {name}{pin} within {timeout_s:g} s (Enter skips)")
        if asked is not None:
            asked(index, name)
        deadline = time.monotonic() + timeout_s
        result = "timeout"
        while time.monotonic() < deadline:
            if skip():
                result = "skipped"
                break
            link.poll(BUTTON_POLL_S)
            came = _take_press(link)
            if came is not None:
                result = "pressed" if came == name else f"wrong: {came} came instead (swapped wires?)"
                break
        results[name] = result
        report(f"  {name}: {result}")
    return results


def _take_press(link: Link) -> str | None:
    """The button the board reported first ("track 2 undo"), or None."""
    if not link.events:
        return None
    event = link.events.popleft()
    return f"track {event.track + 1} {event.action.format()}"


def run(link: Link, geometry: Geometry, report: Callable[[str], None], *, step_s: float = 0.0,
        button_timeout: float = 20.0, skip: Callable[[], bool] = lambda: False,
        asked: Callable[[int, str], None] | None = None, do_buttons: bool = True,
        pins: tuple[str, ...] = ()) -> SelftestResult:
    result = SelftestResult()
    try:
        report(f"1. the strip in wiring order: each LED lights alone; it must be under the hole named")
        result.walked = walk(link, geometry, report, step_s)
        report("2. colours: each track in red, green, blue and its own colour")
        result.colour_steps = colours(link, geometry, report, max(step_s * 8, step_s))
        if do_buttons:
            report("3. buttons")
            result.buttons = buttons(link, geometry, report, button_timeout, skip, asked, pins)
    finally:
        link.test(TestMode.END)
    return result
