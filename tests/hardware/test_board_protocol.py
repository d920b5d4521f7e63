"""The pure protocol module: COBS, CRC, frames, resynchronisation, state payloads, validation."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import leds, palette
from hardware import protocol as proto
from hardware.geometry import Geometry, GeometryError
from hardware.state import (
    Animation,
    AnimationError,
    BoardState,
    BoardStateError,
    BrightnessError,
    DealerError,
    LineError,
    PegError,
)


def test_crc16_is_ccitt_false():
    assert proto.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=700))
def test_cobs_round_trip_and_no_zero_bytes(data):
    encoded = proto.cobs_encode(data)
    assert 0 not in encoded
    assert proto.cobs_decode(encoded) == data


def test_cobs_known_vectors():
    assert proto.cobs_encode(b"\x00") == b"\x01\x01"
    assert proto.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert proto.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"
    with pytest.raises(proto.CobsError):
        proto.cobs_decode(b"\x05\x11")


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=proto.MAX_PAYLOAD))
def test_frame_round_trip(msg_type, seq, payload):
    encoded = proto.Frame(msg_type, seq, payload).encode()
    assert encoded.endswith(b"\x00") and 0 not in encoded[:-1]
    assert proto.FrameDecoder().feed(encoded) == [proto.Frame(msg_type, seq, payload)]


def test_flipped_bit_is_a_crc_error_not_a_frame():
    encoded = bytearray(proto.Frame(2, 9, b"\x03\x01\x00").encode())
    encoded[3] ^= 0x10
    decoder = proto.FrameDecoder()
    assert decoder.feed(bytes(encoded)) == []
    assert decoder.crc_errors + decoder.format_errors == 1


@settings(max_examples=200)
@given(st.binary(max_size=600))
def test_decoder_resynchronises_after_garbage(garbage):
    frame = proto.Frame(proto.MessageType.PING, 42, b"")
    decoder = proto.FrameDecoder()
    # garbage, then the host's leading delimiter, then a good frame: the frame always survives
    frames = decoder.feed(garbage + b"\x00" + frame.encode())
    assert frames[-1] == frame


def test_overlong_garbage_is_dropped_until_the_next_delimiter():
    decoder = proto.FrameDecoder()
    good = proto.Frame(1, 1, b"\x01\x00").encode()
    assert decoder.feed(b"\x07" * 500 + good) == []          # merged into the overlong run
    assert decoder.feed(b"\x07" * 500 + b"\x00" + good) == [proto.Frame(1, 1, b"\x01\x00")]
    assert decoder.format_errors == 2


@given(st.lists(st.integers(0, 121), min_size=2, max_size=3), st.integers(1, 8), st.data())
def test_state_payload_round_trip(fronts, brightness, data):
    pegs = tuple((f, data.draw(st.integers(0, f - 1)) if f else 0) for f in fronts)
    dealer = data.draw(st.one_of(st.none(), st.integers(0, len(pegs) - 1)))
    win = data.draw(st.one_of(st.none(), st.integers(0, len(pegs) - 1)))
    kind = data.draw(st.sampled_from(Animation.KINDS))
    games = tuple(data.draw(st.integers(0, 3)) for _ in pegs)
    state = BoardState(pegs, dealer, brightness, Animation(kind, win) if win is not None else None,
                       data.draw(st.one_of(st.none(), st.integers(1, 119))), None, games=games)
    payload = proto.encode_state(state)
    assert len(payload) == 1 + 2 * len(pegs) + 6 + 1 + len(pegs)      # 1.0 fields, then target and games
    assert proto.decode_state(payload) == state
    # a newer peer's trailing fields are ignored
    assert proto.decode_state(payload + bytes(data.draw(st.binary(max_size=8)))) == state


def test_a_1_0_state_takes_the_1_1_defaults_and_1_1_states_are_not_sent_to_1_0_boards():
    plain = BoardState(((12, 8), (30, 25)), dealer=1)
    old = proto.encode_state(plain, minor=0)
    assert len(old) == 11 and proto.decode_state(old) == plain            # full game, no games won
    with pytest.raises(proto.PayloadError, match="update its firmware"):
        proto.encode_state(BoardState(((12, 8), (30, 25)), target=61, skunk_line=30), minor=0)
    with pytest.raises(proto.PayloadError, match="too short"):
        proto.decode_state(old[:-1])


@pytest.mark.parametrize("kwargs, error", [
    ({"pegs": ((1, 0),)}, PegError),
    ({"pegs": ((122, 0), (0, 0))}, PegError),
    ({"pegs": ((10, 10), (0, 0))}, PegError),
    ({"pegs": ((10, 12), (0, 0))}, PegError),
    ({"pegs": ((1, 0), (0, 0)), "dealer": 2}, DealerError),
    ({"pegs": ((1, 0), (0, 0)), "brightness": 9}, BrightnessError),
    ({"pegs": ((1, 0), (0, 0)), "animation": Animation("win", 2)}, AnimationError),
    ({"pegs": ((1, 0), (0, 0)), "skunk_line": 120}, LineError),
])
def test_invalid_states_raise_precise_value_errors(kwargs, error):
    with pytest.raises(error) as info:
        BoardState(**kwargs)
    assert isinstance(info.value, BoardStateError) and isinstance(info.value, ValueError)


def test_peg_syntax():
    assert BoardState.parse_pegs("12/8, 30/25,7") == ((12, 8), (30, 25), (7, 0))
    assert BoardState.format_pegs(((12, 8), (30, 25))) == "12/8,30/25"
    for bad in ("12-8,1/0", "a/b,1/0", ""):
        with pytest.raises(PegError):
            BoardState.parse_pegs(bad)
    assert Animation.parse("win:2") == Animation("win", 1)
    with pytest.raises(AnimationError):
        Animation.parse("win")


def test_geometries_map_every_hole_to_its_own_led():
    for name, count in (("2-track", 253), ("3-track", 379)):
        geometry = Geometry.load(name)
        assert geometry.led_count == count
        used = [i for track in geometry.hole_leds for i in track]
        assert len(set(used)) == len(used) == geometry.tracks * 122
        # serpentine wiring: hole 30 and hole 31 of track 0 are neighbours on the strip
        assert abs(geometry.hole_leds[0][30] - geometry.hole_leds[0][31]) == 1
    with pytest.raises(GeometryError):
        Geometry.load("4-track")


def test_expected_picture_front_bright_back_dim_lines_faint():
    geometry = Geometry.load("2-track")
    state = BoardState(((40, 31), (95, 88)), dealer=1, brightness=8, skunk_line=90, double_skunk_line=60)
    lit = leds.lit(leds.render(geometry, state))
    front = lit[geometry.hole_leds[0][40]]
    back = lit[geometry.hole_leds[0][31]]
    assert front == geometry.track_rgb[0]
    assert back == tuple(palette.dim(c) for c in front)
    assert lit[geometry.hole_leds[1][91]] == palette.SKUNK_MARKER_RGB
    assert lit[geometry.hole_leds[0][61]] == palette.DOUBLE_SKUNK_MARKER_RGB
    assert lit[geometry.dealer_leds[1]] == geometry.track_rgb[1]
    assert geometry.dealer_leds[0] not in lit
