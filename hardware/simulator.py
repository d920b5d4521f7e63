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

from hardware import power
from hardware import timeouts as T
from hardware.geometry import Geometry

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = ROOT / "hardware" / "firmware"
SIM_DIR = ROOT / "hardware" / "sim"
_instances = itertools.count()
BUTTON_ACTIONS = ("+1", "+2", "undo")   # the three buttons of each track, in wiring order
BUTTON_HOLD_MS = 80                     # a press the firmware's 20 ms debounce surely takes


class SimulatorError(OSError):
    """The simulated board could not be built or started, or it stopped."""


def build_root() -> Path:
    """Where builds go: beside the sources in a checkout (``make firmware`` puts them there too);
    from an installed package, the user's cache folder, never inside the package."""
    if (ROOT / "pyproject.toml").is_file() and os.access(FIRMWARE_DIR, os.W_OK):
        return ROOT / "hardware"
    from platformdirs import user_cache_path

    return user_cache_path("crib-companion") / "board"


def firmware_elf(geometry: str = "3-track", baud: int = 115200, current_limit_ma: int | None = None) -> Path:
    """Where a build's ELF lies (a current limit other than the default gets its own folder)."""
    limit = "" if current_limit_ma in (None, power.DEFAULT_LIMIT_MA) else f"-{current_limit_ma}mA"
    return build_root() / "firmware" / "build" / f"{geometry}-{baud}{limit}" / "crib-board.elf"


def harness() -> Path:
    """The simavr harness that runs the firmware with its UART on a pseudo-terminal."""
    return build_root() / "sim" / "build" / "board_sim"


def build(geometry: str = "3-track", baud: int = 115200, current_limit_ma: int | None = None) -> Path:
    """Builds the firmware ELF and the harness when they are missing or stale (make decides)."""
    elf = firmware_elf(geometry, baud, current_limit_ma)
    firmware = ["-C", str(FIRMWARE_DIR), f"GEOMETRY={geometry}", f"BAUD={baud}", f"BUILD={elf.parent}", "all"]
    if current_limit_ma is not None:
        firmware.insert(-1, f"CURRENT_LIMIT_MA={current_limit_ma}")
    for args in (firmware, ["-C", str(SIM_DIR), f"BUILD={harness().parent}"]):
        result = subprocess.run(["make", "-s", *args], capture_output=True, text=True)
        if result.returncode:
            raise SimulatorError(f"make {' '.join(args)} failed: {(result.stderr or result.stdout).strip()[-400:]}")
    return elf


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


def _link_in_use(path: str) -> str | None:
    """Why ``path`` cannot become this simulator's link, or None (absent, or a stale link)."""
    if not os.path.lexists(path):
        return None
    if not os.path.islink(path):
        return f"{path} exists and is not a simulator's link"
    if os.path.exists(path):     # the pty it names is alive: another simulator owns it
        return f"{path} is in use by another simulated board (its port {os.readlink(path)}); choose another --link"
    return None


class Simulator:
    def __init__(self, geometry: str = "3-track", baud: int = 115200, link_path: str | None = None,
                 history: int = 400, fast: bool = False, reset_on_open: int | None = None,
                 eeprom: str | os.PathLike | None = None, current_limit_ma: int | None = None):
        """``fast``: simulated time may run ahead of the wall clock while input waits (soak tests).
        ``reset_on_open``: every time a host opens the port the board resets and its bootloader
        keeps it this many milliseconds (a real Uno/Nano: DTR); ``eeprom``: a file that keeps the
        board's EEPROM across simulator runs (a real board keeps it across power cuts);
        ``current_limit_ma``: firmware built for another supply (make CURRENT_LIMIT_MA=...)."""
        Geometry.load(geometry)     # an unknown name is a GeometryError here, not a make error later
        if reset_on_open is not None and not 0 <= reset_on_open <= 10_000:
            raise SimulatorError(f"reset_on_open {reset_on_open} ms is not 0..10000")
        self.geometry = geometry
        self.reset_on_open = reset_on_open
        self.eeprom = None if eeprom is None else os.fspath(eeprom)
        self.fast = fast
        self.baud = baud
        self.current_limit_ma = current_limit_ma
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

    def _harness_args(self, elf: Path) -> list[str]:
        args = [str(harness()), str(elf), "--link", self.link_path]
        if self.fast:
            args.append("--fast")
        if self.reset_on_open is not None:
            args += ["--reset-on-open", str(self.reset_on_open)]
        if self.eeprom is not None:
            args += ["--eeprom", self.eeprom]
        return args

    def start(self, timeout: float = T.SIM_START_S) -> "Simulator":
        if (busy := _link_in_use(self.link_path)) is not None:
            raise SimulatorError(busy)
        elf = build(self.geometry, self.baud, self.current_limit_ma)
        process = self._process = subprocess.Popen(
            self._harness_args(elf), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1)
        deadline = time.monotonic() + timeout
        for line in process.stdout:  # type: ignore[union-attr]
            if line.startswith("PTY "):
                self.pty = line.split()[1]
                break
            if time.monotonic() > deadline:
                break
        if self.pty is None:
            process.wait(timeout=T.SIM_STOP_S) if process.poll() is None else None
            why = (process.stderr.read() if process.stderr else "").strip().splitlines()
            self.stop()
            raise SimulatorError(f"the board simulator did not start: {why[-1] if why else 'no reason given'}")
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

    def press(self, track: int, action: str, hold_ms: int = BUTTON_HOLD_MS) -> None:
        """Presses a board button: track from 0, action "+1", "+2" or "undo"."""
        if action not in BUTTON_ACTIONS:
            raise SimulatorError(f"button {action!r}: the board has {', '.join(BUTTON_ACTIONS)} per track")
        if not 0 <= track < Geometry.load(self.geometry).tracks:
            raise SimulatorError(f"track {track + 1}: the simulated {self.geometry} board has no buttons there")
        process = self._process
        if process is None or process.stdin is None or process.poll() is not None:
            raise SimulatorError("the simulated board is not running")
        process.stdin.write(f"press {3 * track + BUTTON_ACTIONS.index(action)} {hold_ms}\n")
        process.stdin.flush()

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
                self._cond.wait(min(remaining, T.SIM_POLL_S))

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=T.SIM_STOP_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream:
                    try:
                        stream.close()
                    except OSError:
                        pass
        # the harness removes its own link; a killed one leaves it dangling: only that is ours to remove
        if self.pty is not None and os.path.islink(self.link_path) and os.readlink(self.link_path) == self.pty:
            os.unlink(self.link_path)

    def __enter__(self) -> "Simulator":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
