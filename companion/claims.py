"""The claims no cards could ever be worth, by what is claimed (RULES.md): such a claim is not an
overclaim to correct but a mistyped number, refused with one line before anything is pegged.

    from companion.claims import check_claim
    check_claim("hand", 40)   # ImpossibleClaimError: no hand counts more than 29
    check_claim("crib", 19)   # ImpossibleClaimError: no crib counts 19

A hand or crib counts 29 at most and never 19, 25, 26 or 27 (the rules core's ``possible_total``). One card laid in the play
scores ``MAX_PLAY`` at most, worked out below from the play's scores in RULES.md; his heels 2. A
go's claim is held to the play's bound too: a go scores 1, but a go claimed as 2 (the 31's points)
is an overclaim the engine corrects, not a mistyped number.
"""

from __future__ import annotations

from enum import StrEnum

from companion.rules.stats import IMPOSSIBLE_TOTALS, MAX_SCORE, possible_total

FIFTEEN_OR_31 = 2     # the count reaching exactly 15 or 31
SAME_RANK = {1: 0, 2: 2, 3: 6, 4: 12}  # the card and the ones laid just before it of its rank
LAST_CARD = 1         # the go or the last card of the play, never with 31
HEELS = 2
VALUES = tuple(min(rank, 10) for rank in range(1, 14))  # A..K


def _most_one_card_scores() -> int:
    """The most one card laid can score. Its points are its 15 or 31, its pairs or its run (a run
    needs the last two cards of different ranks, a pair the same rank: never both) and the last
    card's point (not at 31). Every pattern the card can end is tried with every count that could
    lie before it in the same count (0..31). The best, 15: 2 3 3 3 (11), then four aces in a row,
    the fourth reaching 15 as the play's last card (12 + 2 + 1; ``tests/game`` plays it through the
    rules core)."""
    best = 0
    patterns = [(SAME_RANK[same], same * VALUES[rank]) for rank in range(13) for same in (1, 2, 3, 4)]
    patterns += [(length, sum(VALUES[low:low + length]))  # runs of 3+ consecutive ranks
                 for length in range(3, 14) for low in range(0, 14 - length)]
    for points, total in patterns:
        for before in range(0, 32 - total):
            count = before + total
            bonus = FIFTEEN_OR_31 if count in (15, 31) else 0
            bonus += 0 if count == 31 else LAST_CARD
            best = max(best, points + bonus)
    return best


MAX_PLAY = _most_one_card_scores()


class ClaimKind(StrEnum):
    """What a claim is for; members compare as their word (the game's LogKind words alike)."""

    HAND = "hand"
    CRIB = "crib"
    PLAY = "play"
    HEELS = "heels"


MOST = {ClaimKind.HAND: MAX_SCORE, ClaimKind.CRIB: MAX_SCORE, ClaimKind.PLAY: MAX_PLAY, ClaimKind.HEELS: HEELS}
WHAT = {ClaimKind.HAND: "no hand counts more than", ClaimKind.CRIB: "no crib counts more than",
        ClaimKind.PLAY: "nothing in the play scores more than", ClaimKind.HEELS: "his heels is"}


class ImpossibleClaimError(ValueError):
    """A claim no cards could ever be worth (or a negative one); the message is one line."""


def could_score(kind: str, points: int) -> bool:
    """Whether some cards could score ``points`` as a ``kind`` ("hand", "crib", "play", "heels")."""
    if kind in (ClaimKind.HAND, ClaimKind.CRIB):
        return possible_total(points)
    return 0 <= points <= MOST[kind]


def check_claim(kind: str, claimed: int | None, name: str = "claim") -> None:
    """Refuse a claim below 0, above what a ``kind`` ("hand", "crib", "play", "heels") could
    ever score, or a hand or crib total no cards make. None (nothing claimed) passes."""
    if claimed is None:
        return
    if claimed < 0:
        raise ImpossibleClaimError(f"{name}: a claim cannot be negative, got {claimed}")
    if claimed > MOST[kind]:
        raise ImpossibleClaimError(f"{name}: {claimed} is impossible: {WHAT[kind]} {MOST[kind]}")
    if not could_score(kind, claimed):
        others = [str(t) for t in sorted(IMPOSSIBLE_TOTALS - {claimed})]
        nor = ", ".join(others[:-1]) + " or " + others[-1]
        zero = f"; \"nineteen\" is said for a {kind} worth nothing: claim 0" if claimed == 19 else ""
        raise ImpossibleClaimError(f"{name}: {claimed} is impossible: no {kind} counts {claimed} (nor {nor}){zero}")
