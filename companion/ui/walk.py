"""A scripted walk through every screen of the app in the states that matter, headless: a
deal played in a temporary data folder (the sample photo is the camera), then settings,
history, the recent games, and a short game won. At each state ``visit(name, primary)`` is
called: ``primary`` gives the widgets of that state's primary action (what the player must
reach without scrolling). ``make screenshots`` saves a picture at each state and size; the
fit test (tests/ui) checks each state at each size (``companion.ui.fit``)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from companion.game.phase import Phase
from companion.game.session import GameSession
from companion.paths import sample_images

ROOT = Path(__file__).resolve().parents[2]
PHOTO = sample_images() / "hand_starter_papers.jpg"  # a checkout's, else the installed package's
ANN, BEN = ["2C", "3D", "4S", "7H"], ["8S", "8D", "TC", "JS"]
# The longest show there is, with the starter 5♦: a 29 hand (15 combinations) and a 24 crib (10)
HAND_29, CRIB_24, STARTER_29 = ["5H", "5C", "5S", "JD"], ["4C", "4H", "6C", "6H"], "5D"
# The sizes a player holds: a 10" tablet either way up, and a phone (in density-independent pixels).
SIZES = {"landscape": (1280, 800), "portrait": (800, 1280), "phone": (720, 1280)}

Visit = Callable[[str, Callable[[], list]], None]


class Walk:
    def __init__(self, visit: Visit, size: tuple[int, int] = SIZES["landscape"], folder: Path | None = None) -> None:
        from companion.ui.camera import FakeCamera
        from companion.ui.headless import Headless

        self.visit = visit
        self.h = Headless(folder or Path(tempfile.mkdtemp(prefix="crib-walk-")), camera=FakeCamera([str(PHOTO)]),
                          size=size)

    def run(self) -> None:
        try:
            self.start()
            self.play()
            self.show()
            self.points()
            self.rest()
            self.game_over()
        finally:
            self.h.close()

    def at(self, name: str, primary: Callable[[], list]) -> None:
        self.h.wait()
        self.visit(name, primary)

    # --- the states ------------------------------------------------------------------------------------
    def start(self) -> None:
        h = self.h
        h.wait()
        home = h.screen("home")
        self.at("home-tour", lambda: [home.ids.tour_next])
        for _ in range(3):
            h.tap(home.ids.tour_next)
        self.at("home-first", lambda: [home.ids.new_game])  # no game yet
        h.tap(home.ids.new_game)
        new = h.screen("new_game")
        self.at("new_game", lambda: [new.ids.start])
        new.ids.muggins.text = "optional"  # the walk's table plays muggins: the show's flag is a state to see
        h.tap(new.ids.start)
        h.wait(lambda: h.current == "table")
        table = h.screen("table")
        self.at("table-deal", lambda: [table.ids.deal])
        h.app.go("discard")
        discard = h.screen("discard")
        discard.set_cards(["5H", "6C", "7D", "8S", "JH", "KS"])
        self.at("discard", lambda: [discard.ids.six])

    def play(self) -> None:
        h = self.h
        h.companion.act(GameSession.discard)
        h.wait()
        h.app.go("table")
        table = h.screen("table")
        self.at("table-cut", lambda: [table.ids.cut])
        h.tap(table.ids.cut)  # the card picker: the starter tapped
        h.wait(lambda: h.popup() is not None)
        self.at("card-picker", lambda: [h.popup().buttons["AD"]])
        h.tap(h.popup().buttons["AD"])
        h.wait(lambda: h.popup() is None and h.companion.view.phase is Phase.PLAY)
        for card in ("8S", "7H"):
            h.companion.act(GameSession.lay, card)
        h.app.go("pegging")
        h.wait()
        pegging = h.screen("pegging")
        h.tap(pegging.ids.go)  # Ben says go at 15: questioned
        h.wait(lambda: h.popup() is not None)
        self.at("pegging-go", lambda: list(h.popup().buttons))
        h.tap(h.popup().buttons[0])  # "Lay a card"
        h.wait(lambda: h.popup() is None)
        h.companion.act(GameSession.lay, "8D")
        h.app.go("table")
        self.at("table", lambda: [table.ids.pegging])
        h.app.go("pegging")
        self.at("pegging", lambda: [pegging.ids.go, pegging.ids.claim])
        h.play_out({0: [c for c in ANN if c != "7H"], 1: [c for c in BEN if c not in ("8S", "8D")]})

    def show(self) -> None:
        from companion.ui.review import IGNORED

        h = self.h
        h.app.go("show")
        show = h.screen("show")
        self.at("show-claim", lambda: [show.ids.claim])
        h.tap(next(b for b in show.ids.keypad.children if b.text == "0"))  # Ben claims 0 of 2: the muggins flag
        h.wait()
        self.at("show-muggins", lambda: [show.ids[f"take_{0}"], show.ids.next_count])
        h.companion.act(GameSession.muggins, 0)
        h.wait()
        h.tap(show.ids.next_count)  # Ann's hand: claimed as counted (on to the crib), then undone by mistake
        self.claim_the_count(show)
        h.tap(show.ids.undo)
        h.wait()
        self.at("show-redo", lambda: [show.ids.redo])  # Redo brings the count back as it was
        h.tap(show.ids.redo)
        h.wait()
        h.app.go("capture", purpose="show")
        capture = h.screen("capture")
        h.wait(lambda: capture.live_line.startswith("Live:"), timeout=60)
        self.at("capture", lambda: [capture.ids.shoot])
        h.tap(capture.ids.shoot)
        h.wait(lambda: h.current == "review", timeout=60)
        review = h.screen("review")
        self.at("review", lambda: [review.ids.count])
        for index, card in enumerate(review.review.cards):  # as the player checks them
            if card.code is None:  # the printed page boxed as a card (models v6+): left out
                review.review.move(index, IGNORED)
            elif review.review.flagged(index):
                review.review.confirm(index)
        review.refresh()
        h.tap(review.ids.count)
        h.wait(lambda: h.current == "show" and h.screen("show").total is not None)
        show = h.screen("show")
        if not show.count_first:  # muggins on: the crib's count is shown once claimed
            self.claim_the_count(show)
        show.tap_item(0)
        self.at("show", lambda: [show.ids.next_deal])

    def points(self) -> None:
        """A deal pegged by points (each player's keypad), then the longest show there is: the
        pone's hand typed, the dealer's 29 picked on the show screen, and a 24 crib."""
        h = self.h
        h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer=0, pegging="points")
        h.wait()
        h.companion.act(GameSession.discard, [CRIB_24[:2], CRIB_24[2:]])
        h.companion.act(GameSession.cut, STARTER_29)
        h.wait()
        h.app.go("pegging")
        pegging = h.screen("pegging")
        for seat, key in ((1, 2), (0, "go"), (1, 3), (0, "31")):
            h.tap(pegging.point_buttons[(seat, key)])
            h.wait()
        self.at("pegging-points", lambda: [pegging.point_buttons[(1, 12)], pegging.ids.play_over_photo])
        h.tap(pegging.ids.play_over_type)
        h.wait(lambda: h.current == "show")
        h.companion.act(GameSession.show, ["AS", "2S", "3C", "KD"])  # Ben's hand, typed
        h.wait()
        show = h.screen("show")
        h.tap(show.ids.pick)
        h.wait(lambda: h.popup() is not None)
        picker = h.popup()
        for card in HAND_29:
            h.tap(picker.buttons[card])
        h.tap(picker.done_button)
        h.wait(lambda: h.popup() is None and show.total == 29)
        self.at("show-29", lambda: [show.ids.accept])
        h.tap(show.ids.accept)
        h.wait(lambda: show.total == 24)
        self.at("show-crib-24", lambda: [show.ids.accept])
        h.tap(show.ids.accept)
        h.wait()

    def claim_the_count(self, show) -> None:
        """The count on the show screen claimed as the cards are worth, on its keypad (a claim is
        made as its last digit is tapped; a lone 1 or 2 waits for Claim). A right claim goes on
        to the next count; the last is shown."""
        h = self.h
        counted = len(h.companion.view.shown)
        for digit in str(show.total):
            h.tap(next(b for b in show.ids.keypad.children if b.text == digit))
        if show.ids.keypad.value:
            h.tap(show.ids.claim)
        h.wait(lambda: len(h.companion.view.shown) > counted)

    def rest(self) -> None:
        h = self.h
        h.app.go("history")
        self.at("history", lambda: [h.screen("history").ids.export_stats])
        h.app.go("settings")
        settings = h.screen("settings")
        from companion.ui import present  # here: importing Kivy before the walk sizes its window opens it at 800x600

        settings.ids.board.text = present.BOARD_WORDS["port"]  # the port field in use
        self.at("settings", lambda: [settings.ids.save])
        h.app.go("home")
        self.at("home", lambda: [h.screen("home").ids.new_game])

    def game_over(self) -> None:
        """A short game ended by penalties (the quickest way to 61): the table says who won."""
        h = self.h
        h.companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, short=True)
        h.wait()
        while not h.companion.view.phase.over:
            h.companion.act(GameSession.penalty, "moving-opponents-peg", 0)
            h.wait()
        h.app.go("table")
        table = h.screen("table")
        self.at("game-over", lambda: [table.ids.actions.children[-1]])
