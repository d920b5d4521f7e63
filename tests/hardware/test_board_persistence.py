"""Resets and power cuts: the board keeps its state in EEPROM (simulated: a file across simulator
runs) and shows it marked "restored"; the host waits out the reset that opening the port causes."""

import os
import termios
import time

from companion.cli import main
from hardware import BoardDriver, leds
from hardware import timeouts
from hardware.endpoint import open_port
from hardware.link import Link
from hardware.protocol import BoardFlags
from hardware.simulator import Simulator
from hardware.state import BoardState

FIRST = BoardState(((44, 40), (37, 30), (52, 47)), dealer=2, brightness=6, games=(1, 0, 0))
SECOND = BoardState(((50, 44), (41, 37), (60, 52)), dealer=0, brightness=6, games=(1, 0, 0))
SLOT, RECORD = 32, 4 + 1 + 17 + 4 + 2


def _set_and_leave(sim, state):
    with Link(open_port(sim.url)) as link:
        link.hello()
        link.set_state(state)
        link.bye()                       # the goodbye writes the state at once
        deadline = time.monotonic() + 2
        while link.hello() and link.status().eeprom_saves == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        status = link.status()
        link.bye()
        return status


def test_the_state_survives_a_power_cut_and_shows_as_restored(firmware_builds, tmp_path, geometry3):
    eeprom = tmp_path / "board.eeprom"
    with Simulator(eeprom=eeprom) as sim:
        assert _set_and_leave(sim, FIRST).eeprom_saves == 1
    assert eeprom.stat().st_size == 1024
    with Simulator(eeprom=eeprom) as sim:           # power on again
        restored = leds.render(geometry3, FIRST, leds.LinkStatus.RESTORED)
        assert sim.wait_for(lambda f: f.grb == restored, 3) is not None   # shown before any host
        with Link(open_port(sim.url)) as link:
            link.hello()
            status = link.status()
            assert status.restored and status.state == FIRST and status.eeprom_saves == 0
            link.set_state(FIRST)                   # a host confirms it
            assert not link.status().restored
            connected = leds.render(geometry3, FIRST, leds.LinkStatus.CONNECTED)
            assert sim.wait_for(lambda f: f.grb == connected, 2) is not None
    with Simulator(eeprom=eeprom) as sim:           # the driver tells its caller what was restored
        with BoardDriver(sim.url, geometry=geometry3) as driver:
            assert driver.wait_connected(3)
            assert driver.info.flags & BoardFlags.RESTORED and driver.restored_state == FIRST


def test_writes_wait_for_a_stable_state_and_level_the_wear(firmware_builds, tmp_path):
    eeprom = tmp_path / "board.eeprom"
    with Simulator(eeprom=eeprom) as sim, Link(open_port(sim.url)) as link:
        link.hello()
        for front in range(1, 30):                  # a burst of changes: nothing written yet
            link.set_state(BoardState(((front, front - 1), (0, 0), (0, 0))))
        last_change = link.status().uptime_ms
        deadline = time.monotonic() + 15
        while (status := link.status()).eeprom_saves == 0 and time.monotonic() < deadline:
            assert status.uptime_ms < last_change + 5000 + 300   # SAVE_AFTER_MS, then a record's writing
            time.sleep(0.2)
        assert status.eeprom_saves == 1 and status.uptime_ms >= last_change + 5000 - 100   # status came after the change
        link.set_state(BoardState(((29, 28), (0, 0), (0, 0))))   # the same again: no write
        for n in range(3):                          # goodbyes write at once, each into the next slot
            link.set_state(BoardState(((30 + n, 29), (0, 0), (0, 0))))
            link.bye()
            time.sleep(0.3)
            link.hello()
        status = link.status()
        assert (status.eeprom_saves, status.eeprom_records) == (4, 4)
    time.sleep(0.2)
    image = eeprom.read_bytes()
    used = [slot for slot in range(32) if image[slot * SLOT] != 0xFF]
    assert used == [0, 1, 2, 3]                     # one record per slot, round the ring


def test_a_record_cut_short_falls_back_to_the_one_before(firmware_builds, tmp_path, geometry3):
    eeprom = tmp_path / "board.eeprom"
    with Simulator(eeprom=eeprom) as sim:
        _set_and_leave(sim, FIRST)
        _set_and_leave(sim, SECOND)
    image = bytearray(eeprom.read_bytes())
    image[SLOT + RECORD - 5] ^= 0xFF                # the power failed while slot 1 was written
    eeprom.write_bytes(bytes(image))
    with Simulator(eeprom=eeprom) as sim, Link(open_port(sim.url)) as link:
        link.hello()
        status = link.status()
        assert status.restored and status.state == FIRST and status.eeprom_records == 1


def test_reset_on_open_is_waited_out_and_the_first_set_lands(firmware_builds, tmp_path, capsys, geometry3):
    """A board that resets whenever its port opens (1.6 s bootloader, like an old Nano): each
    one-shot command waits it out; the second command reads what the first one set."""
    eeprom, link_path = tmp_path / "board.eeprom", str(tmp_path / "board")
    with Simulator(link_path=link_path, reset_on_open=1600, eeprom=eeprom):
        start = time.monotonic()
        assert main(["board", "set", "--port", link_path, "--pegs", "44/40,37/30,52/47", "--dealer", "3",
                     "--brightness", "6", "--games", "1,0,0"]) == 0
        took = time.monotonic() - start
        assert 1.6 < took < timeouts.RESET_WAIT_S + 0.5
        assert "shown: pegs 44/40,37/30,52/47" in capsys.readouterr().out
        png = tmp_path / "board.png"
        assert main(["board", "render", "--port", link_path, "--png", str(png)]) == 0   # no --pegs
        assert "of 379 LEDs lit" in capsys.readouterr().out
        assert main(["board", "status", "--port", link_path]) == 0
        out = capsys.readouterr().out
        assert "pegs 44/40,37/30,52/47" in out and "restored from EEPROM" in out
        assert main(["board", "peg", "--port", link_path, "3", "+5"]) == 0     # each command resets it
        assert main(["board", "undo", "--port", link_path]) == 0              # the undo was kept too
        assert capsys.readouterr().out.splitlines()[-1].startswith("undone: pegs 44/40,37/30,52/47")


def test_opening_a_port_keeps_dtr_raised_after_close(tmp_path):
    """POSIX: HUPCL cleared, so closing the port does not drop DTR and the next open makes no reset edge."""
    master, slave = os.openpty()
    try:
        port = open_port(os.ttyname(slave))
        assert termios.tcgetattr(port.fd)[2] & termios.HUPCL == 0
        port.close()
    finally:
        os.close(master)
        os.close(slave)


def test_status_flags_name_the_look(firmware_builds, tmp_path):
    with Simulator() as sim, Link(open_port(sim.url)) as link:
        link.hello()
        link.set_state(FIRST)
        assert link.status().flags & (BoardFlags.RESTORED | BoardFlags.HOST_LEFT) == 0
