"""A fault-injecting serial port: drops, flips, duplicates and delays bytes, and can be unplugged.

``FaultyPort`` wraps any pyserial-like port and damages bytes in both directions at the given
rates (seeded, so a failing run can be replayed); ``Plug`` unplugs every port opened through a
``FaultyOpener`` at once, the way pulling the USB cable kills the device node.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

import serial


class FaultRateError(ValueError):
    pass


@dataclass(frozen=True)
class FaultRates:
    drop: float = 0.0
    flip: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    delay_s: tuple[float, float] = (0.002, 0.02)

    def __post_init__(self) -> None:
        for name in ("drop", "flip", "duplicate", "delay"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise FaultRateError(f"{name} rate {getattr(self, name)!r} is not a probability")

    @classmethod
    def each(cls, rate: float) -> "FaultRates":
        return cls(drop=rate, flip=rate, duplicate=rate, delay=rate)


class Plug:
    """Shared by the ports of one 'cable': unplugged, every read, write and open fails."""

    def __init__(self) -> None:
        self._plugged = threading.Event()
        self._plugged.set()

    @property
    def plugged(self) -> bool:
        return self._plugged.is_set()

    def unplug(self) -> None:
        self._plugged.clear()

    def replug(self) -> None:
        self._plugged.set()


class FaultyPort:
    def __init__(self, port, rates: FaultRates, *, seed: int | None = None, plug: Plug | None = None):
        self._port = port
        self.rates = rates
        self.plug = plug or Plug()
        self._rng = random.Random(seed)
        self.injected = {"drop": 0, "flip": 0, "duplicate": 0, "delay": 0}

    def _check(self) -> None:
        if not self.plug.plugged:
            raise serial.SerialException("device unplugged")

    def _damage(self, data: bytes, sleep_ok: bool) -> bytes:
        out = bytearray()
        r, rng = self.rates, self._rng
        for byte in data:
            if rng.random() < r.drop:
                self.injected["drop"] += 1
                continue
            if rng.random() < r.flip:
                self.injected["flip"] += 1
                byte ^= 1 << rng.randrange(8)
            out.append(byte)
            if rng.random() < r.duplicate:
                self.injected["duplicate"] += 1
                out.append(byte)
            if sleep_ok and rng.random() < r.delay:
                self.injected["delay"] += 1
                self._port.write(bytes(out))
                out.clear()
                time.sleep(rng.uniform(*r.delay_s))
        return bytes(out)

    def write(self, data: bytes) -> int:
        self._check()
        damaged = self._damage(bytes(data), sleep_ok=True)
        if damaged:
            self._port.write(damaged)
        return len(data)

    def read(self, size: int = 1) -> bytes:
        self._check()
        data = self._port.read(size)
        if data and self._rng.random() < self.rates.delay * len(data):
            self.injected["delay"] += 1
            time.sleep(self._rng.uniform(*self.rates.delay_s))
        return self._damage(data, sleep_ok=False)

    @property
    def in_waiting(self) -> int:
        self._check()
        return self._port.in_waiting

    @property
    def timeout(self):
        return self._port.timeout

    @timeout.setter
    def timeout(self, value) -> None:
        self._port.timeout = value

    def close(self) -> None:
        self._port.close()


class FaultyOpener:
    """A port factory for the driver: opens ``url`` and wraps it, unless the plug is out."""

    def __init__(self, url: str, rates: FaultRates, *, seed: int = 0, plug: Plug | None = None,
                 baudrate: int = 115200):
        self.url = url
        self.rates = rates
        self.plug = plug or Plug()
        self.baudrate = baudrate
        self._seed = seed
        self.opened = 0
        self.ports: list[FaultyPort] = []

    def __call__(self) -> FaultyPort:
        from hardware.errors import PortAbsentError
        from hardware.link import open_port

        if not self.plug.plugged:   # as a USB adapter's device node: gone while the cable is out
            raise PortAbsentError(f"cannot open {self.url}: no such device (unplugged)")
        port = FaultyPort(open_port(self.url, self.baudrate), self.rates, seed=self._seed + self.opened,
                          plug=self.plug)
        self.opened += 1
        self.ports.append(port)
        return port

    def injected(self) -> dict[str, int]:
        total = {"drop": 0, "flip": 0, "duplicate": 0, "delay": 0}
        for port in self.ports:
            for k, v in port.injected.items():
                total[k] += v
        return total
