"""Work off the UI thread: named lanes, each one thread, results back on the UI thread.

A lane runs its jobs in order (the game lane owns the SQLite store and the session, so every
write happens in one thread; recognition has its own lane, so a slow photo never delays a
peg). ``deliver`` hands a callback to the UI thread: ``Clock.schedule_once`` in the app,
a plain call in tests of the services alone.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any, Callable

log = logging.getLogger(__name__)
Deliver = Callable[[Callable[[], None]], None]


def clock_deliver(callback: Callable[[], None]) -> None:
    from kivy.clock import Clock

    Clock.schedule_once(lambda _dt: callback(), 0)


def direct_deliver(callback: Callable[[], None]) -> None:
    callback()


class Lane:
    """One worker thread running submitted jobs in order."""

    def __init__(self, name: str, deliver: Deliver) -> None:
        self.name, self.deliver = name, deliver
        self._jobs: queue.Queue = queue.Queue()
        self._pending = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"ui-{name}", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> int:
        with self._lock:
            return self._pending

    def submit(self, job: Callable[[], Any], done: Callable[[Any], None] | None = None,
               failed: Callable[[Exception], None] | None = None) -> None:
        with self._lock:
            self._pending += 1
        self._jobs.put((job, done, failed))

    def call(self, job: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run ``job`` on the lane and wait for it (start-up and shutdown only, never from a screen)."""
        box: dict = {}
        finished = threading.Event()

        def wrapper():
            try:
                box["value"] = job()
            except BaseException as exc:  # handed back to the caller
                box["error"] = exc
            finally:
                finished.set()
        with self._lock:
            self._pending += 1
        self._jobs.put((wrapper, None, None))
        if not finished.wait(timeout):
            raise TimeoutError(f"the {self.name} worker did not answer in {timeout:.0f} s")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def stop(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, done, failed = item
            try:
                value = job()
            except Exception as exc:
                log.info("%s job failed: %s", self.name, exc)
                if failed is not None:
                    self.deliver(lambda exc=exc, failed=failed: failed(exc))
            else:
                if done is not None:
                    self.deliver(lambda value=value, done=done: done(value))
            finally:
                with self._lock:
                    self._pending -= 1


class Background:
    """The app's lanes: ``game`` (store, session, board), ``vision`` (recognition), ``files``."""

    LANES = ("game", "vision", "files")

    def __init__(self, deliver: Deliver = clock_deliver) -> None:
        self.lanes = {name: Lane(name, deliver) for name in self.LANES}

    def __getitem__(self, name: str) -> Lane:
        return self.lanes[name]

    @property
    def pending(self) -> int:
        return sum(lane.pending for lane in self.lanes.values())

    def stop(self) -> None:
        for lane in self.lanes.values():
            lane.stop()
