"""``crib board``: real runs against the simulated board, and one-line errors for bad input."""

from PIL import Image

from companion.cli import main


def test_set_shows_a_state_on_the_simulated_board(firmware_builds, capsys):
    assert main(["board", "set", "--port", "sim://3-track", "--pegs", "12/8,30/25,5/0", "--dealer", "2",
                 "--brightness", "6", "--double-skunk", "60"]) == 0
    out = capsys.readouterr().out
    assert "geometry 3-track (3 tracks, 370 LEDs" in out and "shown: pegs 12/8,30/25,5/0" in out


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
    assert "of 247 LEDs lit (2-track)" in capsys.readouterr().out
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
