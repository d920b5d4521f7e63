"""What the board shows, as one frozen value: pegs per track, dealer, lines, brightness, animation.

Tracks are numbered from 0 in Python and from 1 on the command line. A peg position is 0 (the
start hole), 1..120, or 121 (the game hole).
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.palette import BRIGHTNESS_LEVELS, DEFAULT_BRIGHTNESS

START, GAME_HOLE = 0, 121
MIN_TRACKS, MAX_TRACKS = 2, 3


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


@dataclass(frozen=True)
class Animation:
    """A board animation; ``win`` runs a comet along the winner's track."""

    kind: str
    track: int
    KINDS = ("win",)

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise AnimationError(f"unknown animation {self.kind!r} (known: {', '.join(self.KINDS)})")
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

    def __post_init__(self) -> None:
        pegs = tuple(tuple(p) for p in self.pegs)
        object.__setattr__(self, "pegs", pegs)
        if not MIN_TRACKS <= len(pegs) <= MAX_TRACKS:
            raise PegError(f"{len(pegs)} tracks: a board has {MIN_TRACKS} or {MAX_TRACKS}")
        for t, peg in enumerate(pegs):
            if len(peg) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in peg):
                raise PegError(f"track {t + 1}: pegs must be two whole numbers (front, back)")
            front, back = peg
            if not START <= front <= GAME_HOLE:
                raise PegError(f"track {t + 1}: front peg {front} is off the board (0..{GAME_HOLE})")
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
            if line is not None and not (isinstance(line, int) and 1 <= line < GAME_HOLE - 1):
                raise LineError(f"{name.replace('_', ' ')} {line!r} must be a hole 1..{GAME_HOLE - 2}")
        if self.skunk_line and self.double_skunk_line and self.double_skunk_line >= self.skunk_line:
            raise LineError(f"double skunk line {self.double_skunk_line} must be below the skunk line "
                            f"{self.skunk_line} (a double skunk is the deeper one)")

    @property
    def tracks(self) -> int:
        return len(self.pegs)

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
        new = min(GAME_HOLE, front + points)
        pegs = list(self.pegs)
        pegs[track] = (new, front) if new != front else self.pegs[track]
        return BoardState(tuple(pegs), self.dealer, self.brightness, self.animation,
                          self.skunk_line, self.double_skunk_line)
