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


def test_the_players_answers_lay_the_table_out_with_the_recognitions_own_settings():
    """Issue 55 s1: a recognition keeps the layout settings its models laid it out with, and the
    player's answers lay it out again with them, not with the standard ones. Here the models link
    cards only 0.8 card widths apart, so the named fourth card (0.6 apart from the third) still
    joins the hand, but a named card 1.2 widths away lies apart, where the standard 1.6 would link it."""
    from dataclasses import replace

    from vision.config import DEFAULTS
    from vision.table import layout_of

    recognition = _hand_of_three_with_a_box_and_a_page()
    fourth, page = recognition.unread_boxes
    near = replace(recognition, unread_boxes=(box(340, 100), page), warnings=())
    assert layout_of(near) == DEFAULTS.layout  # made without models: the standard settings
    tight = replace(near, layout=replace(DEFAULTS.layout, link_distance=0.8))
    assert layout_of(tight).link_distance == 0.8
    answer = dict(named=[RecognizedCard("5C", 1.0, box(340, 100))], left_out=[page], confirmed={"QH"})
    standard = as_the_player_says(near, **answer)
    own = as_the_player_says(tight, **answer)
    assert ("9H", "6D", "QH", "5C") in [g.cards for g in standard.groups]
    assert ("9H", "6D", "QH", "5C") not in [g.cards for g in own.groups] and own.layout is tight.layout


def test_a_recognition_carries_the_layout_settings_of_its_models(tmp_path):
    import json
    import shutil
    from pathlib import Path

    from vision import Recognizer

    models = Path(__file__).resolve().parents[2] / "models"
    folder = tmp_path / "models"
    shutil.copytree(models, folder, ignore=shutil.ignore_patterns("train"))
    config = json.loads((folder / "models.json").read_text())
    config["calibration"]["layout"] = {"link_distance": 1.2}
    (folder / "models.json").write_text(json.dumps(config))
    result = Recognizer(folder, backend="onnxruntime").recognize(str(models.parent / "sample_images" / "hand_starter_papers.jpg"))
    assert result.layout.link_distance == 1.2


def test_the_table_as_the_player_placed_the_cards():
    """``placed`` (issue 55 s4: the review asks vision.table): the player's groups stand, the
    layout's notices go, an unread box kept keeps its notice and the others go, and a checked
    card's notices are answered."""
    from vision.table import placed

    recognition = _hand_of_three_with_a_box_and_a_page()
    fourth, page = recognition.unread_boxes
    groups = (CardGroup(Role.CRIB, ("9H", "6D", "QH")), CardGroup(Role.STARTER, ("AD",)))
    table = placed(recognition, recognition.cards, groups, unread_boxes=(fourth,), checked={"QH"})
    assert table.groups == groups and table.cards == recognition.cards and table.unread_boxes == (fourth,)
    assert [n.code for n in table.warnings] == [Code.UNREAD_CARD] and table.warnings[0].args[1] == fourth
    assert placed(recognition, recognition.cards, groups).warnings == (Notice(Code.LOW_CONFIDENCE, ("QH", 0.5, "6H", 0.3)),)
