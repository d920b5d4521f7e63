"""``crib board``: real runs against the simulated board, and one-line errors for bad input."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

from companion.cli import main
from hardware import Simulator


def test_set_shows_a_state_on_the_simulated_board(firmware_builds, capsys):
    assert main(["board", "set", "--port", "sim://3-track", "--pegs", "12/8,30/25,5/0", "--dealer", "2",
                 "--brightness", "6", "--double-skunk", "60"]) == 0
    out = capsys.readouterr().out
    assert "geometry 3-track (3 tracks, 379 LEDs" in out and "shown: pegs 12/8,30/25,5/0" in out


def test_bad_pegs_are_one_line_and_status_2(capsys):
    assert main(["board", "set", "--port", "sim://3-track", "--pegs", "12/13,1/0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "crib board: error: track 1: back peg 13 must be behind the front peg 12"
    assert main(["board", "set", "--port", "loop://", "--pegs", "1/0,2/0", "--brightness", "11"]) == 2
    assert "brightness 11 is not a level 1..8" in capsys.readouterr().err


def test_unreachable_port_is_one_line(capsys):
    assert main(["board", "set", "--port", "/dev/no-such-board", "--pegs", "1/0,2/0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crib board: error: cannot open /dev/no-such-board") and err.count("\n") == 1


def test_silent_port_times_out_clearly(capsys):
    # loop:// echoes our own request back: never a reply, so the handshake times out
    assert main(["board", "set", "--port", "loop://", "--pegs", "1/0,2/0"]) == 2
    assert "no reply to HELLO" in capsys.readouterr().err


def test_render_pictures_the_read_back(firmware_builds, tmp_path, capsys):
    png = tmp_path / "board.png"
    assert main(["board", "render", "--port", "sim://2-track", "--pegs", "121/100,88/80", "--dealer", "1",
                 "--png", str(png)]) == 0
    assert "of 253 LEDs lit (2-track)" in capsys.readouterr().out
    image = Image.open(png)
    assert image.size[0] > 900 and image.getextrema() != ((92, 92), (58, 58), (30, 30))


def test_simulate_prints_its_port(firmware_builds, capsys):
    assert main(["board", "simulate", "--seconds", "0.5"]) == 0
    assert "simulated 3-track board on /" in capsys.readouterr().out


def test_demo_plays_to_a_win(firmware_builds, capsys):
    assert main(["board", "demo", "--port", "sim://3-track", "--seconds", "1.5", "--seed", "3"]) == 0
    assert " wins after " in capsys.readouterr().out


def test_ports_lists_without_error(capsys):
    assert main(["board", "ports"]) == 0
    assert capsys.readouterr().out


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def test_unknown_simulated_geometry_is_one_line(capsys):
    assert main(["board", "set", "--port", "sim://4-track", "--pegs", "1/0,2/0"]) == 2
    assert _one_line_error(capsys) == "crib board: error: no geometry '4-track' (known: 2-track, 3-track)"


def test_tracks_are_numbered_from_one_in_errors(capsys):
    assert main(["board", "set", "--port", "sim://2-track", "--pegs", "1/0,2/0", "--dealer", "3"]) == 2
    assert _one_line_error(capsys) == "crib board: error: dealer on track 3: the board has tracks 1..2"


def test_double_skunk_line_must_be_below_the_skunk_line(capsys):
    assert main(["board", "set", "--port", "loop://", "--pegs", "1/0,2/0", "--double-skunk", "95"]) == 2
    assert "double skunk line 95 must be below the skunk line 90" in _one_line_error(capsys)


def test_track_count_is_checked_before_sending(firmware_builds, capsys):
    assert main(["board", "set", "--port", "sim://3-track", "--pegs", "12/8,30/25"]) == 2
    assert _one_line_error(capsys) == ("crib board: error: 2 tracks given (12/8,30/25) for a 3-track board "
                                       "(3-track): give front/back pegs for tracks 1..3")


def test_demo_refuses_a_negative_length_before_playing(capsys):
    assert main(["board", "demo", "--port", "sim://3-track", "--seconds", "-5"]) == 2
    assert _one_line_error(capsys) == "crib board: error: --seconds -5: the demo needs a positive length"


def test_demo_on_a_missing_port_fails_at_once_in_one_line(capsys):
    start = time.monotonic()
    assert main(["board", "demo", "--port", "/dev/no-such-board"]) == 2
    assert time.monotonic() - start < 1.0
    assert _one_line_error(capsys).startswith("crib board: error: cannot open /dev/no-such-board")


def test_simulate_with_an_impossible_link_is_one_line(firmware_builds, capsys):
    assert main(["board", "simulate", "--link", "/nonexistent/dir/x", "--seconds", "1"]) == 2
    err = _one_line_error(capsys)
    assert err.startswith("crib board: error: the board simulator did not start") and "/nonexistent/dir/x" in err


def test_a_second_simulator_does_not_take_over_a_link_in_use(firmware_builds, tmp_path, capsys):
    link = str(tmp_path / "board")
    with Simulator(link_path=link) as first:
        assert main(["board", "simulate", "--link", link, "--seconds", "0.5"]) == 2
        assert "is in use by another simulated board" in _one_line_error(capsys)
        assert os.readlink(link) == first.pty        # the first keeps its link
        assert main(["board", "set", "--port", link, "--pegs", "1/0,2/0,3/0"]) == 0


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_sigterm_stops_the_harness_and_removes_the_link(firmware_builds, tmp_path):
    link = tmp_path / "board"
    crib = Path(sys.executable).parent / "crib"
    process = subprocess.Popen([str(crib), "board", "simulate", "--link", str(link)], stdout=subprocess.PIPE,
                               text=True)
    try:
        assert "simulated 3-track board" in process.stdout.readline()
        harness = _children(process.pid)
        assert harness and os.path.islink(link)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        time.sleep(0.2)
        assert not any(Path(f"/proc/{pid}").exists() for pid in harness)
        assert not os.path.lexists(link)
    finally:
        if process.poll() is None:
            process.kill()


def test_peg_and_undo_from_the_command_line(firmware_builds, tmp_path, capsys):
    link = str(tmp_path / "board")
    with Simulator(link_path=link):
        assert main(["board", "set", "--port", link, "--pegs", "12/8,30/25,5/0", "--games", "0,1,0"]) == 0
        capsys.readouterr()
        assert main(["board", "peg", "--port", link, "2", "+6"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("track 2 pegged +6: pegs 12/8,36/30,5/0") and "games 0,1,0" in out
        assert main(["board", "undo", "--port", link]) == 0
        assert capsys.readouterr().out.startswith("undone: pegs 12/8,30/25,5/0")
        assert main(["board", "peg", "--port", link, "4", "+2"]) == 2
        assert _one_line_error(capsys) == "crib board: error: track 4: the board has tracks 1..3"
        assert main(["board", "undo", "--port", link, "1"]) == 2
        assert _one_line_error(capsys) == "crib board: error: board refused the UNDO request (value)"


def test_short_game_and_skunk_from_the_command_line(firmware_builds, capsys):
    assert main(["board", "set", "--port", "sim://2-track", "--short", "--pegs", "61/55,28/20",
                 "--skunk", "30", "--animate", "skunk:1"]) == 0
    assert "shown: pegs 61/55,28/20" in capsys.readouterr().out
    assert main(["board", "set", "--port", "loop://", "--short", "--pegs", "70/0,1/0"]) == 2
    assert "front peg 70 is off the board (0..61)" in _one_line_error(capsys)


def test_simulate_presses_buttons_typed_on_its_input(firmware_builds, tmp_path, capsys):
    link = tmp_path / "board"
    crib = Path(sys.executable).parent / "crib"
    process = subprocess.Popen([str(crib), "board", "simulate", "--link", str(link)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        assert "simulated 3-track board" in process.stdout.readline()
        process.stdin.write("press 1 +2\n")
        process.stdin.flush()
        assert process.stdout.readline().strip() == "pressed +2 on track 1"
        for _ in range(10):                  # the press lands within a few ms; a loaded machine may lag
            time.sleep(0.3)
            assert main(["board", "status", "--port", str(link)]) == 0
            out = capsys.readouterr().out
            if "button presses 1" in out:
                break
        assert "pegs 2/0,0/0,0/0" in out and "button presses 1" in out
    finally:
        process.terminate()
        process.wait(timeout=10)


# ---------------------------------------------------------------- issue 17: the board commands as a newcomer meets them

def test_demo_runs_on_the_simulator_by_default_and_shows_the_game_as_it_goes(firmware_builds, capsys):
    assert main(["board", "demo", "--seconds", "1.5", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("connected on sim://3-track: protocol ") and "geometry 3-track" in lines[0]
    progress = [line for line in lines if line.startswith("turn ")]
    assert len(progress) >= 3
    fronts = [[int(points) for points in re.findall(r"\] +(\d+)", line)] for line in progress]
    assert all(len(front) == 3 for front in fronts)
    assert all(a <= b for first, later in zip(fronts, fronts[1:]) for a, b in zip(first, later))
    assert progress[-1].endswith("wins") and any(front >= 121 for front in fronts[-1])
    assert " wins after " in lines[-2]


def test_ports_are_listed_under_column_headings(capsys, monkeypatch):
    from companion.cli import board_commands
    from hardware.ports import PortCandidate

    found = [PortCandidate("/dev/ttyUSB0", "USB2.0-Serial", "CH340"), PortCandidate("/dev/ttyS0", "ttyS0", None)]
    monkeypatch.setattr(board_commands, "find_ports", lambda: found)
    assert main(["board", "ports"]) == 0
    head, first, second = capsys.readouterr().out.splitlines()
    assert head.split() == ["port", "what", "it", "is", "description"]
    assert first.split("  ")[0] == "/dev/ttyUSB0" and "likely board (CH340)" in first
    assert head.index("what it is") == first.index("likely board") == second.index("other")
    assert head.index("description") == first.index("USB2.0-Serial")


def test_rendered_pictures_name_each_track_in_its_colour(firmware_builds, tmp_path, capsys):
    from hardware.geometry import Geometry
    from hardware.render import label_box

    png = tmp_path / "board.png"
    assert main(["board", "render", "--port", "sim://3-track", "--pegs", "12/8,30/25,5/0", "--png", str(png)]) == 0
    image = Image.open(png).convert("RGB")
    geometry = Geometry.load("3-track")
    for track in range(3):
        label = np.asarray(image.crop(label_box(geometry, track)), dtype=int)
        colour = np.array([min(255, c + 60) for c in geometry.track_rgb[track]])
        near = (np.abs(label - colour).sum(axis=2) < 60).sum()
        assert near > 40, f"no 'track {track + 1}' written in its colour"
