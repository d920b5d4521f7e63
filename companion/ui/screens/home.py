"""Home: new game, resume, recent games, discard help, history, settings; a first-run tour of
three cards on laying out and shooting the cards."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import NumericProperty

from companion.ui import present
from companion.ui.screens import CribScreen, load_kv

load_kv(__file__)

TOUR = (
    ("Lay out the show", "Each hand in its own row, the crib a hand's width apart, the starter alone. "
                         "Face up, corners visible: the app reads the corner index."),
    ("Shoot from above", "Hold the tablet over the table so every card is inside the guide. "
                         "No glare on the corners; a plain cloth or paper under the cards helps."),
    ("Check, then count", "Cards the app is unsure of are boxed in red: tap to confirm or correct them. "
                          "Then each count is spoken, claims are checked and muggins offered."),
)


def game_line(row) -> str:
    summary = row.summary or {}
    scores = summary.get("scores") or []
    names = " v ".join(row.players)
    score = " - ".join(str(s) for s in scores)
    result = summary.get("result")
    state = "finished" if result else summary.get("phase", "")
    return f"{present.game_words(row.id)}: {names}   {score}   ({state}, {present.rules_words(row.rules)})"


class HomeScreen(CribScreen):
    title = "Crib Companion"
    tour_page = NumericProperty(-1)  # -1: no tour showing

    def show(self) -> None:
        if not self.companion.settings.tour_seen:
            self.tour_page = 0
        self.companion.list_games(self._games, self.app.show_error)

    def _games(self, rows) -> None:
        box = self.ids.recent
        box.clear_widgets()
        self.games = rows
        unfinished = [r for r in rows if not (r.summary or {}).get("result")]
        self.ids.resume.disabled = not unfinished
        self.ids.resume.text = f"Resume {present.game_words(unfinished[0].id).lower()}" if unfinished else "Resume"
        if not rows:
            box.add_widget(Factory.Body(text="No games yet: start a new game."))
        for row in rows[:8]:
            button = Factory.BigButton(text=game_line(row))
            button.bind(on_release=lambda _b, gid=row.id: self.resume(gid))
            box.add_widget(button)

    def resume_latest(self) -> None:
        unfinished = [r for r in getattr(self, "games", []) if not (r.summary or {}).get("result")]
        if unfinished:
            self.resume(unfinished[0].id)

    def resume(self, game_id: int) -> None:
        self.app.notify(f"Opening {present.game_words(game_id).lower()}...")
        self.companion.resume(game_id, done=lambda _view: (self.app.dismiss_message(), self.app.go("table")),
                              failed=self.app.show_error)

    def tour_text(self, page: int) -> tuple[str, str]:
        return TOUR[page] if 0 <= page < len(TOUR) else ("", "")

    def tour_next(self) -> None:
        if self.tour_page + 1 < len(TOUR):
            self.tour_page += 1
        else:
            self.tour_page = -1
            self.companion.save_settings(tour_seen=True)


SCREEN_CLASS = HomeScreen
