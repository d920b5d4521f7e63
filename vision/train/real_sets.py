"""The real photo sets behind one registry: each set's adapter (``real_cards`` for cardcounterml,
``rf100`` for rf100-poker) reads its own photos and split; this module names them and joins
their sides, so neither adapter imports the other.

A set is required (its absence is an error naming the folder) or optional (left out when it is
not here). ``real_photos_of(side)`` is what training and the benches read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from vision.train import real_cards, rf100
from vision.train.real_cards import RealDataError, RealPhoto


@dataclass(frozen=True)
class RealSet:
    """One real photo set: its folder name under the real root, whether training needs it, and
    its adapter's ``photos_of(side)`` ("train" or "val")."""

    name: str
    required: bool
    photos_of: Callable[[str], list[RealPhoto]]

    def present(self) -> bool:
        try:
            real_cards.dataset_dir(self.name)
        except RealDataError:
            return False
        return True


REAL_SETS: tuple[RealSet, ...] = (
    RealSet(real_cards.CARDCOUNTERML, True, real_cards.photos_of),
    RealSet(rf100.POKER, False, rf100.poker_photos_of),
)


def real_set(name: str) -> RealSet:
    for entry in REAL_SETS:
        if entry.name == name:
            return entry
    raise RealDataError(f"unknown real set {name!r}; known: {', '.join(s.name for s in REAL_SETS)}")


def real_photos_of(side: str) -> list[RealPhoto]:
    """One side of every real set's split: the required sets (an error when missing) and the
    optional ones that are here, in registry order."""
    photos: list[RealPhoto] = []
    for entry in REAL_SETS:
        if entry.required or entry.present():
            photos += entry.photos_of(side)
    return photos
