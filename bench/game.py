"""Game session speed: loading and replaying a long game, and a score change reaching the board.

    python bench/game.py [--deals 50] [--repeat 30] [--changes 60] [--seed S]

1. Writes a random legal game of ``--deals`` deals (two players, sloppy claims with muggins
   calls, so every kind of entry is there; the target is raised so 50 deals fit in one game)
   to a journal in a temporary data folder. Times opening the journal and resuming the game
   (SQLite read, JSON parse of every entry, the undo/redo walk, the replay and the view):
   median and worst of ``--repeat`` runs (target <= 100 ms). Peers measured in the same run:
   the same entries through the rules core alone (``peg`` per deal + ``score`` per count),
   and the bare SQLite read + JSON parse.
2. Starts the simulated board (sim://2-track, the real firmware in simavr) with a BoardSync on
   a stored session (each entry committed to SQLite first), records entries of another game one by one and times each score change from the
   call to the decoded LED frame equal to the expected picture (target <= 100 ms). Peer, same
   run: the same board states shown through BoardDriver.show directly (no game, no session).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.game import GameSession, Store  # noqa: E402
from companion.game.board import BoardSync  # noqa: E402
from companion.game.events import Discard, Go, Lay  # noqa: E402
from companion.game.records import ShowKind  # noqa: E402
from companion.game.script import run_script  # noqa: E402
from companion.game.simulate import random_script  # noqa: E402
from companion.rules import Card, peg, score  # noqa: E402

LONG_GAME = {"preset": "acc", "muggins": "optional", "target": 1001}


def ms(seconds: float) -> float:
    return seconds * 1000


def bench_replay(deals: int, repeat: int, seed: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="crib-bench-"))
    store = Store(folder)
    script = random_script(seed, rules=LONG_GAME, sloppy=True, max_deals=deals)
    session = run_script(script, store=store).session
    game_id, entries = session.game_id, len(session.journal)
    counts = [(record.cards, record.starter, record.kind is ShowKind.CRIB) for record in session.game.shows]
    plays = list(_plays(session.journal))
    session.close()
    store.close()

    loads = []
    for _ in range(repeat):
        started = time.perf_counter()
        store = Store(folder)
        resumed = GameSession.open(store, game_id)
        resumed.view()
        loads.append(time.perf_counter() - started)
        resumed.close()
        store.close()
    assert resumed.game.deals_played == deals

    cards = [([Card.parse(c) for c in hand], Card.parse(starter), crib) for hand, starter, crib in counts]
    core = []
    for _ in range(repeat):
        started = time.perf_counter()
        for deal in plays:
            peg(2, deal)
        for hand, starter, crib in cards:
            score(hand, starter, crib)
        core.append(time.perf_counter() - started)

    raw = []
    for _ in range(repeat):
        started = time.perf_counter()
        db = sqlite3.connect(folder / "games.sqlite3")
        rows = db.execute("SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        [json.loads(r[0]) for r in rows]
        db.close()
        raw.append(time.perf_counter() - started)

    median = statistics.median(loads)
    print(f"1. load + replay: {deals} deals, {entries} journal entries, {len(counts)} counts")
    print(f"   open journal + resume + view: median {ms(median):.1f} ms, worst {ms(max(loads)):.1f} ms "
          f"(target <= 100 ms: {'met' if median <= 0.1 else 'MISSED'})")
    print(f"   peer, rules core alone (peg per deal + score per count): median {ms(statistics.median(core)):.1f} ms; "
          f"ratio {median / statistics.median(core):.1f}x")
    print(f"   peer, bare SQLite read + JSON parse: median {ms(statistics.median(raw)):.1f} ms; "
          f"ratio {median / statistics.median(raw):.1f}x")


def _plays(journal):
    """Each deal's play as the rules core takes it: cards, None for a go."""
    deal = None
    for entry in journal:
        if isinstance(entry, Discard):
            if deal:
                yield deal
            deal = []
        elif isinstance(entry, (Lay, Go)) and deal is not None:
            deal.append(entry.card if isinstance(entry, Lay) else None)
    if deal:
        yield deal


def bench_board(changes: int, seed: int) -> None:
    from hardware import leds
    from hardware.driver import BoardDriver
    from hardware.geometry import Geometry

    geometry = Geometry.load("2-track")
    plan = run_script(random_script(seed + 1, rules=LONG_GAME, sloppy=True, max_deals=20)).session.journal
    # a stored game, as at the table: each entry is committed (fsync) before the board hears of it
    session = GameSession.new(plan[0].players, plan[0].rules, first_dealer=plan[0].first_dealer, store=Store())
    sync = BoardSync.open("sim://2-track", session)
    times, states = [], []
    try:
        if not sync.driver.wait_connected(30):
            raise SystemExit(f"the simulated board did not answer: {sync.driver.last_error}")
        for entry in plan[1:]:
            before = session.view().scores
            started = time.monotonic()
            session.record(entry)
            if session.view().scores == before:
                continue
            expected = leds.render(geometry, sync.pushed)
            frame = sync.driver.simulator.wait_for(lambda f: f.grb == expected, 2.0)
            if frame is None:
                raise SystemExit("a score change never reached the board")
            times.append(max(frame.wall_time, started) - started)
            states.append(sync.pushed)
            if len(times) >= changes:
                break
    finally:
        sync.close()

    peer = []
    with BoardDriver("sim://2-track") as driver:
        driver.wait_connected(30)
        for state in states:
            expected = leds.render(geometry, state)
            started = time.monotonic()
            driver.show(state)
            frame = driver.simulator.wait_for(lambda f: f.grb == expected, 2.0)
            if frame is not None:
                peer.append(max(frame.wall_time, started) - started)

    median, p90 = statistics.median(times), statistics.quantiles(times, n=10)[-1]
    peer_median = statistics.median(peer)
    print(f"2. score change -> simulated board LEDs (sim://2-track, {len(times)} changes)")
    print(f"   session entry -> BoardSync -> driver -> firmware -> LED frame: median {ms(median):.1f} ms, "
          f"p90 {ms(p90):.1f} ms, worst {ms(max(times)):.1f} ms (target <= 100 ms: "
          f"{'met' if max(times) <= 0.1 else 'median met, worst over' if median <= 0.1 else 'MISSED'})")
    print(f"   peer, the same states through BoardDriver.show directly: median {ms(peer_median):.1f} ms; "
          f"ratio {median / peer_median:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("CRIB_DATA_DIR", tempfile.mkdtemp(prefix="crib-bench-data-"))
    bench_replay(args.deals, args.repeat, args.seed)
    bench_board(args.changes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
