"""The play (pegging) for 2, 3 or 4 players, with points and reasons per card.

Players are numbered from the one who leads (the pone, left of the dealer) clockwise, so the
dealer is the last number; or by seat, with ``leader`` naming the pone's seat (the dealer's + 1). With 4 players the partnerships are players 0 & 2 and 1 & 3
(partners sit opposite); totals stay per player and a side's score is the sum of its two.
Every player holds 4 cards.

A play is a sequence of tokens: a card laid by the player to act, or ``None``/"go" for a pass
by the player to act. Rules (RULES.md "The play"):

* The player to act is the next one clockwise who has not passed in this count and still holds
  cards (possibly the player who just laid, when all others have passed or are out).
* A passed player stays passed until the count resets. The count resets at 31, or when nobody
  can act. Then the player after the last one to lay leads (skipping empty hands).
* Points to the player who laid: 15 and 31 (2 each); pair 2, pair royal 6, double pair royal 12
  (consecutive same ranks at the end of the current count); a run: the longest N >= 3 such that
  the latest N cards of the current count are N consecutive ranks in any order (N points).
* The go: when nobody can act, the last player to lay pegs 1 ("go") unless the count is 31.
  It is recorded on the event of that card, since that is the card that earned it.
* The final card of the play pegs 1 ("last card"), or only the 2 for 31 if it makes 31.

Reneges: a go while holding a card that fits under 31. With ``hands`` known the playable cards
are listed; the cards that should have been played are the most of them that fit on the count
together (lowest first), 2 penalty points each (RULES.md, source 002). Without hands only a
certain renege is found: a go at count 21 or less (every card is worth 10 or less); then the
cards are unknown and the number that surely fit, min(cards held, (31 - count) // 10), is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from companion.rules.cards import Card

CARDS_EACH = 4
FIFTEEN, THIRTY_ONE, GO, LAST_CARD = "fifteen", "thirty-one", "go", "last card"
_SAME_RANK = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


class PlayError(ValueError):
    """A play that cannot happen (over 31, card not held, card laid twice, play already over)."""


class OverThirtyOneError(PlayError):
    """A card that takes the count over 31: often a go that was not said before it."""


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """One token of the play: ``card`` None is a go. ``count`` is the count after it."""

    player: int
    card: Card | None
    count: int
    points: int = 0
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Renege:
    """A go (event index ``event``) by ``player`` while ``playable`` cards fit under 31."""

    player: int
    event: int
    count: int
    playable: tuple[Card, ...]
    should_have_played: int

    @property
    def penalty(self) -> int:
        return 2 * self.should_have_played


@dataclass(frozen=True, slots=True)
class PlayResult:
    players: int
    events: tuple[PlayEvent, ...]
    totals: tuple[int, ...]
    reneges: tuple[Renege, ...]
    complete: bool  # every card has been laid

    def as_json(self) -> dict:
        """The ``crib peg --json`` shape."""
        return {
            "events": [{"player": e.player, "play": str(e.card) if e.card else "go", "count": e.count,
                        "points": e.points, "reasons": list(e.reasons)} for e in self.events],
            "totals": list(self.totals),
            "reneges": [{"player": r.player, "event": r.event, "count": r.count,
                         "playable": [str(c) for c in r.playable], "penalty": r.penalty} for r in self.reneges],
        }


def partnerships(players: int) -> tuple[tuple[int, ...], ...]:
    """The scoring sides: each player alone, or (0, 2) and (1, 3) with 4 players."""
    return ((0, 2), (1, 3)) if players == 4 else tuple((p,) for p in range(players))


@dataclass
class Pegging:
    """The play in progress; feed it tokens with ``lay`` and ``go``; ``to_act`` says whose turn
    it is, ``count`` the running count, ``events`` what happened so far. ``leader`` is the number
    of the player who leads (0 unless the players are numbered by seat)."""

    players: int
    hands: Sequence[Sequence[Card]] | None = None
    leader: int = 0
    events: list[PlayEvent] = field(default_factory=list, init=False)
    reneges: list[Renege] = field(default_factory=list, init=False)
    count: int = field(default=0, init=False)
    to_act: int = field(default=0, init=False)  # the player whose turn it is

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise PlayError(f"the play needs 2, 3 or 4 players, got {self.players}")
        if self.leader not in range(self.players):
            raise PlayError(f"with {self.players} players the leader is player 0 to {self.players - 1}, "
                            f"got {self.leader}")
        self.to_act = self.leader
        self._left = [CARDS_EACH] * self.players
        self._laid: set[Card] = set()
        self._passed = [False] * self.players
        self._current: list[Card] = []  # cards of the current count
        self._last_layer: int | None = None
        self._last_event: int | None = None
        if self.hands is not None:
            self._held = self._check_hands(self.hands)

    def _check_hands(self, hands: Sequence[Sequence[Card]]) -> list[set[Card]]:
        if len(hands) != self.players:
            given = "1 hand" if len(hands) == 1 else f"{len(hands)} hands"  # the rules core has no words module
            raise PlayError(f"{given} given for {self.players} players")
        seen: dict[Card, int] = {}
        held = []
        for player, hand in enumerate(hands):
            if len(hand) != CARDS_EACH or len(set(hand)) != CARDS_EACH:
                raise PlayError(f"hand {player} must be {CARDS_EACH} distinct cards")
            for card in hand:
                if card in seen:
                    raise PlayError(f"card {card} is in hands {seen[card]} and {player}")
                seen[card] = player
            held.append(set(hand))
        return held

    @property
    def complete(self) -> bool:
        return not any(self._left)

    def lay(self, card: Card) -> PlayEvent:
        """The player to act lays ``card``."""
        player = self._acting("lay a card")
        if card in self._laid:
            raise PlayError(f"card {card} was already laid")
        if self.hands is not None and card not in self._held[player]:
            raise PlayError(f"player {player} does not hold {card}")
        if self.count + card.value > 31:
            raise OverThirtyOneError(f"{card} by player {player} takes the count to {self.count + card.value} (over 31)")
        self._laid.add(card)
        self._left[player] -= 1
        if self.hands is not None:
            self._held[player].discard(card)
        self._current.append(card)
        self.count += card.value
        points, reasons = self._card_points()
        if self.count == 31:
            points, reasons = points + 2, reasons + [THIRTY_ONE]
        elif self.complete:
            points, reasons = points + 1, reasons + [LAST_CARD]
        event = PlayEvent(player, card, self.count, points, tuple(reasons))
        self.events.append(event)
        self._last_layer, self._last_event = player, len(self.events) - 1
        if self.count == 31 or self.complete:
            self._reset()
        else:
            self._advance(player)
        return event

    def go(self) -> PlayEvent:
        """The player to act passes. If then nobody can act, the count resets and the event of
        the last card laid gains the go point (unless the count was 31)."""
        player = self._acting("say go")
        self._check_renege(player)
        self._passed[player] = True
        event = PlayEvent(player, None, self.count)
        self.events.append(event)
        self._advance(player)
        return event

    def _acting(self, what: str) -> int:
        if self.complete:
            raise PlayError(f"cannot {what}: the play is over (all {CARDS_EACH * self.players} cards laid)")
        return self.to_act

    def _card_points(self) -> tuple[int, list[str]]:
        points, reasons = 0, []
        if self.count == 15:
            points, reasons = 2, [FIFTEEN]
        cards = self._current
        same = 1
        while same < len(cards) and cards[-1 - same].rank == cards[-1].rank:
            same += 1
        if same >= 2:
            name, value = _SAME_RANK[same]
            points, reasons = points + value, reasons + [name]
        for length in range(len(cards), 2, -1):
            ranks = {card.rank for card in cards[-length:]}
            if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
                points, reasons = points + length, reasons + [f"run of {length}"]
                break
        return points, reasons

    def _check_renege(self, player: int) -> None:
        room = 31 - self.count
        if self.hands is not None:
            playable = tuple(sorted(c for c in self._held[player] if c.value <= room))
            fits, total = 0, 0
            for card in sorted(playable, key=lambda c: c.value):
                if total + card.value <= room:
                    fits, total = fits + 1, total + card.value
        else:
            playable, fits = (), min(self._left[player], room // 10)
        if fits:
            self.reneges.append(Renege(player, len(self.events), self.count, playable, fits))

    def _advance(self, last: int) -> None:
        """Move the turn clockwise from ``last``; reset the count when nobody can act."""
        for step in range(1, self.players + 1):
            candidate = (last + step) % self.players
            if not self._passed[candidate] and self._left[candidate]:
                self.to_act = candidate
                return
        if self._current and self.count != 31:
            old = self.events[self._last_event]
            self.events[self._last_event] = PlayEvent(
                old.player, old.card, old.count, old.points + 1, old.reasons + (GO,))
        self._reset()

    def _reset(self) -> None:
        self.count = 0
        self._current = []
        self._passed = [False] * self.players
        if self.complete:
            return
        leader = (self._last_layer if self._last_layer is not None else self.leader - 1)
        for step in range(1, self.players + 1):
            candidate = (leader + step) % self.players
            if self._left[candidate]:
                self.to_act = candidate
                return

    def result(self) -> PlayResult:
        totals = [0] * self.players
        for event in self.events:
            totals[event.player] += event.points
        return PlayResult(self.players, tuple(self.events), tuple(totals), tuple(self.reneges),
                          self.complete)


def peg(players: int, plays: Iterable[Card | str | None], hands: Sequence[Sequence[Card]] | None = None,
        leader: int = 0, number_from: int = 0) -> PlayResult:
    """Run a whole play: ``plays`` holds cards (or card text) and ``None``/"go" for passes;
    ``leader`` as in ``Pegging``; an error names the play by its place, counted from ``number_from``."""
    pegging = Pegging(players, hands, leader)
    for index, token in enumerate(plays, number_from):
        try:
            if token is None or (isinstance(token, str) and token.strip().lower() == "go"):
                pegging.go()
            else:
                pegging.lay(token if isinstance(token, Card) else Card.parse(token))
        except ValueError as exc:
            raise type(exc)(f"play {index} ({token if token is not None else 'go'}): {exc}") from None
    return pegging.result()
