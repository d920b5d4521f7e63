"""LED board link speed: full-state send -> ack through the simulated board, against a raw pty echo.

    python bench/board.py [--updates N] [--seed S]

1. Starts the real firmware (3-track, 115200 baud) in simavr under hardware/sim's harness.
2. Sends N distinct random whole states (each one really re-renders the 379-LED buffer), timing
   each from the write to its acknowledgement: median and 90th percentile (target: median <= 20 ms).
   Also times send -> the decoded strip frame (the LEDs latch after the ack: 379 x 30 us + 300 us).
3. Peer, same run: the same request bytes through a plain pty pair to an echo thread, timed until
   as many bytes as the board's ack came back: what the pty transport itself costs.
4. Prints bytes per update and the UART wire time those bytes need at 115200 baud.
5. EEPROM wear: replays the game-session scripts (tests/game/scripts) and counts the board
   changes per game, the most EEPROM records a game can cost (the firmware writes once a change
   has stood 5 s), spread over the 32 slots, against the 100,000-cycle rating.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serial  # noqa: E402

from hardware import leds  # noqa: E402
from hardware import protocol as proto  # noqa: E402
from hardware.geometry import Geometry  # noqa: E402
from hardware.link import Link, open_port  # noqa: E402
from hardware.simulator import Simulator  # noqa: E402
from hardware.state import BoardState  # noqa: E402

BAUD = 115200


def random_state(rng: random.Random) -> BoardState:
    pegs = []
    for _ in range(3):
        front = rng.randint(0, 121)
        pegs.append((front, rng.randint(0, front - 1) if front else 0))
    return BoardState(tuple(pegs), dealer=rng.randint(0, 2), brightness=rng.randint(1, 8), double_skunk_line=60)


def board_latencies(states: list[BoardState]) -> tuple[list[float], list[float], int, int]:
    geometry = Geometry.load("3-track")
    with Simulator("3-track", baud=BAUD) as sim, Link(open_port(sim.url, BAUD)) as link:
        link.hello()
        times, shown = [], []
        for state in states:
            expected = leds.render(geometry, state)
            start = time.monotonic()
            link.set_state(state, timeout=2.0, retries=2)  # a busy host CPU can stall the simulator
            times.append(time.monotonic() - start)
            frame = sim.wait_for(lambda f: f.grb == expected, 2.0)
            if frame is not None:
                shown.append(frame.wall_time - start)
        request = 1 + len(proto.Frame(proto.MessageType.SET_STATE, 1, proto.encode_state(states[0])).encode())
        ack = len(proto.Frame(proto.MessageType.SET_STATE.reply, 1, bytes(5)).encode())
        return times, shown, request, ack


def echo_latencies(requests: list[bytes], reply_len: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            os.write(master, data[:reply_len] if len(data) >= reply_len else data)

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    port = serial.serial_for_url(os.ttyname(slave), baudrate=BAUD, timeout=0.5)
    times = []
    for request in requests:
        start = time.perf_counter()
        port.write(request)
        got = 0
        while got < min(reply_len, len(request)):
            got += len(port.read(min(reply_len, len(request)) - got))
        times.append(time.perf_counter() - start)
    stop.set()
    port.close()
    os.close(master)
    return times


EEPROM_SLOTS = 32
EEPROM_CYCLES = 100_000
GAME_SCRIPTS = ROOT / "tests" / "game" / "scripts"


def board_changes_per_game() -> list[tuple[str, int, int]]:
    """(script, games finished, board changes) for each full-length game script."""
    from companion.game.engine import replay
    from companion.game.script import load_script, run_script
    from companion.game.view import board_view

    out = []
    for path in sorted(GAME_SCRIPTS.glob("*.json")):
        session = run_script(load_script(path)).session
        final = board_view(session.game)
        if final.target != 121 or final.winner is None:
            continue
        views = [board_view(replay(session.journal[:k])) for k in range(1, len(session.journal) + 1)]
        out.append((path.stem, sum(final.games_won), sum(1 for a, b in zip(views, views[1:]) if a != b)))
    return out


def print_eeprom_wear() -> None:
    rows = board_changes_per_game()
    per_game = max(changes / max(1, games) for _, games, changes in rows)
    print("  EEPROM: board changes per game to 121 (game scripts): "
          + ", ".join(f"{name} {changes}/{games}" for name, games, changes in rows))
    print(f"  worst {per_game:.0f} records a game -> {per_game / EEPROM_SLOTS:.1f} writes per cell "
          f"-> {EEPROM_CYCLES / (per_game / EEPROM_SLOTS):,.0f} games to {EEPROM_CYCLES:,} cycles")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    states = [random_state(rng) for _ in range(args.updates)]
    board, shown, request_bytes, ack_bytes = board_latencies(states)
    requests = [b"\x00" + proto.Frame(proto.MessageType.SET_STATE, i & 0xFF, proto.encode_state(s)).encode()
                for i, s in enumerate(states)]
    peer = echo_latencies(requests, ack_bytes)
    wire_ms = (request_bytes + ack_bytes) * 10 / BAUD * 1000
    med, p90 = statistics.median(board) * 1000, statistics.quantiles(board, n=10)[-1] * 1000
    peer_med = statistics.median(peer) * 1000
    print(f"full-state update, 3-track board (379 LEDs), {args.updates} distinct states, {BAUD} baud")
    print(f"  bytes per update: request {request_bytes} (incl. leading delimiter), ack {ack_bytes}; "
          f"UART wire time {wire_ms:.2f} ms")
    print(f"  send->ack through simavr: median {med:.2f} ms, p90 {p90:.2f} ms  (target median <= 20 ms: "
          f"{'met' if med <= 20 else 'MISSED'})")
    print(f"  send->strip latched (decoded from the data pin): median {statistics.median(shown) * 1000:.2f} ms "
          f"({len(shown)} of {len(states)} seen)")
    print(f"  peer, raw pty echo of the same bytes: median {peer_med:.3f} ms")
    print(f"  ratio board/peer: {med / peer_med:.1f}x; board minus wire time: {med - wire_ms:.2f} ms")
    print_eeprom_wear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
