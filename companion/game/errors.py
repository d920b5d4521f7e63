"""The game's errors: each names what is wrong in one line; all are ValueErrors (CLI exit 2)."""

from __future__ import annotations


class GameError(ValueError):
    """Anything the game refuses."""


class EntryError(GameError):
    """An entry that is malformed, or not allowed at this point of the game (says why)."""


class RedoPendingError(GameError):
    """A new entry while undone entries wait for redo: say ``forget_undone()`` first."""


class ScriptError(GameError):
    """A game script that cannot be played; the message names the deal and field."""


class JournalError(GameError):
    """A journal that cannot be read or written (unknown game, bad file, newer schema)."""


class JournalBusyError(JournalError):
    """Another process has this game open for writing."""


class GameFileError(GameError):
    """An export file that is refused (nothing was stored)."""
