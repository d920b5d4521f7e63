"""Muggins: judge a claimed score against what the cards are worth.

Claiming fewer points than entitled leaves ``missed`` points; whether an opponent may take them
depends on the rule set's mode: ``off`` nobody may (the points are lost), ``optional`` an opponent
may call "muggins" and peg them, ``mandatory`` they go to the opponent who spots them (the
claimant loses them for good). Claiming too many is an ``overclaim``: the peg goes back, no
penalty. His heels and penalty points are never mugginsable (RULES.md, source 000).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.rulesets import DEFAULT, MugginsMode, RuleSet

KINDS = ("play", "hand", "crib", "heels", "penalty")
MUGGINSABLE = frozenset({"play", "hand", "crib"})


class ClaimError(ValueError):
    """A claim that cannot be judged (negative points, unknown kind)."""


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """``missed`` = max(entitled - claimed, 0); ``muggins`` = the part an opponent may take."""

    kind: str
    claimed: int
    entitled: int
    missed: int
    overclaim: int
    mode: MugginsMode
    muggins: int

    @property
    def correct(self) -> bool:
        return self.claimed == self.entitled

    def describe(self) -> str:
        """One line for the players, e.g. "claimed 13 of 15: 2 missed; muggins is optional, an
        opponent may take them" (``crib score --claim`` and ``crib show --claim`` print it)."""
        if self.correct:
            return f"claimed {self.claimed}: correct"
        if self.overclaim:
            return (f"claimed {self.claimed} of {self.entitled}: {self.overclaim} too many, "
                    f"the peg goes back to {self.entitled} (no penalty)")
        if self.muggins:
            verb = "takes" if self.mode is MugginsMode.MANDATORY else "may take"
            return (f"claimed {self.claimed} of {self.entitled}: {self.missed} missed; "
                    f"muggins is {self.mode.value}, an opponent {verb} them")
        return f"claimed {self.claimed} of {self.entitled}: {self.missed} missed and lost (muggins is off)"

    def as_json(self) -> dict:
        """The ``"claim"`` object of ``crib score --claim N --json``."""
        return {"claimed": self.claimed, "entitled": self.entitled, "muggins": self.missed,
                "overclaim": self.overclaim}


def evaluate(claimed: int, entitled: int, rules: RuleSet = DEFAULT, kind: str = "hand") -> ClaimResult:
    """Judge ``claimed`` points against ``entitled`` for a score of ``kind`` (see KINDS)."""
    if kind not in KINDS:
        raise ClaimError(f"unknown score kind {kind!r} (choose from {', '.join(KINDS)})")
    if claimed < 0 or entitled < 0:
        raise ClaimError(f"points cannot be negative (claimed {claimed}, entitled {entitled})")
    missed = max(entitled - claimed, 0)
    takeable = kind in MUGGINSABLE and rules.muggins is not MugginsMode.OFF
    return ClaimResult(kind, claimed, entitled, missed, max(claimed - entitled, 0), rules.muggins,
                       missed if takeable else 0)
