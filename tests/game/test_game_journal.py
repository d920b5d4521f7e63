"""Storage: journals in SQLite, resume, schema migration from v1, one writer per game,
export / import validated."""

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.game import GameSession, JournalBusyError, JournalError, Store
from companion.game.errors import GameFileError
from companion.game.events import Discard
from companion.game.journal import DB_NAME, SCHEMA_VERSION, data_dir
from companion.game.script import run_script
from companion.game.transfer import import_game, read_export, write_export

from tests.game.conftest import script

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "journal_v1.sql"


def test_data_folder_comes_from_the_environment_variable(data_folder):
    assert data_dir() == data_folder
    store = Store()
    assert (data_folder / DB_NAME).exists()
    mode = store.db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal" and store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_stored_game_resumes_exactly(data_folder):
    store = Store()
    run = run_script(script("muggins_taken_and_declined"), store=store)
    view, game_id = run.session.view(), run.session.game_id
    run.session.undo()
    run.session.undo()
    run.session.close()
    store.close()
    again = GameSession.open(Store(), game_id)
    assert again.view().can_redo == 2
    again.redo()
    again.redo()
    assert again.view() == view


def test_the_journal_only_grows(data_folder):
    store = Store()
    session = run_script(dict(script("short_pone_pegs_out_in_show"), deals=[]), store=store).session
    session.discard([["2C", "2H"], ["3C", "9H"]])
    session.undo()
    session.forget_undone()
    rows = store.db.execute("SELECT seq, entry FROM entries WHERE game_id = ?", (session.game_id,)).fetchall()
    assert [json.loads(e)["type"] for _, e in rows] == ["new-game", "discard", "undo", "forget-undone"]


def test_a_v1_journal_is_migrated_and_replays(data_folder):
    data_folder.mkdir(parents=True)
    db = sqlite3.connect(data_folder / DB_NAME)
    db.executescript(FIXTURE.read_text())
    db.close()
    store = Store()
    assert store.schema_version() == SCHEMA_VERSION == 2
    columns = {row[1] for row in store.db.execute("PRAGMA table_info(entries)")}
    assert "written" in columns
    partial, finished = GameSession.open(store, 1), GameSession.open(store, 2)
    assert partial.view().deal_number == 2 and partial.view().phase == "discard"
    assert finished.game.results[-1].scores == (61, 33)
    partial.discard(None)  # a v1 journal takes new entries
    assert len(store.entries(1)) == len(partial.journal)


def test_a_newer_or_broken_journal_is_refused_not_damaged(data_folder):
    Store().close()
    db = sqlite3.connect(data_folder / DB_NAME)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="schema 99, newer"):
        Store()
    (data_folder / DB_NAME).write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="not a readable game journal"):
        Store()


def test_an_append_from_a_stale_session_is_refused(data_folder):
    store = Store()
    session = GameSession.new(["Ann", "Ben"], store=store)
    store.append(session.game_id, 1, Discard(None))  # another writer got there first
    with pytest.raises(JournalError, match="has 2 entries, not 1"):
        session.discard(None)
    assert session.view().phase == "discard"  # the refused entry is not in the game either


HOLDER = textwrap.dedent("""
    import sys, time
    from companion.game import GameSession, Store
    session = GameSession.open(Store(), int(sys.argv[1]))
    print("open", flush=True)
    time.sleep(30)
""")


def test_a_second_process_is_told_the_game_is_open(data_folder):
    store = Store()
    session = GameSession.new(["Ann", "Ben"], store=store)
    game_id = session.game_id
    session.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(game_id)], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ))
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(JournalBusyError, match=f"game {game_id} is open in another process \\(pid {holder.pid}\\)"):
            GameSession.open(store, game_id)
    finally:
        holder.kill()
        holder.wait()
    again = GameSession.open(store, game_id)  # the lock died with the process
    again.discard(None)
    assert len(store.entries(game_id)) == 2


def test_export_and_import_round_trip(data_folder, tmp_path):
    store = Store()
    session = run_script(script("muggins_taken_and_declined"), store=store).session
    session.undo()
    out = tmp_path / "game.json"
    write_export(session.export(), out)
    new_id = import_game(store, out)
    imported = GameSession.open(store, new_id)
    assert imported.view() == session.view()
    assert [e.as_json() for e in imported.journal] == [e.as_json() for e in session.journal]


@pytest.mark.parametrize("change, reason", [
    (lambda d: d.update(format="chess-pgn"), "format: expected 'crib-companion-game'"),
    (lambda d: d.update(version=7), "version: this program reads version 1"),
    (lambda d: d["entries"][3].update(card="11X"), "entries[3]: card: not a card"),
    (lambda d: d["entries"].insert(5, {"type": "shuffle"}), "entries[5]: type: unknown entry type"),
    (lambda d: d["entries"][2].update(starter=d["entries"][1]["cards"][0][0]), "the game does not replay: entry 2 (cut)"),
    (lambda d: d["entries"].append({"type": "redo"}), "nothing to redo"),
    (lambda d: d.update(players=["Zed", "Yan"]), "players: "),
])
def test_a_bad_import_is_refused_with_the_reason_and_nothing_is_stored(data_folder, tmp_path, change, reason):
    store = Store()
    session = run_script(script("short_pone_pegs_out_in_show"), store=store).session
    data = session.export()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    before = store.games()
    with pytest.raises(GameFileError) as caught:
        import_game(store, path)
    assert reason in str(caught.value)
    assert store.games() == before


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    with pytest.raises(GameFileError, match="not JSON"):
        read_export(path)
    with pytest.raises(GameFileError, match="cannot read"):
        read_export(tmp_path / "missing.json")
