"""A request/reply link to the board over anything pyserial opens by URL.

``open_link("/dev/ttyUSB0")``, ``open_link("loop://")``, ``open_link("socket://host:port")`` or
``open_link("sim://3-track")`` (starts the simulated board and owns it). Every request waits for
its reply with a monotonic deadline and is retried with a fresh sequence number; frames that
are not the awaited reply (heartbeats, stale replies) are taken note of and skipped.
"""

from __future__ import annotations

import time
from typing import Callable

import serial

from hardware import protocol as proto
from hardware.protocol import BoardInfo, Frame, FrameDecoder, MessageType, NakReason
from hardware.state import BoardState

DEFAULT_BAUD = 115200
SIM_SCHEME = "sim://"
READ_SLICE_S = 0.01


class LinkError(OSError):
    """The board link failed."""


class LinkTimeoutError(LinkError, TimeoutError):
    """No reply within the deadline (after the retries)."""


class LinkClosedError(LinkError):
    """The port went away (unplugged) or was closed."""


class ProtocolVersionError(LinkError):
    """The board speaks another major protocol version: refused, never guessed at."""


class BoardRefusedError(LinkError):
    """The board answered with a NAK."""

    def __init__(self, nak: proto.Nak):
        super().__init__(nak.format())
        self.nak = nak


class GeometryMismatchError(LinkError):
    """The board's wiring is not the geometry the host expects."""


class Link:
    """One open port to one board. Not thread-safe: the driver's worker owns it."""

    def __init__(self, port, *, on_close: Callable[[], None] | None = None):
        self.port = port
        self._on_close = on_close
        self._decoder = FrameDecoder()
        self._seq = 0
        self.last_heard = time.monotonic()
        self.last_pulse: proto.Pulse | None = None
        self.info: BoardInfo | None = None
        self.bytes_sent = 0
        self.bytes_received = 0
        self.retries = 0
        self._host_version = proto.PROTOCOL_VERSION
        # a short fixed read timeout, set once: changing it reconfigures a real port every time
        port.timeout = READ_SLICE_S

    # --- transport -------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        try:
            self.port.write(data)
            self.bytes_sent += len(data)
        except (serial.SerialException, OSError) as exc:
            raise LinkClosedError(f"writing to the board failed: {exc}") from exc

    def poll(self, wait: float = 0.0) -> list[Frame]:
        """Reads what has arrived: heartbeats are taken note of, other frames returned."""
        return self._read_frames(wait)

    def _read_frames(self, wait: float) -> list[Frame]:
        deadline = time.monotonic() + wait
        while True:
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError) as exc:
                raise LinkClosedError(f"reading from the board failed: {exc}") from exc
            if data or time.monotonic() >= deadline:
                break
        if not data:
            return []
        self.bytes_received += len(data)
        frames = self._decoder.feed(data)
        if frames:
            self.last_heard = time.monotonic()
        out = []
        for frame in frames:
            if frame.type == MessageType.HEARTBEAT:
                try:
                    self.last_pulse = proto.Pulse.decode(frame.payload)
                except proto.ProtocolError:
                    pass
            else:
                out.append(frame)
        return out

    def request(self, msg_type: MessageType, payload: bytes = b"", *, timeout: float = 0.25,
                retries: int = 3) -> Frame:
        """Sends and waits for the matching reply; raises LinkTimeoutError after the retries."""
        for attempt in range(retries + 1):
            self._seq = (self._seq + 1) & 0xFF
            seq = self._seq
            # the leading 0x00 ends any garbage the board may hold, so this frame starts clean
            self._write(b"\x00" + Frame(msg_type, seq, payload).encode())
            deadline = time.monotonic() + timeout
            while (remaining := deadline - time.monotonic()) > 0:
                for frame in self._read_frames(min(remaining, 0.05)):
                    if frame.seq != seq:
                        continue  # a late reply to an earlier attempt
                    if frame.type == MessageType.NAK:
                        self._refused(proto.Nak.decode(frame.payload))
                    if frame.type == msg_type.reply:
                        return frame
            if attempt < retries:
                self.retries += 1
        raise LinkTimeoutError(f"no reply to {msg_type.name} within {timeout:.3f} s ({retries} retries)")

    def _refused(self, nak: proto.Nak) -> None:
        if nak.reason == NakReason.VERSION:
            host = self._host_version
            raise ProtocolVersionError(
                f"the board speaks protocol {nak.board_protocol[0]}.{nak.board_protocol[1]}, this host "
                f"{host[0]}.{host[1]}: update the firmware or the host")
        raise BoardRefusedError(nak)

    # --- requests --------------------------------------------------------------------
    def hello(self, version: tuple[int, int] = proto.PROTOCOL_VERSION, *, timeout: float = 0.3,
              retries: int = 3, geometry=None) -> BoardInfo:
        """The handshake; the host speaks first (bytes a board sends before the port opens are lost)."""
        self._host_version = version
        reply = self.request(MessageType.HELLO, proto.encode_hello(version), timeout=timeout, retries=retries)
        info = BoardInfo.decode(reply.payload)
        if info.protocol[0] != version[0]:
            raise ProtocolVersionError(
                f"the board speaks protocol {info.protocol[0]}.{info.protocol[1]}, this host "
                f"{version[0]}.{version[1]}: update the firmware or the host")
        if geometry is not None and (info.geometry_id != geometry.geometry_id or info.tracks != geometry.tracks):
            raise GeometryMismatchError(
                f"the board is wired as {info.geometry_name} (id 0x{info.geometry_id:04X}), "
                f"expected {geometry.name} (id 0x{geometry.geometry_id:04X})")
        self.info = info
        return info

    def set_state(self, state: BoardState, *, timeout: float = 0.1, retries: int = 3) -> proto.Ack:
        payload = proto.encode_state(state)
        reply = self.request(MessageType.SET_STATE, payload, timeout=timeout, retries=retries)
        ack = proto.Ack.decode(reply.payload)
        if ack.state_crc != proto.crc16(payload):
            raise LinkError("the board acknowledged a state other than the one sent")
        return ack

    def readback(self, offset: int, count: int, *, timeout: float = 0.2, retries: int = 3) -> bytes:
        reply = self.request(MessageType.READBACK, proto.encode_readback(offset, count), timeout=timeout,
                             retries=retries)
        chunk = proto.ReadbackChunk.decode(reply.payload)
        if chunk.offset != offset or len(chunk.data) != count:
            raise LinkError(f"read-back returned {len(chunk.data)} bytes at {chunk.offset}, asked {count} at {offset}")
        return chunk.data

    def read_leds(self) -> bytes:
        """The whole LED buffer (GRB, three bytes per LED) in read-back chunks."""
        if self.info is None:
            raise LinkError("read_leds before the handshake")
        total = self.info.led_count * 3
        return b"".join(self.readback(o, min(proto.READBACK_MAX, total - o))
                        for o in range(0, total, proto.READBACK_MAX))

    def status(self, *, timeout: float = 0.2, retries: int = 3) -> proto.BoardStatus:
        return proto.BoardStatus.decode(self.request(MessageType.STATUS, timeout=timeout, retries=retries).payload)

    def ping(self, *, timeout: float = 0.2, retries: int = 1) -> proto.Pulse:
        pulse = proto.Pulse.decode(self.request(MessageType.PING, timeout=timeout, retries=retries).payload)
        self.last_pulse = pulse
        return pulse

    def close(self) -> None:
        try:
            self.port.close()
        except Exception:  # noqa: BLE001 - a vanished port may fail to close; it is gone either way
            pass
        if self._on_close:
            self._on_close()
            self._on_close = None

    def __enter__(self) -> "Link":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_port(url: str, baudrate: int = DEFAULT_BAUD):
    """A pyserial port for a device path or URL; a failure is a LinkClosedError."""
    try:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=READ_SLICE_S, write_timeout=1.0)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise LinkClosedError(f"cannot open {url}: {exc}") from exc


def open_link(url: str, baudrate: int = DEFAULT_BAUD) -> Link:
    """Opens a link; ``sim://GEOMETRY`` starts a simulated board that lives as long as the link."""
    if url.startswith(SIM_SCHEME):
        from hardware.simulator import Simulator

        sim = Simulator(geometry=url[len(SIM_SCHEME):] or "3-track").start()
        try:
            port = open_port(sim.url, baudrate)
        except LinkError:
            sim.stop()
            raise
        link = Link(port, on_close=sim.stop)
        link.simulator = sim  # type: ignore[attr-defined]
        return link
    return Link(open_port(url, baudrate))
