"""The host driver: keeps the board showing the newest state, whatever the link does.

``BoardDriver.show(state)`` never blocks: it drops the state into a one-slot mailbox that keeps
only the newest. A worker thread connects (handshake, geometry check), sends the whole state,
waits for the acknowledgement, pings when idle, and on any link failure closes the port and
reconnects with exponential backoff, then resends the whole state. A port that is not there at
all (the cable is out) is looked for every ``REOPEN_S`` instead: a replugged board is found at
once, however long it was away.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Callable

from hardware import timeouts as T
from hardware.endpoint import DEFAULT_BAUD, Endpoint
from hardware.errors import (
    BoardRefusedError,
    LinkClosedError,
    LinkError,
    LinkTimeoutError,
    PortAbsentError,
    TrackCountError,
)
from hardware.geometry import Geometry
from hardware.link import Link
from hardware.link import EVENTS_KEPT
from hardware.messages import BoardInfo, ButtonEvent
from hardware.ports import PortCandidate, find_ports  # noqa: F401 - re-exported
from hardware.protocol import BoardFlags
from hardware.protocol import PROTOCOL_VERSION, NakReason
from hardware.state import BoardState

log = logging.getLogger(__name__)

class _Newest:
    """A queue of length one that keeps only the newest item."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._item: BoardState | None = None
        self._version = 0

    def put(self, item: BoardState) -> None:
        with self._cond:
            self._item = item
            self._version += 1
            self._cond.notify_all()

    def peek(self) -> tuple[int, BoardState | None]:
        with self._cond:
            return self._version, self._item

    def wait_newer(self, version: int, timeout: float) -> None:
        with self._cond:
            self._cond.wait_for(lambda: self._version != version, timeout)

    def wake(self) -> None:
        with self._cond:
            self._version += 1
            self._cond.notify_all()


class BoardDriver:
    """Keeps one board showing the newest state. ``url``: anything ``open_link`` opens, ``sim://``
    included (the simulated board then lives as long as the driver); ``open_port_fn``: a port
    factory instead (fault tests)."""

    def __init__(self, url: str | None = None, *, open_port_fn: Callable[[], object] | None = None,
                 geometry: Geometry | None = None, baudrate: int = DEFAULT_BAUD,
                 ack_timeout: float = T.ACK_S, idle_ping: float = T.IDLE_PING_S, dead_after: float = T.DEAD_AFTER_S,
                 backoff: tuple[float, float] = T.BACKOFF_S, protocol_version=PROTOCOL_VERSION,
                 reset_wait: float = T.RESET_WAIT_S, on_button: Callable[[ButtonEvent], None] | None = None):
        """``on_button``: called (on the driver's thread) for each button pressed on the board, which
        the board has already applied; ``button_events()`` returns them too."""
        if (url is None) == (open_port_fn is None):
            raise ValueError("give the driver a port URL or a port opener, not both")
        self._endpoint = Endpoint(url, baudrate) if url is not None else None
        self._open_port = open_port_fn or self._endpoint.open_port  # type: ignore[union-attr]
        self.reset_wait = reset_wait
        self.on_button = on_button
        self._events: collections.deque[ButtonEvent] = collections.deque(maxlen=EVENTS_KEPT)
        self.restored_state: BoardState | None = None  # what the board showed from EEPROM at connect
        self.geometry = geometry
        self.ack_timeout = ack_timeout
        self.idle_ping = idle_ping
        self.dead_after = dead_after
        self.backoff = backoff
        self.protocol_version = protocol_version
        self._mailbox = _Newest()
        self._stop = threading.Event()
        self._shown_cond = threading.Condition()
        self._shown: BoardState | None = None
        self._link: Link | None = None
        self.info: BoardInfo | None = None
        self.last_error: Exception | None = None
        self.stats = {"connects": 0, "sends": 0, "acks": 0, "failures": 0, "retries": 0}
        self._thread = threading.Thread(target=self._run, name="board-driver", daemon=True)

    # --- the caller's side: never blocks on the link ---------------------------------------
    def start(self) -> "BoardDriver":
        self._thread.start()
        return self

    def show(self, state: BoardState) -> None:
        tracks = self.geometry.tracks if self.geometry is not None else self.info.tracks if self.info else None
        if tracks is not None and state.tracks != tracks:
            raise TrackCountError(f"a {state.tracks}-track state for the {tracks}-track board")
        self._mailbox.put(state)

    def button_events(self) -> list[ButtonEvent]:
        """Button presses since the last call, oldest first."""
        events = []
        while self._events:
            events.append(self._events.popleft())
        return events

    def _button(self, event: ButtonEvent) -> None:
        self._events.append(event)
        if event.applied and event.reply.state is not None:
            with self._shown_cond:
                self._shown = event.reply.state
                self._shown_cond.notify_all()
        if self.on_button is not None:
            self.on_button(event)

    @property
    def simulator(self):
        """The simulated board of a ``sim://`` driver (None before the first connection or for a real one)."""
        return self._endpoint.simulator if self._endpoint is not None else None

    def wait_connected(self, timeout: float, *, fail_fast: bool = False) -> bool:
        """Waits until a board has answered the handshake. ``fail_fast``: raise the first failure to
        open the port at once (for one-shot commands: waiting cannot make a missing port appear)."""
        deadline = time.monotonic() + timeout
        while self.info is None:
            error = self.last_error
            if fail_fast and isinstance(error, LinkClosedError):
                raise error
            if time.monotonic() >= deadline:
                return False
            time.sleep(T.READ_SLICE_S)
        return True

    @property
    def connected(self) -> bool:
        return self._link is not None

    @property
    def shown(self) -> BoardState | None:
        """The newest state the board has acknowledged."""
        with self._shown_cond:
            return self._shown

    def wait_shown(self, state: BoardState, timeout: float) -> bool:
        """Waits until the board acknowledged ``state`` (for scripts and tests; the game need not)."""
        with self._shown_cond:
            return self._shown_cond.wait_for(lambda: self._shown == state, timeout)

    def close(self) -> None:
        self._stop.set()
        self._mailbox.wake()
        if self._thread.is_alive():
            self._thread.join(timeout=T.JOIN_S)
        link = self._link
        if link is not None and not self._thread.is_alive():
            try:
                link.bye(retries=0)   # leaving on purpose: idle, not "host lost" (one try: closing never waits long)
            except LinkError:
                pass
        self._drop_link()
        if self._endpoint is not None:
            self._endpoint.close()

    def __enter__(self) -> "BoardDriver":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the worker ---------------------------------------------------------------------------
    def _drop_link(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.close()

    def _connect(self) -> Link:
        port = self._open_port()
        link = Link(port)
        try:
            info = link.hello(self.protocol_version, geometry=self.geometry, wait=self.reset_wait)
            link.on_event = self._button
            self.restored_state = None
            if info.flags is not None and info.flags & BoardFlags.RESTORED:
                try:
                    self.restored_state = link.status().state
                except LinkTimeoutError:
                    pass        # only for the caller's information: never a reason to fail connecting
            self.info = info    # last: wait_connected() callers see restored_state already
        except BaseException:
            link.close()
            raise
        self.stats["connects"] += 1
        return link

    def _run(self) -> None:
        delay = self.backoff[0]
        board_has: BoardState | None = None   # what this connection's board acknowledged
        while not self._stop.is_set():
            if self._link is None:
                try:
                    self._link = self._connect()
                    board_has = None            # a new connection: resend the whole state
                    delay = self.backoff[0]
                except PortAbsentError as exc:
                    # nothing to open (the cable is out): looking costs nothing, so look often; a
                    # board that comes back is new and starts the backoff afresh if it fails
                    self._failed(exc)
                    delay = self.backoff[0]
                    if self._stop.wait(min(T.REOPEN_S, self.backoff[1])):
                        break
                    continue
                except LinkError as exc:
                    self._failed(exc)
                    if self._stop.wait(delay):
                        break
                    delay = min(delay * 2, self.backoff[1])
                    continue
            link = self._link
            version, wanted = self._mailbox.peek()
            try:
                if wanted is not None and wanted != board_has:
                    self.stats["sends"] += 1
                    # checks both CRCs; a damaged ack is resent at once, not after the timeout
                    link.set_state(wanted, timeout=self.ack_timeout, retries=0, resend_on_damage=True)
                    board_has = wanted
                    self.stats["acks"] += 1
                    with self._shown_cond:
                        self._shown = wanted
                        self._shown_cond.notify_all()
                    continue
                if time.monotonic() - link.last_heard > self.idle_ping:
                    link.ping(timeout=T.IDLE_PING_REPLY_S, retries=0)
            except LinkTimeoutError as exc:
                # a damaged frame or ack: try again with the newest state, unless the board has
                # been silent (not even a heartbeat) for dead_after seconds
                self.stats["retries"] += 1
                if time.monotonic() - link.last_heard > self.dead_after:
                    self._failed(exc)
                    self._drop_link()
                continue
            except BoardRefusedError as exc:
                self._failed(exc)
                if exc.nak.reason == NakReason.NO_HELLO:
                    self._drop_link()           # the board restarted: handshake again
                else:
                    self._mailbox.wait_newer(version, T.REFUSED_WAIT_S)  # refused: wait for another
                continue
            except TrackCountError as exc:      # the board has another number of tracks
                self._failed(exc)
                self._mailbox.wait_newer(version, T.REFUSED_WAIT_S)
                continue
            except LinkError as exc:            # unplugged, version or geometry mismatch, bad ack
                self._failed(exc)
                self._drop_link()
                continue
            self._mailbox.wait_newer(version, min(T.MAILBOX_WAIT_S, self.idle_ping))

    def _failed(self, exc: Exception) -> None:
        self.last_error = exc
        self.stats["failures"] += 1
        log.debug("board link: %s", exc)
