"""What the engine writes down as it replays: peg movements with reasons, offers, results."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from companion.rules import GameEnd

from companion.game.errors import GameError


class LogKind(StrEnum):
    """Where a log line's points came from; the value is the word JSON output (``--json``, the
    replay's notes) has always held."""

    HEELS = "heels"
    PLAY = "play"
    HAND = "hand"
    CRIB = "crib"
    MUGGINS = "muggins"
    PENALTY = "penalty"
    LOST = "lost"        # points missed and not taken: no peg moves


class ShowKind(StrEnum):
    """Which count of the show: a hand or the crib; the value is the word JSON output has always held."""

    HAND = "hand"
    CRIB = "crib"


def _check_kind(kinds: type[StrEnum], value: object) -> None:
    # records hold members only: a bare word (a caller that missed the enum) or an unknown one stops here
    if not isinstance(value, kinds):
        got = f"the bare word {value!r}" if type(value) is str else repr(value)
        raise GameError(f"kind: expected a {kinds.__name__} ({', '.join(kinds)}), got {got}")


@dataclass(frozen=True, slots=True)
class LogLine:
    """One movement of a side's peg (or points lost), with the reason as players would say it."""

    entry: int          # the entry (index in the game's entries) that caused it
    game: int
    deal: int
    side: int
    seat: int | None
    points: int         # negative: the peg goes back (a penalty)
    kind: LogKind
    text: str
    claimed: int | None = None   # for claims: what was claimed
    entitled: int | None = None  # for claims: what the cards are worth
    ref: int | None = None       # muggins taken or declined: the entry of the claim concerned

    def __post_init__(self) -> None:
        _check_kind(LogKind, self.kind)

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
    kind: LogKind       # PLAY | HAND | CRIB
    callers: tuple[int, ...]  # seats that may call muggins
    expires: str        # "when the scorer pegs again" | "when the next deal starts"

    def __post_init__(self) -> None:
        _check_kind(LogKind, self.kind)

    def as_json(self) -> dict:
        return {"entry": self.entry, "seat": self.seat, "side": self.side, "points": self.points,
                "kind": self.kind, "callers": self.callers, "expires": self.expires}


@dataclass(frozen=True, slots=True)
class ShowRecord:
    game: int
    deal: int
    seat: int
    kind: ShowKind
    cards: tuple[str, ...]
    starter: str
    entitled: int
    claimed: int
    spoken: str
    photo: str | None
    entry: int | None = None  # the show entry that counted it
    unconfirmed: tuple[str, ...] = ()  # of a photo's cards, those kept as read without the player's check

    def __post_init__(self) -> None:
        _check_kind(ShowKind, self.kind)


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
