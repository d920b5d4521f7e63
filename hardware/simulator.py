"""Start and stop the simulated board: the real firmware ELF in simavr under hardware/sim's harness.

The harness bridges UART0 to a pseudo-terminal (reachable through a per-instance symlink, so
parallel simulators never collide) and prints every LED frame it decodes from the data pin;
``Simulator`` keeps the latest frames for tests and pictures.
"""

from __future__ import annotations

import collections
import itertools
import os
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = ROOT / "hardware" / "firmware"
SIM_DIR = ROOT / "hardware" / "sim"
HARNESS = SIM_DIR / "build" / "board_sim"
_instances = itertools.count()


class SimulatorError(OSError):
    """The simulated board could not be built or started, or it stopped."""


def firmware_elf(geometry: str = "3-track", baud: int = 115200) -> Path:
    return FIRMWARE_DIR / "build" / f"{geometry}-{baud}" / "crib-board.elf"


def build(geometry: str = "3-track", baud: int = 115200) -> Path:
    """Builds the firmware ELF and the harness when they are missing or stale (make decides)."""
    for args in (["-C", str(FIRMWARE_DIR), f"GEOMETRY={geometry}", f"BAUD={baud}", "all"], ["-C", str(SIM_DIR)]):
        result = subprocess.run(["make", "-s", *args], capture_output=True, text=True)
        if result.returncode:
            raise SimulatorError(f"make {' '.join(args)} failed: {(result.stderr or result.stdout).strip()[-400:]}")
    return firmware_elf(geometry, baud)


@dataclass(frozen=True)
class DecodedFrame:
    """One latched LED frame as the strip would have received it."""

    index: int
    sim_us: int
    led_count: int
    timing_violations: int
    longest_low_cycles: int
    grb: bytes
    wall_time: float


class Simulator:
    def __init__(self, geometry: str = "3-track", baud: int = 115200, link_path: str | None = None,
                 history: int = 400, fast: bool = False):
        """``fast``: simulated time may run ahead of the wall clock while input waits (soak tests)."""
        self.geometry = geometry
        self.fast = fast
        self.baud = baud
        self.link_path = link_path or os.path.join(
            tempfile.gettempdir(), f"crib-board-{os.getpid()}-{next(_instances)}")
        self._history: collections.deque[DecodedFrame] = collections.deque(maxlen=history)
        self._latest: DecodedFrame | None = None
        self._frames_seen = 0
        self.total_violations = 0
        self._cond = threading.Condition()
        self._process: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self.pty: str | None = None

    @property
    def url(self) -> str:
        """What to open with pyserial: the symlink to the simulator's pty."""
        return self.link_path

    def start(self, timeout: float = 10.0) -> "Simulator":
        elf = build(self.geometry, self.baud)
        self._process = subprocess.Popen(
            [str(HARNESS), str(elf), "--link", self.link_path, *(["--fast"] if self.fast else [])],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        deadline = time.monotonic() + timeout
        for line in self._process.stdout:  # type: ignore[union-attr]
            if line.startswith("PTY "):
                self.pty = line.split()[1]
                break
            if time.monotonic() > deadline:
                break
        if self.pty is None:
            self.stop()
            raise SimulatorError(f"the board simulator did not start: {self._process.stderr.read()[-300:]}")
        self._reader = threading.Thread(target=self._read_frames, name="board-sim-frames", daemon=True)
        self._reader.start()
        return self

    def _read_frames(self) -> None:
        previous = b""
        try:
            lines = iter(self._process.stdout)  # type: ignore[arg-type]
            for line in lines:
                previous = self._take(line, previous)
        except (ValueError, OSError):
            pass  # stop() closed the pipe
        with self._cond:
            self._cond.notify_all()

    def _take(self, line: str, previous: bytes) -> bytes:
        """Records one FRAME line; returns the frame's bytes (an "=" line repeats the previous)."""
        if not line.startswith("FRAME "):
            return previous
        _, index, sim_us, leds, violations, longest, data = line.split()
        grb = previous if data == "=" else bytes.fromhex(data)
        frame = DecodedFrame(int(index), int(sim_us), int(leds), int(violations), int(longest), grb,
                             time.monotonic())
        with self._cond:
            self._latest = frame
            self._history.append(frame)
            self._frames_seen += 1
            self.total_violations += frame.timing_violations
            self._cond.notify_all()
        return grb

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def frames_seen(self) -> int:
        return self._frames_seen

    def latest(self) -> DecodedFrame | None:
        with self._cond:
            return self._latest

    def frames_after(self, index: int) -> list[DecodedFrame]:
        with self._cond:
            return [f for f in self._history if f.index > index]

    def wait_for(self, predicate, timeout: float) -> DecodedFrame | None:
        """The first latest frame (now or later) for which ``predicate(frame)`` holds, or None."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self._latest is not None and predicate(self._latest):
                    return self._latest
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self.running:
                    return None
                self._cond.wait(min(remaining, 0.1))

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            for stream in (process.stdout, process.stderr):
                if stream:
                    stream.close()
        if os.path.islink(self.link_path):
            os.unlink(self.link_path)

    def __enter__(self) -> "Simulator":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
