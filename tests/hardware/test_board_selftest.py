"""The self-test on the simulated board: the LED walk as decoded from the firmware's data pin,
the colour steps, and the buttons (reported, not applied: the game on the board stays)."""

import pytest

from companion.cli import main
from hardware import leds, selftest
from hardware import protocol as proto
from hardware.geometry import Geometry
from hardware.link import Link, open_port
from hardware.simulator import BUTTON_ACTIONS, Simulator
from hardware.state import BoardState

GAME = BoardState(((44, 40), (37, 30), (52, 47)), dealer=2, brightness=5, games=(1, 0, 0))


@pytest.mark.parametrize("name", ["3-track", "2-track"])
def test_walk_lights_each_led_alone_in_wiring_order_then_the_state_returns(firmware_builds, name):
    geometry = Geometry.load(name)
    with Simulator(name, history=4 * geometry.led_count) as sim, Link(open_port(sim.url)) as link:
        link.hello(geometry=geometry)
        link.set_state(GAME if name == "3-track" else BoardState(((44, 40), (37, 30)), dealer=0))
        state_frame = sim.wait_for(lambda f: f.grb == leds.render(geometry, link.status().state), 3)
        assert state_frame is not None
        lines, seen = [], []

        def watch(line):
            # the walk reports an LED once the board acknowledged it: its frame must reach the strip
            lines.append(line)
            led = len(lines) - 1
            frame = sim.wait_for(lambda f: leds.lit(f.grb).keys() == {led}, 3)
            assert frame is not None, f"LED {led} never lit alone"
            assert leds.lit(frame.grb)[led] == selftest.WALK_RGB
            seen.append(frame.index)

        since = sim.latest().index
        assert selftest.walk(link, geometry, watch) == geometry.led_count
        assert seen == sorted(seen) and len(seen) == geometry.led_count
        # nothing else was latched in between: every frame of the walk has exactly one LED lit
        assert all(len(leds.lit(f.grb)) == 1 for f in sim.frames_after(since))
        names = geometry.led_names()
        assert lines[0] == f"LED   0: {names[0]}" and "track 1 hole 1" in lines[1]
        assert lines[geometry.hole_leds[1][37]] == f"LED {geometry.hole_leds[1][37]:>3}: track 2 hole 37"
        # the colour step: every LED of a track, and nothing else
        link.test(proto.TestMode.TRACK, (120, 0, 0), 1)
        track_frame = sim.wait_for(lambda f: len(leds.lit(f.grb)) > 1, 3)
        assert set(leds.lit(track_frame.grb)) == set(leds.track_leds(geometry, 1))
        assert len(leds.track_leds(geometry, 1)) == 122 + 1 + geometry.games_per_track
        # the end of the test shows the state again, exactly as before
        link.test(proto.TestMode.END)
        assert sim.wait_for(lambda f: f.grb == state_frame.grb, 3) is not None


def test_buttons_are_reported_not_applied_and_a_missing_one_times_out(sim, geometry3):
    with Link(open_port(sim.url)) as link:
        link.hello(geometry=geometry3)
        link.set_state(GAME)

        def press(index, name):
            if name != "track 2 undo":        # a button never wired
                sim.press(index // 3, BUTTON_ACTIONS[index % 3])

        lines = []
        results = selftest.buttons(link, geometry3, lines.append, timeout_s=1.5, asked=press)
        assert list(results) == selftest.button_names(geometry3)
        assert results.pop("track 2 undo") == "timeout"
        assert set(results.values()) == {"pressed"}
        assert link.status().state == GAME           # nine presses, and no peg moved
        link.test(proto.TestMode.END)
        # out of the test, a press pegs again
        sim.press(0, "+1")
        link.poll(0.5)
        assert link.status().state.pegs[0] == (45, 44)


def test_a_swapped_button_and_a_skip_are_reported(sim, geometry3):
    with Link(open_port(sim.url)) as link:
        link.hello(geometry=geometry3)
        lines = []
        results = selftest.buttons(link, geometry3, lines.append, timeout_s=3,
                                   asked=lambda index, name: sim.press(0, "+2") if index == 0 else None,
                                   skip=lambda: any(line.startswith("  track 1 +1:") for line in lines))
        assert results["track 1 +1"] == "wrong: track 1 +2 came instead (swapped wires?)"
        assert set(list(results.values())[1:]) == {"skipped"}


def test_selftest_command_on_the_simulated_board(firmware_builds, capsys):
    assert main(["board", "selftest", "--port", "sim://2-track", "--step", "0", "--button-timeout", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("protocol 1.1") and "2-track" in out[0]
    assert "LED  14: track 1 hole 14" in out
    assert "track 2: blue on every hole, its dealer LED and games-won LEDs" in out
    assert "press track 2 undo (pin A0) within 3 s (Enter skips)" in out
    assert out[-1] == "walked 253 LEDs, 8 colour steps, buttons 6 of 6"


def test_selftest_bad_input(capsys):
    assert main(["board", "selftest", "--port", "sim://2-track", "--step", "-1"]) == 2
    assert "--step" in capsys.readouterr().err
