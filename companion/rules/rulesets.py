"""Rule sets: every optional rule of RULES.md as a field, with the presets ``acc``, ``home``, ``pub``.

Also the end-of-game arithmetic that depends on them: who won, skunks, game points.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, StrEnum


class RuleSetError(ValueError):
    """An unknown preset or an inconsistent rule set."""


class MugginsMode(str, Enum):
    """``off``: missed points are simply lost; ``optional``: an opponent may call muggins and
    take them; ``mandatory`` (pub leagues): missed points go to the opponent who spots them."""

    OFF = "off"
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


@dataclass(frozen=True, slots=True)
class GamePoints:
    """Game (or match) points for a plain win, a skunk and a double skunk (None: no such result)."""

    win: int
    skunk: int
    double_skunk: int | None = None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The optional rules in force. Lines are inclusive: a loser with ``<= skunk_line`` is skunked."""

    name: str
    target: int = 121
    muggins: MugginsMode = MugginsMode.OFF
    skunk_line: int = 90
    double_skunk_line: int | None = None
    game_points: GamePoints = GamePoints(2, 3)
    match_games: int = 1  # best of this many games
    lowball: bool = False

    def __post_init__(self) -> None:
        if self.target < 1:
            raise RuleSetError(f"target must be positive, got {self.target}")
        if not 0 <= self.skunk_line < self.target:
            raise RuleSetError(f"skunk line {self.skunk_line} must be below the target {self.target}")
        if self.double_skunk_line is not None:
            if not 0 <= self.double_skunk_line < self.skunk_line:
                raise RuleSetError("the double skunk line must be below the skunk line")
            if self.game_points.double_skunk is None:
                raise RuleSetError("a double skunk line needs double skunk game points")
        if self.match_games < 1 or self.match_games % 2 == 0:
            raise RuleSetError(f"a match is best of an odd number of games, got {self.match_games}")
        if not isinstance(self.muggins, MugginsMode):
            object.__setattr__(self, "muggins", MugginsMode(self.muggins))

    def with_changes(self, **changes: object) -> "RuleSet":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)


PRESETS: dict[str, RuleSet] = {
    "acc": RuleSet("acc", muggins=MugginsMode.OFF, game_points=GamePoints(2, 3)),
    "home": RuleSet("home", muggins=MugginsMode.OFF, double_skunk_line=60,
                    game_points=GamePoints(1, 2, 3)),
    "pub": RuleSet("pub", muggins=MugginsMode.MANDATORY, game_points=GamePoints(1, 2),
                   match_games=3),
}
DEFAULT = PRESETS["acc"]


def ruleset(name: str) -> RuleSet:
    """A preset by name (``acc`` is the default)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleSetError(f"unknown rule set {name!r} (choose from {', '.join(PRESETS)})") from None


class GameEnd(StrEnum):
    """How a game ended for its loser (RULES.md "Winning and game points"). The value is the word
    the players say, and the one journals, exports and JSON output hold."""

    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double skunk"


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of a game between two sides."""

    winner: int  # index of the winning side in the scores given
    kind: GameEnd
    game_points: int


def game_outcome(scores: tuple[int, int], pegged_out: int, rules: RuleSet = DEFAULT) -> GameOutcome:
    """Result once side ``pegged_out`` (0 or 1) has reached the target.

    Normally that side wins and the loser's score is checked against the skunk lines. In lowball
    the side that pegs out loses; the winner scores a skunk if it has not passed the skunk line
    (has not reached 91); RULES.md names no double skunk for lowball, so there is none.
    """
    if pegged_out not in (0, 1):
        raise RuleSetError(f"pegged_out must be side 0 or 1, got {pegged_out}")
    if scores[pegged_out] < rules.target:
        raise RuleSetError(f"side {pegged_out} has {scores[pegged_out]}, below the target {rules.target}")
    other = 1 - pegged_out
    if scores[other] >= rules.target:
        raise RuleSetError("both sides cannot have reached the target")
    if rules.lowball:
        winner, checked = other, scores[other]
        double_line = None
    else:
        winner, checked = pegged_out, scores[other]
        double_line = rules.double_skunk_line
    if double_line is not None and checked <= double_line:
        return GameOutcome(winner, GameEnd.DOUBLE_SKUNK, rules.game_points.double_skunk or 0)
    if checked <= rules.skunk_line:
        return GameOutcome(winner, GameEnd.SKUNK, rules.game_points.skunk)
    return GameOutcome(winner, GameEnd.WIN, rules.game_points.win)


@dataclass(frozen=True, slots=True)
class Penalty:
    """A breach and what it costs (ACC, RULES.md "Penalties"). Penalty points are never mugginsable.

    ``opponent_pegs`` is per card when ``per_card``; ``opponent_pegs_overclaim`` means the
    opponent pegs the amount over-claimed; ``offender_back`` moves the offender's peg back
    (never below 0).
    """

    key: str
    breach: str
    opponent_pegs: int = 0
    per_card: bool = False
    opponent_pegs_overclaim: bool = False
    offender_back: int = 0

    def apply(self, offender: int, opponent: int, cards: int = 1, overclaim: int = 0) -> tuple[int, int]:
        """New (offender, opponent) scores after the penalty."""
        gain = self.opponent_pegs * (cards if self.per_card else 1)
        if self.opponent_pegs_overclaim:
            gain += overclaim
        return max(offender - self.offender_back, 0), opponent + gain


PENALTIES: dict[str, Penalty] = {p.key: p for p in (
    Penalty("bottom-card", "looking at the bottom card of the deck (after shuffling, or of the "
            "top packet after the cut)", opponent_pegs=2),
    Penalty("wrong-deal-unconfirmed", "wrong number of cards dealt, and the receiver did not let "
            "the dealer confirm the count", offender_back=10),
    Penalty("examining-crib", "examining the crib before its time", opponent_pegs=2),
    Penalty("renege", "renege: saying go while holding a card that could be played",
            opponent_pegs=2, per_card=True),
    Penalty("false-game-claim", "incorrectly claiming the game", opponent_pegs_overclaim=True,
            offender_back=15),
    Penalty("moving-opponents-peg", "moving the opponent's peg", opponent_pegs=2),
    Penalty("starter-misplaced", "placing the starter in a hand, the crib or the pack", opponent_pegs=2),
)}
