"""Protocol 1.1 on the real firmware in simavr: the versioning rule both ways, uniform lengths,
the idle look after goodbye, the 16-bit animation counter, short game, games won, skunk comets,
pegging and undo on the board, and buttons reported as events."""

import struct
import time

import pytest

from hardware import leds, palette
from hardware import messages as msg
from hardware import protocol as proto
from hardware.driver import BoardDriver
from hardware.link import Link, open_port
from hardware.protocol import BoardFlags, MessageType, NakReason
from hardware.state import Animation, BoardState
from hardware.errors import BoardRefusedError

GAME = BoardState(((12, 8), (30, 25), (0, 0)), dealer=1, brightness=5)


@pytest.fixture
def link(sim):
    with Link(open_port(sim.url)) as link:
        link.hello()
        yield link


def _shows(sim, geometry, state, status=leds.LinkStatus.CONNECTED, timeout=2.0, anim_frame=0):
    expected = leds.render(geometry, state, status, anim_frame)
    return sim.wait_for(lambda f: f.grb == expected, timeout) is not None


def test_requests_with_trailing_bytes_are_answered_as_without(sim, link, geometry3):
    """A newer host's trailing fields never make the board refuse: every request, extra bytes each."""
    extra = b"\x7f\x00\x42"
    hello = link.request(MessageType.HELLO, proto.encode_hello() + extra)
    assert msg.BoardInfo.decode(hello.payload).tracks == 3
    ack = msg.Ack.decode(link.request(MessageType.SET_STATE, proto.encode_state(GAME) + extra).payload)
    assert ack.state_crc == proto.crc16(proto.encode_state(GAME) + extra)   # CRC of what was received
    assert ack.led_crc == leds.led_crc(leds.render(geometry3, GAME))
    chunk = msg.ReadbackChunk.decode(link.request(MessageType.READBACK, proto.encode_readback(0, 9) + extra).payload)
    assert chunk.data == leds.render(geometry3, GAME)[:9]
    assert msg.BoardStatus.decode(link.request(MessageType.STATUS, extra).payload).state == GAME
    assert msg.Pulse.decode(link.request(MessageType.PING, extra).payload).led_crc == ack.led_crc
    # a 1.0 host's state (no 1.1 fields) is a full game with no games won
    old = proto.encode_state(GAME, minor=0)
    assert link.request(MessageType.SET_STATE, old) and link.status().state == GAME


def test_lengths_are_checked_alike_and_only_for_too_short(sim, link):
    for msg_type, short in ((MessageType.HELLO, b"\x01"), (MessageType.READBACK, b"\x00\x00"),
                            (MessageType.PEG, b"\x00"), (MessageType.UNDO, b""), (MessageType.TEST, b""),
                            (MessageType.SET_STATE, proto.encode_state(GAME)[:12])):
        with pytest.raises(BoardRefusedError) as info:
            link.request(msg_type, short, retries=0)
        assert (info.value.nak.reason, info.value.nak.detail) == (NakReason.LENGTH, msg_type)
    with pytest.raises(BoardRefusedError) as info:
        link.request(0x0A, b"")      # type: ignore[arg-type]
    assert info.value.nak.reason == NakReason.UNKNOWN_TYPE


def test_replies_with_trailing_bytes_decode_as_without(sim, link):
    """A newer board's trailing fields are ignored by every decoder (real replies, bytes appended)."""
    link.set_state(GAME)
    replies = {
        msg.BoardInfo: link.request(MessageType.HELLO, proto.encode_hello()).payload,
        msg.Ack: link.request(MessageType.SET_STATE, proto.encode_state(GAME)).payload,
        msg.BoardStatus: link.request(MessageType.STATUS).payload,
        msg.ReadbackChunk: None,
        msg.StateReply: link.request(MessageType.PEG, proto.encode_peg(2, 4)).payload,
    }
    for decoder, payload in replies.items():
        if payload is None:
            continue
        assert decoder.decode(payload + b"\x01\x02\x03\x04\x05") == decoder.decode(payload), decoder
    pulse = link.request(MessageType.PING).payload
    assert msg.Pulse.decode(pulse + b"\xff\xff").uptime_ms == msg.Pulse.decode(pulse).uptime_ms
    nak = msg.Nak.decode(bytes((3, 2, 1, 1)) + b"\x09\x09")
    assert (nak.reason, nak.detail, nak.board_protocol) == (3, 2, (1, 1))
    # a 1.0 board's HELLO reply: the name runs to the end, no features
    old = msg.BoardInfo.decode(struct.pack("<6BHH", 1, 0, 1, 0, 0, 3, 370, 0x1234) + b"3-track")
    assert (old.geometry_name, old.features) == ("3-track", proto.Features(0))


def test_a_state_for_another_track_count_is_refused_as_a_value(sim, link):
    two = proto.encode_state(BoardState(((12, 8), (30, 25))))
    with pytest.raises(BoardRefusedError) as info:
        link.request(MessageType.SET_STATE, two)
    assert info.value.nak.reason == NakReason.VALUE


def test_goodbye_leaves_a_calm_idle_look_not_an_alarm(sim, link, geometry3):
    link.set_state(GAME)
    link.bye()
    idle = leds.render(geometry3, GAME, leds.LinkStatus.IDLE)
    assert sim.wait_for(lambda f: f.grb == idle, 2) is not None
    time.sleep(3.5)                                   # past the 3 s host timeout
    assert sim.latest().grb == idle                   # still idle: no red "host lost"
    link.hello()                                      # a new host: connected again
    assert link.status().flags & BoardFlags.HOST_LEFT == 0
    assert link.read_leds() == leds.render(geometry3, GAME, leds.LinkStatus.CONNECTED)


def test_short_game_runs_once_round_into_the_game_hole(sim, link, geometry3):
    short = BoardState(((60, 55), (61, 50), (31, 20)), dealer=0, target=61, skunk_line=30)
    link.set_state(short)
    assert _shows(sim, geometry3, short)
    lit = leds.lit(leds.render(geometry3, short))
    assert geometry3.hole_leds[1][121] in lit            # 61 lights the game hole
    assert geometry3.hole_leds[0][60] in lit and geometry3.hole_leds[2][31] in lit
    assert geometry3.hole_leds[0][31] in lit             # the skunk marker, hole 31
    with pytest.raises(BoardRefusedError):
        bad = bytearray(proto.encode_state(short))
        bad[1] = 62                                       # past the short game's hole
        link.request(MessageType.SET_STATE, bytes(bad))


def test_games_won_and_skunks_are_shown(sim, link, geometry3):
    state = BoardState(((121, 115), (88, 80), (95, 90)), games=(1, 0, 7), animation=Animation("skunk", 0))
    link.set_state(state)
    assert _shows(sim, geometry3, state)
    lit = leds.lit(sim.latest().grb)
    games_lit = [sum(led in lit for led in track) for track in geometry3.game_leds]
    assert games_lit == [1, 0, 3]                         # more than three games: all three lit
    skunk_head = palette.scale_rgb(palette.SKUNK_HEAD_RGB, state.brightness)
    plain_head = palette.scale_rgb(palette.WIN_HEAD_RGB, state.brightness)
    assert skunk_head in lit.values() and plain_head not in lit.values()   # not the plain win's white


def test_peg_leapfrogs_on_the_board_and_undo_takes_it_back(sim, link, geometry3):
    link.set_state(GAME)
    reply = link.peg(0, 5)
    assert reply.state.pegs[0] == (17, 12)                # back peg leapfrogs to the old front
    assert reply.state == GAME.pegged(0, 5)
    assert link.peg(0, 3).state.pegs[0] == (20, 17)
    assert link.undo().state.pegs[0] == (17, 12)          # the track pegged last
    assert link.undo(0).state.pegs[0] == (12, 8)
    with pytest.raises(BoardRefusedError):
        link.undo(0)                                       # nothing of a set state to take back
    assert _shows(sim, geometry3, GAME)


def test_pegging_out_starts_the_right_comet_and_undo_ends_it(sim, link):
    link.set_state(BoardState(((118, 110), (85, 80), (100, 90)), double_skunk_line=60))
    reply = link.peg(0, 6)
    assert reply.state.pegs[0] == (121, 118)
    assert reply.state.animation == Animation("skunk", 0)  # a loser at 85, under the skunk line
    assert link.undo(0).state.animation is None


def test_the_comet_keeps_going_past_frame_256(sim, link, geometry3):
    """The frame counter is 16 bits: every latched frame of the first 13.5 s of a win (frame ~270,
    where an 8-bit counter jumped back to hole 1) is the host's picture of that frame number."""
    state = BoardState(((121, 110), (80, 70), (95, 90)), animation=Animation("win", 0))
    link.set_state(state)
    first = sim.wait_for(lambda f: f.grb == leds.render(geometry3, state, anim_frame=0), 2)
    assert first is not None
    deadline = time.monotonic() + 60  # 13.5 s of the board's time; a loaded machine runs the simulator slower
    while len(sim.frames_after(first.index)) < 270 and time.monotonic() < deadline:
        link.ping()                                   # stays connected: no redraw but the comet's
        time.sleep(0.5)
    frames = [first, *sim.frames_after(first.index)]
    assert len(frames) > 270
    for k, frame in enumerate(frames[:271]):
        assert frame.grb == leds.render(geometry3, state, anim_frame=k), f"frame {k}"
    assert link.status().anim_frame >= 270


def test_buttons_peg_on_the_board_and_are_reported(sim, link, geometry3):
    link.set_state(GAME)
    sim.press(1, "+2")
    sim.press(2, "+1")
    deadline = time.monotonic() + 3
    while len(link.events) < 2 and time.monotonic() < deadline:
        link.poll(0.05)
    first, second = link.events
    assert (first.track, first.action.format(), first.applied) == (1, "+2", True)
    assert first.reply.state.pegs[1] == (32, 30)
    assert second.number == first.number + 1 and second.reply.state.pegs[2] == (1, 0)
    assert _shows(sim, geometry3, second.reply.state)
    sim.press(1, "undo")
    while len(link.events) < 3 and time.monotonic() < deadline + 2:
        link.poll(0.05)
    assert link.events[-1].reply.state.pegs[1] == (30, 25)
    assert link.status().events == 3


def test_driver_reports_buttons_and_says_goodbye_on_close(sim, geometry3):
    pressed = []
    with BoardDriver(sim.url, geometry=geometry3, on_button=pressed.append) as driver:
        driver.show(GAME)
        assert driver.wait_shown(GAME, 3)
        sim.press(0, "+1")
        deadline = time.monotonic() + 3
        while not pressed and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pressed and pressed[0].reply.state.pegs[0] == (13, 12)
        assert driver.shown == pressed[0].reply.state and driver.button_events() == pressed
    idle = leds.render(geometry3, pressed[0].reply.state, leds.LinkStatus.IDLE)
    assert sim.wait_for(lambda f: f.grb == idle, 2) is not None
