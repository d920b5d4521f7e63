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

# 500 states: each kind of fault still happens about 300 times (1,000 gave 620-750 of each, 12x the
# 50 the test asks for) and every unplug below still comes with a run of ordinary updates after it;
# 1,000 took 80 s of the suite (issue 56 s5).
UPDATES = 500
# Every update reaches the strip within this, a state sent while the cable was out (timed from the
# replug) and the first one (which waits for the first connection) included: a replug costs opening
# the port, the handshake and the state, each through the same 1 % faults. It once needed 4 s
# (issue 48 s6: 0.47-1.35 s alone, over 2 s twice in full suite runs). The causes, measured
# (hardware/PROTOCOL.md, "Replug"): the backoff grew to its maximum while the cable was out and a
# replug waited that long before the port was even opened; about 70 % of handshake attempts through
# these faults fail, and each waited out the 0.2 s HELLO timeout even when the damaged reply had come
# within milliseconds, while a reply read after its attempt's timeout was thrown away. Now a missing
# port is looked for every 50 ms, a damaged reply is resent at once and a late one counts
# (tests/hardware/test_board_replug.py).
CONVERGE_S = 2.0
# Half the replugs, at least, show the newest state within this: measured 0.1-0.25 s (median of the
# replugs over runs beside other work); the old backoff and handshake took 0.5-1 s.
REPLUG_MEDIAN_S = 0.5
# The cable out 0.4 to 2.6 s, mostly just after the old backoff (doubling from 50 ms to 1 s) had
# tried: it would then have waited 0.35-0.95 s more before it even opened the port.
UNPLUG_AT = {75: 0.4, 150: 0.8, 225: 1.6, 300: 2.6, 375: 1.0, 450: 2.0}


def random_state(rng: random.Random, tracks: int = 3) -> BoardState:
    pegs = []
    for _ in range(tracks):
        front = rng.randint(0, 121)
        pegs.append((front, rng.randint(0, front - 1) if front else 0))
    return BoardState(tuple(pegs), dealer=rng.choice([None, *range(tracks)]), brightness=rng.randint(1, 8),
                      skunk_line=rng.choice([None, 90]), double_skunk_line=rng.choice([None, 60]))


def test_random_updates_converge_under_faults_and_unplugs(sim, geometry3):
    """500 random states through 1 % dropped, flipped, duplicated and delayed bytes (each, both
    directions) with six unplug/replug cycles, the driver on the app's own timings: the strip shows the
    newest state within 2 s every time, a state sent while the cable was out within 2 s of the replug
    (and half the replugs within 0.5 s)."""
    rng = random.Random(2024)
    opener = FaultyOpener(sim.url, FaultRates.each(0.01), seed=7)
    worst = 0.0
    connecting_took = []
    with BoardDriver(open_port_fn=opener, geometry=geometry3) as driver:
        for i in range(UPDATES):
            state = random_state(rng)
            if i in UNPLUG_AT:
                opener.plug.unplug()
                driver.show(state)                  # never blocks, even with the cable out
                time.sleep(UNPLUG_AT[i])
                opener.plug.replug()
            else:
                driver.show(state)
            submitted = time.monotonic()
            expected = leds.render(geometry3, state)
            frame = sim.wait_for(lambda f: f.grb == expected, CONVERGE_S)
            took = time.monotonic() - submitted
            assert frame is not None, f"update {i} not shown after {took:.2f} s ({driver.last_error!r})"
            worst = max(worst, took)
            if i == 0 or i in UNPLUG_AT:            # the first connection, then each replug
                connecting_took.append(took)
        stats = dict(driver.stats)
    injected = opener.injected()
    print(f"\n{UPDATES} updates, worst convergence {worst * 1000:.0f} ms, first connection and replugs "
          f"{', '.join(f'{t * 1000:.0f}' for t in connecting_took)} ms, driver {stats}, injected {injected}")
    assert stats["connects"] >= 1 + len(UNPLUG_AT)  # the first connection and one per replug
    assert sorted(connecting_took)[len(connecting_took) // 2] <= REPLUG_MEDIAN_S
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
