"""``crib game ...``: the replay contract, play from a terminal, list/show/undo/export/import."""

import io
import json

from companion.cli import main

from tests.game.conftest import SCRIPTS


def crib(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_replay_json_contract(capsys):
    status, out, err = crib(capsys, "game", "replay", str(SCRIPTS / "muggins_taken_and_declined.json"), "--json")
    assert status == 0 and err == ""
    state = json.loads(out)
    assert set(state) >= {"players", "scores", "pegs", "winner", "skunk", "game_points", "games", "match", "notes"}
    assert state["pegs"][0].keys() == {"front", "back"}
    assert [p["front"] for p in state["pegs"]] == state["scores"]
    assert state["winner"] in state["players"] and state["skunk"] in ("win", "skunk", "double skunk")
    kinds = {n["kind"] for n in state["notes"]}
    assert {"muggins", "lost"} <= kinds
    assert any("too many, corrected" in n["text"] for n in state["notes"])


def test_replay_text_names_winner_and_skipped_counts(capsys):
    status, out, _ = crib(capsys, "game", "replay", str(SCRIPTS / "short_pone_pegs_out_in_show.json"))
    assert status == 0
    assert "wins" in out and "skipped: the game had ended" in out


def test_a_bad_script_is_one_line_exit_2(capsys, tmp_path):
    data = json.loads((SCRIPTS / "short_pone_pegs_out_in_show.json").read_text())
    data["deals"][3]["play"][2] = {"card": "KS", "claim": "lots"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    status, out, err = crib(capsys, "game", "replay", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "deal 4, play[2].claim: a claim is a whole number" in err
    status, _, err = crib(capsys, "game", "replay", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read" in err


def test_new_resume_undo_show_export_import(capsys, monkeypatch, tmp_path):
    # counts shown first (the app as scorer): "show" alone accepts the count
    status, out, _ = crib(capsys, "game", "new", "Ann", "Ben", "--short", "--muggins", "optional", "--count-first",
                          "--json")
    game_id = json.loads(out)["id"]
    moves = "\n".join([
        "discard 2C 2H / 3C 9H", "cut AS", "6H", "6D", "KS", "8D", "go", "go", "7C", "4S", "7H",
        "3D claim 0",          # Ann misses the last card
        "muggins Ann",         # refused: not Ann's to take
        "muggins Ben",
        "frobnicate", "show", "show", "show claim 20", "quit"])
    status, out, _ = crib(capsys, "game", "resume", str(game_id), stdin=moves + "\n", monkeypatch=monkeypatch)
    assert status == 0
    assert "refused: Ann may not call muggins on Ann: only an opponent may (Ben)" in out
    assert "seat" not in out and "forget_undone" not in out
    assert "muggins: Ben takes 1 missed by Ann (play)" in out
    assert "refused: unknown move 'frobnicate'" in out
    assert "claimed 20 of 12: 8 too many, corrected (no penalty)" in out
    status, out, _ = crib(capsys, "game", "list")
    assert f"{game_id}  " in out and "Ann, Ben" in out and "19-5" in out
    status, out, _ = crib(capsys, "game", "undo", str(game_id))
    assert out.startswith("undone: the count of the crib, claimed 20 (1 waiting for redo")
    status, out, _ = crib(capsys, "game", "show", str(game_id), "--json")
    assert json.loads(out)["scores"] == [7, 5]
    status, out, _ = crib(capsys, "game", "export", str(game_id), str(tmp_path / "g.json"))
    assert status == 0
    status, out, _ = crib(capsys, "game", "import", str(tmp_path / "g.json"))
    assert out.strip() == f"imported as game {game_id + 1}"
    status, out, _ = crib(capsys, "game", "show", str(game_id + 1), "--json")
    assert json.loads(out)["scores"] == [7, 5]


def test_errors_are_one_line_exit_2(capsys, tmp_path):
    status, _, err = crib(capsys, "game", "show", "99")
    assert status == 2 and "no game 99" in err
    status, _, err = crib(capsys, "game", "new", "Ann")
    assert status == 2 and "2, 3 or 4 players" in err
    (tmp_path / "x.json").write_text('{"format": "crib-companion-game", "version": 1, "entries": []}')
    status, _, err = crib(capsys, "game", "import", str(tmp_path / "x.json"))
    assert status == 2 and "entries: expected" in err
    status, _, err = crib(capsys, "game", "new", "Ann", "Ben", "--rules", "vegas")
    assert status == 2 and "unknown rule set 'vegas'" in err


def test_the_guides_example_is_the_committed_script_and_its_real_output(capsys):
    readme = (SCRIPTS.parents[2] / "docs" / "GAME.md").read_text()
    example = (SCRIPTS / "readme_example.json").read_text().rstrip()
    assert example in readme
    status, out, _ = crib(capsys, "game", "replay", str(SCRIPTS / "readme_example.json"))
    assert status == 0 and out.rstrip() in readme


# ---------------------------------------------------------------- issue 17: what a newcomer tripped over

def _new_game(capsys, *extra):
    status, out, _ = crib(capsys, "game", "new", "Ann", "Ben", *extra, "--json")
    assert status == 0
    return json.loads(out)


def test_a_setting_equal_to_the_presets_own_keeps_the_presets_name(capsys):
    assert _new_game(capsys, "--muggins", "off")["rules"]["name"] == "acc"
    assert _new_game(capsys, "--rules", "pub", "--muggins", "mandatory")["rules"]["name"] == "pub"
    assert _new_game(capsys, "--short")["rules"]["name"] == "acc-short"
    assert _new_game(capsys, "--muggins", "optional")["rules"]["name"] == "acc-custom"


def test_resume_names_the_stored_game_and_never_deal_0(capsys, monkeypatch):
    _new_game(capsys)
    game_id = _new_game(capsys)["id"]
    assert game_id == 2
    status, out, _ = crib(capsys, "game", "resume", "2", stdin="discard 2C 2H / 3C 9H\nquit\n", monkeypatch=monkeypatch)
    first, typed, second = out.splitlines()[:3]  # piped in: each move is written after the prompt
    assert first.startswith("game 2, deal 1: Ann 0, Ben 0. Ann deals: discards next")
    assert typed == "move> discard 2C 2H / 3C 9H"
    assert second.startswith("game 2, deal 1: Ann 0, Ben 0. the cut next")


def test_undo_and_redo_say_the_move_in_words(capsys, monkeypatch):
    game_id = _new_game(capsys)["id"]
    moves = ["discard 2C 2H / 3C 9H", "cut AS", "6H claim 0", "undo", "redo", "undo", "forget", "state", "quit"]
    status, out, _ = crib(capsys, "game", "resume", str(game_id), stdin="\n".join(moves) + "\n", monkeypatch=monkeypatch)
    assert "  undone: Ben laying 6H, claimed 0" in out
    assert "  redone: Ben laying 6H, claimed 0" in out
    assert "  1 undone move dropped" in out
    assert "{" not in out and "forget_undone" not in out
    status, out, _ = crib(capsys, "game", "undo", str(game_id))
    assert out.startswith("undone: the cut AS (1 waiting for redo")


def test_discards_typed_without_the_slash_are_refused_with_the_slash_shown(capsys, monkeypatch):
    game_id = _new_game(capsys)["id"]
    status, out, _ = crib(capsys, "game", "resume", str(game_id), stdin="discard 5H 5D KC 2S\nquit\n",
                          monkeypatch=monkeypatch)
    assert ("refused: discard: separate each player's discards with '/', in seating order, "
            "e.g. discard 5H 5D / KC 2S") in out


def test_arrow_keys_read_from_a_pipe_are_refused_in_words(capsys, monkeypatch):
    game_id = _new_game(capsys)["id"]
    status, out, _ = crib(capsys, "game", "resume", str(game_id), stdin="\x1b[A\nquit\n", monkeypatch=monkeypatch)
    assert "refused: the line holds control keys (arrow keys edit lines only at a terminal)" in out
    assert "\\x1b" not in out


def test_at_a_terminal_resume_prompts_and_the_up_arrow_recalls_the_last_move(capsys, data_folder):
    """A real pseudo-terminal: readline gives a prompt, and Up + Enter runs the previous line again."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    game_id = _new_game(capsys)["id"]
    controller, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "companion", "game", "resume", str(game_id)],
                               stdin=terminal, stdout=terminal, stderr=terminal, close_fds=True,
                               env={**os.environ, "CRIB_DATA_DIR": str(data_folder), "TERM": "xterm"})
    os.close(terminal)
    seen = b""

    def read_until(marker: bytes, count: int = 1, timeout: float = 30.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while seen.count(marker) < count and time.monotonic() < deadline:
            if select.select([controller], [], [], 0.2)[0]:
                try:
                    seen += os.read(controller, 4096)
                except OSError:
                    return

    try:
        read_until(b"move> ")
        os.write(controller, b"help\r")
        read_until(b"move> ", 2)
        os.write(controller, b"\x1b[A\r")   # Up: the line "help" again
        read_until(b"move> ", 3)
        os.write(controller, b"quit\r")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    text = seen.decode(errors="replace")
    assert text.count("moves (cards like 5H TD QS") == 2, text
    assert "refused" not in text and process.returncode == 0


def test_resuming_a_game_that_is_not_there_leaves_no_lock_behind(capsys, data_folder):
    _new_game(capsys)
    status, _, err = crib(capsys, "game", "resume", "9")
    assert status == 2 and "no game 9" in err and err.count("\n") == 1
    assert not (data_folder / "game-9.lock").exists()


def test_stats_show_a_dash_for_a_player_who_never_had_a_crib(capsys, monkeypatch):
    game_id = _new_game(capsys)["id"]
    moves = ["discard 2C 2H / 3C 9H", "cut AS", "6H", "6D", "KS", "8D", "go", "go", "7C", "4S", "7H", "3D",
             "show", "show", "show", "quit"]
    crib(capsys, "game", "resume", str(game_id), stdin="\n".join(moves) + "\n", monkeypatch=monkeypatch)
    status, out, _ = crib(capsys, "game", "stats")
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:3]}
    header = out.splitlines()[0].split()
    crib_column = header.index("crib")
    assert rows["Ann"][crib_column] != "—" and float(rows["Ann"][crib_column]) >= 0
    assert rows["Ben"][crib_column] == "—"


def test_the_end_of_a_single_game_is_said_plainly(capsys):
    status, out, _ = crib(capsys, "game", "replay", str(SCRIPTS / "short_pone_pegs_out_in_show.json"), "--save")
    assert status == 0
    winner_line = next(line for line in out.splitlines() if "wins" in line)
    assert winner_line.endswith(("wins (2 game points)", "wins with a skunk (3 game points)"))
    assert "point(s)" not in out and "win," not in out
    game_id = json.loads(crib(capsys, "game", "replay", str(SCRIPTS / "short_pone_pegs_out_in_show.json"),
                              "--save", "--json")[1])["id"]
    status, out, _ = crib(capsys, "game", "show", str(game_id))
    assert out.rstrip().endswith("the game is over") and "match" not in out.splitlines()[-1]
