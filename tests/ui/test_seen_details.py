"""Smaller things a player sees (issue 48 s4): the card picker's actions whole at every size
("Leave out: not a card" was clipped); the crib's "not known yet" gone once its cards are
picked; the photo-file picker saying which folder it shows; History's pegging average over the
deals played only."""

import os

from kivy.uix.button import Button

from companion.game import GameSession
from companion.ui import fit
from companion.ui.walk import SIZES

from tests.ui.conftest import SAMPLES
from tests.ui.test_review_corrections import QH, at_the_crib, crib_photo

ANN, BEN = ["2C", "3D", "4S", "7H"], ["8S", "6D", "TC", "JS"]


def test_the_card_pickers_actions_are_whole_at_each_size(start_app):
    """A flagged card of a hand on the review: confirm, to hand 2, to the crib, to the starter,
    leave out, Cancel: every label whole, every button a full touch target, all in the popup."""
    h = start_app()
    at_the_crib(h)
    h.app.go("review", recognition=crib_photo(), photo=None, path="crib.jpg", purpose="show")
    h.wait()
    review = h.screen("review")
    for label, size in SIZES.items():
        h.resize(size)
        review.tap_card(QH)
        h.pump(0.3, frames=5)
        picker = review.picker
        actions = [b for b in picker.walk() if isinstance(b, Button) and not hasattr(b, "code")]
        words = {b.text for b in actions}
        assert {"Leave out: not a card", "To crib", "To starter", "Cancel"} <= words and \
            any(w.startswith("Yes, it is") for w in words)
        problems = [str(f) for f in fit.check([picker], size) if f.rule in ("clipped", "outside")]
        assert problems == [], label
        for button in actions:
            assert button.height >= 48 and button.texture_size[0] <= button.width, (label, button.text)
            assert fit.needed(button)[1] <= button.height, (label, button.text)  # one line, not cut
        picker.dismiss()
        h.pump(0.3, frames=5)
    h.resize(SIZES["landscape"])


def test_the_crib_not_known_yet_goes_once_its_cards_are_picked(start_app):
    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0, board="none")
    h.wait(lambda: h.companion.view is not None)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: list(ANN), 1: list(BEN)})
    h.companion.act(GameSession.show)
    h.companion.act(GameSession.show)
    h.wait()
    h.app.go("show")
    h.wait()
    show = h.screen("show")
    assert show.note == "The crib is not known yet: photograph it or pick its 4 cards."
    h.tap(show.ids.pick)
    h.wait(lambda: h.popup() is not None)
    picker = h.popup()
    for card in ("9H", "9C", "KH", "QS"):
        h.tap(picker.buttons[card])
    h.tap(picker.done_button)
    h.wait(lambda: h.popup() is None and show.total is not None)
    assert show.note == "" and show.total == 2
    assert show.heading.startswith("Ann's crib: 9♥  9♣  K♥  Q♠")  # whose crib, as before the pick


def test_the_photo_file_picker_says_which_folder_it_shows(start_app, tmp_path, monkeypatch):
    """It opens in the pictures folder and says so; the folder said follows the player into
    another; the photo picked is named on the button that uses it; the next time it opens where
    the last photo was picked."""
    home = tmp_path / "home"
    pictures, table = home / "Pictures", home / "Pictures" / "cribbage"
    table.mkdir(parents=True)
    photo = table / "show.jpg"
    photo.write_bytes((SAMPLES / "hand_starter_papers.jpg").read_bytes())
    monkeypatch.setenv("HOME", str(home))
    h = start_app(camera=None)
    h.app.go("capture", purpose="show")
    h.wait()
    capture = h.screen("capture")
    h.tap(capture.ids.pick)
    h.pump(0.3, frames=5)
    popup = h.popup()
    chooser = next(w for w in popup.walk() if type(w).__name__ == "FileChooserListView")
    said = next(w for w in popup.walk() if getattr(w, "text", "").startswith("Folder: "))
    use = next(w for w in popup.walk() if getattr(w, "text", "").startswith("Use "))
    assert os.path.samefile(chooser.path, pictures) and said.text == f"Folder: ~{os.sep}Pictures"
    assert use.disabled  # nothing picked yet
    chooser.path = str(table)
    h.pump(0.2, frames=3)
    assert said.text == f"Folder: ~{os.sep}Pictures{os.sep}cribbage"
    chooser.selection = [str(photo)]
    h.pump(frames=2)
    assert use.text == "Use show.jpg" and not use.disabled
    problems = [str(f) for f in fit.check([popup], SIZES["landscape"]) if f.rule in ("clipped", "outside")
                and "FileChooser" not in f.widget]
    assert problems == []
    h.tap(use)
    h.wait(lambda: h.current in ("review", "show"), timeout=60, what="the photo read")
    assert capture.last_folder == str(table)
    h.app.go("capture", purpose="show")
    h.wait()
    h.tap(capture.ids.pick)
    h.pump(0.3, frames=5)
    chooser = next(w for w in h.popup().walk() if type(w).__name__ == "FileChooserListView")
    assert os.path.samefile(chooser.path, table)  # where the last photo came from
    h.popup().dismiss()


def test_historys_pegging_average_counts_the_deals_played_only(start_app):
    """7 pegged in the one deal played and the next deal dealt: History shows 7, not 3.5."""
    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0, board="none",
                         pegging="points")
    h.wait(lambda: h.companion.view is not None)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "4D")
    for seat, points in ((0, 5), (1, 2), (0, 2)):
        h.companion.act(GameSession.peg, seat, points)
    h.companion.act(GameSession.play_done)
    for hand in (["TH", "5S", "7C", "8S"], ["5H", "5C", "6D", "JD"], ["2C", "3C", "KH", "QH"]):
        h.companion.act(GameSession.show, hand)
    h.companion.act(GameSession.discard)  # the next deal dealt, not played
    h.wait()
    h.app.go("history")
    history = h.screen("history")
    h.wait(lambda: history.ids.averages.groups == ["Ann", "Ben"], what="the statistics")
    pegging = dict(history.ids.averages.series)["pegging"]
    assert pegging == [7.0, 2.0]
