"""Muggins on the tablet: with the count shown after the claim (the default with muggins on) the
player claims, then the count and its breakdown are shown, then muggins is offered, in the show
and in the play. With the count shown first (chosen in New game, or muggins off) the app is the
scorer: its count is on the screen to accept."""

import json

from companion.game import GameSession
from companion.ui import settings as settings_store

ANN = ["2C", "3D", "4S", "7H"]   # the dealer: 1 for the last card in the play
BEN = ["8S", "8D", "TC", "JS"]   # the pone: his TC makes 31 (2); his hand is a pair of eights (2)
CRIB = ["5C", "QS", "6D", "9H"]  # with the starter AD: 6


def key(h, screen, digits: str) -> None:
    for digit in digits:
        h.tap(next(b for b in screen.ids.keypad.children if b.text == digit))


def screen_texts(screen) -> str:
    """Every text on the screen (labels and buttons, hidden ones too)."""
    return "\n".join(str(getattr(w, "text", "")) for w in screen.walk())


def new_game(h, muggins: str, count_first: bool | None = None):
    """Through the New game screen: muggins chosen, the count setting left as it follows, or chosen."""
    home = h.screen("home")
    while home.tour_page >= 0:
        h.tap(home.ids.tour_next)
    h.tap(home.ids.new_game)
    h.wait()
    new = h.screen("new_game")
    new.ids.name0.text, new.ids.name1.text = "Ann", "Ben"
    new.ids.board.text, new.ids.dealer.text = "none", "Ann"
    for mode in ("off", "mandatory", muggins):  # the choice follows muggins
        new.ids.muggins.text = mode
        assert new.count_first is (mode == "off")
        assert (new.ids.count_first.state == "down") is (mode == "off")
    if count_first is not None:
        h.tap(new.ids.count_first if count_first else new.ids.count_after)
    h.tap(new.ids.start)
    h.wait(lambda: h.current == "table", what="the table")
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.wait()
    h.app.go("pegging")
    return h.screen("pegging")


def lay_all(h, pegging, claims: dict[str, str]) -> None:
    """Tap each card as laid (the first that fits, else go), typing the claim given for a card."""
    hands = {0: list(ANN), 1: list(BEN)}
    while h.companion.view.phase == "play":
        view = h.companion.view
        playable = [c for c in hands[view.to_act] if view.count + min(int("A23456789T".find(c[0]) + 1) or 10, 10)
                    <= 31]
        if playable:
            hands[view.to_act].remove(playable[0])
            pegging.ids.claim.text = claims.get(playable[0], "")
            h.tap(pegging.card_buttons[playable[0]])
        else:
            h.tap(pegging.ids.go)
        h.wait()


def test_with_muggins_the_player_claims_then_the_count_is_shown_then_muggins(start_app):
    h = start_app()
    pegging = new_game(h, "optional")
    view = h.companion.view
    assert view.count_first is False and view.rules.muggins == "optional"
    assert "blank: none" in pegging.ids.claim.hint_text
    # the play: Ben claims his 31 (2); Ann lays her last card saying nothing: she pegs nothing,
    # the point is shown after, and Ben may take it
    lay_all(h, pegging, {"TC": "2"})
    view = h.companion.view
    assert view.phase == "show" and view.scores == (0, 2)
    assert "Ann claimed 0 of 1: 1 missed" in pegging.ids.last.text
    assert pegging.ids.plays.text.splitlines()[-1].endswith("+1 (last card)")
    assert [(o.seat, o.points, o.kind) for o in view.offers] == [(0, 1, "play")]

    # the show: Ben's cards, but no count, no breakdown, nothing to accept
    h.app.go("show")
    show = h.screen("show")
    assert show.heading.startswith("Ben's hand: 8♠  8♦  10♣  J♠") and "claimed" not in show.heading
    assert (show.spoken, show.total_line, len(show.ids.breakdown.children)) == ("", "", 0)
    assert "pair" not in screen_texts(show).lower() and "= 2" not in screen_texts(show)
    assert show.ids.accept.disabled and show.ids.accept.opacity == 0 and not show.ids.claim.disabled
    assert show.ids.step.text == "Count the cards, then claim"
    key(h, show, "0")  # 0 is claimed as it is tapped
    h.wait()
    # now shown: the count, its breakdown, the claim judged, and muggins offered
    assert show.heading.endswith("claimed 0") and show.total_line == "2" and "pair" in show.spoken.lower()
    assert [b.text.split()[0] for b in show.ids.breakdown.children] == ["pair"]
    assert "Ben claimed 0 of 2: 2 missed" in show.last
    assert "Muggins: 2 missed by Ben (hand) - pair" in screen_texts(show.ids.offers)
    assert show.ids.take_0.text == "Ann takes 2"
    assert show.ids.claim.disabled and show.ids.keypad.disabled
    assert show.ids.step.text == "Ben's count, shown after the claim"  # said, not "count, then claim"
    assert show.ids.next_count.text == "Next count: Ann's hand"
    assert show.ids.keypad.opacity == 0 and show.ids.claim.height == 0  # folded away: the count has the room
    h.tap(show.ids.take_0)
    h.wait()
    assert h.companion.view.scores == (2, 2) and show.heading.startswith("Ben's hand")  # still shown

    h.tap(show.ids.next_count)
    h.wait()
    ann = h.companion.view.next_show.proposal.total
    assert show.heading.startswith("Ann's hand") and show.total_line == "" and not show.ids.breakdown.children
    key(h, show, str(ann))
    if show.ids.keypad.value:  # 1 or 2 may have a second digit: Claim says it has not
        h.tap(show.ids.claim)
    h.wait()
    # right: said, and on to the next count at once (no count to reveal, no muggins)
    assert show.last == f"Ann claimed {ann}: right" or show.last.startswith(f"Ann claimed {ann}: right (")
    assert not h.companion.view.offers and h.companion.view.next_show.kind == "crib"
    # undo takes the claim back: the count is hidden again until claimed, and what it did unsaid
    h.tap(next(w for w in show.walk() if getattr(w, "text", "") == "Undo"))
    h.wait()
    assert show.heading.startswith("Ann's hand") and show.total_line == "" and not show.ids.claim.disabled
    assert show.last == ""
    h.companion.act(GameSession.redo)  # the claim stands again: on to the crib
    h.wait()

    # the crib, picked by hand: counted, but shown only after the claim
    assert "crib is not known" in show.note
    h.tap(show.ids.pick)
    picker = h.popup()
    for code in CRIB:
        h.tap(picker.buttons[code])
    h.tap(picker.done_button)
    h.wait(lambda: not show.ids.claim.disabled, what="the crib ready to claim")
    assert (show.spoken, show.total_line, len(show.ids.breakdown.children)) == ("", "", 0)
    key(h, show, "4")
    h.wait()
    assert show.total_line == "6" and "Ann claimed 4 of 6: 2 missed" in show.last
    assert show.ids.step.text == "Ann's count, shown after the claim" and show.ids.next_deal.text == "Next deal"
    assert [(o.seat, o.points) for o in h.companion.view.offers] == [(0, 2)]
    h.tap(show.ids.next_deal)  # with the crib's muggins open, to the table (the offer stays there)
    h.wait(lambda: h.current == "table", what="the table")
    assert h.companion.view.phase == "discard" and h.companion.view.offers


def test_with_the_count_first_it_is_shown_to_accept(start_app, tmp_path):
    h = start_app()
    pegging = new_game(h, "optional", count_first=True)
    assert h.companion.view.count_first is True
    assert h.companion.settings.count_first is True  # kept for the next game
    assert "blank: as counted" in pegging.ids.claim.hint_text
    lay_all(h, pegging, {})
    view = h.companion.view
    assert view.scores == (1, 2) and not view.offers  # saying nothing accepts the points
    h.app.go("show")
    show = h.screen("show")
    # the count before any claim, to accept
    assert show.heading.startswith("Ben's hand") and show.total_line == "2" and "pair" in show.spoken.lower()
    assert show.ids.accept.opacity == 1 and show.ids.accept.text == "Accept"
    h.tap(show.ids.accept)
    h.wait()
    assert h.companion.view.scores == (1, 4) and show.heading.startswith("Ann's hand")  # on to the next
    assert "next_count" not in show.ids or show.ids.next_count.parent is None
    h.wait(lambda: (tmp_path / "data" / settings_store.SETTINGS_FILE).exists(), what="the settings saved")
    saved = json.loads((tmp_path / "data" / settings_store.SETTINGS_FILE).read_text())
    assert saved["count_first"] is True


def test_the_setting_file_keeps_a_choice_or_follows_muggins(tmp_path):
    (tmp_path / settings_store.SETTINGS_FILE).write_text(json.dumps({"count_first": "yes", "muggins": "off"}))
    assert settings_store.load(tmp_path).count_first is None  # a bad value: follow muggins
    settings_store.save(tmp_path, settings_store.Settings(count_first=False))
    assert settings_store.load(tmp_path).count_first is False
