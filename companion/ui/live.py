"""The live view: card names on preview frames in a background thread. Each result (the cards
named in the newest frame, with their boxes) goes back to the UI through ``deliver``, with the
frames named per second. The thread loads its own recogniser (the shutter's stays free) and asks
it for ``preview``: names, not doubts (one detector pass in a smaller input, no second reading,
no doubt model); the shutter's photo gets the whole recognition."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveResult:
    frame_id: int
    size: tuple[int, int]                      # the frame's width, height
    cards: tuple[tuple[str, tuple, bool], ...]  # (code, box, flagged)
    fps: float
    ms: float


class LiveView:
    def __init__(self, camera, on_result: Callable[[LiveResult], None], deliver, make_recognizer,
                 idle_repeat_s: float = 1.0) -> None:
        self.camera, self.on_result, self.deliver = camera, on_result, deliver
        self.make_recognizer = make_recognizer
        self.idle_repeat_s = idle_repeat_s   # an unchanged frame is read again after this long
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.times: deque = deque(maxlen=20)
        self.frames = 0
        self.error: str | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="ui-live", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._thread = None

    def _run(self) -> None:
        try:
            recognizer = self.make_recognizer()
        except Exception as exc:
            self.error = f"live view off: {exc}"
            return
        last_id, last_time = -1, 0.0
        while not self._stop.is_set():
            frame_id = self.camera.frame_id
            frame = self.camera.frame()
            if frame is None or (frame_id == last_id and time.monotonic() - last_time < self.idle_repeat_s):
                self._stop.wait(0.02)
                continue
            started = time.perf_counter()
            try:
                recognition = recognizer.preview(frame)
            except Exception as exc:  # one bad frame must not end the live view
                self.error = str(exc)
                self._stop.wait(0.2)
                continue
            now = time.perf_counter()
            self.times.append(now)
            self.frames += 1
            last_id, last_time = frame_id, time.monotonic()
            fps = (len(self.times) - 1) / (self.times[-1] - self.times[0]) if len(self.times) > 1 else 0.0
            result = LiveResult(frame_id, (frame.shape[1], frame.shape[0]),
                                tuple((c.card, tuple(c.box), c.confirm) for c in recognition.cards),
                                fps, (now - started) * 1000)
            self.deliver(lambda result=result: self.on_result(result))
