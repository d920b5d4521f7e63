"""The two gaps of issue 22 in the app's rounds: Redo on the show screen beside Undo (a count
undone by mistake comes back as it was), and a go the rules make impossible questioned on the
pegging screen as the terminal questions it (asked once, naming the card that fits; the player
lays a card, or insists and the go stands)."""

from companion.game import GameSession


def new_deal(h):
    """Ann deals, so Ben leads; no hands typed, the starter AD."""
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.wait()


def played_to_the_show(h):
    new_deal(h)
    h.play_out({0: ["2C", "3D", "4S", "7H"], 1: ["8S", "8D", "TC", "JS"]})


def at_the_pegging(h, *cards):
    new_deal(h)
    h.app.go("pegging")
    pegging = h.screen("pegging")
    for card in cards:
        h.tap(pegging.card_buttons[card])
        h.wait()
    return pegging


# --- Redo on the show -----------------------------------------------------------------------------------
def test_the_show_redoes_a_count_undone_by_mistake(start_app):
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    assert show.heading.startswith("Ben's hand") and show.ids.redo.disabled
    h.tap(show.ids.accept)  # Ben's hand, as counted
    h.wait()
    counted, scores = h.companion.view.shown, h.companion.view.scores
    assert len(counted) == 1 and show.heading.startswith("Ann's hand") and show.last.startswith("Ben: ")
    h.tap(show.ids.undo)    # by mistake
    h.wait()
    assert not h.companion.view.shown and show.heading.startswith("Ben's hand")
    assert show.last == ""  # what the undone count pegged is no longer said
    assert not show.ids.redo.disabled
    h.tap(show.ids.redo)    # back as it was, no counting again
    h.wait()
    assert h.companion.view.shown == counted and h.companion.view.scores == scores
    assert show.heading.startswith("Ann's hand") and show.ids.redo.disabled and not show.ids.undo.disabled


def test_redo_stands_beside_undo_on_the_show(start_app):
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    h.pump(frames=3)
    undo, redo = show.ids.undo, show.ids.redo
    assert undo.parent is redo.parent and undo.parent.children.index(undo) == undo.parent.children.index(redo) + 1
    assert abs(undo.y - redo.y) < 1 and redo.x > undo.x and redo.width > 0


# --- the questioned go ----------------------------------------------------------------------------------
def test_a_go_that_cannot_be_right_is_asked_once_and_the_card_that_fits_named(start_app):
    h = start_app()
    pegging = at_the_pegging(h, "8S", "7H")   # Ben 8S, Ann 7H: count 15, Ben to play holding 3
    h.tap(pegging.ids.go)
    h.wait(lambda: h.popup() is not None, what="the question")
    question = h.popup()
    assert question.title == "A go that cannot be right"
    assert question.question.text == ("Ben says go holding 3 cards at count 15: any card fits (31 - 15 = 16, "
                                      "and no card is worth more than 10): a go cannot be right here.")
    assert [b.text for b in question.buttons] == ["Lay a card", "Go stands: Ben insists"]
    assert [p.card for p in h.companion.view.play] == ["8S", "7H"]  # asked, nothing recorded
    h.tap(question.buttons[0])                # Ben lays a card after all
    h.wait(lambda: h.popup() is None, what="the question closed")
    assert [p.card for p in h.companion.view.play] == ["8S", "7H"] and h.companion.view.to_act == 1
    h.tap(pegging.card_buttons["TC"])
    h.wait()
    assert [p.card for p in h.companion.view.play] == ["8S", "7H", "TC"] and not h.companion.view.reneges


def test_the_player_may_insist_and_the_go_stands(start_app):
    h = start_app()
    pegging = at_the_pegging(h, "8S", "7H")
    h.tap(pegging.ids.go)
    h.wait(lambda: h.popup() is not None, what="the question")
    h.tap(h.popup().buttons[1])               # "Go stands: Ben insists"
    h.wait(lambda: h.popup() is None, what="the question closed")
    view = h.companion.view
    assert [p.card for p in view.play] == ["8S", "7H", "go"] and view.to_act == 0
    assert view.reneges and "Ben: go" in pegging.ids.plays.text  # a renege the opponent may peg
    assert any(getattr(w, "text", "").startswith("Renege: Ben said go") for w in pegging.ids.offers.walk())


def test_a_go_that_may_be_right_is_recorded_without_a_question(start_app):
    h = start_app()
    pegging = at_the_pegging(h, "TH", "JC", "2D")   # count 22, Ann holding 3: she may hold three tens
    h.tap(pegging.ids.go)
    h.wait()
    assert h.popup() is None and pegging.question is None
    assert [p.card for p in h.companion.view.play] == ["TH", "JC", "2D", "go"]
    assert h.companion.view.to_act == 1
