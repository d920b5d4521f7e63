"""Issue 48 section 3 in the app: a new game starts as its preset (ACC rules has muggins off, so
a game started as it comes is "ACC rules", not "ACC rules (custom)"), a preset chosen brings its
own muggins, and the claim keypad's claim of a total no hand or crib can score is refused with
one line, nothing recorded (the session asks the rules core)."""

import json

import pytest

from companion.game import GameSession
from companion.ui import present
from companion.ui import settings as settings_store

ANN = ["2C", "3D", "4S", "7H"]   # the dealer
BEN = ["8S", "8D", "TC", "JS"]   # the pone: his hand is a pair of eights (2)


def past_the_tour(h):
    home = h.screen("home")
    while home.tour_page >= 0:
        h.tap(home.ids.tour_next)
    return home


def open_new_game(h):
    h.tap(past_the_tour(h).ids.new_game)
    h.wait()
    new = h.screen("new_game")
    new.ids.name0.text, new.ids.name1.text = "Ann", "Ben"
    new.ids.board.text, new.ids.dealer.text = "none", "Ann"
    return new


def start(h, new):
    h.tap(new.ids.start)
    h.wait(lambda: h.current == "table", what="the table")
    return h.companion.view


def test_a_new_game_as_it_comes_is_acc_rules_not_custom(start_app, tmp_path):
    h = start_app()
    new = open_new_game(h)
    assert (new.ids.preset.text, new.ids.muggins.text, new.count_first) == ("ACC rules", "off", True)
    view = start(h, new)
    assert view.rules.name == "acc" and view.rules.muggins == "off"
    assert present.rules_words(view.rules.name) == "ACC rules"
    h.wait(lambda: (tmp_path / "data" / settings_store.SETTINGS_FILE).exists(), what="the settings saved")
    saved = json.loads((tmp_path / "data" / settings_store.SETTINGS_FILE).read_text())
    assert saved["preset"] == "acc" and saved["muggins"] is None  # the preset's own: not pinned


@pytest.mark.parametrize("chosen, muggins", [(["Pub rules"], "mandatory"), (["Home rules"], "off"),
                                             (["Pub rules", "ACC rules"], "off")])
def test_a_preset_chosen_brings_its_own_muggins_and_keeps_its_name(start_app, chosen, muggins):
    h = start_app()
    new = open_new_game(h)
    for words in chosen:
        new.ids.muggins.text = "optional"   # a choice made before the preset ...
        new.ids.preset.text = words         # ... gives way to the preset's own
    assert new.ids.muggins.text == muggins and new.count_first is (muggins == "off")
    view = start(h, new)
    assert view.rules.name == present.preset_of(words) and view.rules.muggins == muggins
    # the next New game opens on the same preset, with its muggins
    h.app.go("new_game")
    h.wait()
    assert (new.ids.preset.text, new.ids.muggins.text) == (words, muggins)


def test_muggins_changed_after_the_preset_is_kept_and_named_custom(start_app):
    h = start_app()
    new = open_new_game(h)
    new.ids.muggins.text = "optional"
    view = start(h, new)
    assert view.rules.name == "acc-custom" and present.rules_words(view.rules.name) == "ACC rules (custom)"
    assert h.companion.settings.muggins == "optional"
    h.app.go("new_game")
    h.wait()
    assert (new.ids.preset.text, new.ids.muggins.text) == ("ACC rules", "optional")


def test_settings_show_the_presets_muggins_and_a_preset_chosen_brings_its_own(start_app):
    h = start_app()
    past_the_tour(h)
    h.app.go("settings")
    h.wait()
    settings = h.screen("settings")
    assert (settings.ids.preset.text, settings.ids.muggins.text) == ("ACC rules", "off")
    settings.ids.preset.text = "Pub rules"
    assert settings.ids.muggins.text == "mandatory"
    settings.save()
    h.wait()
    assert (h.companion.settings.preset, h.companion.settings.muggins) == ("pub", None)
    assert h.companion.settings.muggins_mode == "mandatory"


def test_old_settings_with_a_muggins_chosen_keep_it(tmp_path):
    (tmp_path / settings_store.SETTINGS_FILE).write_text(json.dumps({"preset": "home", "muggins": "optional"}))
    assert settings_store.load(tmp_path).muggins_mode == "optional"
    (tmp_path / settings_store.SETTINGS_FILE).write_text(json.dumps({"preset": "pub", "muggins": "sometimes"}))
    loaded = settings_store.load(tmp_path)
    assert loaded.muggins is None and loaded.muggins_mode == "mandatory"  # a bad value: the preset's own


@pytest.mark.parametrize("muggins", ["off", "optional"])
def test_the_keypad_claim_of_a_total_no_hand_can_score_is_refused_in_one_line(start_app, muggins):
    h = start_app()
    past_the_tour(h)
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": muggins}, first_dealer=0)
    h.wait(lambda: h.companion.view is not None, what="the game")
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: list(ANN), 1: list(BEN)})
    h.app.go("show")
    h.wait()
    show = h.screen("show")
    assert show.heading.startswith("Ben's hand")
    for claim in ("25", "19"):
        show.ids.keypad.value = ""
        for digit in claim:  # two digits: claimed as the second is tapped
            h.tap(next(b for b in show.ids.keypad.children if b.text == digit))
        h.wait()
        assert h.app.message_is_error and "\n" not in h.app.message
        assert h.app.message.startswith(f"Claim: {claim} is impossible: no hand counts {claim}")
        assert h.companion.view.shown == () and h.companion.view.next_show.seat == 1  # nothing recorded
        assert show.ids.keypad.value == ""  # refused: typed again from nothing
    h.tap(next(b for b in show.ids.keypad.children if b.text == "2"))  # 2 may be 2x: Claim says it is 2
    h.wait()
    assert h.companion.view.shown == () and show.ids.keypad.value == "2"
    h.tap(show.ids.claim)
    h.wait()
    assert [s.claimed for s in h.companion.view.shown] == [2]
