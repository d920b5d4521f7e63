"""A photo's card kept as read without the player's check (the recogniser was unsure, the count
the same either way, or the rest taken as read in one tap): the game keeps it as read, marked
unconfirmed, and the mark survives saving and loading; a show stored before the mark has none."""

import pytest

from companion.game import EntryError, GameSession, Store
from companion.game.events import ShowCount, entry_from_json
from companion.rules import Card
from tests.game.test_game_engine import source_001_deal, two

BEN = ["TH", "5S", "7C", "8S"]  # RULES source 001: Ben (pone) counts first, the starter 4D


def at_the_show(store=None):
    session = two(store=store)
    source_001_deal(session)
    return session


def test_a_card_kept_as_read_is_marked_unconfirmed_and_the_mark_survives_save_and_load(data_folder):
    store = Store()
    session = at_the_show(store)
    session.show(BEN, None, "table.jpg", unconfirmed=["5s"])
    [shown] = session.view().shown
    assert shown.cards == tuple(BEN) and shown.unconfirmed == ("5S",)
    game_id = session.game_id
    session.close()
    store.close()
    again = GameSession.open(Store(), game_id)
    assert again.view().shown[0].unconfirmed == ("5S",)
    assert again.game.shows[0].unconfirmed == ("5S",)


def test_a_show_stored_before_the_mark_loads_with_none_and_is_written_as_before():
    old = {"type": "show", "cards": BEN, "claim": None, "photo": "table.jpg"}
    entry = entry_from_json(old)
    assert isinstance(entry, ShowCount) and entry.unconfirmed == ()
    assert entry.as_json() == old  # no new key where nothing is unconfirmed
    marked = ShowCount(tuple(map(Card.parse, BEN)), None, "table.jpg", (Card.parse("5S"),))
    assert marked.as_json() == {**old, "unconfirmed": ["5S"]}
    assert entry_from_json(marked.as_json()) == marked


def test_an_unconfirmed_card_must_be_one_of_the_count():
    session = at_the_show()
    with pytest.raises(EntryError, match="unconfirmed: 9H is not a card of this count"):
        session.show(BEN, unconfirmed=["9H"])
    with pytest.raises(EntryError, match="unconfirmed"):
        session.show(BEN, unconfirmed=["ZZ"])
    assert session.view().shown == ()
