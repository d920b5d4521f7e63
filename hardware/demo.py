"""A short random game on the board, for showing it off and for checking a wired board by eye.

``demo_states`` is the pure sequence (random points each turn, the dealer moving on each round,
the winner's comet at the end); ``play_demo`` paces it onto a running ``BoardDriver``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from hardware.state import GAME_HOLE, Animation, BoardState

MAX_POINTS_PER_TURN = 12      # random points a turn: 0..12, a typical pegging-plus-hand spread
TYPICAL_TURNS = 60            # random games of 0..12 a turn end after about this many turns (3 tracks)
MIN_STEP_S = 0.05             # one win-animation frame: quicker updates would not be seen
WIN_SHOW_S = 3.0              # how long the winner's comet runs before the demo ends (at most)
DEMO_DOUBLE_SKUNK_LINE = 60   # the demo shows both lines


class DemoError(ValueError):
    pass


@dataclass(frozen=True)
class DemoResult:
    winner: int               # track index, from 0
    turns: int
    final: BoardState


def demo_states(tracks: int, rng: random.Random, target: int = GAME_HOLE) -> Iterator[BoardState]:
    """Every state of one random game, ending with the winner's animation."""
    state = BoardState.start(tracks, dealer=0, double_skunk_line=DEMO_DOUBLE_SKUNK_LINE)
    turn = 0
    while all(front < target for front, _ in state.pegs):
        state = state.advanced(turn % tracks, rng.randint(0, MAX_POINTS_PER_TURN))
        state = replace(state, dealer=(turn // tracks) % tracks)
        turn += 1
        yield state
    winner = next(t for t, (front, _) in enumerate(state.pegs) if front >= target)
    yield replace(state, animation=Animation("win", winner))


def play_demo(driver, seconds: float, rng: random.Random, *,
              sleep: Callable[[float], None] = time.sleep,
              on_state: Callable[[int, BoardState], None] | None = None) -> DemoResult:
    """Plays one game on a connected driver in about ``seconds`` and waits for the win to show.
    ``on_state(turn, state)`` is told each state as it is sent (a progress display)."""
    if not seconds > 0:
        raise DemoError(f"--seconds {seconds:g}: the demo needs a positive length")
    if driver.info is None:
        raise DemoError("the demo needs a connected board")
    step = max(MIN_STEP_S, seconds / TYPICAL_TURNS)
    states = list(demo_states(driver.info.tracks, rng))
    for turn, state in enumerate(states[:-1], 1):
        driver.show(state)
        if on_state is not None:
            on_state(turn, state)
        sleep(step)
    final = states[-1]
    driver.show(final)
    if on_state is not None:
        on_state(len(states) - 1, final)
    driver.wait_shown(final, WIN_SHOW_S)
    sleep(min(WIN_SHOW_S, seconds / 3))
    return DemoResult(final.animation.track, len(states) - 1, final)  # type: ignore[union-attr]
