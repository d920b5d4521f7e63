"""A request/reply link to the board over anything pyserial opens by URL, or a simulated board.

``open_link("/dev/ttyUSB0")``, ``open_link("loop://")``, ``open_link("socket://host:port")`` or
``open_link("sim://3-track")`` (starts a simulated board that lives as long as the link). Every
request waits for its reply with a monotonic deadline and is retried with a fresh sequence
number (at once after a damaged frame), a reply to any of its attempts answering it; frames that
are not the awaited reply (heartbeats, stale replies) are noted and skipped.
Time limits and their reasons: ``hardware.timeouts``.
"""

from __future__ import annotations

import collections
import time
from typing import Callable

from hardware import leds, power
from hardware import messages as msg
from hardware import protocol as proto
from hardware import timeouts as T
from hardware.endpoint import DEFAULT_BAUD, SIM_SCHEME, Endpoint, open_port  # noqa: F401 - re-exported
from hardware.errors import (
    BoardRefusedError,
    GeometryMismatchError,
    LinkClosedError,
    LinkError,
    LinkTimeoutError,
    ProtocolVersionError,
    TrackCountError,
)
from hardware.geometry import Geometry, GeometryError
from hardware.messages import BoardInfo
from hardware.protocol import Frame, FrameDecoder, MessageType, NakReason
from hardware.state import BoardState

__all__ = ["Link", "open_link", "open_port", "LinkError", "LinkTimeoutError", "LinkClosedError",
           "ProtocolVersionError", "BoardRefusedError", "GeometryMismatchError", "TrackCountError"]

READ_SLICE_S = T.READ_SLICE_S
EVENTS_KEPT = 64          # button events not yet taken by the caller (a burst of presses fits)


class Link:
    """One open port to one board. Not thread-safe: the driver's worker owns it."""

    def __init__(self, port, *, on_close: Callable[[], None] | None = None):
        self.port = port
        self._on_close = on_close
        self._decoder = FrameDecoder()
        self._seq = 0
        self.last_heard = time.monotonic()
        self.last_pulse: msg.Pulse | None = None
        self.info: BoardInfo | None = None
        self.geometry: Geometry | None = None   # the board's wiring, when this host knows it
        self.bytes_sent = 0
        self.bytes_received = 0
        self.retries = 0
        self._host_version = proto.PROTOCOL_VERSION
        self.events: collections.deque[msg.ButtonEvent] = collections.deque(maxlen=EVENTS_KEPT)
        self.on_event: Callable[[msg.ButtonEvent], None] | None = None
        port.timeout = T.READ_SLICE_S

    # --- transport -------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        try:
            self.port.write(data)
            self.bytes_sent += len(data)
        except OSError as exc:  # pyserial's SerialException is an OSError
            raise LinkClosedError(f"writing to the board failed: {exc}") from exc

    def poll(self, wait: float = 0.0) -> list[Frame]:
        """Reads what has arrived: heartbeats are taken note of, other frames returned."""
        return self._read_frames(wait)

    def _read_frames(self, wait: float) -> list[Frame]:
        deadline = time.monotonic() + wait
        while True:
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (OSError, TypeError) as exc:
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
                    self.last_pulse = msg.Pulse.decode(frame.payload)
                except proto.ProtocolError:
                    pass
            elif frame.type == MessageType.BUTTON:
                self._button(frame)
            else:
                out.append(frame)
        return out

    def _button(self, frame: Frame) -> None:
        try:
            event = msg.ButtonEvent.decode(frame.payload)
        except proto.ProtocolError:
            return      # a damaged event: its number leaves a gap the host can see
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def request(self, msg_type: MessageType, payload: bytes = b"", *, timeout: float = T.REQUEST_S,
                retries: int = T.REQUEST_RETRIES, resend_on_damage: bool = False) -> Frame:
        """Sends and waits for the matching reply, resending with a fresh sequence number up to
        ``retries`` times; raises LinkTimeoutError when no attempt was answered.

        ``resend_on_damage``: the last attempt too gives up as soon as a damaged frame arrives (see
        ``_exchange``), for callers that resend by themselves (the driver); a request that must
        not be repeated (PEG, UNDO) leaves it off and waits its whole timeout."""
        reply, damaged = self._exchange(msg_type, payload, timeout, lambda attempts: attempts <= retries,
                                        resend_on_damage)
        if reply is None:
            why = "the reply came back damaged" if damaged else f"within {timeout:.3f} s"
            raise LinkTimeoutError(f"no reply to {msg_type.name} {why} ({retries} retries)")
        return reply

    def _exchange(self, msg_type: MessageType, payload: bytes, timeout: float,
                  may_resend: Callable[[int], bool], resend_on_damage: bool) -> tuple[Frame | None, bool]:
        """One request: sent, then sent again while ``may_resend(attempts so far)``. Returns the reply
        (None when none came) and whether the last attempt ended on a damaged frame.

        Every attempt carries the same payload, so the reply to any of them answers the request: a
        reply that a starved host (or simulator) delivers after its attempt's timeout still counts.
        A frame that comes back damaged was almost surely the reply (the board answers within
        milliseconds; a heartbeat comes once a second), so the next attempt goes at once instead
        of after the timeout."""
        sent: set[int] = set()
        while True:
            reply = self._answer(msg_type, sent, self._waiting_frames())  # late replies to earlier attempts
            if reply is not None:
                return reply, False
            self._seq = (self._seq + 1) & 0xFF
            sent.add(self._seq)
            # the leading 0x00 ends any garbage the board may hold, so this frame starts clean
            self._write(b"\x00" + Frame(msg_type, self._seq, payload).encode())
            more = may_resend(len(sent))
            damaged_before = self.damaged_frames
            deadline = time.monotonic() + timeout
            damaged = False
            while (remaining := deadline - time.monotonic()) > 0:
                reply = self._answer(msg_type, sent, self._read_frames(min(remaining, 5 * T.READ_SLICE_S)))
                if reply is not None:
                    return reply, False
                if (more or resend_on_damage) and self.damaged_frames != damaged_before:
                    damaged = True
                    break
            if not more:
                return None, damaged
            self.retries += 1

    def _answer(self, msg_type: MessageType, sent: set[int], frames: list[Frame]) -> Frame | None:
        """The reply among ``frames`` to one of the attempts ``sent``; a NAK to one raises."""
        for frame in frames:
            if frame.seq not in sent:
                continue  # a stale reply to an earlier request
            if frame.type == MessageType.NAK:
                self._refused(msg.Nak.decode(frame.payload))
            if frame.type == msg_type.reply:
                return frame
        return None

    def _waiting_frames(self) -> list[Frame]:
        """What has already arrived, without waiting."""
        try:
            waiting = self.port.in_waiting
        except (OSError, TypeError) as exc:
            raise LinkClosedError(f"reading from the board failed: {exc}") from exc
        return self._read_frames(0) if waiting else []

    @property
    def damaged_frames(self) -> int:
        """Frames that arrived damaged (bad CRC, bad framing, overlong) on this link so far."""
        return self._decoder.crc_errors + self._decoder.format_errors

    def _refused(self, nak: msg.Nak) -> None:
        if nak.reason == NakReason.VERSION:
            raise ProtocolVersionError.between(nak.board_protocol, self._host_version)
        raise BoardRefusedError(nak)

    # --- requests --------------------------------------------------------------------
    def hello(self, version: tuple[int, int] = proto.PROTOCOL_VERSION, *, timeout: float = T.HELLO_S,
              wait: float = T.RESET_WAIT_S, geometry: Geometry | None = None) -> BoardInfo:
        """The handshake, repeated every ``timeout`` until ``wait`` has passed: a board that the
        opening of its port has just reset answers once its bootloader has finished."""
        self._host_version = version
        deadline = time.monotonic() + wait
        reply, _ = self._exchange(MessageType.HELLO, proto.encode_hello(version), timeout,
                                  lambda attempts: time.monotonic() < deadline, resend_on_damage=True)
        if reply is None:
            raise LinkTimeoutError(f"no reply to HELLO within {max(wait, timeout):.1f} s: no board on this port, "
                                   f"or it runs other firmware")
        info = BoardInfo.decode(reply.payload)
        if info.protocol[0] != version[0]:
            raise ProtocolVersionError.between(info.protocol, version)
        self.geometry = self._known_geometry(info, geometry)
        self.info = info
        return info

    @staticmethod
    def _known_geometry(info: BoardInfo, expected: Geometry | None) -> Geometry | None:
        if expected is not None:
            if info.geometry_id != expected.geometry_id or info.tracks != expected.tracks:
                raise GeometryMismatchError(
                    f"the board is wired as {info.geometry_name} (id 0x{info.geometry_id:04X}), "
                    f"expected {expected.name} (id 0x{expected.geometry_id:04X})")
            return expected
        try:
            known = Geometry.load(info.geometry_name)
        except GeometryError:
            return None          # a wiring this host has no file for: nothing to predict with
        return known if known.geometry_id == info.geometry_id else None

    def check_tracks(self, state: BoardState) -> None:
        """A state for another number of tracks than the board's is refused here, before sending."""
        if self.info is not None and state.tracks != self.info.tracks:
            raise TrackCountError(
                f"{state.tracks} tracks given ({state.format_pegs(state.pegs)}) for a {self.info.tracks}-track "
                f"board ({self.info.geometry_name}): give front/back pegs for tracks 1..{self.info.tracks}")

    def set_state(self, state: BoardState, *, timeout: float = T.SET_STATE_S,
                  retries: int = T.REQUEST_RETRIES, resend_on_damage: bool = False) -> msg.Ack:
        """Shows ``state``; checks the acknowledged state CRC and, for a still state on a known
        geometry, the LED buffer CRC against the host's own rendering (hardware/leds.py).
        ``resend_on_damage``: as for ``request`` (the driver resends the newest state itself)."""
        self.check_tracks(state)
        payload = proto.encode_state(state, self.board_minor)
        reply = self.request(MessageType.SET_STATE, payload, timeout=timeout, retries=retries,
                             resend_on_damage=resend_on_damage)
        ack = msg.Ack.decode(reply.payload)
        if ack.state_crc != proto.crc16(payload):
            raise LinkError("the board acknowledged a state other than the one sent")
        self._check_picture(state, ack.led_crc)
        return ack

    @property
    def board_minor(self) -> int:
        """The protocol minor both sides speak (the older one's)."""
        host = proto.PROTOCOL_VERSION[1]
        return host if self.info is None else min(host, self.info.protocol[1])

    def _check_picture(self, state: BoardState | None, led_crc: int) -> None:
        """For a still state on a known geometry: the board's LED buffer must be this host's picture."""
        if self.geometry is None or state is None or state.animation is not None:
            return
        expected = leds.led_crc(leds.render(self.geometry, state, leds.LinkStatus.CONNECTED,
                                            light_budget=self.light_budget))
        if led_crc != expected:
            raise LinkError(f"the board's LED buffer (CRC 0x{led_crc:04X}) is not the picture of the state it "
                            f"acknowledged (0x{expected:04X}): firmware and host disagree")

    @property
    def light_budget(self) -> int:
        """The limit the board's frames are scaled to (none before the firmware had a limiter)."""
        if self.info is None or self.info.light_budget is None:
            return power.UNLIMITED
        return self.info.light_budget

    def test(self, mode: proto.TestMode, rgb: tuple[int, int, int] = (0, 0, 0), index: int = 0, *,
             timeout: float = T.TEST_S, retries: int = T.REQUEST_RETRIES) -> msg.TestReply:
        """Shows a test pattern (TestMode.END: the state again); on a known geometry the board's LED
        buffer is checked against this host's picture of the pattern."""
        if self.info is not None and not self.info.features & proto.Features.TEST:
            raise LinkError(f"test patterns need newer firmware (firmware "
                            f"{'.'.join(map(str, self.info.firmware))} has no TEST): flash this version")
        if self.info is not None:
            limit = self.info.led_count if mode == proto.TestMode.LED else self.info.tracks
            if mode in (proto.TestMode.LED, proto.TestMode.TRACK) and not 0 <= index < limit:
                what = "LED" if mode == proto.TestMode.LED else "track"
                raise ValueError(f"{what} {index}: the board has {what}s 0..{limit - 1}")
        reply = msg.TestReply.decode(self.request(MessageType.TEST, proto.encode_test(mode, rgb, index),
                                                  timeout=timeout, retries=retries).payload)
        if self.geometry is not None and mode != proto.TestMode.END:
            expected = leds.led_crc(leds.render_test(self.geometry, mode, rgb, index, self.light_budget))
            if reply.led_crc != expected:
                raise LinkError(f"the board's test pattern (CRC 0x{reply.led_crc:04X}) is not this host's "
                                f"(0x{expected:04X}): firmware and host disagree")
        return reply

    def _needs_games(self, what: str) -> None:
        if self.info is not None and not self.info.features & proto.Features.GAMES:
            raise LinkError(f"{what} needs firmware of protocol 1.1; the board speaks "
                            f"{self.info.protocol[0]}.{self.info.protocol[1]}: update its firmware")

    def peg(self, track: int, points: int, *, timeout: float = T.SET_STATE_S,
            retries: int = 0) -> msg.StateReply:
        """The board pegs ``points`` on ``track`` itself (the back peg leapfrogs); returns its new state.
        Not retried by default: a lost reply would peg twice (read the state with status())."""
        self._needs_games("pegging on the board")
        if self.info is not None and not 0 <= track < self.info.tracks:
            raise TrackCountError(f"track {track + 1}: the board has tracks 1..{self.info.tracks}")
        reply = msg.StateReply.decode(self.request(MessageType.PEG, proto.encode_peg(track, points),
                                                   timeout=timeout, retries=retries).payload)
        self._check_picture(reply.state, reply.led_crc)
        return reply

    def undo(self, track: int | None = None, *, timeout: float = T.SET_STATE_S,
             retries: int = 0) -> msg.StateReply:
        """Takes back the last peg of ``track`` (None: of the track pegged last); the board keeps four."""
        self._needs_games("undo on the board")
        if track is not None and self.info is not None and not 0 <= track < self.info.tracks:
            raise TrackCountError(f"track {track + 1}: the board has tracks 1..{self.info.tracks}")
        reply = msg.StateReply.decode(self.request(MessageType.UNDO, proto.encode_undo(track),
                                                   timeout=timeout, retries=retries).payload)
        self._check_picture(reply.state, reply.led_crc)
        return reply

    def bye(self, *, timeout: float = T.BYE_S, retries: int = T.REQUEST_RETRIES) -> None:
        """Leaves on purpose: the board looks idle (not "host lost") and keeps its state in EEPROM now."""
        if self.info is not None and self.info.protocol[1] >= 1:
            self.request(MessageType.BYE, timeout=timeout, retries=retries)

    def readback(self, offset: int, count: int, *, timeout: float = T.READBACK_S,
                 retries: int = T.REQUEST_RETRIES) -> bytes:
        reply = self.request(MessageType.READBACK, proto.encode_readback(offset, count), timeout=timeout,
                             retries=retries)
        chunk = msg.ReadbackChunk.decode(reply.payload)
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

    def status(self, *, timeout: float = T.STATUS_S, retries: int = T.REQUEST_RETRIES) -> msg.BoardStatus:
        return msg.BoardStatus.decode(self.request(MessageType.STATUS, timeout=timeout, retries=retries).payload)

    def ping(self, *, timeout: float = T.PING_S, retries: int = T.PING_RETRIES) -> msg.Pulse:
        pulse = msg.Pulse.decode(self.request(MessageType.PING, timeout=timeout, retries=retries).payload)
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


def open_link(url: str, baudrate: int = DEFAULT_BAUD) -> Link:
    """Opens a link; ``sim://GEOMETRY`` starts a simulated board that lives as long as the link."""
    endpoint = Endpoint(url, baudrate)
    try:
        port = endpoint.open_port()
    except BaseException:
        endpoint.close()
        raise
    link = Link(port, on_close=endpoint.close)
    link.simulator = endpoint.simulator  # type: ignore[attr-defined]
    return link
