"""One deal's cards: discards and crib, the starter, the play (through the rules core's
``Pegging``) and the show order. It checks cards and turns; the points and pegs are the
engine's job (``engine.Game``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from companion.rules import Card, Pegging, PlayError, score
from companion.rules.play import GO

from companion.game.errors import EntryError
from companion.game.records import ShowKind
from companion.words import plural

DISCARDS_EACH = {2: 2, 3: 1, 4: 1}
_DECK = tuple(Card.parse(r + s) for s in "CDHS" for r in "A23456789TJQK")


def _fitting(room: int) -> str:
    """The cards that fit in ``room`` (31 less the count, under 10), as a player names them."""
    return "an ace" if room == 1 else "an ace or a 2" if room == 2 else f"a card from ace to {room}"


@dataclass(frozen=True, slots=True)
class PlayAward:
    """What one play entry earns: ``seat`` scores ``points`` for ``reasons`` (seat None: nothing)."""

    seat: int | None
    points: int
    reasons: tuple[str, ...]


class Deal:
    """Seats are numbered in seating order; the rules core numbers players from the pone."""

    def __init__(self, number: int, players: int, dealer: int,
                 discards: tuple[tuple[Card, ...], ...] | None, blind: Card | None,
                 names: tuple[str, ...] | None = None) -> None:
        self.number, self.players, self.dealer = number, players, dealer
        # what a refusal calls each seat: the players' names (else "seat N", never the rules core's "player N")
        self.names = tuple(names) if names is not None else tuple(f"seat {s}" for s in range(players))
        self.seen: dict[Card, str] = {}
        self.discards, self.blind, self.crib = discards, blind, None
        if discards is not None:
            self._take_discards(discards, blind)
        elif blind is not None:
            raise EntryError("blind: give the discards with the blind card (or neither)")
        self.starter: Card | None = None
        self.pegging = Pegging(players)
        self.laid: dict[int, list[Card]] = {seat: [] for seat in range(players)}
        self.reneges: list[tuple[int, int]] = []  # (seat, cards that should have been played)
        pone = (dealer + 1) % players
        self.show_order = [(ShowKind.HAND, (pone + i) % players) for i in range(players)] + [(ShowKind.CRIB, dealer)]
        self.show_index = 0

    # --- seats and cards -----------------------------------------------------------------
    def seat(self, player: int) -> int:
        """The seat of the rules core's player number (0 = the pone)."""
        return (self.dealer + 1 + player) % self.players

    def _see(self, card: Card, where: str) -> None:
        if card in self.seen:
            raise EntryError(f"card {card} is already {self.seen[card]}")
        self.seen[card] = where

    def _take_discards(self, discards: tuple[tuple[Card, ...], ...], blind: Card | None) -> None:
        each = DISCARDS_EACH[self.players]
        if len(discards) != self.players:
            raise EntryError(f"cards: {len(discards)} discards given for {self.players} players")
        for seat, cards in enumerate(discards):
            if len(cards) != each:
                raise EntryError(f"cards[{seat}]: each player discards {plural(each, 'card')}, got {len(cards)}")
            for card in cards:
                self._see(card, "in the crib")
        if (self.players == 3) != (blind is not None):
            raise EntryError("blind: 3 players add one blind card to the crib" if self.players == 3
                             else f"blind: no blind card with {self.players} players")
        if blind is not None:
            self._see(blind, "in the crib")
        self.crib = tuple(c for cards in discards for c in cards) + ((blind,) if blind else ())

    def cut(self, starter: Card) -> None:
        self._see(starter, "the starter")
        self.starter = starter

    # --- the play --------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return self.seat(self.pegging.to_act)

    @property
    def play_over(self) -> bool:
        return self.pegging.complete

    def lay(self, card: Card) -> PlayAward:
        if card in self.seen:
            raise EntryError(f"card: {card} is already {self.seen[card]}")
        seat = self.to_act
        if self.pegging.count + card.value > 31:  # said here, with the player's name
            raise EntryError(f"card: {card} by {self.names[seat]} takes the count to "
                             f"{self.pegging.count + card.value} (over 31)")
        before = self._pegged()
        try:
            event = self.pegging.lay(card)
        except PlayError as exc:
            raise EntryError(f"card: {exc}") from None
        self.seen[card] = "laid in the play"
        self.laid[seat].append(card)
        del event  # the go point may have been added to it since: read the journal's copy
        return PlayAward(seat, self._pegged() - before, self.pegging.events[-1].reasons)

    def go(self) -> PlayAward:
        seat = self.to_act
        before, reneges = self._pegged(), len(self.pegging.reneges)
        try:
            self.pegging.go()
        except PlayError as exc:
            raise EntryError(str(exc)) from None
        for renege in self.pegging.reneges[reneges:]:
            self.reneges.append((seat, renege.should_have_played))
        points = self._pegged() - before
        if not points:
            return PlayAward(None, 0, ())
        last = next(e for e in reversed(self.pegging.events) if e.card is not None)
        return PlayAward(self.seat(last.player), points, (GO,))

    def go_doubt(self) -> str | None:
        """Why a go now, by the player to act, can never be right, from what the game knows; None
        when it may be right.

        A go is right only when none of the player's cards fits (count + value <= 31). The hands
        are not known, but how many cards the player still holds is (4 less those laid), and so
        are the cards seen (laid, the starter, the crib when typed). A go can never be right when
        fewer unseen cards are too big for the room left (value > 31 - count) than the player
        holds. Every card is worth 10 or less, so at a count of 21 or less any card fits."""
        seat, count = self.to_act, self.pegging.count
        held = 4 - len(self.laid[seat])
        if held <= 0:
            return None
        room = 31 - count
        holding = f"holding {plural(held, 'card')}"
        if room >= 10:
            return (f"{holding} at count {count}: any card fits (31 - {count} = {room}, "
                    "and no card is worth more than 10)")
        too_big = sum(1 for c in _DECK if c.value > room and c not in self.seen)
        if too_big < held:
            return (f"{holding} at count {count}: only {plural(too_big, 'card')} not yet seen {'is' if too_big == 1 else 'are'} worth more "
                    f"than {room} (31 - {count}), so one of them fits ({_fitting(room)})")
        return None

    def preview_lay(self, card: Card) -> PlayAward:
        """What laying ``card`` would earn, without laying it."""
        return self._trial().lay(card)

    def preview_go(self) -> PlayAward:
        """What a go now would earn (the go point when it ends the count), without saying it."""
        return self._trial().go()

    def _trial(self) -> "Deal":
        trial = copy.copy(self)
        trial.pegging = copy.deepcopy(self.pegging)
        trial.seen = dict(self.seen)
        trial.laid = {seat: list(cards) for seat, cards in self.laid.items()}
        trial.reneges = list(self.reneges)
        return trial

    def _pegged(self) -> int:
        return sum(e.points for e in self.pegging.events)

    # --- the show -------------------------------------------------------------------------
    @property
    def next_show(self) -> tuple[ShowKind, int] | None:
        return self.show_order[self.show_index] if self.show_index < len(self.show_order) else None

    def known_cards(self, kind: ShowKind, seat: int) -> tuple[Card, ...] | None:
        if kind is ShowKind.CRIB:
            return self.crib
        return tuple(self.laid[seat]) if len(self.laid[seat]) == 4 else None

    def show_cards(self, typed: tuple[Card, ...] | None) -> tuple[ShowKind, int, tuple[Card, ...]]:
        """The next show's kind, seat and cards (typed cards must agree with the known ones)."""
        kind, seat = self.next_show  # type: ignore[misc]
        known = self.known_cards(kind, seat)
        whose = "the crib" if kind is ShowKind.CRIB else f"{self.names[seat]}'s hand"
        if typed is None:
            if known is None:
                raise EntryError(f"cards: {whose} is not known yet: type its 4 cards")
            return kind, seat, known
        if len(typed) != 4 or len(set(typed)) != 4:
            raise EntryError(f"cards: {whose} is 4 distinct cards, got {len(typed)}")
        if known is not None and set(typed) != set(known):
            raise EntryError(f"cards: {whose} was {' '.join(map(str, known))}, not {' '.join(map(str, typed))}")
        if known is None:
            # a hand pegged by points after some of its cards were laid: those cards are its own
            own = set(self.laid[seat]) if kind is ShowKind.HAND else set()
            missing = [str(c) for c in self.laid[seat] if c not in typed] if kind is ShowKind.HAND else []
            if missing:
                raise EntryError(f"cards: {whose} holds {' '.join(missing)}, laid in the play")
            for card in typed:
                in_crib = kind is ShowKind.CRIB and self.seen.get(card) == "in the crib"
                if card in self.seen and card not in own and not in_crib:
                    raise EntryError(f"cards: {card} is already {self.seen[card]}")
            if kind is ShowKind.CRIB:
                self.crib = typed
            else:  # a hand shown: its cards are no other hand's, nor the crib's
                for card in typed:
                    self.seen.setdefault(card, f"in {whose}")
        return kind, seat, typed

    def count(self, cards: tuple[Card, ...], crib: bool):
        return score(cards, self.starter, crib=crib)  # type: ignore[arg-type]
