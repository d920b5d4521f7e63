"""What the engine writes down as it replays: peg movements with reasons, offers, results."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from companion.rules import GameEnd

# LogLine kinds: the points' origin. "lost" lines move no peg (points missed and not taken).
KINDS = ("heels", "play", "hand", "crib", "muggins", "penalty", "lost")


@dataclass(frozen=True, slots=True)
class LogLine:
    """One movement of a side's peg (or points lost), with the reason as players would say it."""

    entry: int          # the entry (index in the game's entries) that caused it
    game: int
    deal: int
    side: int
    seat: int | None
    points: int         # negative: the peg goes back (a penalty)
    kind: str
    text: str
    claimed: int | None = None   # for claims: what was claimed
    entitled: int | None = None  # for claims: what the cards are worth
    ref: int | None = None       # muggins taken or declined: the entry of the claim concerned

    def as_json(self) -> dict:
        # by hand: dataclasses.asdict deep-copies and took half of a 50-deal resume
        return {"entry": self.entry, "game": self.game, "deal": self.deal, "side": self.side, "seat": self.seat,
                "points": self.points, "kind": self.kind, "text": self.text, "claimed": self.claimed,
                "entitled": self.entitled, "ref": self.ref}


@dataclass(frozen=True, slots=True)
class Offer:
    """Missed points that an opponent may still take (muggins)."""

    entry: int          # the claim's entry: the offer's id
    seat: int           # who missed them
    side: int
    points: int
    kind: str           # play | hand | crib
    callers: tuple[int, ...]  # seats that may call muggins
    expires: str        # "when the scorer pegs again" | "when the next deal starts"

    def as_json(self) -> dict:
        return {"entry": self.entry, "seat": self.seat, "side": self.side, "points": self.points,
                "kind": self.kind, "callers": self.callers, "expires": self.expires}


@dataclass(frozen=True, slots=True)
class ShowRecord:
    game: int
    deal: int
    seat: int
    kind: str           # hand | crib
    cards: tuple[str, ...]
    starter: str
    entitled: int
    claimed: int
    spoken: str
    photo: str | None
    entry: int | None = None  # the show entry that counted it


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game. ``kind``: how it ended against the worst-off loser; ``losers``: (side,
    score, how it ended for him, game points) each; ``game_points``: the winner's total."""

    number: int
    winner: int
    pegged_out: int
    kind: GameEnd
    game_points: int
    scores: tuple[int, ...]
    losers: tuple[tuple[int, int, GameEnd, int], ...]
    deals: int

    def as_json(self) -> dict:
        out = asdict(self)
        out["losers"] = [dict(zip(("side", "score", "kind", "game_points"), loser)) for loser in self.losers]
        return out
