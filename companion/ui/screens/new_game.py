"""New game: 2, 3 or 4 players (4 in partnerships), names, rule preset and muggins mode,
the count shown before the claim or only after it (the default with muggins on), the first
dealer chosen or cut for, and the board (auto-detect, simulated, or none)."""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.ui import present
from companion.ui.screens import CribScreen, load_kv
from companion.ui.settings import muggins_choice, preset_muggins

load_kv(__file__)
CUT = "Cut for deal"
DEFAULT_NAMES = ("Ann", "Ben", "Cal", "Dee")


class NewGameScreen(CribScreen):
    title = "New game"
    players = NumericProperty(2)
    short = BooleanProperty(False)  # the short game, to 61
    # each count shown before the player claims it; with muggins on, after (the player counts first)
    count_first = BooleanProperty(False)
    dealer_choices = ListProperty([])
    ports_line = StringProperty("")

    def show(self) -> None:
        s = self.companion.settings
        names = list(s.players) + [n for n in DEFAULT_NAMES if n not in s.players]
        for i, field in enumerate(self.name_fields()):
            if not field.text:
                field.text = names[i] if i < len(names) else DEFAULT_NAMES[i]
        self.ids.preset.text = present.PRESET_WORDS.get(s.preset, s.preset)
        self.ids.muggins.text = s.muggins_mode
        self.count_first = s.muggins_mode == "off" if s.count_first is None else s.count_first
        choice = "sim" if self.companion.demo else s.board if s.board in ("auto", "sim", "none") else "auto"
        self.ids.board.text = present.BOARD_WORDS[choice]
        self.update_dealers()
        self.companion.background["files"].submit(_list_ports, self._ports, lambda exc: self._ports([]))

    def _ports(self, ports) -> None:
        self.ports_line = ("Ports: " + ", ".join(f"{p.device}{' (' + p.chip + ')' if p.chip else ''}" for p in ports)
                           if ports else "No serial port found (Find my board finds one when it is plugged in).")

    def name_fields(self):
        return [self.ids[f"name{i}"] for i in range(4)]

    def names(self) -> list[str]:
        return [f.text.strip() for f in self.name_fields()[: self.players]]

    def set_players(self, n: int) -> None:
        self.players = n
        self.update_dealers()

    def update_dealers(self) -> None:
        self.dealer_choices = [n or f"player {i + 1}" for i, n in enumerate(self.names())] + [CUT]
        if self.ids.dealer.text not in self.dealer_choices:
            self.ids.dealer.text = self.dealer_choices[0]

    def preset_chosen(self, words: str) -> None:
        """A preset chosen brings its own muggins (the rules core's preset): a game starts as its
        preset, and stays named for it unless the player changes muggins after."""
        self.ids.muggins.text = preset_muggins(present.preset_of(words))

    def pick_cut(self) -> None:
        from companion.ui.widgets.picker import CardPicker

        names = self.names()
        CardPicker("The cards cut, in seating order: " + ", ".join(names), multi=len(names),
                   on_done=lambda cards: setattr(self.ids.cut_cards, "text", " ".join(cards))).open()

    def start(self) -> None:
        names = self.names()
        if any(not n for n in names):
            self.app.show_error("Every player needs a name: type one in each box.")
            return
        rules = {"preset": present.preset_of(self.ids.preset.text), "muggins": self.ids.muggins.text}
        first, cut = None, None
        if self.ids.dealer.text == CUT:
            cut = self.ids.cut_cards.text.split()
            if len(cut) != len(names):
                self.app.show_error(f"Cut for deal: type the card each player cut, {len(names)} cards "
                                    "in seating order (e.g. 7H KD).")
                return
        else:
            first = names.index(self.ids.dealer.text) if self.ids.dealer.text in names else 0
        board = present.board_of(self.ids.board.text)
        by_muggins = rules["muggins"] == "off"  # kept only when the player chose otherwise
        self.companion.save_settings(players=tuple(names), preset=rules["preset"],
                                     muggins=muggins_choice(rules["preset"], rules["muggins"]),
                                     count_first=None if self.count_first == by_muggins else self.count_first,
                                     board=board if not self.companion.demo else self.companion.settings.board)
        self.app.notify("Starting the game...")
        self.companion.new_game(names, rules, first_dealer=first, dealer_cut=cut, board=board, short=self.short,
                                count_first=self.count_first,
                                done=lambda _view: (self.app.dismiss_message(), self.app.go("table")),
                                failed=self.app.show_error)


def _list_ports():
    from hardware import find_ports

    return find_ports()


SCREEN_CLASS = NewGameScreen
