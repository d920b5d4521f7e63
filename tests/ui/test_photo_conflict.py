"""A photo of the crib whose starter disagrees with the cut: the app says so and the player
chooses which card stands. Never the cut silently kept and the photo's card dropped."""

from companion.game import GameSession
from companion.photo import count_recognition
from companion.rules import Card, score
from vision import CardGroup, RecognizedCard, Recognition, Role

ANN = ["2C", "3D", "4S", "7H"]   # the dealer
BEN = ["8S", "8D", "TC", "JS"]   # the pone
CRIB = ["5C", "QS", "6D", "9H"]
CUT, PHOTO_STARTER = "6S", "KS"


def crib_photo() -> Recognition:
    """The crib's 4 cards in a row and a lone card apart: the photo's starter, KS."""
    cards = [RecognizedCard(c, 0.99, (100 + 120 * i, 100, 200 + 120 * i, 250)) for i, c in enumerate(CRIB)]
    cards.append(RecognizedCard(PHOTO_STARTER, 0.99, (900, 500, 1000, 650)))
    groups = (CardGroup(Role.CRIB, tuple(CRIB)), CardGroup(Role.STARTER, (PHOTO_STARTER,)))
    return Recognition("crib.jpg", 1280, 960, tuple(cards), groups, ())


def at_the_crib_with_its_photo(h):
    """Ann deals, the cut is 6S, the play and both hands are done: the crib (not typed) is next,
    and its photo, counted for the game as the app counts a reviewed photo, is on the show screen."""
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, board="none")
    h.wait(lambda: h.companion.view is not None, what="the game")
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, CUT)
    h.play_out({0: list(ANN), 1: list(BEN)})
    h.companion.act(GameSession.show)
    h.companion.act(GameSession.show)
    h.wait()
    assert h.companion.view.next_show.kind == "crib" and h.companion.view.next_show.cards is None
    recognition = crib_photo()
    counted = []
    h.companion.count(recognition, counted.append)
    h.wait(lambda: counted, what="the photo counted")
    h.app.go("show", photo_show=counted[0], recognition=recognition, path="crib.jpg", photo=None)
    h.wait()
    return h.screen("show")


def the_question(h):
    popup = h.popup()
    assert popup is not None, "the disagreement was not said"
    return popup


def crib_total(starter: str) -> int:
    return score([Card.parse(c) for c in CRIB], Card.parse(starter), crib=True).total


def test_the_player_is_told_and_keeps_the_cut(start_app):
    h = start_app()
    show = at_the_crib_with_its_photo(h)
    popup = the_question(h)
    assert popup.question.text == "The photo's starter is K♠, but the cut was 6♠."
    assert [b.text for b in popup.buttons] == ["The cut 6♠ stands: count with it (K♠ set aside)",
                                               "K♠ is right: correct the cut and count with it"]
    h.tap(popup.buttons[0])
    h.wait(lambda: h.popup() is None, what="the question closed")  # its closing animation runs after the tap
    assert "K♠ in the photo set aside: 6♠ stands." in show.note
    assert "starter 6♠" in show.heading and show.total == crib_total(CUT)
    h.tap(show.ids.accept)
    h.wait()
    crib = h.companion.view.shown[-1]
    assert (crib.kind, crib.starter, crib.total) == ("crib", CUT, crib_total(CUT))
    assert sorted(crib.cards) == sorted(CRIB)


def test_the_player_is_told_and_the_photo_corrects_the_cut(start_app):
    h = start_app()
    show = at_the_crib_with_its_photo(h)
    popup = the_question(h)
    laid = [p.card for p in h.companion.view.play]
    h.tap(popup.buttons[1])
    h.wait(lambda: h.companion.view.starter == PHOTO_STARTER, what="the cut corrected")
    h.wait(lambda: show.context["photo_show"].starter == PHOTO_STARTER, what="the photo counted again")
    h.wait()
    assert h.popup() is None  # the photo and the game agree now: nothing more to ask
    view = h.companion.view
    assert [p.card for p in view.play] == laid  # the play kept as it was
    assert [s.starter for s in view.shown] == [PHOTO_STARTER, PHOTO_STARTER]  # the hands recounted with KS
    assert "starter K♠" in show.heading and show.total == crib_total(PHOTO_STARTER)
    h.tap(show.ids.accept)
    h.wait()
    crib = h.companion.view.shown[-1]
    assert (crib.kind, crib.starter, crib.total) == ("crib", PHOTO_STARTER, crib_total(PHOTO_STARTER))


def test_a_photographed_card_laid_by_another_player_is_questioned():
    """The game's side alone: a crib photo holding a card Ben laid in the play is said, and only the
    photo can be corrected (which card Ben laid instead is not known)."""
    from companion.game import GameSession
    from companion.game.photo_check import photo_conflicts

    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer=0)
    session.discard(None)
    session.cut(CUT)
    hands = {0: list(ANN), 1: list(BEN)}
    while session.view().phase == "play":
        view = session.view()
        fits = [c for c in hands[view.to_act] if view.count + Card.parse(c).value <= 31]
        if fits:
            hands[view.to_act].remove(fits[0])
            session.lay(fits[0])
        else:
            session.go()
    session.show()
    session.show()
    photo = count_recognition(crib_photo(), CUT, all_crib=True)
    crib_cards = ["5C", "QS", "6D", "TC"]  # TC was laid by Ben
    (starter, laid) = photo_conflicts(session.view(), photo.starter_in_photo, crib_cards)
    assert starter.game_card == CUT and starter.photo_card == PHOTO_STARTER and starter.keep_photo
    assert laid.text == "The photo shows TC in the crib, but TC is laid by Ben in the play."
    assert laid.game_card is None and laid.keep_photo is None
