"""Settings: the board (auto-detect, simulated, none, or a port typed), its brightness, the
rule defaults for new games, how sure recognition must be before it asks, and sound."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from companion.ui import present
from companion.ui.screens import CribScreen, load_kv
from companion.ui.settings import muggins_choice, preset_muggins
from companion.ui.speech import speaker

load_kv(__file__)


class SettingsScreen(CribScreen):
    title = "Settings"
    ports_line = StringProperty("")
    demo = BooleanProperty(False)
    naming_port = BooleanProperty(False)  # the board spinner says "Name its port": the port row shows

    def show(self) -> None:
        s = self.companion.settings
        self.demo = self.companion.demo
        board = self.in_use(s.board)
        self.ids.board.text = present.BOARD_WORDS[board if board in ("auto", "sim", "none") else "port"]
        self.ids.port.text = board if board not in ("auto", "sim", "none") else ""
        self.ids.brightness.value = s.brightness
        self.ids.preset.text = present.PRESET_WORDS.get(s.preset, s.preset)
        self.ids.muggins.text = s.muggins_mode
        self.ids.confidence.value = present.slider_of_threshold(
            self.models_confirm_below() if s.confirm_below is None else s.confirm_below)
        self.ids.sound.active = s.sound
        self.ids.voice.text = ("Voice: " + ("ready" if speaker() else "none found (install espeak-ng)"))
        self.find_ports()

    def preset_chosen(self, words: str) -> None:
        """A preset chosen brings its own muggins, as on the New game screen."""
        self.ids.muggins.text = preset_muggins(present.preset_of(words))

    def find_ports(self) -> None:
        def listed(ports):
            self.ports_line = ("Found: " + ", ".join(f"{p.device} ({p.chip or p.description or 'serial'})"
                                                    for p in ports)) if ports else "No board found: plug one in, or name its port."
        from companion.ui.screens.new_game import _list_ports

        self.companion.background["files"].submit(_list_ports, listed, lambda exc: listed([]))

    def in_use(self, saved: str) -> str:
        """The board the games open: the demo's is always the simulated one."""
        return "sim" if self.companion.demo else saved

    def models_confirm_below(self) -> float:
        """The loaded models' own threshold, as their models.json says (the slider's place until
        the player moves it)."""
        return self.companion.models().flag_below

    def confirm_choice(self) -> float | None:
        """The slider's value, or None (the models' own) while it stays where the models put it."""
        models = present.slider_of_threshold(self.models_confirm_below())
        if self.companion.settings.confirm_below is None and abs(float(self.ids.confidence.value) - models) < 0.025:
            return None
        return present.threshold_of_slider(self.ids.confidence.value)

    def board_choice(self) -> str:
        return self.ids.port.text.strip() if self.naming_port else present.board_of(self.ids.board.text)

    def save(self) -> None:
        board = self.board_choice()
        if not board:
            self.app.show_error("Type the board's port (e.g. /dev/ttyUSB0), or choose another board.")
            return
        old = self.companion.settings
        kept = old.board if self.companion.demo and board == "sim" else board  # the demo's sim is not saved
        self.companion.save_settings(board=kept, brightness=int(self.ids.brightness.value),
                                     preset=present.preset_of(self.ids.preset.text),
                                     muggins=muggins_choice(present.preset_of(self.ids.preset.text),
                                                            self.ids.muggins.text),
                                     confirm_below=self.confirm_choice(),
                                     sound=bool(self.ids.sound.active))
        if self.companion.view is not None and (self.in_use(old.board) != board
                                                or old.brightness != self.companion.settings.brightness):
            self.companion.connect_board(board, lambda status: self.app.notify(f"Settings saved. {status}." if status
                                                                                else "Settings saved."))
        else:
            self.app.notify("Settings saved.")


SCREEN_CLASS = SettingsScreen
