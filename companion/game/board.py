"""The LED board follows the game: every change of the session (undo included) is pushed to a
``hardware.BoardDriver``, which shows the newest state in the background and resends it after a
reconnect. Losing the board never blocks or stops the game: ``driver.show`` only drops the state
in a mailbox, and any refusal is kept in ``last_error``.

The game stays independent of the board: this adapter is the only module that imports
``hardware``, and only when a board is used.
"""

from __future__ import annotations

import logging
import threading

from companion.rules import GameEnd

from companion.game.session import GameSession
from companion.game.view import GameView

log = logging.getLogger(__name__)



def comet_of(end: GameEnd):
    """The comet (``hardware.Comet``) an end of a game lights, where the board can show skunks
    apart: the game's own verdict (lowball and 3-player games judge skunks their way), never one
    read from the pegs. Every GameEnd has its comet (a test holds them in step)."""
    from hardware import Comet

    return {GameEnd.WIN: Comet.WIN, GameEnd.SKUNK: Comet.SKUNK, GameEnd.DOUBLE_SKUNK: Comet.DOUBLE_SKUNK}[end]


def board_state(view: GameView, tracks: int | None = None, protocol: tuple[int, int] = (1, 0)):
    """The ``hardware.BoardState`` for a view: a track per side (unused tracks of a bigger board
    stay at the start), the dealer's track, the rule set's skunk lines, the win animation.
    Games won, a short game's own target and a skunk's own comet go to boards that can show them
    (``hardware.protocol.shown_by``: protocol 1.1; a 1.0 board shows every win alike and the
    short game once round into hole 121)."""
    from hardware.protocol import shown_by
    from hardware.state import Animation, BoardState, Comet

    board = view.board
    shows = shown_by(protocol)
    pegs = list(board.pegs)
    extra: dict = {}
    if shows.short_game and board.target < 121:
        pegs = [tuple(min(p, board.target) if p < 121 else board.target for p in peg) for peg in pegs]
        extra["target"] = board.target
    if shows.games_won and any(board.games_won):
        extra["games"] = tuple(board.games_won) + (0,) * ((tracks or len(pegs)) - len(pegs))
    pegs += [(0, 0)] * ((tracks or len(pegs)) - len(pegs))
    kind = comet_of(board.win_kind) if shows.skunk_comets and board.win_kind is not None else Comet.WIN
    winner = Animation(kind, board.winner) if board.winner is not None else None
    return BoardState(pegs=tuple(pegs), dealer=board.dealer, animation=winner,
                      skunk_line=board.skunk_line, double_skunk_line=board.double_skunk_line, **extra)


class BoardSync:
    """Keeps ``driver``'s board showing ``session``'s game until ``close()``."""

    def __init__(self, session: GameSession, driver) -> None:
        self.session, self.driver = session, driver
        self.last_error: Exception | None = None
        self.pushed = None
        self._view: GameView | None = None
        self._lock = threading.Lock()  # one push at a time, so an older view never lands last
        self._stop = threading.Event()
        self._unsubscribe = session.subscribe(self.push)
        self.push(session.view())
        # Until the board has said how many tracks it has, states go out with one per side;
        # a watcher re-pushes once it knows (a 3-track board showing a 2-player game).
        self._watcher = threading.Thread(target=self._watch_connect, name="board-sync", daemon=True)
        self._watcher.start()

    @classmethod
    def open(cls, url: str, session: GameSession) -> "BoardSync":
        from hardware.driver import BoardDriver

        return cls(session, BoardDriver(url).start())

    def _board(self) -> tuple[int | None, tuple[int, int]]:
        info = getattr(self.driver, "info", None)
        if info is None:
            return None, (1, 0)
        return info.tracks, tuple(info.protocol)

    def push(self, view: GameView) -> None:
        """Show ``view`` on the board (never raises, never waits for the board)."""
        with self._lock:
            self._view = view
            self._send(view)

    def _send(self, view: GameView) -> None:
        tracks, protocol = self._board()
        try:
            if tracks is not None and tracks < len(view.board.pegs):
                raise ValueError(f"the board has {tracks} tracks for {len(view.board.pegs)} sides")
            state = board_state(view, tracks, protocol)
            self.driver.show(state)
            self.pushed = state
            self.last_error = None
        except Exception as exc:  # the game goes on without the board
            self.last_error = exc
            log.warning("board: %s", exc)

    def _watch_connect(self) -> None:
        known = None
        while not self._stop.wait(0.05):
            board = self._board()
            if board[0] is not None and board != known:
                known = board
                with self._lock:  # the newest view pushed: never read the game from this thread
                    if self._view is not None:
                        self._send(self._view)

    def close(self) -> None:
        self._stop.set()
        self._unsubscribe()
        self.driver.close()
