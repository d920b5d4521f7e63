"""The app says what it did (issue 56, item 2), each at 1280x800 and held tall (800x1280): a
message belongs to the moment it answers; one numbering of games everywhere; undo takes back
what the player did and the screen shows the state it returns to; the card-fix dialog offers
only the hands the game can have; the show's words."""

import pytest

from companion.game import GameSession
from companion.rules import Card
from companion.ui.camera import FakeCamera

from tests.ui.conftest import SAMPLES

SIZES = [(1280, 800), (800, 1280)]
ANN = ["2C", "3D", "4S", "7H"]   # the dealer
BEN = ["8S", "8D", "TC", "JS"]   # the pone: a pair of eights (2) with the starter AD
PHOTO = str(SAMPLES / "hands_crib_starter_rows.jpg")


def key(h, show, digits: str) -> None:
    for digit in digits:
        h.tap(next(b for b in show.ids.keypad.children if b.text == digit))


def to_the_show(h, size, muggins: str = "optional", count_first: bool = False):
    """A game of Ann (dealing) and Ben, dealt, cut (A♦) and played out, on the show screen."""
    h.resize(size)
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": muggins}, first_dealer=0,
                         count_first=count_first, pegging="cards")
    h.wait(lambda: h.companion.view is not None)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: list(ANN), 1: list(BEN)})
    assert h.companion.view.phase == "show"
    h.app.go("show")
    h.wait()
    return h.screen("show")


def banner(h):
    return h.app.root.ids.banner


# --- a message belongs to the moment it answers ---------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_a_refused_claim_is_said_until_the_next_claim_and_never_on_the_table(start_app, size):
    h = start_app()
    show = to_the_show(h, size)
    key(h, show, "19")  # claimed as the second digit is tapped: refused
    h.wait()
    assert "19 is impossible" in h.app.message and h.app.message_is_error and banner(h).height > 0
    key(h, show, "2")  # Ben's pair: the claim stands, and the refusal of 19 is past
    h.tap(show.ids.claim)
    h.wait()
    assert h.companion.view.shown[-1].claimed == 2
    assert h.app.message == "" and banner(h).height == 0
    # refused again on the next count (the right claim went on to it), then the player leaves for the
    # table: its heading is not covered
    assert show.heading.startswith("Ann's hand")
    key(h, show, "27")
    h.wait()
    assert "impossible" in h.app.message
    h.tap(h.app.root.ids.back)
    h.wait(lambda: h.current == "table")
    table = h.screen("table")
    h.pump(frames=3)
    assert h.app.message == "" and banner(h).height == 0
    assert table.ids.phase.top <= h.app.root.ids.sm.top  # the heading on the screen, whole


# --- one numbering of games -----------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_table_home_and_the_terminal_call_a_game_by_one_number(start_app, size, capsys, monkeypatch, tmp_path):
    h = start_app(folder=tmp_path / "data")
    h.resize(size)
    for _ in range(2):  # game 1, then game 2: its first game (of one)
        h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
        h.wait(lambda: h.companion.view is not None)
    assert h.companion.game_id == 2
    h.companion.act(GameSession.discard)
    h.wait()
    h.app.go("table")
    h.wait()
    assert h.screen("table").ids.phase.text.startswith("Game 2 · deal 1")
    h.companion.close_game()
    h.wait()
    h.app.go("home")
    h.wait(lambda: bool(getattr(h.screen("home"), "games", None)))
    home = h.screen("home")
    lines = [b.text for b in home.ids.recent.children]
    assert any(line.startswith("Game 2: Ann v Ben") for line in lines)
    assert home.ids.resume.text == "Resume game 2"
    # the terminal's prompt for the same game: "game 2", as crib game list's id
    from companion.game import GameSession as Session, Store
    from companion.game.terminal import prompt_line

    store = Store(tmp_path / "data")
    with Session.open(store, 2) as session:
        assert prompt_line(session).startswith("game 2, deal 1:")
    assert [row.id for row in store.games()] == [1, 2]
    store.close()


def test_in_a_match_the_game_of_the_match_follows_the_game_s_number():
    from companion.game import game_name

    assert game_name(7) == "game 7" and game_name(None) == "game"
    assert game_name(7, 2, 3) == "game 7 (game 2 of the match)"


# --- undo takes back what the player did ----------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_undo_after_next_deal_takes_back_the_last_count_not_a_step_never_tapped(start_app, size):
    h = start_app()
    show = to_the_show(h, size, muggins="off", count_first=True)
    for _ in range(2):  # Ben's hand and Ann's, known from the play
        h.tap(show.ids.accept)
        h.wait()
    h.tap(show.ids.pick)  # the crib, picked: 5♣ Q♠ 6♦ 9♥ (6 with A♦)
    picker = h.popup()
    for code in ("5C", "QS", "6D", "9H"):
        h.tap(picker.buttons[code])
    h.tap(picker.done_button)
    h.wait(lambda: not show.ids.accept.disabled)
    h.tap(show.ids.accept)
    h.wait()
    scores = h.companion.view.scores
    h.tap(show.ids.next_deal)
    h.wait(lambda: h.current == "table")
    table = h.screen("table")
    assert h.companion.view.phase == "cut" and table.ids.starter.text == ""
    h.tap(table.ids.undo)
    h.wait()
    view = h.companion.view
    # the crib's count is taken back (the deal the app started goes with it): the crib is next again
    assert view.phase == "show" and view.next_show.kind == "crib" and len(view.shown) == 2
    assert view.scores[0] == scores[0] - 6
    assert table.ids.turn.text == "Ann's crib to count"
    assert "A\u2666" in table.ids.starter.text  # this deal's starter, as the game stands
    assert table.ids.photograph.text == "Photograph the show"
    h.tap(table.ids.redo)  # both come back: the crib counted, the next deal started
    h.wait()
    assert h.companion.view.phase == "cut" and h.companion.view.scores == scores
    assert table.ids.starter.text == ""


def test_the_table_before_deal_shows_no_starter_of_the_deal_before(start_app):
    h = start_app()
    to_the_show(h, (1280, 800), muggins="off", count_first=True)
    for cards in (None, None, ["5C", "QS", "6D", "9H"]):
        h.companion.act(GameSession.show, cards)
    h.wait()
    assert h.companion.view.phase == "discard" and h.companion.view.starter == "AD"
    h.app.go("table")
    h.wait()
    table = h.screen("table")
    assert table.ids.starter.text == "" and table.ids.starter.height == 0
    assert table.ids.deal.text.startswith("Deal")


def test_the_session_s_undo_passes_over_the_deal_it_started_by_itself(tmp_path):
    from companion.game import Store
    from companion.game.events import Discard

    store = Store(tmp_path)
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0, store=store)
    session.discard()
    session.cut("AD")
    hands = {0: list(ANN), 1: list(BEN)}
    while session.view().phase == "play":  # as Headless.play_out: the first card that fits, else go
        view = session.view()
        fits = [c for c in hands[view.to_act] if view.count + Card.parse(c).value <= 31]
        session.lay(hands[view.to_act].pop(hands[view.to_act].index(fits[0]))) if fits else session.go()
    session.show()
    session.show()
    session.show(["5C", "QS", "6D", "9H"])
    session.next_deal()
    assert session.history.in_force[-1] == Discard(auto=True)
    session.undo()
    assert session.view().phase == "show" and len(session.view().shown) == 2
    session.redo()
    assert session.view().phase == "cut"  # the crib counted and the next deal started again
    assert session.history.in_force[-1] == Discard(auto=True) and not session.history.undone
    game_id = session.game_id
    session.close()
    again = GameSession.open(store, game_id)  # the journal keeps which step the app took
    assert again.history.in_force[-1].auto and [e for e in again.export()["entries"] if e.get("auto")] == \
        [{"type": "discard", "cards": None, "blind": None, "auto": True}]
    again.close()
    store.close()


# --- the card-fix dialog: the game's hands only ---------------------------------------------------------
def review_of_the_rows_photo(h, size):
    """A 2-player game pegged by points at the show, the rows photo read and on Check the cards."""
    h.resize(size)
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0, pegging="points")
    h.wait(lambda: h.companion.view is not None)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "4S")
    h.companion.act(GameSession.play_done)
    h.wait()
    done = []
    h.companion.recognize(PHOTO, done.append)
    h.wait(lambda: bool(done), timeout=60)
    path, decoded, recognition, quality = done[0]
    h.app.go("review", path=path, photo=decoded, recognition=recognition, purpose="show", quality=quality)
    h.wait()
    h.pump(0.1)
    return h.screen("review")


@pytest.mark.parametrize("size", SIZES)
def test_the_card_fix_dialog_offers_no_hand_a_two_player_game_cannot_have(start_app, size):
    h = start_app(camera=FakeCamera([PHOTO]))
    review = review_of_the_rows_photo(h, size)
    assert "hand 3" not in [str(g) for g in review.review.group_choices()]
    h.tap_at(*review.ids.photo.to_window(*review.ids.photo.box_center(0)))
    h.wait(lambda: h.popup() is not None)
    texts = [getattr(w, "text", "") for w in h.popup().walk()]
    assert "To hand 3" not in texts and ("To crib" in texts or "To starter" in texts)
    h.popup().dismiss()
    h.wait(lambda: h.popup() is None)


def test_the_review_offers_a_new_hand_up_to_the_game_s_players():
    from tests.ui.test_review_model import recognition
    from companion.ui.review import Review

    assert [str(g) for g in Review(recognition(), players=2).group_choices()] == \
        ["hand 1", "hand 2", "crib", "starter", "not counted"]
    assert [str(g) for g in Review(recognition(), players=1).group_choices()][:2] == ["hand 1", "crib"]
    assert "hand 2" in [str(g) for g in Review(recognition()).group_choices()]  # no game: up to 4


# --- Check the cards held tall: the hand list whole -------------------------------------------------------
@pytest.mark.parametrize("size", SIZES + [(720, 1280)])
def test_check_the_cards_shows_every_group_whole_at_each_size(start_app, size):
    h = start_app(camera=FakeCamera([PHOTO]))
    review = review_of_the_rows_photo(h, size)
    groups = review.ids.groups
    scroll = groups.parent
    _x, bottom = scroll.to_window(scroll.x, scroll.y)
    top = bottom + scroll.height
    lines = sorted(w.text.split("[/b]")[0].replace("[b]", "") for w in groups.children)
    assert lines == ["crib", "hand 1", "hand 2", "starter"]
    for label in groups.children:  # each line inside what the list shows, none cut
        _lx, low = label.to_window(label.x, label.y)
        assert bottom - 0.5 <= low and low + label.height <= top + 0.5, (label.text, low, label.height, bottom, top)
        assert label.texture_size[1] <= label.height


# --- the show's words, and its combinations whole with three players ------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_three_players_a_missed_count_shows_every_combination_without_scrolling(start_app, size):
    h = start_app()
    h.resize(size)
    h.companion.new_game(["Ann", "Ben", "Cat"], {"preset": "acc", "muggins": "optional"}, first_dealer=0,
                         count_first=False, pegging="cards")
    h.wait(lambda: h.companion.view is not None)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: ["2C", "3D", "9S", "7H"], 1: ["5H", "5C", "6D", "4D"], 2: ["8S", "8D", "TC", "JS"]})
    h.app.go("show")
    h.wait()
    show = h.screen("show")
    assert show.heading.startswith("Ben's hand: 5♥  5♣  6♦  4♦")
    h.tap(next(b for b in show.ids.keypad.children if b.text == "1"))
    h.tap(show.ids.claim)  # 1 of 14: the count shown, muggins offered to Cat and Ann
    h.wait()
    h.pump(0.1)
    assert show.total_line == "14" and len(show.ids.breakdown.children) == 6
    assert show.ids.scroller.height >= show.ids.breakdown.height  # all six, no scrolling
    assert show.ids.more.text == ""
    heading = next(w for w in show.walk() if getattr(w, "text", None) == show.heading)
    assert heading.to_window(heading.x, heading.y)[1] + heading.height <= h.app.root.ids.sm.top + 0.5
    # the words say what happened and what comes next, not "Claimed. Next: Next count"
    assert show.ids.step.text == "Ben's count, shown after the claim"
    assert show.ids.next_count.text == "Next count: Cat's hand"
    assert [b.text for b in show.ids.offers.walk() if getattr(b, "text", "").endswith("takes 13")] == \
        ["Cat takes 13", "Ann takes 13"]
