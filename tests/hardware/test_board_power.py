"""The board's current: the firmware keeps every frame it latches within the supply's budget.

The real firmware runs in simavr; every frame decoded from its data pin while it shows the
brightest states (each brightness level, the winner's comet running) and the self-test's
patterns is measured with the model of hardware/power.py and compared with the host's picture."""

import random

import pytest

from hardware import leds, palette, power, power_worst
from hardware.geometry import Geometry
from hardware.link import Link, open_port
from hardware import protocol as proto
from hardware.simulator import Simulator

ROOT_DOC = "docs/BOARD.md"
COMET_FRAMES = range(0, 121 + 8)      # every frame the comet can show, and then some


def test_limiter_keeps_any_frame_within_the_budget_and_leaves_smaller_ones_alone():
    rng = random.Random(38)
    for _ in range(300):
        grb = bytes(rng.choice((0, rng.randrange(256), 255)) for _ in range(3 * rng.randrange(1, 400)))
        budget = rng.randrange(1, 70000)
        out = power.limit(grb, budget)
        assert sum(out) <= budget
        if sum(grb) <= budget:
            assert out == grb
        else:   # scaled alike: no channel grows, and the order of the channels is kept
            assert all(o <= b for o, b in zip(out, grb))
            ranked = [out[i] for i in sorted(range(len(grb)), key=grb.__getitem__)]
            assert ranked == sorted(ranked)


def test_budget_follows_the_supply_and_refuses_a_limit_below_the_dark_board():
    assert power.light_budget(379, 500) == (500 - 30 - 379) * 255 // 20
    assert power.light_budget(253, 2000) > power.light_budget(253, 500)
    with pytest.raises(power.PowerError, match="below the 409 mA the board draws dark"):
        power.light_budget(379, 400)


def test_worst_frame_is_the_sum_of_everything_the_firmware_draws_at_once():
    geometry = Geometry.load("3-track")
    frame, state, _ = power_worst.worst_frame(geometry, 8)
    # 3 x (front, back, 3 games, 2 skunk markers) + dealer + 4 comet LEDs + status
    assert frame.lit == 3 * 7 + 1 + 4 + 1
    assert state.animation.kind == "win"    # the white comet is the brightest
    rows = power_worst.table(geometry)
    assert [r["scaled"] for r in rows] == [r["units"] > power.light_budget(379) for r in rows]
    assert rows[-1]["drawn_ma"] > 900 and rows[-1]["shown_ma"] <= 500


def _frames_within(sim, budget_ma, since):
    frames = sim.frames_after(since)
    assert frames, "no frame latched"
    for frame in frames:
        assert power.current_ma(frame.grb) <= budget_ma, (frame.index, power.current_ma(frame.grb))
    return frames


@pytest.mark.parametrize("name", ["3-track", "2-track"])
def test_worst_states_and_comets_stay_within_500_ma_on_the_strip(firmware_builds, name):
    geometry = Geometry.load(name)
    with Simulator(name, history=2000) as sim, Link(open_port(sim.url)) as link:
        info = link.hello(geometry=geometry)
        assert info.light_budget == power.light_budget(geometry.led_count)
        assert sim.wait_for(lambda f: True, 10) is not None  # the hello's first frame, latched and decoded
        for level in palette.BRIGHTNESS_LEVELS:
            frame, state, _ = power_worst.worst_frame(geometry, level)
            since = sim.latest().index
            link.set_state(state)
            pictures = {leds.render(geometry, state, leds.LinkStatus.CONNECTED, n) for n in COMET_FRAMES}
            # the comet runs: a run of latched frames, each one the host's picture and within budget
            seen = sim.wait_for(lambda f: f.index > since + 6, 15)  # seconds: a loaded machine slows the simulator
            assert seen is not None
            frames = _frames_within(sim, power.DEFAULT_LIMIT_MA, since)
            assert all(f.grb in pictures for f in frames if f.index > since + 1)
            drawn = power.current_ma(leds.draw(geometry, state, leds.LinkStatus.CONNECTED, power_worst.WORST_COMET_FRAME))
            if drawn > power.DEFAULT_LIMIT_MA:      # the limiter really acted: brighter than USB can feed
                assert max(power.current_ma(f.grb) for f in frames) > power.DEFAULT_LIMIT_MA - 10
        # the self-test's brightest patterns
        for mode, index in ((proto.TestMode.ALL, 0), (proto.TestMode.TRACK, 1)):
            since = sim.latest().index
            link.test(mode, (255, 255, 255), index)
            expected = leds.render_test(geometry, mode, (255, 255, 255), index)
            assert sim.wait_for(lambda f: f.grb == expected, 10) is not None
            assert power.current_ma(expected) <= power.DEFAULT_LIMIT_MA
            assert len(leds.lit(expected)) >= 100           # scaled down, not blacked out
            _frames_within(sim, power.DEFAULT_LIMIT_MA, since)
        link.test(proto.TestMode.END)
        link.bye()
    assert sim.total_violations == 0


def test_a_larger_supply_set_at_build_time_lets_the_brightest_frame_through(firmware_builds):
    geometry = Geometry.load("2-track")
    with Simulator("2-track", current_limit_ma=1000) as sim, Link(open_port(sim.url)) as link:
        info = link.hello(geometry=geometry)
        assert (info.current_limit_ma, info.light_budget) == (1000, power.light_budget(253, 1000))
        frame, state, _ = power_worst.worst_frame(geometry, 8)
        link.set_state(state)
        unscaled = {leds.draw(geometry, state, leds.LinkStatus.CONNECTED, n) for n in COMET_FRAMES}
        since = sim.latest().index
        assert sim.wait_for(lambda f: f.index > since + 4 and f.grb in unscaled, 5) is not None
        frames = _frames_within(sim, 1000, since)
        assert max(power.current_ma(f.grb) for f in frames) > power.DEFAULT_LIMIT_MA   # more than USB's
        link.bye()


def test_the_guide_states_the_computed_power_table():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / ROOT_DOC).read_text()
    for name in ("3-track", "2-track"):
        assert power_worst.markdown_table(Geometry.load(name)) in guide
