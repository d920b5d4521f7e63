"""History and statistics: every stored game (resume or export it), charts of the average
hand, crib and pegging per player and of the points lost and won by muggins, and the
statistics as CSV."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.metrics import dp

from companion.ui import theme as T
from companion.ui.screens import CribScreen, load_kv
from companion.ui.screens.home import game_line
from companion.ui.widgets.chart import BarChart  # noqa: F401  (used in history.kv)

load_kv(__file__)


class HistoryScreen(CribScreen):
    title = "History & statistics"

    def show(self) -> None:
        self.companion.list_games(self._games, self.app.show_error)
        self.companion.statistics(self._stats, self.app.show_error)

    def _games(self, rows) -> None:
        box = self.ids.games
        box.clear_widgets()
        if not rows:
            box.add_widget(Factory.Body(text="No games stored yet."))
        for row in rows:
            line = Factory.BoxLayout(size_hint_y=None, height=T.TOUCH, spacing=T.GAP)
            label = Factory.Body(text=game_line(row))
            export = Factory.BigButton(text="Export", size_hint_x=None, width=dp(140))
            export.bind(on_release=lambda _b, gid=row.id: self.export(gid))
            line.add_widget(label)
            line.add_widget(export)
            box.add_widget(line)

    def _stats(self, result) -> None:
        table, csv_path = result
        self.csv_path = csv_path
        names = [s.player for s in table]
        self.ids.averages.groups = names
        self.ids.averages.series = [("hand", [round(s.average_hand, 2) for s in table]),
                                    ("crib", [round(s.average_crib, 2) for s in table]),
                                    ("pegging", [round(s.average_pegging, 2) for s in table])]
        self.ids.muggins.groups = names
        self.ids.muggins.series = [("lost to muggins", [s.muggins_given for s in table]),
                                   ("taken by muggins", [s.muggins_taken for s in table])]
        self.ids.wins.text = "   ".join(f"{s.player}: {s.wins}/{s.games} won, best hand {s.best_hand}"
                                        for s in table) or "No finished games yet."

    def export(self, game_id: int) -> None:
        self.companion.export_game(game_id, lambda path: self.app.notify(f"Game {game_id} saved to {path}"),
                                   self.app.show_error)

    def export_stats(self) -> None:
        path = getattr(self, "csv_path", None)
        self.app.notify(f"Statistics saved to {path}" if path else "No statistics yet.")


SCREEN_CLASS = HistoryScreen
