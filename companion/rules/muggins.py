"""Muggins: judge a claimed score against what the cards are worth.

Claiming fewer points than entitled leaves ``missed`` points; what becomes of them depends on the
rule set's mode (docs/RULES.md "Claims and muggins"): ``off`` the product is the scorer and the
claimant pegs the right count; ``optional`` the claimant pegs the claim and an opponent may call
"muggins" and peg the missed points; ``mandatory`` they go to the opponent on the scorer's left.
Claiming too many is an ``overclaim``: the peg goes back to the right count, no penalty. His heels
and penalty points are never mugginsable: with muggins on, their missed points are lost (RULES.md,
source 000). The CLI and the game session both peg what ``evaluate`` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.rulesets import DEFAULT, MugginsMode, RuleSet

KINDS = ("play", "hand", "crib", "heels", "penalty")
MUGGINSABLE = frozenset({"play", "hand", "crib"})
NEVER_TAKEN = {"heels": "his heels is", "penalty": "penalty points are"}


class ClaimError(ValueError):
    """A claim that cannot be judged (negative points, unknown kind)."""


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """``missed`` = max(entitled - claimed, 0); ``pegged`` = what the claimant's peg moves;
    ``muggins`` = the missed points an opponent may take (``mode`` says whether he must ask);
    ``lost`` = the missed points nobody pegs (his heels or a penalty, with muggins on)."""

    kind: str
    claimed: int
    entitled: int
    missed: int
    overclaim: int
    mode: MugginsMode
    muggins: int
    pegged: int
    lost: int

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
        if self.lost:
            return (f"claimed {self.claimed} of {self.entitled}: {self.missed} missed and lost "
                    f"({NEVER_TAKEN[self.kind]} never taken by muggins)")
        return (f"claimed {self.claimed} of {self.entitled}: {self.missed} missed, the peg goes to "
                f"{self.entitled} (muggins is off: the right count is pegged)")

    def as_json(self) -> dict:
        """The ``"claim"`` object of ``crib score --claim N --json``."""
        return {"claimed": self.claimed, "entitled": self.entitled, "muggins": self.missed,
                "overclaim": self.overclaim, "pegged": self.pegged}


def evaluate(claimed: int, entitled: int, rules: RuleSet = DEFAULT, kind: str = "hand") -> ClaimResult:
    """Judge ``claimed`` points against ``entitled`` for a score of ``kind`` (see KINDS)."""
    if kind not in KINDS:
        raise ClaimError(f"unknown score kind {kind!r} (choose from {', '.join(KINDS)})")
    if claimed < 0 or entitled < 0:
        raise ClaimError(f"points cannot be negative (claimed {claimed}, entitled {entitled})")
    missed = max(entitled - claimed, 0)
    scorer = rules.muggins is MugginsMode.OFF  # the product is the scorer: the right count is pegged
    pegged = entitled if scorer or claimed > entitled else claimed
    takeable = missed if kind in MUGGINSABLE and not scorer else 0
    return ClaimResult(kind, claimed, entitled, missed, max(claimed - entitled, 0), rules.muggins,
                       takeable, pegged, entitled - pegged - takeable)
