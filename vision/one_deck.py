"""One deck: each card is in it once. What that tells ``vision.doubt`` about the cards of a photo.

A card's other readings (its ``alternatives``) that are already another card of the photo are
not offered: that card is elsewhere. A code read twice means one of the two reads is wrong: the
chance of each is weighed against the other's (``read_twice``) and the likelier wrong one is said.

Standard library only, like ``vision.doubt``.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from vision.evidence import Evidence

MAX_ALTERNATIVES = 3  # the most other readings a card keeps from the reader's ranking (its runner-up besides)
ALTERNATIVE_FLOOR = 0.05  # a reading with less of the card's doubt than this is not offered (its runner-up is)

Alternatives = tuple[tuple[str, float], ...]


def reader_shares(code: str, runner_up: str | None, evidence: Evidence, read_again: Alternatives) -> dict[str, float]:
    """The reader's other readings of a card read as ``code``, each with the reader's probability
    of it: the second reading's (``read_again``, the mean of its two crops) and the first read's
    runner-up, each at the higher of the two reads."""
    shares: dict[str, float] = {}
    for other, share in read_again:
        if other != code:
            shares[other] = max(shares.get(other, 0.0), share)
    if runner_up and runner_up != code:
        shares[runner_up] = max(shares.get(runner_up, 0.0), evidence.runner_up)
    return shares


def alternatives(code: str, runner_up: str | None, evidence: Evidence, read_again: Alternatives, chance: float,
                 taken: Iterable[str]) -> Alternatives:
    """A card's other readings as chances, best first (``read_again``: the second reading's, with
    the reader's probabilities; empty where it did not read the card), leaving out the cards ``taken`` (already
    elsewhere in the photo: one deck): the ``1 - chance`` that it is wrong shared among the rest as
    the reader shares its probability among them (read once only, with its runner-up alone, the
    share beyond its first reading). The best ``MAX_ALTERNATIVES`` with at least
    ``ALTERNATIVE_FLOOR`` of that doubt, and the first read's runner-up."""
    taken = set(taken)
    shares = {other: share for other, share in reader_shares(code, runner_up, evidence, read_again).items()
              if other not in taken}
    if not shares:
        return ()
    beyond = sum(shares.values()) if read_again else max(1.0 - evidence.reader, sum(shares.values()))
    beyond = max(beyond, 1e-6)
    ranked = sorted(shares.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = [(other, share) for other, share in ranked[:MAX_ALTERNATIVES] if share / beyond >= ALTERNATIVE_FLOOR]
    if runner_up in shares and runner_up not in dict(kept):
        kept.append((runner_up, shares[runner_up]))
    if not kept:
        kept = ranked[:1]
    return tuple((other, (1.0 - chance) * min(1.0, share / beyond))
                 for other, share in sorted(kept, key=lambda kv: (-kv[1], kv[0])))


def read_twice(first: float, second: float) -> tuple[float, float]:
    """The chances of two reads of one code, given that one deck holds it once (both cannot be
    right): each read's chance of being right, weighed against the other's."""
    both_wrong_or_one = 1.0 - first * second
    if both_wrong_or_one <= 0.0:
        return 0.5, 0.5
    return first * (1.0 - second) / both_wrong_or_one, second * (1.0 - first) / both_wrong_or_one


def where(box: Sequence[float], other: Sequence[float]) -> str:
    """Where ``box`` lies against ``other``, in a player's words: "left", "right", "top", "bottom"."""
    dx = (box[0] + box[2] - other[0] - other[2]) / 2
    dy = (box[1] + box[3] - other[1] - other[3]) / 2
    if abs(dx) >= abs(dy):
        return "left" if dx < 0 else "right"
    return "top" if dy < 0 else "bottom"
