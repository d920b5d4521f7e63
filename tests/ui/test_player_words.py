"""Words a player uses (issue 36): rule presets by name ("ACC rules (custom)", not
"acc-custom"), the card-reading threshold as a question ("less than half sure"), and a board
spoken of only where one was asked for or found. The ids stay the same in the data."""

from companion.ui import present
from companion.ui.board_link import waiting_line


def test_presets_are_named_as_players_say_them_and_stay_ids_in_the_data():
    assert present.rules_words("acc-custom") == "ACC rules (custom)"
    assert present.rules_words("pub") == "Pub rules"
    assert present.rules_words("home-short") == "Home rules (short game)"
    assert [present.preset_of(present.PRESET_WORDS[k]) for k in ("acc", "home", "pub")] == ["acc", "home", "pub"]


def test_recent_games_and_settings_say_player_words(start_app, tmp_path):
    h = start_app(folder=tmp_path / "data")
    h.companion.new_game(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer=0)
    h.wait()
    assert h.companion.view.rules.name == "acc-custom"  # the data keeps its id
    h.app.go("home")
    h.wait()
    shown = " ".join(str(getattr(w, "text", "")) for w in h.screen("home").ids.recent.walk())
    assert "ACC rules (custom)" in shown and "acc-custom" not in shown
    h.app.go("settings")
    h.wait()
    settings = h.screen("settings")
    assert settings.ids.preset.text == "ACC rules"
    assert h.companion.settings.confirm_below is None  # the models' own threshold: their doubt model's
    from vision import flag_threshold

    models = flag_threshold()
    assert 0.98 < models < 0.999  # models v10's doubt model: 0.988749 (session 25)
    assert settings.ids.confidence_words.text.startswith("Ask me about cards I'm less than 98.87 % sure of")
    h.tap(settings.ids.save)
    h.wait()
    assert h.companion.settings.confirm_below is None  # saved untouched: it follows the models still
    settings.ids.confidence.value = 2  # two nines
    h.pump(frames=2)
    assert settings.ids.confidence_words.text.startswith("Ask me about cards I'm less than 99 % sure of")
    settings.ids.preset.text = "Pub rules"
    h.tap(settings.ids.save)
    h.wait()
    assert (h.companion.settings.preset, h.companion.settings.confirm_below) == ("pub", 0.99)
    settings.ids.confidence.value = settings.ids.confidence.min  # all the way left: half sure
    h.pump(frames=2)
    assert settings.ids.confidence_words.text.startswith("Ask me about cards I'm less than half sure of")


def test_a_board_is_spoken_of_only_where_one_was_asked_for():
    assert waiting_line("auto") == "" and waiting_line("none") == ""  # the default asks for nothing
    assert waiting_line("sim") == "simulated board: starts with a game"
    assert waiting_line("/dev/ttyUSB0") == "board /dev/ttyUSB0: opens when a game starts"


def test_board_choices_are_named_as_players_say_them_and_saved_as_ids(start_app, tmp_path):
    assert [present.board_of(present.BOARD_WORDS[k]) for k in ("auto", "sim", "none", "port")] == \
        ["auto", "sim", "none", "port"]
    h = start_app(folder=tmp_path / "data")
    h.app.go("settings")
    h.wait()
    settings = h.screen("settings")
    assert settings.ids.board.values == ["Find my board", "Simulated board", "No board", "Name its port"]
    assert "Simulated board: the board's own program" in " ".join(
        str(getattr(w, "text", "")) for w in settings.walk())

    def chosen_and_saved(words: str, port: str = "") -> str:
        settings.ids.board.text = words
        h.pump(frames=2)
        settings.ids.port.text = port
        h.tap(settings.ids.save)
        h.wait()
        return h.companion.settings.board

    def shown(screen: str):
        h.app.go(screen)
        h.wait()
        return h.screen(screen)

    assert chosen_and_saved("Name its port", "/dev/ttyUSB7") == "/dev/ttyUSB7"
    assert settings.ids.port.opacity == 1 and not settings.ids.port.disabled  # the port field opened
    assert (shown("settings").ids.board.text, settings.ids.port.text) == ("Name its port", "/dev/ttyUSB7")
    assert chosen_and_saved("No board") == "none"
    new = shown("new_game")
    assert new.ids.board.text == "No board" and "Name its port" not in new.ids.board.values


def test_the_confidence_slider_moves_along_the_nines():
    for threshold in (0.5, 0.9, 0.99, 0.997, 0.999, 0.9999):
        assert present.threshold_of_slider(present.slider_of_threshold(threshold)) == threshold
    assert present.slider_of_threshold(0.1) == present.SLIDER_NINES[0]  # an old setting: all the way left
    assert present.slider_of_threshold(1.0) == present.SLIDER_NINES[1]
    assert present.confidence_words(0.997) == "Ask me about cards I'm less than 99.7 % sure of"
    assert present.confidence_words(0.9999) == "Ask me about cards I'm less than 99.99 % sure of"
