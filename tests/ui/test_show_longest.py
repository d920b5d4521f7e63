"""The longest show there is (issue 48): a 29 hand (15 combinations) and a 24 crib (10) fit the
tablet either way up and the phone: the heading in the window, the list scrolling with a bar and
a line saying so, every combination told apart by its cards' suits, the count said once, large."""

from collections import Counter

from companion.game import GameSession
from companion.ui.walk import CRIB_24, HAND_29, SIZES, STARTER_29

BEN = ["AS", "2S", "3C", "KD"]


def to_the_29(h):
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard, [CRIB_24[:2], CRIB_24[2:]])
    h.companion.act(GameSession.cut, STARTER_29)
    h.play_out({0: list(HAND_29), 1: list(BEN)})
    h.app.go("show")
    show = h.screen("show")
    h.tap(show.ids.accept)  # Ben's hand
    h.wait(lambda: show.total == 29)
    return show


def texts(widget) -> list[str]:
    return [w.text for w in widget.walk() if hasattr(w, "text") and w.text and w.opacity > 0]


def fits_each_size(h, primary) -> dict:
    from companion.ui import fit

    found = {}
    for label, size in SIZES.items():
        h.resize(size)
        h.pump(frames=3)
        found[label] = [str(f) for f in fit.check([h.app.root], size, primary())]
    h.resize(SIZES["landscape"])
    return found


def test_a_29_hand_and_a_24_crib_fit_each_size_and_say_the_count_once(start_app):
    h = start_app()
    show = to_the_29(h)
    lines = [b.text for b in show.ids.breakdown.children]
    assert len(lines) == 15 and len(set(lines)) == 15  # four fifteens of 5+J, each its own
    assert "fifteen 5♥+J♦   2" in lines and "fifteen 5♥+5♣+5♠   2" in lines
    numerals = Counter(t for t in texts(show) if t.strip() == "29")
    assert numerals == {"29": 1} and show.ids.total.font_size > show.ids.spoken.font_size * 3
    assert show.ids.accept.text == "Accept" and "29" not in show.step
    assert fits_each_size(h, lambda: [show.ids.accept]) == {"landscape": [], "portrait": [], "phone": []}
    for label, size in SIZES.items():  # where the list cannot hold them all, a bar and a line say it scrolls
        h.resize(size)
        h.pump(frames=3)
        scrolls = show.ids.breakdown.height > show.ids.scroller.height + 1
        assert scrolls or label != "landscape"  # held wide, 15 do not fit
        assert show.ids.more.text == ("15 combinations: scroll the list for all of them" if scrolls else "")
        assert (show.ids.more.height > 0) == scrolls
        assert show.ids.scroller.bar_width >= 8 and "bars" in show.ids.scroller.scroll_type
        heading = next(w for w in show.walk() if getattr(w, "text", "") == show.heading)
        assert heading.to_window(0, heading.top)[1] <= size[1] - 56  # under the app's bar, never beneath it
    h.resize(SIZES["landscape"])
    h.tap(show.ids.accept)
    h.wait(lambda: show.total == 24)
    assert len(show.ids.breakdown.children) == 10 and show.total_line == "24"
    assert fits_each_size(h, lambda: [show.ids.accept]) == {"landscape": [], "portrait": [], "phone": []}


def test_before_the_claim_the_cards_are_shown_large(start_app):
    """With the count shown after the claim, the room the combinations take holds the cards."""
    h = start_app()
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer=0)
    h.wait()
    h.companion.act(GameSession.discard, [CRIB_24[:2], CRIB_24[2:]])
    h.companion.act(GameSession.cut, STARTER_29)
    h.play_out({0: list(HAND_29), 1: list(BEN)})
    h.app.go("show")
    show = h.screen("show")
    h.wait()
    faces = [w.text for w in reversed(show.ids.faces.children) if hasattr(w, "text")]
    assert faces == ["A♠", "2♠", "3♣", "K♦", "5♦"] and show.total_line == "" and not show.ids.breakdown.children
    assert show.ids.faces.height > 200 and show.ids.scroller.height == 0
    h.tap(next(b for b in show.ids.keypad.children if b.text == "4"))  # 4: claimed as tapped
    h.wait(lambda: show.total_line != "")
    # claimed: the combinations take the room first (whole: 10 rows would not fit under the
    # cards), the cards stay drawn only in what they leave
    assert show.ids.breakdown.children and show.ids.scroller.height > 0
    assert show.ids.faces.height == 0 or show.ids.scroller.height >= show.ids.breakdown.height
