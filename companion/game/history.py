"""Undo and redo over an append-only journal.

The journal keeps every entry ever written, undo and redo included, so nothing is lost: the
entries in force are computed by walking it. ``Undo`` moves the latest entry in force onto the
redo stack, ``Redo`` moves it back, ``ForgetUndone`` drops the redo stack (the players said so).
A game entry written while the redo stack is not empty is refused here (the session asks for
``forget_undone`` first), so an undo never loses a later entry silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.game.errors import EntryError
from companion.game.events import Entry, ForgetUndone, NewGame, Redo, Undo


@dataclass
class History:
    in_force: list[Entry] = field(default_factory=list)
    undone: list[Entry] = field(default_factory=list)  # the redo stack, last undone at the end

    def push(self, entry: Entry, position: int | None = None) -> None:
        """Account for one journal entry (``position``: its number, for the error message)."""
        where = f"entry {position}: " if position is not None else ""
        if isinstance(entry, Undo):
            if len(self.in_force) <= 1:
                raise EntryError(f"{where}nothing to undo: the game is at its start")
            self.undone.append(self.in_force.pop())
        elif isinstance(entry, Redo):
            if not self.undone:
                raise EntryError(f"{where}nothing to redo")
            self.in_force.append(self.undone.pop())
        elif isinstance(entry, ForgetUndone):
            if entry.count != len(self.undone):
                raise EntryError(f"{where}forget-undone names {entry.count} undone entries, "
                                 f"{len(self.undone)} are waiting")
            self.undone.clear()
        else:
            if isinstance(entry, NewGame) != (not self.in_force):
                raise EntryError(f"{where}a journal has exactly one new-game entry, its first")
            if self.undone:
                raise EntryError(f"{where}{len(self.undone)} undone entries wait for redo: "
                                 "forget them first or redo them")
            self.in_force.append(entry)


def walk(journal: list[Entry]) -> History:
    history = History()
    for position, entry in enumerate(journal):
        history.push(entry, position)
    return history
