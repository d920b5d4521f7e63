"""``python -m companion.ui.screenshots [OUT]`` (``make screenshots``): a PNG of every screen,
really rendered headless (SDL offscreen), landscape 1280x800 and, for the table and the show,
phone portrait 800x1280. A scripted deal in a temporary data folder fills the screens; the
sample photo is the camera. Each orientation runs in its own process (a window's size is
fixed when it opens)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PHOTO = ROOT / "sample_images" / "hand_starter_papers.jpg"
ANN, BEN = ["2C", "3D", "4S", "7H"], ["8S", "8D", "TC", "JS"]
SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}
PORTRAIT_SCREENS = {"table", "show", "home", "review"}


class Shooter:
    """One app, one orientation: walks a scripted deal and saves each screen on the way."""

    def __init__(self, out: Path, orientation: str) -> None:
        from companion.ui.camera import FakeCamera
        from companion.ui.headless import Headless

        self.out, self.orientation = out, orientation
        self.suffix = "" if orientation == "landscape" else "-portrait"
        self.written: list[Path] = []
        self.h = Headless(Path(tempfile.mkdtemp(prefix="crib-shots-")), camera=FakeCamera([str(PHOTO)]),
                          size=SIZES[orientation])

    def snap(self, name: str) -> None:
        if self.orientation == "landscape" or name.split("-")[0] in PORTRAIT_SCREENS:
            self.h.wait()
            self.written.append(self.h.screenshot(self.out / f"{name}{self.suffix}.png"))

    def start(self) -> None:
        h = self.h
        h.wait()
        self.snap("home-tour")
        home = h.screen("home")
        for _ in range(3):
            h.tap(home.ids.tour_next)
        h.tap(home.ids.new_game)
        self.snap("new_game")
        h.tap(h.screen("new_game").ids.start)
        h.wait(lambda: h.current == "table")
        h.app.go("discard")
        h.screen("discard").set_cards(["5H", "6C", "7D", "8S", "JH", "KS"])
        self.snap("discard")

    def play(self) -> None:
        h = self.h
        for action, args in (("discard", ()), ("cut", ("AD",)), ("lay", ("8S",)), ("lay", ("7H",))):
            h.companion.act(action, *args)
        h.app.go("pegging")
        h.wait()
        h.tap(h.screen("pegging").ids.go)  # Ben says go at 15: questioned
        h.wait(lambda: h.popup() is not None)
        self.snap("pegging-go")
        h.tap(h.popup().buttons[0])  # "Lay a card"
        h.wait(lambda: h.popup() is None)
        h.companion.act("lay", "8D")
        h.app.go("table")
        self.snap("table")
        h.app.go("pegging")
        self.snap("pegging")
        h.play_out({0: [c for c in ANN if c != "7H"], 1: [c for c in BEN if c not in ("8S", "8D")]})

    def show(self) -> None:
        from companion.ui.review import IGNORED

        h = self.h
        h.app.go("show")
        show = h.screen("show")
        h.tap(next(b for b in show.ids.keypad.children if b.text == "0"))
        h.tap(show.ids.claim)  # Ben claims 0 of 2: the muggins flag
        self.snap("show-muggins")
        h.companion.act("muggins", 0)
        h.wait()
        h.tap(show.ids.next_count)  # Ann's hand: claimed as counted, then undone by mistake
        self.claim_the_count(show)
        h.tap(show.ids.undo)
        h.wait()
        self.snap("show-redo")  # Redo brings the count back as it was
        h.tap(show.ids.redo)
        h.wait()
        h.app.go("capture", purpose="show")
        h.wait(lambda: h.screen("capture").live_line.startswith("Live:"), timeout=60)
        self.snap("capture")
        h.tap(h.screen("capture").ids.shoot)
        h.wait(lambda: h.current == "review", timeout=60)
        self.snap("review")
        review = h.screen("review")
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
        self.snap("show")

    def claim_the_count(self, show) -> None:
        """The count on the show screen claimed as the cards are worth, on its keypad."""
        h = self.h
        for digit in str(show.total):
            h.tap(next(b for b in show.ids.keypad.children if b.text == digit))
        h.tap(show.ids.claim)
        h.wait(lambda: show.total_line != "")

    def rest(self) -> None:
        for name in ("history", "settings", "home"):
            self.h.app.go(name)
            self.snap(name)


def shoot_all(out: Path, orientation: str) -> list[Path]:
    shooter = Shooter(out, orientation)
    try:
        shooter.start()
        shooter.play()
        shooter.show()
        shooter.rest()
    finally:
        shooter.h.close()
    return shooter.written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--one":
        out, orientation = Path(argv[2]), argv[1]
        try:
            written = shoot_all(out, orientation)
        except Exception:  # Kivy routes sys.stderr into its log (off here): the parent reads the real one
            traceback.print_exc(file=sys.__stderr__)
            return 1
        for path in written:
            print(path)
        return 0
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"))
    for orientation in SIZES:
        result = subprocess.run([sys.executable, "-m", "companion.ui.screenshots", "--one", orientation, str(out)],
                                env=env, capture_output=True, text=True, cwd=ROOT)
        if result.returncode:
            tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
            print(f"screenshots ({orientation}) failed:\n" + "\n".join(tail), file=sys.stderr)
            return 1
        print(result.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
