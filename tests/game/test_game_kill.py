"""kill -9 at random moments: every committed entry survives, the journal stays readable and
the game resumes where it was.

A forked child resumes the game and records planned entries (game entries with some undo /
redo pairs), telling the parent over a pipe after each commit; the parent kills it with
SIGKILL at a random moment (while opening, replaying, writing or between entries), then checks
the journal against everything the child had reported, and starts the next child.
"""

import os
import random
import select
import signal
import time

from companion.game import GameSession, Store
from companion.game.events import Redo, Undo
from companion.game.history import walk
from companion.game.script import run_script
from companion.game.simulate import random_script

KILLS = 200


def planned_journal(seed):
    """A long game's journal with undo/redo pairs mixed in (all of it valid in order)."""
    script = random_script(seed, rules={"preset": "acc", "muggins": "optional"}, sloppy=True)
    entries = run_script(script).session.journal
    rng = random.Random(seed)
    out = [entries[0]]
    for entry in entries[1:]:
        out.append(entry)
        if rng.random() < 0.1:
            out += [Undo(), Redo()]
    return out


def child(folder, game_id, plan, write_fd):
    try:
        store = Store(folder)
        session = GameSession.open(store, game_id)
        for entry in plan[len(session.journal):]:
            if isinstance(entry, Undo):
                session.undo()
            elif isinstance(entry, Redo):
                session.redo()
            else:
                session.record(entry)
            os.write(write_fd, f"{len(session.journal)}\n".encode())
        os.write(write_fd, b"done\n")
    finally:
        os._exit(0)


def run_child(folder, game_id, plan, rng):
    """Start a child, kill it at a random moment; the highest journal length it reported."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        child(folder, game_id, plan, write_fd)
    os.close(write_fd)
    deadline = time.monotonic() + rng.uniform(0.0, 0.06)
    reported, buffer, done = 0, b"", False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if ready:
            chunk = os.read(read_fd, 4096)
            if not chunk:
                break
            buffer += chunk
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := _read_rest(read_fd):
        buffer += chunk
    os.close(read_fd)
    for line in buffer.decode().split("\n"):
        if line == "done":
            done = True
        elif line:
            reported = max(reported, int(line))
    return reported, done


def _read_rest(fd):
    ready, _, _ = select.select([fd], [], [], 0)
    return os.read(fd, 4096) if ready else b""


def test_kill_minus_9_at_random_moments_loses_no_committed_entry(tmp_path):
    folder = tmp_path / "kill"
    rng = random.Random(20261130)
    seed, kills, games, committed_total = 1, 0, 0, 0
    started = time.monotonic()
    while kills < KILLS:
        plan = planned_journal(seed)
        store = Store(folder)
        game_id = GameSession.new(plan[0].players, plan[0].rules, first_dealer=plan[0].first_dealer,
                                  store=store).game_id
        store.close()
        games += 1
        committed = 1
        while kills < KILLS:
            reported, done = run_child(folder, game_id, plan, rng)
            kills += 1
            store = Store(folder)  # opens (and checks the schema of) the journal after the kill
            journal = store.entries(game_id)
            assert len(journal) >= max(reported, committed), "a committed entry was lost"
            assert [e.as_json() for e in journal] == [e.as_json() for e in plan[:len(journal)]]
            walk(journal)  # the history and
            resumed = GameSession.open(store, game_id)  # the game replay
            resumed.close()
            if kills % 25 == 0:
                assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            store.close()
            committed_total += len(journal) - committed
            committed = len(journal)
            if done or committed == len(plan):
                break
        seed += 1
    elapsed = time.monotonic() - started
    print(f"{kills} kills, {games} games, {committed_total} entries committed in {elapsed:.1f} s")
    assert committed_total > KILLS  # the children really wrote between the kills
