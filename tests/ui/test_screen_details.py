"""The screens' rough edges of issue 17 (section 3), each checked on the real widgets: suits in
a font that has them, the discard table's columns, no dead controls, contrast and overlap, the
starter, pegging's scores and muggins, the short game, the board line in the demo, the New game
labels, and the review's card words."""

from functools import lru_cache

import pytest
from kivy.core.text import LabelBase
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.textinput import TextInput

from vision import CardGroup, RecognizedCard, Recognition, Role

from companion.game import GameSession

SUITS = "\u2660\u2665\u2666\u2663"


@lru_cache(maxsize=None)
def font_has_suits(path: str) -> bool:
    from fontTools.ttLib import TTFont

    cmap = TTFont(path, lazy=True).getBestCmap()
    return all(ord(s) in cmap for s in SUITS)


def font_file(name: str, bold: bool) -> str:
    """The file Kivy draws with for a font name (a registered family, or a path)."""
    files = LabelBase._fonts.get(name)
    if files is None:
        return name
    return files[2] if bold else files[0]


def suitless_texts(root) -> list[str]:
    """Every Label (buttons too), text box and popup title under ``root`` whose font lacks a suit."""
    bad = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Label):
            checks = [(widget.font_name, widget.bold, widget.text)]
        elif isinstance(widget, TextInput):
            checks = [(widget.font_name, False, widget.text or widget.hint_text)]
        else:
            checks = []
        if isinstance(widget, Popup):
            checks.append((widget.title_font, False, widget.title))
        for name, bold, text in checks:
            if not font_has_suits(font_file(name, bold)):
                bad.append(f"{type(widget).__name__} {text!r} in {name}")
    return bad


def recognition_with_an_unsure_ten_of_clubs():
    cards = (RecognizedCard("9H", 0.9, (0, 0, 10, 10)), RecognizedCard("6D", 0.9, (10, 0, 20, 10)),
             RecognizedCard("TC", 0.3, (20, 0, 30, 10), confirm=True, runner_up="QC"),
             RecognizedCard("5S", 0.9, (30, 0, 40, 10)), RecognizedCard("AD", 0.95, (50, 50, 60, 60)))
    groups = (CardGroup(Role.HAND, ("9H", "6D", "TC", "5S")), CardGroup(Role.STARTER, ("AD",)))
    return Recognition("photo.jpg", 100, 100, cards, groups, (), {})


def new_game(h, **kwargs):
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, **kwargs)
    h.wait()


def played_to_the_show(h):
    new_game(h)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: ["2C", "3D", "4S", "7H"], 1: ["8S", "8D", "TC", "JS"]})


# --- suits ----------------------------------------------------------------------------------------------
def test_the_bundled_font_has_the_suits_and_roboto_does_not():
    from companion.ui import theme as T

    assert font_has_suits(font_file(T.UI_FONT, False)) and font_has_suits(font_file(T.UI_FONT, True))
    assert not font_has_suits(font_file("Roboto", False))  # why "10♣" read "10▯"


def test_every_text_on_every_screen_and_popup_can_show_the_suits(start_app, monkeypatch):
    from companion.ui.widgets import chart, photo_view

    drawn = []  # the texts drawn straight on a canvas (chart, photo boxes) and their fonts
    for module in (chart, photo_view):
        original = module.CoreLabel

        def recording(*args, _original=original, **kwargs):
            drawn.append((kwargs.get("text"), kwargs.get("font_name"), kwargs.get("bold", False)))
            return _original(*args, **kwargs)
        monkeypatch.setattr(module, "CoreLabel", recording)
    h = start_app()
    played_to_the_show(h)
    problems = {}
    h.app.show_error("10\u2663 is in the photo twice")  # the banner shows cards too
    for name in ("home", "new_game", "table", "pegging", "show", "discard", "history", "settings"):
        h.app.go(name)
        h.wait()
        if name == "discard":
            h.screen("discard").set_cards(["5H", "6C", "7D", "8S", "JH", "KS"])
            h.wait()
        problems[name] = suitless_texts(h.app.root)
    h.app.go("review", recognition=recognition_with_an_unsure_ten_of_clubs(), photo=None)
    review = h.screen("review")
    review.tap_card(2)  # the correction popup
    h.pump(0.2, frames=4)
    assert "10\u2663" in review.picker.title and any("10\u2663" in b.text for b in review.picker.walk()
                                                   if isinstance(b, Label))
    problems["correction popup"] = suitless_texts(review.picker)
    problems["review"] = suitless_texts(h.app.root)
    review.picker.dismiss()
    assert {k: v for k, v in problems.items() if v} == {}
    assert drawn and all(font_has_suits(font_file(name, bold)) for _text, name, bold in drawn)


# --- dead controls ---------------------------------------------------------------------------------------
def test_the_keypad_is_off_once_the_show_is_counted(start_app):
    h = start_app()
    played_to_the_show(h)
    h.app.go("show")
    show = h.screen("show")
    assert not show.ids.keypad.disabled  # a count to claim: digits go in
    for _ in range(2):  # the two hands, as counted
        h.tap(show.ids.accept)
        h.wait()
    h.companion.act(GameSession.show, ["5H", "6H", "9C", "KD"], None)  # the crib, its cards named
    h.wait()
    assert show.heading == "The show is counted"
    assert show.ids.claim.disabled and show.ids.accept.disabled and show.ids.keypad.disabled
    seven = next(b for b in show.ids.keypad.children if b.text == "7")
    h.tap_at(*seven.to_window(*seven.center))
    assert show.ids.keypad.value == ""


# --- discard help ------------------------------------------------------------------------------------------
def contrast(fore, back) -> float:
    """The WCAG contrast ratio of two RGB(A) colours (1 to 21; body text wants 4.5 or more)."""
    def luminance(colour):
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(fore), luminance(back)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_discard_help_headings_sit_over_their_columns_and_keep_is_said_once(start_app):
    from companion.ui.screens.discard import COLUMNS

    h = start_app()
    h.app.go("discard")
    discard = h.screen("discard")
    discard.set_cards(["5H", "6C", "7D", "8S", "JH", "KS"])
    h.wait()
    h.pump(frames=3)
    table = discard.ids.options.children[0]
    cells = list(reversed(table.children))  # reading order
    rows = [cells[i:i + len(COLUMNS)] for i in range(0, len(cells), len(COLUMNS))]
    headings, first = rows[0], rows[1]
    assert [c.text.replace("[b]", "").replace("[/b]", "") for c in headings] == list(COLUMNS)
    for row in rows[1:]:
        for heading, cell in zip(headings, row):
            assert abs(cell.x - heading.x) < 1 and abs(cell.width - heading.width) < 1
    assert first[1].text == "[b]5\u2665 J\u2665[/b]" and first[2].text == "6\u2663 7\u2666 8\u2660 K\u2660"
    assert [float(c.text) for c in (first[3], first[5])] == [7.17, 14.63] and first[4].text == "+7.45"
    assert sum("keep" in c.text for c in cells) == 1  # the heading only


def test_the_crib_choice_is_readable_when_selected(start_app):
    from companion.ui import theme as T

    h = start_app()
    h.app.go("discard")
    discard = h.screen("discard")
    for mine in (True, False):
        h.tap(discard.ids.mine if mine else discard.ids.theirs)
        chosen = discard.ids.mine if mine else discard.ids.theirs
        assert "(yes)" in chosen.text and chosen.background_color == list(T.ACCENT)
        for button in (discard.ids.mine, discard.ids.theirs):
            assert contrast(button.color, button.background_color) >= 4.5, button.text


# --- the status bar ----------------------------------------------------------------------------------------
def test_home_has_no_dead_back_button_and_other_screens_go_back(start_app):
    h = start_app()
    back = h.app.root.ids.back
    assert h.current == "home" and back.disabled and back.opacity == 0 and back.width == 0
    h.app.go("settings")
    h.pump(frames=3)
    assert not back.disabled and back.opacity == 1 and back.width > 0
    h.tap(back)
    assert h.current == "home" and back.disabled


@pytest.mark.parametrize("screen", ["home", "history", "table"])
def test_the_board_line_is_never_cut_mid_word_in_portrait(start_app, screen):
    h = start_app()
    h.resize((800, 1280))
    h.app._board_poll.cancel()  # this line, not the polled one
    line = "no board found: plug it in and choose its port in Settings"
    h.app.board_line = line
    h.app.go(screen)
    h.pump(0.1, frames=4)
    status, bar = h.app.root.ids.board_status, h.app.root.ids.bar
    shown = [" ".join(w.text for w in row.words) for row in status._label._cached_lines]
    assert " ".join(" ".join(shown).split()) == line  # every word, whole
    assert status.texture_size[1] <= bar.height and status.x >= h.app.root.ids.title.right


# --- history -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_history_chart_texts_never_overlap(start_app, size):
    h = start_app()
    h.resize(size)
    h.app.go("history")
    h.wait()
    history = h.screen("history")
    charts = (history.ids.averages, history.ids.muggins)
    charts[0].groups = charts[1].groups = ["Ann", "Ben"]
    charts[0].series = [("hand", [6.0, 2.0]), ("crib", [0.0, 4.5]), ("pegging", [3.0, 1.0])]
    charts[1].series = [("lost to muggins", [0, 2]), ("taken by muggins", [2, 0])]
    h.pump(0.1, frames=4)
    for chart in charts:
        texts = chart.placed
        assert {"6.0", "hand", "pegging", "Ann"} <= {t[0] for t in texts} or {"2", "lost to muggins"} <= \
            {t[0] for t in texts}
        for text, x, y, w, hgt in texts:
            assert chart.x <= x and x + w <= chart.right and chart.y <= y and y + hgt <= chart.top, text
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                apart = a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1] or a[2] + a[4] <= b[2] or b[2] + b[4] <= a[2]
                assert apart, f"{a[0]!r} overlaps {b[0]!r}"


# --- the table and the play --------------------------------------------------------------------------------
def test_the_table_shows_the_starter_once_cut(start_app):
    h = start_app()
    new_game(h)
    h.app.go("table")
    table = h.screen("table")
    h.companion.act(GameSession.discard)
    h.wait()
    assert table.ids.starter.text == "" and table.ids.starter.height == 0
    h.tap(table.ids.cut)
    h.tap(h.popup().buttons["AD"])
    h.wait()
    assert "A\u2666" in table.ids.starter.text and table.ids.starter.opacity == 1 and table.ids.starter.height > 0


def tap_card(h, pegging, code, claim=None):
    pegging.ids.claim.text = "" if claim is None else str(claim)
    h.tap(pegging.card_buttons[code])
    h.wait()


def button(box, text):
    return next(w for w in box.walk(restrict=True) if getattr(w, "text", None) == text)


def test_pegging_shows_the_scores_and_muggins_is_taken_or_let_go_with_a_word(start_app):
    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.wait()
    h.app.go("pegging")
    h.pump(frames=3)
    pegging = h.screen("pegging")
    scores = pegging.ids.scores
    assert "Ann" in scores.text and "Ben" in scores.text and scores.opacity == 1 and scores.width > 0
    tap_card(h, pegging, "8S")
    tap_card(h, pegging, "7H", claim=0)  # Ann's fifteen, claimed 0: Ben may take the 2
    offers = pegging.ids.offers
    h.tap(button(offers, "Ben takes 2"))
    h.wait()
    assert pegging.ids.last.text == "muggins: Ben takes 2 missed by Ann (play)"
    assert h.companion.view.scores == (0, 2) and "Ben[/color]  [b]2[/b]" in scores.text
    assert not h.companion.view.offers and not offers.children
    tap_card(h, pegging, "8D")
    tap_card(h, pegging, "8C", claim=0)  # 31 and a pair, claimed 0
    assert h.companion.view.offers
    h.tap(button(offers, "Let it go"))
    h.wait()
    assert pegging.ids.last.text == "muggins declined: 4 missed by Ann are lost"
    assert not h.companion.view.offers and h.companion.view.scores == (0, 2)


# --- new game --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_the_names_label_stands_beside_the_first_name(start_app, size):
    h = start_app()
    h.resize(size)
    h.app.go("new_game")
    h.wait()
    h.pump(frames=3)
    new = h.screen("new_game")
    label, first = new.ids.names_label, new.ids.name0
    for players in (2, 4):
        h.tap(new.ids.p2 if players == 2 else new.ids.p4)
        h.pump(frames=3)
        assert first.y <= label.center_y <= first.top and label.right <= first.x


def test_a_short_game_to_61_can_be_chosen(start_app):
    h = start_app()
    h.app.go("new_game")
    h.wait()
    new = h.screen("new_game")
    new.ids.board.text = "none"
    assert new.ids.long_game.state == "down" and not new.short
    h.tap(new.ids.short_game)
    assert new.short and new.ids.short_game.state == "down" and new.ids.long_game.state == "normal"
    h.tap(new.ids.start)
    h.wait(lambda: h.current == "table", what="the table")
    assert h.companion.view.rules.target == 61
    h.app.go("new_game")
    h.tap(new.ids.long_game)
    h.tap(new.ids.start)
    h.wait(lambda: h.current == "table" and h.companion.game_id == 2, what="a second game")
    assert h.companion.view.rules.target == 121


# --- the demo's board ---------------------------------------------------------------------------------------------
def test_the_demo_says_simulated_board_on_home_and_in_settings(start_app):
    h = start_app(demo=True)
    h.pump(0.6)  # the status bar is polled twice a second
    assert h.current == "home" and h.app.board_line == "simulated board: starts with a game"
    h.app.go("settings")
    h.wait()
    settings = h.screen("settings")
    assert settings.ids.board.text == "Simulated board" and settings.demo
    h.tap(settings.ids.save)
    h.wait()
    assert h.companion.settings.board == "auto"  # the demo's board is not saved as the player's choice


def test_outside_the_demo_no_board_is_spoken_of_until_one_is_asked_for(start_app, tmp_path):
    h = start_app()
    h.pump(0.6)
    assert h.companion.settings.board == "auto" and h.app.board_line == ""  # nothing asked, nothing found
    h.app.go("settings")
    h.wait()
    assert h.screen("settings").ids.board.text == "Find my board" and not h.screen("settings").demo


# --- the review's words ---------------------------------------------------------------------------------------------
def test_the_review_names_cards_as_every_other_screen_does(start_app):
    h = start_app()
    h.app.go("review", recognition=recognition_with_an_unsure_ten_of_clubs(), photo=None)
    review = h.screen("review")
    # 10♣ or Q♣: a ten either way, the count the same: marked, not asked
    assert review.ids.marked.text.startswith("Kept as read: 10\u2663 or Q\u2663: ")
    assert review.ids.marked.text.endswith(" either way")
    marked = review.ids.marked.text
    review.review.correct(0, "6D")  # 6♦ twice now
    review.refresh()
    assert "6\u2666 read twice: the other is likelier wrong" in review.ids.problems.text  # the player named this one
    shown = marked + review.ids.problems.text + " ".join(b["label"] for b in review.ids.photo.boxes)
    assert not any(code in shown for code in ("TC", "QC", "6D", "9H"))
