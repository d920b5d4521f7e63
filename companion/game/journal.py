"""Game journals in SQLite: one append-only list of entries per game, replayed into the state.

One database file in the user data folder (``platformdirs``; ``CRIB_DATA_DIR`` overrides it).
WAL with ``synchronous=FULL``: an entry is on disk when ``append`` returns, and a process
killed at any moment leaves every committed entry and a readable journal. Each append checks
the journal's length inside ``BEGIN IMMEDIATE``, and a session writing a game holds an
exclusive lock file for it (released by the OS even after ``kill -9``), so a second process
is told at once that the game is open elsewhere.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.game.errors import JournalBusyError, JournalError
from companion.game.events import Entry, entry_from_json

DATA_ENV = "CRIB_DATA_DIR"
DB_NAME = "games.sqlite3"
SCHEMA_VERSION = 2

SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
                    players TEXT NOT NULL, rules TEXT NOT NULL);
CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                      entry TEXT NOT NULL, PRIMARY KEY (game_id, seq));
INSERT INTO meta VALUES ('schema_version', '1');
"""
# Migration n takes schema n to n + 1.
MIGRATIONS = {
    1: """
ALTER TABLE games ADD COLUMN summary TEXT;   -- JSON: phase, scores, winner (for crib game list)
ALTER TABLE entries ADD COLUMN written TEXT; -- when the entry was committed (UTC)
UPDATE meta SET value = '2' WHERE key = 'schema_version';
""",
}


def data_dir() -> Path:
    """Where games live: ``$CRIB_DATA_DIR`` or the platform's user data folder (companion.paths)."""
    from companion.paths import data_dir as user_data_dir

    return user_data_dir()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True)
class GameRow:
    id: int
    created: str
    players: tuple[str, ...]
    rules: str
    entries: int
    summary: dict | None


class Store:
    """All games of one data folder. ``append`` is the only way entries are written."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else data_dir()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.path = self.folder / DB_NAME
            self.db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.folder / DB_NAME} is not a readable game journal: {exc}") from None
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"cannot open the game journal in {self.folder}: {exc}") from None
        self._locks: dict[int, int] = {}
        self._migrate()

    # --- schema --------------------------------------------------------------------------------
    def schema_version(self) -> int:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.OperationalError:
            return 0
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            version = self.schema_version()
            if version > SCHEMA_VERSION:
                raise JournalError(f"{self.path} has schema {version}, newer than this program's "
                                   f"{SCHEMA_VERSION}: update Crib Companion")
            if version == 0:
                _run(self.db, SCHEMA_V1)
                version = 1
            while version < SCHEMA_VERSION:
                _run(self.db, MIGRATIONS[version])
                version += 1
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise JournalError(f"{self.path} is not a readable game journal: {exc}") from None
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    # --- games ---------------------------------------------------------------------------------
    def create(self, first: Entry, summary: dict | None = None, entries: list[Entry] = ()) -> int:
        """A new game whose first entry is ``first`` (a NewGame); more ``entries`` may follow
        in the same transaction (an import stores all or nothing)."""
        data = first.as_json()
        with self._transaction():
            cursor = self.db.execute("INSERT INTO games (created, players, rules, summary) VALUES (?, ?, ?, ?)",
                                     (_now(), json.dumps(data["players"]), data["rules"]["name"],
                                      json.dumps(summary) if summary else None))
            game_id = cursor.lastrowid
            for seq, entry in enumerate([first, *entries]):
                self.db.execute("INSERT INTO entries (game_id, seq, entry, written) VALUES (?, ?, ?, ?)",
                                (game_id, seq, json.dumps(entry.as_json()), _now()))
        return game_id

    def append(self, game_id: int, seq: int, entry: Entry, summary: dict | None = None) -> None:
        """Write entry number ``seq``; refused if the journal does not have exactly ``seq`` entries."""
        with self._transaction():
            have = self.db.execute("SELECT count(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()[0]
            if have != seq:
                raise JournalError(f"game {game_id} has {have} entries, not {seq}: "
                                   "another process wrote to it; open it again")
            self.db.execute("INSERT INTO entries (game_id, seq, entry, written) VALUES (?, ?, ?, ?)",
                            (game_id, seq, json.dumps(entry.as_json()), _now()))
            if summary is not None:
                self.db.execute("UPDATE games SET summary = ? WHERE id = ?", (json.dumps(summary), game_id))

    def entries(self, game_id: int) -> list[Entry]:
        rows = self.db.execute("SELECT seq, entry FROM entries WHERE game_id = ? ORDER BY seq",
                               (game_id,)).fetchall()
        if not rows:
            raise JournalError(f"no game {game_id} (crib game list shows the games)")
        out = []
        for seq, text in rows:
            try:
                out.append(entry_from_json(json.loads(text)))
            except (ValueError, TypeError) as exc:
                raise JournalError(f"game {game_id}, entry {seq}: {exc}") from None
        return out

    def games(self) -> list[GameRow]:
        rows = self.db.execute(
            "SELECT g.id, g.created, g.players, g.rules, g.summary, "
            "(SELECT count(*) FROM entries e WHERE e.game_id = g.id) FROM games g ORDER BY g.id").fetchall()
        return [GameRow(r[0], r[1], tuple(json.loads(r[2])), r[3], r[5], json.loads(r[4]) if r[4] else None)
                for r in rows]

    # --- one writer per game ---------------------------------------------------------------------
    def lock(self, game_id: int) -> None:
        """Take the game for writing; JournalBusyError when another process has it."""
        if game_id in self._locks:
            return
        if self.db.execute("SELECT 1 FROM entries WHERE game_id = ? LIMIT 1", (game_id,)).fetchone() is None:
            # no lock file for a game that is not there (it would be left behind)
            raise JournalError(f"no game {game_id} (crib game list shows the games)")
        path = self.folder / f"game-{game_id}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise JournalBusyError(f"game {game_id} is open in another process (pid {holder}); "
                                   "close it there first") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._locks[game_id] = fd

    def unlock(self, game_id: int) -> None:
        fd = self._locks.pop(game_id, None)
        if fd is not None:
            os.close(fd)  # closing releases the flock

    def close(self) -> None:
        for game_id in list(self._locks):
            self.unlock(game_id)
        self.db.close()

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise JournalBusyError(f"the game journal is busy: {exc}") from None

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"the game journal refused a write: {exc}") from None


def _run(db: sqlite3.Connection, script: str) -> None:
    """Run statements one by one inside the open transaction (executescript would commit)."""
    for statement in script.split(";"):
        text = "\n".join(line.split("--")[0] for line in statement.splitlines()).strip()
        if text:
            db.execute(text)
