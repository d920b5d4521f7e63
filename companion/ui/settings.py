"""The app's settings: one small JSON file beside the games (``settings.json`` in the data
folder). Unknown or bad values fall back to the defaults, one by one, so a damaged file never
stops the app."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from companion.game.events import PEGGING_MODES
from companion.rules import PRESETS, MugginsMode

SETTINGS_FILE = "settings.json"
MUGGINS_MODES = tuple(mode.value for mode in MugginsMode)  # the rules core's words, one source


@dataclass(frozen=True)
class Settings:
    board: str = "auto"            # auto | sim | none | a port or URL
    brightness: int = 4            # the board's level, 1 (dim room) .. 8 (daylight)
    preset: str = "acc"
    muggins: str | None = None     # off | optional | mandatory; None: the preset's own (muggins_mode)
    count_first: bool | None = None  # counts shown before the claim; None: only when muggins is off
    confirm_below: float | None = None  # recognition: cards read below this are flagged; None: the models' own
    sound: bool = True
    tour_seen: bool = False
    players: tuple[str, ...] = ("Ann", "Ben")
    pegging: str = "cards"         # how a new game's play is entered: the last way chosen

    def checked(self) -> "Settings":
        """This settings with every bad value replaced by its default."""
        default = Settings()
        good = {
            "board": isinstance(self.board, str) and bool(self.board.strip()),
            "brightness": isinstance(self.brightness, int) and 1 <= self.brightness <= 8,
            "preset": self.preset in PRESETS,
            "muggins": self.muggins is None or self.muggins in MUGGINS_MODES,
            "count_first": self.count_first is None or isinstance(self.count_first, bool),
            "confirm_below": self.confirm_below is None or (isinstance(self.confirm_below, (int, float))
                                                           and 0.05 <= self.confirm_below <= 0.9999),
            "sound": isinstance(self.sound, bool),
            "tour_seen": isinstance(self.tour_seen, bool),
            "players": isinstance(self.players, tuple) and all(isinstance(p, str) for p in self.players),
            "pegging": self.pegging in PEGGING_MODES,
        }
        return replace(self, **{k: getattr(default, k) for k, ok in good.items() if not ok})

    @property
    def muggins_mode(self) -> str:
        """The muggins new games start with: the one chosen, else the preset's own."""
        return self.muggins if self.muggins is not None else preset_muggins(self.preset)


def preset_muggins(preset: str) -> str:
    """A preset's own muggins mode, as the rules core's preset has it (acc and home: off)."""
    return PRESETS[preset].muggins.value


def muggins_choice(preset: str, muggins: str) -> str | None:
    """The muggins to keep in the settings: None while it is the preset's own, so the next game
    starts as its preset (a preset chosen later brings its own muggins)."""
    return None if muggins == preset_muggins(preset) else muggins


def load(folder: Path) -> Settings:
    path = Path(folder) / SETTINGS_FILE
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known}
    if isinstance(values.get("players"), list):
        values["players"] = tuple(values["players"])
    return Settings(**values).checked()


def save(folder: Path, settings: Settings) -> None:
    """Write atomically (a crash mid-write keeps the old file)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data = asdict(settings)
    data["players"] = list(settings.players)
    tmp = folder / (SETTINGS_FILE + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, folder / SETTINGS_FILE)
