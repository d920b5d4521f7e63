"""Issue 48 section 2: the player's corrections in Check the cards stick. A card confirmed, a card
moved to the crib and a page left out are still so when the show sends the player back to the
review to correct a card; the disagreement names the group the player made the crib; a box left
out is drawn as left out; what the reviewed photo says afterwards is said after the corrections."""

from kivy.uix.button import Button

from companion.game import GameSession
from companion.photo import count_recognition
from companion.ui import theme as T
from companion.ui.present import group_for
from companion.ui.review import CRIB, IGNORED, STARTER, Review, hand
from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role

ANN = ["2C", "3D", "4S", "7H"]   # the dealer
BEN = ["8S", "6D", "TC", "JS"]   # the pone: lays 6D in the play
CUT = "AD"
PHOTO_HAND = ("9H", "6D", "QH", "5C")  # QH read unsure; 6D is Ben's, laid in the play
PAGE = (700.0, 500.0, 950.0, 850.0)    # a printed page beside the cards: an unread box
QH, SIX, PAGE_AT = 2, 1, 5             # their places in the review (the page after the cards)


def crib_photo() -> Recognition:
    cards = tuple(RecognizedCard(code, 0.45 if code == "QH" else 0.95, (100.0 + 60 * i, 100.0, 200.0 + 60 * i, 240.0),
                                 confirm=code == "QH", runner_up="6H" if code == "QH" else None)
                  for i, code in enumerate(PHOTO_HAND))
    starter = RecognizedCard(CUT, 0.97, (120.0, 600.0, 220.0, 740.0))
    warnings = (Notice(Code.LOW_CONFIDENCE, ("QH", 0.45, "6H", 0.2)), Notice(Code.UNREAD_CARD, (1, PAGE, None)),
                Notice(Code.UNSURE_READS_ON_CARDS, ((("JS", 0.13),),)))
    return Recognition("crib.jpg", 1280, 960, cards + (starter,),
                       (CardGroup(Role.HAND, PHOTO_HAND), CardGroup(Role.STARTER, (CUT,))), warnings,
                       unread_boxes=(PAGE,))


def at_the_crib(h):
    """Ann deals, the cut is AD, both hands are counted: the crib (not typed) is next."""
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, board="none")
    h.wait(lambda: h.companion.view is not None, what="the game")
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, CUT)
    h.play_out({0: list(ANN), 1: list(BEN)})
    h.companion.act(GameSession.show)
    h.companion.act(GameSession.show)
    h.wait()
    assert h.companion.view.next_show.kind == "crib" and h.companion.view.next_show.cards is None
    assert any(p.card == "6D" for p in h.companion.view.play)


def choose(h, review, index: int, words: str) -> None:
    """Tap card ``index`` on the review and the picker's button that starts with ``words``."""
    review.tap_card(index)
    h.pump(0.2, frames=4)
    [button] = [b for b in review.picker.walk() if isinstance(b, Button) and b.text.startswith(words)]
    h.tap(button)
    h.wait(lambda: h.popup() is None, what="the picker closed")


def review_the_photo(h, moved: int):
    """The crib's photo reviewed as the issue did it: QH confirmed, card ``moved`` to the crib,
    the page left out; then counted."""
    recognition = crib_photo()
    h.app.go("review", recognition=recognition, photo=None, path="crib.jpg", purpose="show")
    h.wait()
    review = h.screen("review")
    choose(h, review, QH, "Yes, it is")
    choose(h, review, moved, "To crib")
    choose(h, review, PAGE_AT, "Leave out")
    assert review.review.problems() == [] and not review.ids.count.disabled
    h.tap(review.ids.count)
    h.wait(lambda: h.current == "show", what="the reviewed photo counted")
    return recognition


def test_the_corrections_stand_when_the_show_sends_the_player_back_to_correct_a_card(start_app):
    h = start_app()
    at_the_crib(h)
    review_the_photo(h, moved=SIX)
    popup = h.popup()
    assert popup is not None, "the 6D laid by Ben was not questioned"
    assert popup.question.text == "The photo shows 6\u2666 in the crib, but 6\u2666 is laid by Ben in the play."
    [correct] = popup.buttons
    assert correct.text == "6\u2666 is laid by Ben in the play: correct the card in the photo"
    h.tap(correct)
    h.wait(lambda: h.current == "review", what="the review again")
    review = h.screen("review")
    cards = review.review.cards
    assert cards[QH].confirmed and cards[SIX].group == CRIB and cards[PAGE_AT].group == IGNORED
    assert review.review.groups() == {hand(1): ["9H", "QH", "5C"], CRIB: ["6D"], STARTER: [CUT]}
    assert review.ids.problems.text == "Every card checked. Tap a card to change it, or count."
    page = review.ids.photo.boxes[PAGE_AT]
    assert page["left_out"] and page["label"] == "left out" and page["colour"] == T.MUTED
    assert review.ids.photo.boxes[SIX]["colour"] == T.ROLE_COLOURS["crib"]
    # the card corrected there is counted with everything else the player said
    review._change(review.review.correct, SIX, "6H")
    h.tap(review.ids.count)
    h.wait(lambda: h.current == "show", what="counted again")
    counted = h.screen("show").context["photo_show"]
    assert [(g.label, g.cards) for g in counted.groups] == [("hand 1", ("9H", "QH", "5C")), ("crib", ("6H",))]


def test_the_disagreement_names_the_group_the_player_made_the_crib(start_app):
    h = start_app()
    at_the_crib(h)
    review_the_photo(h, moved=QH)
    h.wait()
    popup = h.popup()
    assert popup is None, popup.question.text  # 6D lies in hand 1, not in the crib the player marked
    show = h.screen("show")
    assert show.note == "crib: 1 readable cards: a hand has 4"


def test_the_crib_to_count_is_the_group_marked_crib_not_the_first_counted_with_crib_rules():
    recognition = Recognition("crib.jpg", 1280, 960, tuple(
        RecognizedCard(c, 0.9, (100.0 * i, 0.0, 100.0 * i + 90, 130.0)) for i, c in enumerate(PHOTO_HAND + (CUT,))),
        (CardGroup(Role.HAND, ("9H", "6D", "5C")), CardGroup(Role.CRIB, ("QH",)), CardGroup(Role.STARTER, (CUT,))), ())
    shown = count_recognition(recognition, CUT, all_crib=True)  # the crib next: every group counts as a crib
    assert all(g.crib for g in shown.groups)
    group, note = group_for(shown, None, "crib")
    assert group.label == "crib" and group.cards == ("QH",) and note is None


def test_the_reviewed_photo_says_only_what_is_still_so():
    review = Review(crib_photo())
    review.confirm(QH)
    review.move(SIX, CRIB)
    review.not_a_card(PAGE_AT)
    said = review.recognition().warnings
    assert not any(w.code in (Code.LOW_CONFIDENCE, Code.UNREAD_CARD) for w in said)
    assert Notice(Code.UNSURE_READS_ON_CARDS, ((("JS", 0.13),),)) in said  # an ignored read is still ignored
    unchecked = Review(crib_photo())
    unchecked.correct(QH, "QD")  # corrected: what it was read as is answered too
    unchecked.not_a_card(PAGE_AT)
    assert not any(w.code == Code.LOW_CONFIDENCE for w in unchecked.recognition().warnings)
