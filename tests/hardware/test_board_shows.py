"""What a board of each protocol version can show is decided here, in ``hardware`` (issue 49 s4):
the game's board sync asks ``shown_by`` and the SET_STATE encoder refuses by the same table."""

import pytest

from hardware.protocol import SHOWN_BY_VERSION, PayloadError, Shows, encode_state, needs_minor, shown_by
from hardware.state import Animation, BoardState

OLD, NEW = Shows(False, False, False), Shows(True, True, True)


def test_each_version_shows_what_its_firmware_can():
    import hardware

    assert hardware.shown_by is shown_by and hardware.Shows is Shows
    assert SHOWN_BY_VERSION == {(1, 0): OLD, (1, 1): NEW}
    assert shown_by((1, 0)) == OLD and shown_by((1, 1)) == NEW
    assert shown_by((1, 7)) == NEW and shown_by((2, 0)) == NEW  # a newer minor only adds
    assert shown_by((0, 9)) == OLD
    assert shown_by([1, 1]) == NEW  # a HELLO's version as decoded


@pytest.mark.parametrize("state, minor", [
    (BoardState.start(2), 0),
    (BoardState.start(2, animation=Animation("win", 1)), 0),
    (BoardState.start(2, animation=Animation("skunk", 1)), 1),
    (BoardState.start(2, animation=Animation("double_skunk", 0), skunk_line=90, double_skunk_line=60), 1),
    (BoardState.start(2, games=(1, 0)), 1),
    (BoardState.start(3, target=61, skunk_line=30), 1),
])
def test_the_encoder_refuses_by_the_same_table(state, minor):
    assert needs_minor(state) == minor
    assert SHOWN_BY_VERSION[(1, 0)].can_show(state) == (minor == 0)
    assert SHOWN_BY_VERSION[(1, 1)].can_show(state)
    encode_state(state, 1)
    if minor:
        with pytest.raises(PayloadError, match="needs firmware of protocol 1.1; the board speaks 1.0"):
            encode_state(state, 0)
    else:
        encode_state(state, 0)
