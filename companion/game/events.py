"""Journal entries: small frozen value types, each with ``as_json`` / ``from_json``.

An entry records what a player did or said; the game state is the replay of its entries
(``companion.game.engine``). Seats are numbered in seating order (clockwise) from 0. Where an
entry's actor follows from the game (whose turn, whose show), the entry does not repeat it.
Claims are optional: ``None`` means the player accepts the points the rules core proposes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from companion.rules import Card, RuleSet
from companion.rules.cards import CardParseError

from companion.game.errors import EntryError
from companion.game.setup import player_names, rules_as_json, rules_from_json


# --- field readers: each names the field that is wrong -------------------------------------
def _card(data: dict, key: str, optional: bool = False) -> Card | None:
    value = data.get(key)
    if value is None and optional:
        return None
    try:
        return Card.parse(value)
    except CardParseError as exc:
        raise EntryError(f"{key}: {exc}") from None


def _cards(value: Any, key: str) -> tuple[Card, ...]:
    if not isinstance(value, (list, tuple)):
        raise EntryError(f"{key}: expected a list of cards, got {value!r}")
    try:
        return tuple(Card.parse(v) for v in value)
    except CardParseError as exc:
        raise EntryError(f"{key}: {exc}") from None


def _int(data: dict, key: str, optional: bool = False, minimum: int = 0) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise EntryError(f"{key}: expected a whole number >= {minimum}, got {value!r}")
    return value


def _str(data: dict, key: str, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise EntryError(f"{key}: expected text, got {value!r}")
    return value


class PeggingMode(StrEnum):
    """How the play is entered; the value is the journal's word."""

    CARDS = "cards"    # each card laid, checked and counted by the rules core
    POINTS = "points"  # the points each player pegs, counted in the players' heads


PEGGING_MODES = tuple(mode.value for mode in PeggingMode)
PEG_SAID = {"go": 1, "31": 2}        # the keypad's one-tap pegs and the points each is worth


def _pegging_mode(data: dict, key: str) -> PeggingMode:
    value = data.get(key)
    if value not in PEGGING_MODES:
        raise EntryError(f"{key}: expected one of {', '.join(PEGGING_MODES)}, got {value!r}")
    return PeggingMode(value)


def _fmt(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


# --- the entries ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Entry:
    TYPE: ClassVar[str] = ""

    def as_json(self) -> dict:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Card):
                value = str(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
                value = _fmt(value)
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class NewGame(Entry):
    """The first entry: players in seating order (clockwise), rules, first dealer (by cut or chosen)."""

    TYPE: ClassVar[str] = "new-game"
    players: tuple[str, ...]
    rules: RuleSet
    first_dealer: int
    dealer_cut: tuple[Card, ...] | None = None  # cards cut for deal, one per seat (lowest deals)
    # the count shown before the player claims it (True), or only after (False); None: an older
    # journal that did not say, shown first only when muggins is off (Game.count_first)
    count_first: bool | None = None
    # how the play is entered; None: an older journal, card by card
    pegging: PeggingMode | None = None

    def as_json(self) -> dict:
        out = {"type": self.TYPE, "players": list(self.players), "rules": rules_as_json(self.rules),
               "first_dealer": self.first_dealer, "dealer_cut": _fmt(self.dealer_cut)}
        if self.count_first is not None:  # older journals have no such field: they read as before
            out["count_first"] = self.count_first
        if self.pegging is not None:
            out["pegging"] = self.pegging
        return out

    @classmethod
    def from_json(cls, data: dict) -> "NewGame":
        players = player_names(data.get("players"))
        cut = data.get("dealer_cut")
        count_first = data.get("count_first")
        if count_first is not None and not isinstance(count_first, bool):
            raise EntryError(f"count_first: expected true or false, got {count_first!r}")
        pegging = data.get("pegging")
        if pegging is not None:
            pegging = _pegging_mode(data, "pegging")
        return cls(players, rules_from_json(data.get("rules")), _int(data, "first_dealer"),
                   None if cut is None else _cards(cut, "dealer_cut"), count_first, pegging)


@dataclass(frozen=True, slots=True)
class Discard(Entry):
    """A deal starts: each seat's discards to the crib (and the blind card with 3 players), or
    ``None`` when the players do not type them (the crib is typed at its show)."""

    TYPE: ClassVar[str] = "discard"
    cards: tuple[tuple[Card, ...], ...] | None = None
    blind: Card | None = None
    # started by the app itself, not by a tap of its own (the show's "Next deal" goes on to the
    # next deal): undo takes it back together with the player's move before it
    auto: bool = False

    def as_json(self) -> dict:
        out = {"type": self.TYPE, "cards": None if self.cards is None else [_fmt(c) for c in self.cards],
               "blind": None if self.blind is None else str(self.blind)}
        if self.auto:  # older journals have no such field: they read as before
            out["auto"] = True
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Discard":
        cards = data.get("cards")
        if cards is not None:
            if not isinstance(cards, list):
                raise EntryError(f"cards: expected one list of cards per seat, got {cards!r}")
            cards = tuple(_cards(c, f"cards[{i}]") for i, c in enumerate(cards))
        auto = data.get("auto", False)
        if not isinstance(auto, bool):
            raise EntryError(f"auto: expected true or false, got {auto!r}")
        return cls(cards, _card(data, "blind", optional=True), auto)


@dataclass(frozen=True, slots=True)
class Cut(Entry):
    """The starter; ``heels`` is the dealer's claim for his heels (None: accept the 2 of a jack)."""

    TYPE: ClassVar[str] = "cut"
    starter: Card
    heels: int | None = None

    @classmethod
    def from_json(cls, data: dict) -> "Cut":
        return cls(_card(data, "starter"), _int(data, "heels", optional=True))


@dataclass(frozen=True, slots=True)
class Lay(Entry):
    """The player to act lays a card; ``claim``: the points the scorer pegs for it."""

    TYPE: ClassVar[str] = "lay"
    card: Card
    claim: int | None = None

    @classmethod
    def from_json(cls, data: dict) -> "Lay":
        return cls(_card(data, "card"), _int(data, "claim", optional=True))


@dataclass(frozen=True, slots=True)
class Go(Entry):
    """The player to act says go; ``claim``: the go point's claim when this go ends the count."""

    TYPE: ClassVar[str] = "go"
    claim: int | None = None

    @classmethod
    def from_json(cls, data: dict) -> "Go":
        return cls(_int(data, "claim", optional=True))


@dataclass(frozen=True, slots=True)
class PegPoints(Entry):
    """Pegging by points: ``seat`` pegs ``points`` just scored in the play, as the players
    counted them (no card is entered, so nothing is checked but the bounds); ``said``: "go" or
    "31" when the player pegged the go or the 31 with its own key."""

    TYPE: ClassVar[str] = "peg"
    seat: int
    points: int
    said: str | None = None

    @classmethod
    def from_json(cls, data: dict) -> "PegPoints":
        said = data.get("said")
        if said is not None and said not in PEG_SAID:
            raise EntryError(f"said: expected one of {', '.join(PEG_SAID)}, got {said!r}")
        return cls(_int(data, "seat"), _int(data, "points"), said)


@dataclass(frozen=True, slots=True)
class PlayDone(Entry):
    """Pegging by points: the play is over (every card laid), the show comes next."""

    TYPE: ClassVar[str] = "play-done"

    @classmethod
    def from_json(cls, data: dict) -> "PlayDone":
        return cls()


@dataclass(frozen=True, slots=True)
class PegBy(Entry):
    """The players switch how the play is entered."""

    TYPE: ClassVar[str] = "peg-by"
    mode: PeggingMode

    @classmethod
    def from_json(cls, data: dict) -> "PegBy":
        return cls(_pegging_mode(data, "mode"))


@dataclass(frozen=True, slots=True)
class ShowCount(Entry):
    """The next hand (or the crib) in the show order: its cards (None: the cards already known
    from the play or the discards), the claimed total, and where the cards came from; of a
    photo's cards, those ``unconfirmed``: kept as read, the player never checked them (the
    recogniser was unsure, but the count was the same either way, or the player took the rest
    as read). An entry stored before the mark has none."""

    TYPE: ClassVar[str] = "show"
    cards: tuple[Card, ...] | None = None
    claim: int | None = None
    photo: str | None = None  # a photo's path or id when the cards were recognised
    unconfirmed: tuple[Card, ...] = ()

    def as_json(self) -> dict:
        data = {"type": self.TYPE, "cards": _fmt(self.cards), "claim": self.claim, "photo": self.photo}
        if self.unconfirmed:  # only when there are some: the journals written before it stay as they were
            data["unconfirmed"] = _fmt(self.unconfirmed)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "ShowCount":
        cards = data.get("cards")
        unconfirmed = data.get("unconfirmed")
        return cls(None if cards is None else _cards(cards, "cards"), _int(data, "claim", optional=True),
                   _str(data, "photo", optional=True),
                   () if unconfirmed is None else _cards(unconfirmed, "unconfirmed"))


@dataclass(frozen=True, slots=True)
class Muggins(Entry):
    """Seat ``by`` takes the points of open offer ``offer`` (the entry number that missed them)."""

    TYPE: ClassVar[str] = "muggins"
    by: int
    offer: int

    @classmethod
    def from_json(cls, data: dict) -> "Muggins":
        return cls(_int(data, "by"), _int(data, "offer"))


@dataclass(frozen=True, slots=True)
class Decline(Entry):
    """The opponents let open offer ``offer`` go: the missed points are lost."""

    TYPE: ClassVar[str] = "decline"
    offer: int

    @classmethod
    def from_json(cls, data: dict) -> "Decline":
        return cls(_int(data, "offer"))


@dataclass(frozen=True, slots=True)
class PenaltyEntry(Entry):
    """An ACC penalty (``companion.rules.PENALTIES`` key) against ``offender``; ``opponent`` is the
    seat that pegs (needed with 3 players); ``cards`` for a renege, ``overclaim`` for a false game claim."""

    TYPE: ClassVar[str] = "penalty"
    key: str
    offender: int
    opponent: int | None = None
    cards: int = 1
    overclaim: int = 0

    @classmethod
    def from_json(cls, data: dict) -> "PenaltyEntry":
        return cls(_str(data, "key"), _int(data, "offender"), _int(data, "opponent", optional=True),
                   _int(data, "cards", optional=True, minimum=1) or 1,
                   _int(data, "overclaim", optional=True) or 0)


@dataclass(frozen=True, slots=True)
class NextGame(Entry):
    """The next game of a match starts (the previous game's loser deals first)."""

    TYPE: ClassVar[str] = "next-game"

    @classmethod
    def from_json(cls, data: dict) -> "NextGame":
        return cls()


@dataclass(frozen=True, slots=True)
class Undo(Entry):
    """Takes back the latest entry still in force (it waits for a redo)."""

    TYPE: ClassVar[str] = "undo"

    @classmethod
    def from_json(cls, data: dict) -> "Undo":
        return cls()


@dataclass(frozen=True, slots=True)
class Redo(Entry):
    """Puts back the entry undone last."""

    TYPE: ClassVar[str] = "redo"

    @classmethod
    def from_json(cls, data: dict) -> "Redo":
        return cls()


@dataclass(frozen=True, slots=True)
class ForgetUndone(Entry):
    """The players chose to drop the entries waiting for redo (said, never silent)."""

    TYPE: ClassVar[str] = "forget-undone"
    count: int = 0

    @classmethod
    def from_json(cls, data: dict) -> "ForgetUndone":
        return cls(_int(data, "count", optional=True) or 0)


ENTRY_TYPES: dict[str, type[Entry]] = {cls.TYPE: cls for cls in (
    NewGame, Discard, Cut, Lay, Go, ShowCount, Muggins, Decline, PenaltyEntry, NextGame,
    Undo, Redo, ForgetUndone, PegPoints, PlayDone, PegBy)}
HISTORY_TYPES = (Undo, Redo, ForgetUndone)


def entry_from_json(data: Any) -> Entry:
    """Parse one entry object; EntryError names the bad field."""
    if not isinstance(data, dict):
        raise EntryError(f"an entry must be a JSON object, got {data!r}")
    kind = data.get("type")
    cls = ENTRY_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EntryError(f"type: unknown entry type {data.get('type')!r} (known: {', '.join(ENTRY_TYPES)})")
    return cls.from_json(data)
