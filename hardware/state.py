"""What the board shows, as one frozen value: pegs per track, dealer, lines, brightness,
animation, games won per track, and the game's length (121, or 61 for the short game).

Tracks are numbered from 0 in Python and from 1 wherever a person reads or types them. A peg
position is 0 (the start hole), 1..target-1, or the target (the game hole): 121, or 61 for the
short game, which runs once round the same board (holes 1..60) into the game hole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from hardware.palette import BRIGHTNESS_LEVELS, DEFAULT_BRIGHTNESS

START, GAME_HOLE = 0, 121
SHORT_GAME = 61
TARGETS = (GAME_HOLE, SHORT_GAME)
MIN_TRACKS, MAX_TRACKS = 2, 3
MAX_GAMES_SENT = 255  # games won per track, one byte on the wire (the board lights up to three)


class BoardStateError(ValueError):
    """A board state that no board can show."""


class PegError(BoardStateError):
    pass


class DealerError(BoardStateError):
    pass


class BrightnessError(BoardStateError):
    pass


class AnimationError(BoardStateError):
    pass


class LineError(BoardStateError):
    pass


class GamesError(BoardStateError):
    pass


class Comet(StrEnum):
    """How the game was won, as the board's comet shows it (the protocol's animation codes)."""

    WIN = "win"
    SKUNK = "skunk"                # a loser at or below the skunk line
    DOUBLE_SKUNK = "double_skunk"


@dataclass(frozen=True)
class Animation:
    """A board animation: a comet along the winner's track, coloured by how the game was won
    (a ``Comet``; its word, such as ``double_skunk``, is taken too)."""

    kind: Comet
    track: int
    KINDS = tuple(comet.value for comet in Comet)

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise AnimationError(f"unknown animation {self.kind!r} (known: {', '.join(self.KINDS)})")
        object.__setattr__(self, "kind", Comet(self.kind))
        if not isinstance(self.track, int) or self.track < 0:
            raise AnimationError(f"animation track must be a track number, got {self.track!r}")

    @classmethod
    def parse(cls, text: str) -> "Animation":
        """``win:2`` -> a win on track 2 (numbered from 1)."""
        kind, sep, track = text.partition(":")
        if not sep or not track.strip().isdigit() or int(track) < 1:
            raise AnimationError(f"animation {text!r}: expected KIND:TRACK such as win:2")
        return cls(kind.strip(), int(track) - 1)

    def format(self) -> str:
        return f"{self.kind}:{self.track + 1}"


@dataclass(frozen=True)
class BoardState:
    pegs: tuple[tuple[int, int], ...]       # per track: (front, back)
    dealer: int | None = None
    brightness: int = DEFAULT_BRIGHTNESS    # 1 (dim room) .. 8 (daylight)
    animation: Animation | None = None
    skunk_line: int | None = 90             # the loser is skunked at or below this score
    double_skunk_line: int | None = None    # e.g. 60 where the rule set has one
    games: tuple[int, ...] = ()             # games won per track (up to 3 LEDs lit); () = none
    target: int = GAME_HOLE                 # 121, or 61 for the short game (once round)

    def __post_init__(self) -> None:
        pegs = tuple(tuple(p) for p in self.pegs)
        object.__setattr__(self, "pegs", pegs)
        if not MIN_TRACKS <= len(pegs) <= MAX_TRACKS:
            raise PegError(f"{len(pegs)} tracks: a board has {MIN_TRACKS} or {MAX_TRACKS}")
        if self.target not in TARGETS:
            raise PegError(f"a game to {self.target!r}: the board plays to {GAME_HOLE} or {SHORT_GAME}")
        self._check_games(len(pegs))
        goal = self.target
        for t, peg in enumerate(pegs):
            if len(peg) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in peg):
                raise PegError(f"track {t + 1}: pegs must be two whole numbers (front, back)")
            front, back = peg
            if not START <= front <= goal:
                raise PegError(f"track {t + 1}: front peg {front} is off the board (0..{goal})")
            if not START <= back <= front or (back == front and front != START):
                raise PegError(f"track {t + 1}: back peg {back} must be behind the front peg {front}")
        if self.dealer is not None and not (isinstance(self.dealer, int) and 0 <= self.dealer < len(pegs)):
            shown = self.dealer + 1 if isinstance(self.dealer, int) else repr(self.dealer)
            raise DealerError(f"dealer on track {shown}: the board has tracks 1..{len(pegs)}")
        if self.brightness not in BRIGHTNESS_LEVELS:
            raise BrightnessError(f"brightness {self.brightness!r} is not a level 1..{BRIGHTNESS_LEVELS[-1]}")
        if self.animation is not None and self.animation.track >= len(pegs):
            raise AnimationError(f"animation on track {self.animation.track + 1} of a {len(pegs)}-track board")
        for name in ("skunk_line", "double_skunk_line"):
            line = getattr(self, name)
            if line is not None and not (isinstance(line, int) and 1 <= line < goal - 1):
                raise LineError(f"{name.replace('_', ' ')} {line!r} must be a hole 1..{goal - 2}")
        if self.skunk_line and self.double_skunk_line and self.double_skunk_line >= self.skunk_line:
            raise LineError(f"double skunk line {self.double_skunk_line} must be below the skunk line "
                            f"{self.skunk_line} (a double skunk is the deeper one)")

    def _check_games(self, tracks: int) -> None:
        games = tuple(self.games) if self.games else (0,) * tracks
        object.__setattr__(self, "games", games)
        if len(games) != tracks:
            raise GamesError(f"games won for {len(games)} tracks on a {tracks}-track board")
        for t, won in enumerate(games):
            if not (isinstance(won, int) and not isinstance(won, bool) and 0 <= won <= MAX_GAMES_SENT):
                raise GamesError(f"track {t + 1}: {won!r} games won is not a count 0..{MAX_GAMES_SENT}")

    @property
    def tracks(self) -> int:
        return len(self.pegs)

    @property
    def winner(self) -> int | None:
        """The track whose front peg is in the game hole, if any."""
        return next((t for t, (front, _) in enumerate(self.pegs) if front == self.target), None)

    @staticmethod
    def parse_games(text: str) -> tuple[int, ...]:
        """``1,0,2`` -> (1, 0, 2): games won per track, tracks numbered from 1 in order."""
        items = [item.strip() for item in text.split(",")]
        if not all(item.isdigit() for item in items):
            raise GamesError(f"games {text!r}: give whole numbers per track such as 1,0")
        return tuple(int(item) for item in items)

    @classmethod
    def start(cls, tracks: int, **kwargs) -> "BoardState":
        return cls(pegs=((START, START),) * tracks, **kwargs)

    @staticmethod
    def parse_pegs(text: str) -> tuple[tuple[int, int], ...]:
        """``12/8,30/25`` -> ((12, 8), (30, 25)); a lone number is a front peg with the back at 0."""
        pegs = []
        for t, item in enumerate(text.split(",")):
            front, sep, back = item.strip().partition("/")
            if not front.isdigit() or (sep and not back.isdigit()):
                raise PegError(f"pegs {text!r}: track {t + 1} {item.strip()!r} is not FRONT/BACK such as 12/8")
            pegs.append((int(front), int(back) if sep else 0))
        return tuple(pegs)

    @staticmethod
    def format_pegs(pegs: tuple[tuple[int, int], ...]) -> str:
        return ",".join(f"{front}/{back}" for front, back in pegs)

    def advanced(self, track: int, points: int) -> "BoardState":
        """The state after ``track`` pegs ``points``: the back peg leapfrogs to the old front."""
        front, _ = self.pegs[track]
        new = min(self.target, front + points)
        pegs = list(self.pegs)
        pegs[track] = (new, front) if new != front else self.pegs[track]
        return replace(self, pegs=tuple(pegs))

    def win_kind(self, winner: int) -> str:
        """How a win by ``winner`` is shown: the deepest loser decides (skunk, double skunk)."""
        lowest = min(front for t, (front, _) in enumerate(self.pegs) if t != winner)
        if self.double_skunk_line and lowest <= self.double_skunk_line:
            return "double_skunk"
        if self.skunk_line and lowest <= self.skunk_line:
            return "skunk"
        return "win"

    def pegged(self, track: int, points: int) -> "BoardState":
        """What the board itself does for PEG (and a +1/+2 button): ``advanced``, and a peg into
        the game hole starts the winner's animation, coloured by skunk."""
        if not 0 <= track < self.tracks:
            raise PegError(f"track {track + 1}: the board has tracks 1..{self.tracks}")
        if points < 1:
            raise PegError(f"peg {points} points: pegging moves forward by 1 or more (undo takes a peg back)")
        if self.pegs[track][0] >= self.target:
            raise PegError(f"track {track + 1} has pegged out: undo, or start a new game")
        state = self.advanced(track, points)
        if state.pegs[track][0] == self.target and state.animation is None:
            state = replace(state, animation=Animation(state.win_kind(track), track))
        return state
