"""``crib game ...``: the replay contract, play from a terminal, list/show/undo/export/import."""

import io
import json

from companion.cli import main

from conftest import SCRIPTS


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
    status, out, _ = crib(capsys, "game", "new", "Ann", "Ben", "--short", "--muggins", "optional", "--json")
    game_id = json.loads(out)["id"]
    moves = "\n".join([
        "discard 2C 2H / 3C 9H", "cut AS", "6H", "6D", "KS", "8D", "go", "go", "7C", "4S", "7H",
        "3D claim 0",          # Ann misses the last card
        "muggins Ann",         # refused: not Ann's to take
        "muggins Ben",
        "frobnicate", "show", "show", "show claim 20", "quit"])
    status, out, _ = crib(capsys, "game", "resume", str(game_id), stdin=moves + "\n", monkeypatch=monkeypatch)
    assert status == 0
    assert "refused: by: seat 0 may not call muggins on Ann" in out
    assert "muggins: Ben takes 1 missed by Ann (play)" in out
    assert "refused: unknown move 'frobnicate'" in out
    assert "claimed 20 of 12: 8 too many, corrected (no penalty)" in out
    status, out, _ = crib(capsys, "game", "list")
    assert f"{game_id}  " in out and "Ann, Ben" in out and "19-5" in out
    status, out, _ = crib(capsys, "game", "undo", str(game_id))
    assert out.startswith("undone: show") and "1 undone" in out
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


def test_the_readme_example_is_the_committed_script_and_its_real_output(capsys):
    readme = (SCRIPTS.parents[2] / "README.md").read_text()
    example = (SCRIPTS / "readme_example.json").read_text().rstrip()
    assert example in readme
    status, out, _ = crib(capsys, "game", "replay", str(SCRIPTS / "readme_example.json"))
    assert status == 0 and out.rstrip() in readme
