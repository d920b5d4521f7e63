"""Pegging by points on the tablet (issue 48): a keypad per player of the points just pegged (go
and 31 one tap each), the simulated board lighting each peg, the play's end, the show
photographed with the hands chosen in the photo, and the taps of a whole deal counted: the
number docs/APP.md gives. A game switches between points and card by card."""

from companion.game import GameSession
from companion.ui.camera import FakeCamera
from vision import shared_recognizer

from tests.ui.conftest import SAMPLES
from tests.ui.test_deal_walk import board_shows

# Two hands, the crib and the starter in rows: Q♣ 10♣ 2♣ 3♥ / 9♥ 7♦ 8♦ 6♦, crib 9♠ A♥ 9♦ 4♣, starter 4♠
PHOTO = str(SAMPLES / "hands_crib_starter_rows.jpg")
BEN, ANN, CRIB = ["QC", "TC", "2C", "3H"], ["9H", "7D", "8D", "6D"], ["9S", "AH", "9D", "4C"]
PEGS = ((1, 2), (0, "go"), (1, 3), (0, "go"))   # Ben 2, Ann go, Ben a run of 3, Ann the last card
# docs/APP.md: the taps of a deal pegged by points and shown by photo, the photo read surely
# (issue 56: the hands' owners come from the guide's rows, a right claim is one tap and goes on)
DEAL_TAPS = {"count shown first": 13, "claimed first": 13}


class Taps:
    """Counts every touch the test makes on the app (Headless.tap goes through tap_at)."""

    def __init__(self, h) -> None:
        self.count, tap_at = 0, h.tap_at

        def counted(x, y):
            self.count += 1
            tap_at(x, y)
        h.tap_at = counted


def start(h, count_first: bool, board: str = "none"):
    rules = {"preset": "acc", "muggins": "off" if count_first else "optional"}
    h.companion.new_game(["Ann", "Ben"], rules, first_dealer=0, board=board, count_first=count_first,
                         pegging="points")
    h.wait(lambda: h.companion.view is not None)
    h.app.go("table")
    h.wait()


def peg_and_photograph(h, taps: Taps) -> int:
    """Deal, cut 4♠, peg by points, photograph the show; returns the taps the photo's check took
    (0 when every card read surely: the app goes straight to the count)."""
    table = h.screen("table")
    assert table.ids.turn.text == "Ann deals first" and "(deals)" in table.ids.scores.children[-1].name
    h.tap(table.ids.deal)
    h.wait()
    h.tap(table.ids.cut)
    h.wait(lambda: h.popup() is not None)
    h.tap(h.popup().buttons["4S"])
    h.wait(lambda: h.popup() is None and h.companion.view.phase == "play")
    assert table.ids.turn.text == "The play: peg the points as they are scored"
    h.tap(table.ids.pegging)
    pegging = h.screen("pegging")
    assert pegging.showing == "points"
    for seat, key in PEGS:
        h.tap(pegging.point_buttons[(seat, key)])
        h.wait()
    view = h.companion.view
    assert view.scores == (2, 5) and view.phase == "play"
    assert pegging.ids.pegged.text.splitlines() == ["Ben pegs 2 in the play", "Ann: the go for 1",
                                                    "Ben pegs 3 in the play", "Ann: the go for 1"]
    h.tap(pegging.ids.play_over_photo)
    h.wait(lambda: h.current == "capture")
    capture = h.screen("capture")
    h.wait(lambda: capture.live_line.startswith("Live:"), timeout=60)
    h.tap(capture.ids.shoot)
    h.wait(lambda: h.current in ("review", "show"), timeout=60)
    before = taps.count
    if h.current == "review":  # the player confirms each card the app asks about, then counts
        review = h.screen("review")
        for index in range(len(review.review.cards)):
            if review.review.flagged(index):
                h.tap_at(*review.ids.photo.to_window(*review.ids.photo.box_center(index)))
                h.wait(lambda: h.popup() is not None)
                h.tap(next(b for b in h.popup().walk() if getattr(b, "text", "").startswith("Yes, it is")))
                h.wait(lambda: h.popup() is None)
        h.tap(review.ids.count)
        h.wait(lambda: h.current == "show")
    return taps.count - before


def test_a_deal_pegged_by_points_and_shown_by_photo_takes_a_handful_of_taps(start_app, firmware):
    h = start_app(camera=FakeCamera([PHOTO]))
    start(h, count_first=True, board="sim")
    assert h.companion.sync.driver.wait_connected(30), h.companion.sync.driver.last_error
    taps = Taps(h)
    checking = peg_and_photograph(h, taps)
    assert board_shows(h, h.companion.view)  # the board lit every peg of the play
    show = h.screen("show")
    h.wait()
    # the guide's top row is the pone's: Ben's hand is the clubs, not asked
    assert show.heading.startswith("Ben's hand: Q♣") and show.total == 7
    assert not [b for b in show.ids.after.children if "Q♣" in getattr(b, "text", "")]
    h.tap(show.ids.accept)          # Ben's 7
    h.wait()
    assert show.heading.startswith("Ann's hand") and show.total == 8  # the photo's one hand left
    h.tap(show.ids.accept)          # Ann's 8
    h.wait()
    assert show.heading.startswith("Ann's crib") and show.total == 4
    h.tap(show.ids.accept)          # the crib's 4
    h.wait()
    view = h.companion.view
    assert view.phase == "discard" and [(s.kind, sorted(s.cards)) for s in view.shown] == \
        [("hand", sorted(BEN)), ("hand", sorted(ANN)), ("crib", sorted(CRIB))]
    assert view.scores == (2 + 8 + 4, 5 + 7)
    assert board_shows(h, view)
    assert taps.count - checking == DEAL_TAPS["count shown first"]
    # the check: nothing when every card is read surely, else each flagged card asked (tap it, "Yes":
    # only those whose other readings change a count; the others are marked, kept as read) and
    # Count; the doubt model flags 9H and 4C here (99.69 and 99.28 % sure, under its 99.7 %)
    flagged = sum(c.confirm for c in shared_recognizer().recognize(PHOTO).cards)
    assert flagged <= 2 and (checking in [1 + 2 * asked for asked in range(flagged + 1)] if flagged else checking == 0)


def test_claimed_first_each_count_is_typed_claimed_and_revealed(start_app):
    h = start_app(camera=FakeCamera([PHOTO]))
    start(h, count_first=False)
    taps = Taps(h)
    checking = peg_and_photograph(h, taps)
    show = h.screen("show")
    h.wait()
    for claim, whose, before in ((7, "Ben's hand", ""), (8, "Ann's hand", "Ben claimed 7"),
                                 (4, "Ann's crib", "Ann claimed 8")):
        assert show.heading.startswith(whose) and show.last.startswith(before)
        assert show.spoken == "" and show.total == claim  # counted, not shown before the claim
        # a claim of 0 or 3 to 9 is one tap; one that agrees with the count goes on by itself
        h.tap(next(b for b in show.ids.keypad.children if b.text == str(claim)))
        h.wait()
    assert show.total_line == "4" and show.ids.next_deal.text == "Next deal"  # the last count shown
    assert h.companion.view.phase == "discard" and h.companion.view.scores == (2 + 8 + 4, 5 + 7)
    assert taps.count - checking == DEAL_TAPS["claimed first"]


def test_points_undo_and_the_switch_between_points_and_cards(start_app):
    h = start_app()
    start(h, count_first=True)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "5D")
    h.wait()
    h.app.go("pegging")
    pegging = h.screen("pegging")
    h.tap(pegging.point_buttons[(0, "31")])
    h.wait()
    assert h.companion.view.scores == (2, 0) and pegging.ids.points_last.text == "Ann: 31 for 2"
    h.tap(pegging.ids.points_undo)
    h.wait()
    assert h.companion.view.scores == (0, 0) and pegging.ids.pegged.text == "Nothing pegged yet in this deal."
    h.companion.act(GameSession.forget_undone)
    h.wait()
    h.tap(pegging.ids.switch)       # this deal card by card after all
    h.wait()
    assert h.companion.view.pegging == "cards" and h.companion.settings.pegging == "cards"
    assert pegging.showing == "cards"
    h.tap(pegging.card_buttons["7C"])
    h.wait()
    assert h.companion.view.count == 7 and pegging.count_text == "7"
    h.tap(pegging.ids.switch)       # and back: the rest of the play by points
    h.wait()
    assert h.companion.view.pegging == "points" and pegging.ids.switch.text == "Enter the cards instead"
    h.tap(pegging.point_buttons[(1, 12)])
    h.wait()
    h.tap(pegging.ids.switch)       # card by card again must wait for the next deal: said in the banner
    h.wait()
    assert "card by card can start with the next deal" in h.app.message
    assert h.companion.view.pegging == "points" and h.companion.view.scores == (0, 12)
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0)  # the way chosen last
    h.wait()
    assert h.companion.view.pegging == "points"
