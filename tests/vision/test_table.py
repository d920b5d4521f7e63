"""The table's one owner (issue 49 s1): ``vision.table`` lays out the cards with the player's
answers (named, left out, confirmed) in one call, says what it did as notices (codes, never
sentences among them), and weighs group sizes with the layout's own table."""

from vision import CardGroup, Code, Notice, RecognizedCard, Recognition, Role
from vision import layout
from vision.table import LAYOUT_CODES, answered, as_the_player_says

W, H = 100.0, 140.0


def box(x: float, y: float) -> tuple[float, float, float, float]:
    return (x, y, x + W, y + H)


def _hand_of_three_with_a_box_and_a_page() -> Recognition:
    """9H 6D QH laid in a row with an unread box at its end (the fourth card), the starter AD apart,
    a page far away boxed as a card (unread), and QH read unsure."""
    hand = [RecognizedCard("9H", 0.99, box(100, 100)), RecognizedCard("6D", 0.99, box(160, 100)),
            RecognizedCard("QH", 0.5, box(220, 100), confirm=True, runner_up="6H")]
    starter = RecognizedCard("AD", 0.99, box(150, 500))
    fourth, page = box(280, 100), box(900, 600)
    return Recognition("t.jpg", 1280, 960, tuple(hand) + (starter,),
                       (CardGroup(Role.HAND, ("9H", "6D", "QH")), CardGroup(Role.STARTER, ("AD",))),
                       (Notice(Code.UNREAD_CARD, (1, fourth, None)), Notice(Code.UNREAD_CARD, (2, page, None)),
                        Notice(Code.LOW_CONFIDENCE, ("QH", 0.5, "6H", 0.3)),
                        Notice(Code.ROLE_GUESSED, ("hand", ("9H", "6D", "QH"), "size"))),
                       unread_boxes=(fourth, page))


def test_the_players_answers_lay_the_table_out_in_one_call():
    recognition = _hand_of_three_with_a_box_and_a_page()
    fourth, page = recognition.unread_boxes
    table = as_the_player_says(recognition, named=[RecognizedCard("5C", 1.0, fourth)], left_out=[page],
                               confirmed={"QH"})
    assert [(g.role, g.cards) for g in table.groups] == [(Role.HAND, ("9H", "6D", "QH", "5C")),
                                                         (Role.STARTER, ("AD",))]
    assert table.unread_boxes == () and not table.card("QH").confirm
    assert table.warnings == ()  # the boxes' notices, the QH's reading and the guessed role all answered


def test_nothing_answered_leaves_the_recognition_as_it_is():
    recognition = _hand_of_three_with_a_box_and_a_page()
    assert as_the_player_says(recognition) is recognition


def test_the_tables_own_notices_are_codes_worded_as_before():
    assert str(Notice(Code.NAMED_APART, ("5C", "AD"))) == \
        "5C (named) lies apart from the hands and the starter AD: not counted"
    assert str(Notice(Code.SET_ASIDE, ("3C", "AS"))) == \
        "3C (read unsure on AS's corner) is left out of the groups until confirmed"
    said = (Notice(Code.SET_ASIDE, ("3C", "AS")), Notice(Code.LOW_CONFIDENCE, ("3C", 0.3, None, 0.0)),
            Notice(Code.NAMED_APART, ("5C", "AD")))
    assert answered(said, {"3C", "5C"}) == said[2:]  # confirmed: set aside no more, its reading answered
    assert not LAYOUT_CODES & {Code.NAMED_APART, Code.SET_ASIDE, Code.UNREAD_CARD}


def test_the_table_laid_out_again_says_its_own_notices_once():
    """A flagged card set aside on another card's corner, and the table laid out again (the review
    leaves out a box): said once, not once more for each time (sessions before 23 said it twice)."""
    ace_s = RecognizedCard("AS", 0.9, box(200, 200))
    ace_c = RecognizedCard("AC", 0.45, box(310, 205), confirm=True, runner_up="AH")
    phantom = RecognizedCard("3C", 0.3, (205.0, 205.0, 275.0, 305.0), confirm=True, runner_up="AS")
    page = box(900, 600)
    recognition = Recognition("t.jpg", 1000, 800, (ace_c, phantom, ace_s), (CardGroup(Role.UNKNOWN, ("AC", "3C", "AS")),),
                              (Notice(Code.ODD_GROUP, (3,)), Notice(Code.UNREAD_CARD, (1, page, None))),
                              unread_boxes=(page,))
    once = as_the_player_says(recognition)
    again = as_the_player_says(once, left_out=[page])
    aside = [n for n in again.warnings if n.code == Code.SET_ASIDE]
    assert aside == [Notice(Code.SET_ASIDE, ("3C", "AS"))] and again.unread_boxes == ()


def test_one_table_of_group_sizes():
    assert layout.SIZE_FIT == {1: 0.0, 4: 0.0, 6: 0.0, 5: -0.3}
    assert not hasattr(layout, "_SIZE_SCORE")
