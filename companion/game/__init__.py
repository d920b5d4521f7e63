"""The game: a session that keeps score like a careful player (above the rules core).

events     journal entries (frozen values with as_json / from_json)
phase      Phase: where a game stands (discard, cut, play, show, game over, match over)
records    what the engine writes down: LogLine (its LogKind), Offer, ShowRecord (its ShowKind), GameResult
engine     Game: the pure state machine; replay(entries)
session    GameSession: the object the app and the CLI drive (actions, undo/redo, view, listeners)
view       GameView: what a screen shows, as frozen records (NextShow, ShownCount, PlayStep, ...)
journal    Store: SQLite journals in the user data folder (CRIB_DATA_DIR overrides it)
script     run_script: a whole game from JSON (``crib game replay``)
transfer   export / import a game as JSON
stats      statistics per player, CSV
board      BoardSync: the LED board follows the game
"""

from companion.game.engine import Game, replay
from companion.game.errors import (
    EntryError, GameError, GameFileError, JournalBusyError, JournalError, RedoPendingError, ScriptError)
from companion.game.events import PeggingMode
from companion.game.journal import Store, data_dir
from companion.game.phase import Phase
from companion.game.records import LogKind, ShowKind
from companion.game.session import GameSession
from companion.game.setup import make_rules
from companion.game.view import BoardView, GameView, game_name, NextShow, PlayStep, Proposal, RenegeSeen, ShownCount

__all__ = ["Game", "replay", "EntryError", "GameError", "GameFileError", "JournalBusyError", "JournalError",
           "RedoPendingError", "ScriptError", "Store", "data_dir", "PeggingMode", "Phase", "LogKind", "ShowKind",
           "GameSession", "make_rules", "BoardView", "GameView", "NextShow", "PlayStep", "Proposal", "RenegeSeen",
           "ShownCount", "game_name"]
