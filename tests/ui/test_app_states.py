"""The app after a restart (the game resumed where it was), without a board and without a
camera: it keeps working and says what to do."""

from companion.game import GameSession

from tests.ui.conftest import SAMPLES


def past_the_tour(h):
    """The home screen after the first-run tour, paged through to its end."""
    home = h.screen("home")
    while home.tour_page >= 0:
        h.tap(home.ids.tour_next)
    return home


def start_game(h, board="none"):
    home = past_the_tour(h)
    h.tap(home.ids.new_game)
    h.wait()
    new = h.screen("new_game")
    new.ids.name0.text, new.ids.name1.text = "Ann", "Ben"
    new.ids.board.text = board
    h.tap(new.ids.start)
    h.wait()
    h.wait(lambda: h.current == "table", what="the table")


def test_resume_after_a_restart(start_app, tmp_path):
    folder = tmp_path / "games"
    h = start_app(folder=folder)
    start_game(h)
    table = h.screen("table")
    h.tap(table.ids.deal)
    h.wait()
    h.tap(table.ids.cut)
    h.tap(h.popup().buttons["JD"])  # his heels: the dealer pegs 2
    h.wait()
    assert h.companion.view.scores == (2, 0) and table.ids.scores.children[-1].score == "2"
    h.close()

    again = start_app(folder=folder)
    home = again.screen("home")
    assert home.tour_page == -1  # the tour is shown once
    assert "Resume game 1" == home.ids.resume.text
    assert any("Ann v Ben" in b.text for b in home.ids.recent.children)
    again.tap(home.ids.resume)
    again.wait(lambda: again.current == "table", what="the resumed game")
    view = again.companion.view
    assert (view.scores, view.phase, view.starter) == ((2, 0), "play", "JD")
    table = again.screen("table")
    assert table.ids.scores.children[-1].score == "2" and "Ben to play" in table.ids.turn.text
    again.tap(table.ids.undo)  # the journal came back whole: the cut can be undone
    again.wait()
    assert again.companion.view.phase == "cut"


def test_no_board_the_game_goes_on(start_app):
    h = start_app()
    start_game(h, board="none")
    # before the first poll the line may still name the choice made before the game
    assert h.companion.sync is None
    h.pump(0.6)
    assert h.app.board_line == ""  # no board asked for: none spoken of
    table = h.screen("table")
    h.tap(table.ids.deal)
    h.wait()
    assert h.companion.view.phase == "cut"


def test_a_board_that_is_not_there_never_blocks(start_app):
    h = start_app()
    start_game(h, board="/dev/crib-companion-no-such-board")
    table = h.screen("table")
    h.tap(table.ids.deal)
    h.wait(timeout=5)
    assert h.companion.view.phase == "cut"
    h.pump(0.6)
    assert "connecting" in h.app.board_line


def test_no_camera_offers_files_and_samples(start_app):
    h = start_app(camera=None)
    start_game(h)
    h.app.go("capture", purpose="show")
    capture = h.screen("capture")
    assert not capture.has_camera and capture.ids.shoot.disabled
    assert "No camera" in capture.hint
    samples = {b.text: b for b in capture.ids.samples.children}
    assert "hand starter spread" in samples
    h.tap(samples["hand starter spread"])
    # models v5 read it exactly (the jack's frame marks read as a card are ignored): nothing to
    # check, so the photo is counted straight away
    h.wait(lambda: h.current == "show", what="the sample recognised and counted")
    photo_show = h.screen("show").context["photo_show"]
    assert photo_show.starter == "KS" and [g.cards for g in photo_show.groups] == [("6D", "2S", "TC", "JS")]
    assert not any(card.confirm for card in photo_show.cards)


def test_an_error_is_shown_in_words(start_app):
    h = start_app()
    start_game(h)
    h.companion.act(GameSession.cut, "JD", failed=h.app.show_error)  # no deal yet: refused by the session
    h.wait()
    assert "cannot come now" in h.app.message and h.app.message_is_error
    h.tap(h.app.root.ids.banner)
    assert h.app.message == ""


def test_discard_help_ranks_a_typed_deal(start_app):
    h = start_app()
    home = past_the_tour(h)
    h.tap(home.ids.discard)
    discard = h.screen("discard")
    h.tap(discard.ids.six)
    picker = h.popup()
    for code in ("5H", "5S", "JD", "6C", "KC", "2H"):
        h.tap(picker.buttons[code])
    h.tap(picker.done_button)
    h.wait()
    rows = discard.advice_rows()
    assert len(rows) == 9 and rows[1][0] == "1."
    assert SAMPLES.exists()


def test_four_players_in_partnerships_and_a_cut_for_deal(start_app):
    h = start_app()
    home = past_the_tour(h)
    h.tap(home.ids.new_game)
    new = h.screen("new_game")
    h.tap(new.ids.p4)
    for i, name in enumerate(("Ann", "Ben", "Cal", "Dee")):
        new.ids[f"name{i}"].text = name
    new.ids.board.text = "none"
    new.ids.dealer.text = "Cut for deal"
    h.tap(new.ids.pick_cut)
    picker = h.popup()
    for code in ("9H", "7S", "KD", "3C"):   # Dee cuts lowest: Dee deals
        h.tap(picker.buttons[code])
    h.tap(picker.done_button)
    assert new.ids.cut_cards.text == "9H 7S KD 3C"
    h.tap(new.ids.start)
    h.wait(lambda: h.current == "table", what="the table")
    view = h.companion.view
    assert view.side_names == ("Ann & Cal", "Ben & Dee") and view.players[3] == "Dee"
    table = h.screen("table")
    # before Deal the partnership about to deal is marked and the turn names the dealer (issue 48 s4)
    assert table.ids.board.tracks == 2 and [c.name for c in reversed(table.ids.scores.children)] == \
        ["Ann & Cal", "Ben & Dee  (deals)"]
    assert table.ids.turn.text == "Dee deals first" and table.ids.board.dealer == 1
    h.tap(table.ids.deal)
    h.wait()
    assert h.companion.view.dealer == 3 and "(dealer)" in table.ids.scores.children[0].name


def test_a_tie_in_the_cut_is_said_in_words(start_app):
    h = start_app()
    home = past_the_tour(h)
    h.tap(home.ids.new_game)
    new = h.screen("new_game")
    new.ids.board.text = "none"
    new.ids.dealer.text = "Cut for deal"
    new.ids.cut_cards.text = "7H 7S"
    h.tap(new.ids.start)
    h.wait()
    assert h.current == "new_game" and "tie" in h.app.message and "cut again" in h.app.message


def test_discard_help_from_a_photo(start_app):
    h = start_app(camera=None)
    h.app.go("discard")
    h.tap(h.screen("discard").ids.photo)
    capture = h.screen("capture")
    samples = {b.text: b for b in capture.ids.samples.children}
    h.tap(samples["deal6 row tokens"])
    h.wait(lambda: h.current == "discard" and len(h.screen("discard").advice_rows()) > 2, what="the advice")
    discard = h.screen("discard")
    assert sorted(discard.dealt) == sorted(["9S", "KS", "2S", "6D", "TD", "9D"])
    assert discard.advice_rows()[1][0] == "1."


def test_escape_and_android_back_go_back(start_app):
    h = start_app()
    start_game(h)
    h.app.go("pegging")
    assert h.window.dispatch("on_keyboard", 27, 0, None, []) is True  # taken by the app, not closing it
    h.pump(frames=2)
    assert h.current == "table"  # pegging -> table
    h.window.dispatch("on_keyboard", 27, 0, None, [])
    h.pump(frames=2)
    assert h.current == "home"  # table -> home (Escape on home itself closes the app, as Android's back does)


def test_undo_then_a_new_move_asks_to_redo_or_drop(start_app):
    h = start_app()
    start_game(h)
    table = h.screen("table")
    h.tap(table.ids.deal)
    h.wait()
    h.tap(table.ids.undo)
    h.wait()
    assert h.companion.view.phase == "discard" and table.ids.redo.disabled is False
    h.tap(table.ids.deal)   # a new move while the undone deal waits for redo
    h.wait()
    assert "tap Redo" in h.app.message and "Drop undone" in h.app.message
    h.tap(table.ids.forget)
    h.wait()
    assert table.ids.redo.disabled and not any(b.text.startswith("Drop") for b in table.ids.actions.children)
    h.tap(table.ids.deal)
    h.wait()
    assert h.companion.view.phase == "cut"
