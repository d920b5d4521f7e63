"""``Companion``: what the screens call. It holds the game store and session, the board link,
the camera and the recogniser, each used on its own background lane; results and every new
game view come back on the UI thread through ``deliver``. Screens render the plain data it
hands them (``GameView``, ``Recognition``, ``PhotoShow``, ``DiscardAdvice``, ``PlayerStats``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from pathlib import Path
from typing import Any, Callable

from companion.game.phase import Phase
from companion.game.records import ShowKind
from companion.ui import settings as settings_store
from companion.ui.board_link import open_sync, waiting_line
from companion.ui.background import Background, Deliver, clock_deliver
from companion.ui.camera import FrameSource

log = logging.getLogger(__name__)
Done = Callable[[Any], None] | None
Failed = Callable[[Exception], None] | None


class Companion:
    def __init__(self, folder: Path | str | None = None, *, demo: bool = False, camera: FrameSource | None = None,
                 deliver: Deliver = clock_deliver) -> None:
        from companion.game.journal import data_dir

        self.folder = Path(folder) if folder is not None else data_dir()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.settings = settings_store.load(self.folder)
        self.demo, self.camera, self.deliver = demo, camera, deliver
        self.background = Background(deliver)
        self.view = None                  # the newest GameView, on the UI thread
        self.game_id: int | None = None
        self.board_status = waiting_line("sim" if demo else self.settings.board)
        self._session = None              # lives on the game lane
        self._store = None
        self.sync = None                  # BoardSync (game lane)
        self._recognizers: dict[Any, Any] = {}  # one recogniser per RecognizeOptions
        self._models = None  # vision.LoadedModels, read at first use
        self._view_listeners: list[Callable[[Any], None]] = []
        self.last_show = None             # the newest counted photo (PhotoShow) and its review

    # --- plumbing ------------------------------------------------------------------------------
    def on_view(self, listener: Callable[[Any], None]) -> None:
        self._view_listeners.append(listener)

    def _publish(self, view) -> None:
        self.view = view
        for listener in list(self._view_listeners):
            try:
                listener(view)
            except Exception:
                log.exception("screen failed to show the game")

    def _game(self, job, done: Done = None, failed: Failed = None) -> None:
        self.background["game"].submit(job, done, failed)

    def store(self):
        """The store (game lane only)."""
        if self._store is None:
            from companion.game.journal import Store

            self._store = Store(self.folder)
        return self._store

    @property
    def idle(self) -> bool:
        return self.background.pending == 0

    def save_settings(self, **changes) -> None:
        self.settings = dataclasses.replace(self.settings, **changes).checked()
        settings = self.settings
        self.background["files"].submit(lambda: settings_store.save(self.folder, settings))

    # --- games ----------------------------------------------------------------------------------
    def list_games(self, done: Done, failed: Failed = None) -> None:
        self._game(lambda: list(reversed(self.store().games())), done, failed)

    def new_game(self, players, rules: dict, first_dealer=None, dealer_cut=None, board: str = "none",
                 short: bool = False, count_first: bool | None = None, pegging: str | None = None,
                 done: Done = None, failed: Failed = None) -> None:
        """``short``: the short game, to 61. ``count_first``: each count shown before the claim
        (None: only when muggins is off). ``pegging``: "cards" or "points" (None: the way the
        players chose last, kept in the settings)."""
        from companion.game.session import GameSession

        pegging = self.settings.pegging if pegging is None else pegging

        def job():
            self._close_session()
            session = GameSession.new(players, rules, first_dealer=first_dealer, dealer_cut=dealer_cut,
                                      short=short, count_first=count_first, pegging=pegging,
                                      store=self.store())
            return self._adopt(session, board)
        self._game(job, self._opened(done), failed)

    def resume(self, game_id: int, board: str | None = None, done: Done = None, failed: Failed = None) -> None:
        from companion.game.session import GameSession

        def job():
            self._close_session()
            session = GameSession.open(self.store(), game_id)
            choice = board if board is not None else "sim" if self.demo else self.settings.board
            return self._adopt(session, choice)
        self._game(job, self._opened(done), failed)

    def _adopt(self, session, board: str):
        self._session = session
        session.subscribe(lambda view: self.deliver(lambda: self._publish(view)))
        self._connect_board(board)
        return session.game_id, session.view(), self.board_status

    def _opened(self, done: Done):
        def opened(result):
            self.game_id, view, self.board_status = result
            self._publish(view)
            if done:
                done(view)
        return opened

    def act(self, move: Callable[..., Any], *args, done: Done = None, failed: Failed = None, **kwargs) -> None:
        """A move on the open game, run on the game lane: ``move`` is the ``GameSession`` method
        itself (``act(GameSession.lay, "5H", done=...)`` calls ``session.lay("5H")``); ``done``
        gets what it returns, ``failed`` its error."""
        if not callable(move):
            raise TypeError(f"act takes a GameSession method (GameSession.lay), not {move!r}")

        def job():
            if self._session is None:
                raise RuntimeError("no game is open: start a new game or resume one")
            return move(self._session, *args, **kwargs)
        self._game(job, done, failed)

    def close_game(self, done: Done = None) -> None:
        self._game(self._close_session, done)

    def _close_session(self) -> None:
        if self.sync is not None:
            self.sync.close()
            self.sync = None
        if self._session is not None:
            self._session.close()
            self._session = None

    def export_game(self, game_id: int, done: Done, failed: Failed = None) -> None:
        def job():
            from companion.game.session import GameSession
            from companion.game.transfer import write_export

            data = GameSession.read(self.store(), game_id).export()
            out = self.folder / "exports" / f"game-{game_id}-{time.strftime('%Y%m%d-%H%M%S')}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            write_export(data, out)
            return str(out)
        self._game(job, done, failed)

    def statistics(self, done: Done, failed: Failed = None) -> None:
        def job():
            from companion.game import stats

            table = stats.collect(self.store())
            out = self.folder / "exports" / "statistics.csv"
            out.parent.mkdir(parents=True, exist_ok=True)
            with open(out, "w", newline="") as handle:
                stats.write_csv(table, handle)
            return table, str(out)
        self._game(job, done, failed)

    # --- the board ------------------------------------------------------------------------------
    def connect_board(self, choice: str, done: Done = None) -> None:
        self._game(lambda: self._connect_board(choice) or self.board_status, done)

    def _connect_board(self, choice: str) -> None:
        if self.sync is not None:
            self.sync.close()
            self.sync = None
        if self._session is None:
            self.board_status = "no game open"
            return
        self.sync, self.board_status = open_sync(self._session, choice, self.settings.brightness)

    def board_state(self) -> str:
        """A line for the status bar (UI thread; reads the driver's own flags)."""
        sync = self.sync
        if sync is None:
            return self.board_status
        driver = sync.driver
        if driver.info is not None and driver.connected:
            return f"{self.board_status}: connected"
        error = driver.last_error
        return f"{self.board_status}: connecting" + (f" ({error})" if error else "")

    # --- photos ---------------------------------------------------------------------------------
    def models(self):
        """The models' models.json, parsed once for the app (``vision.LoadedModels``): what the
        settings screen shows of them."""
        if self._models is None:
            from vision import read_models

            self._models = read_models()
        return self._models

    def recognize_options(self):
        """How the app reads photos (``vision.RecognizeOptions``), built here alone for the shutter's
        recogniser and the live view's: the player's threshold (None: the models' own)."""
        from vision import RecognizeOptions

        chosen = self.settings.confirm_below
        return RecognizeOptions(confirm_below=None if chosen is None else round(float(chosen), 4))

    def recognizer(self):
        options = self.recognize_options()
        if options not in self._recognizers:
            from vision import Recognizer

            self._recognizers[options] = Recognizer(options=options)
        return self._recognizers[options]

    def recognize(self, photo, done: Done, failed: Failed = None) -> None:
        """``photo``: a path or BGR pixels (a camera frame, saved as a JPEG in the data folder first).
        ``done((path, Photo, Recognition, PhotoQuality))``: the quality says when the photo is too
        blurred or too dark to read surely (``vision.photo_quality``)."""
        def job():
            path = photo
            if not isinstance(photo, (str, Path)):
                import cv2

                path = self.folder / "photos" / f"shot-{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns() % 1000}.jpg"
                path.parent.mkdir(parents=True, exist_ok=True)
                if not cv2.imwrite(str(path), photo):
                    raise OSError(f"could not save the photo in {path.parent}")
            from vision import assess_photo

            decoded, recognition = self.recognizer().read_and_recognize(str(path))
            return str(path), decoded, recognition, assess_photo(decoded.pixels)
        self.background["vision"].submit(job, done, failed)

    def count_terms(self) -> tuple[str | None, bool]:
        """What a photo is counted with now: the game's starter once cut, and whether every group
        counts as a crib (the crib, not yet known, is next)."""
        view = self.view
        if view is None or view.phase is not Phase.SHOW:
            return None, False
        nxt = view.next_show
        return view.starter, bool(nxt and nxt.kind is ShowKind.CRIB and not nxt.cards)

    def count(self, recognition, done: Done, failed: Failed = None) -> None:
        """Count a reviewed photo (``companion.photo.count_recognition``) for the game: its rules and
        ``count_terms``."""
        rules = self._rules()
        starter, all_crib = self.count_terms()

        def job():
            from companion.photo import count_recognition

            return count_recognition(recognition, starter, rules=rules, all_crib=all_crib)
        self.background["vision"].submit(job, done, failed)

    def count_cards(self, cards, starter: str, crib: bool, done: Done, failed: Failed = None) -> None:
        """Count 4 cards typed by the player (the rules core's ``score``): ``done(Show)``."""
        def job():
            from companion.rules import Card, score

            return score([Card.parse(c) for c in cards], Card.parse(starter), crib=crib)
        self.background["vision"].submit(job, done, failed)

    def _rules(self):
        from companion.game.setup import make_rules

        if self.view is not None:
            return self.view.rules
        return make_rules({"preset": self.settings.preset, "muggins": self.settings.muggins_mode})

    def advise(self, cards, dealer: bool, done: Done, failed: Failed = None) -> None:
        def job():
            from companion.rules import Card, advise

            codes = cards.split() if isinstance(cards, str) else cards
            return advise([Card.parse(c) for c in codes], dealer)
        self.background["files"].submit(job, done, failed)

    # --- the end --------------------------------------------------------------------------------
    def shutdown(self) -> None:
        if getattr(self, "_shut", False):
            return
        self._shut = True
        try:
            self.background["game"].call(self._close_session, timeout=10)
            if self._store is not None:
                self.background["game"].call(self._store.close, timeout=5)
        except Exception:
            log.exception("closing the game")
        if self.camera is not None:
            self.camera.stop()
        self.background.stop()
