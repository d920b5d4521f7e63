"""The game as a pure state machine: ``Game(new_game)`` then ``apply(entry)`` for each entry.

Replaying a journal's entries in order rebuilds the state exactly. ``apply`` either refuses an
entry (EntryError, nothing changed) or applies all of it. Scoring follows RULES.md: claims
judged by the rules core, muggins offers with their time limits, overclaims corrected, the game
ending the instant a side reaches the target, skunks, game points and the match.
"""

from __future__ import annotations

from companion.claims import ImpossibleClaimError, check_claim
from companion.rules import PENALTIES, evaluate, his_heels, partnerships
from companion.rules.rulesets import MugginsMode

from companion.game.deal import Deal
from companion.game.errors import EntryError
from companion.game.events import (
    PEG_SAID, PEGGING_MODES, Cut, Decline, Discard, Entry, Go, Lay, Muggins, NewGame, NextGame, PegBy,
    PeggingMode, PegPoints, PenaltyEntry, PlayDone, ShowCount)
from companion.game.outcome import outcome
from companion.game.phase import Phase
from companion.game.records import GameResult, LogKind, LogLine, Offer, ShowKind, ShowRecord
from companion.game.setup import check_new_game

PLAY_EXPIRY, SHOW_EXPIRY = "when the scorer pegs again", "when the next deal starts"


class Game:
    def __init__(self, new: NewGame) -> None:
        check_new_game(new)
        self.setup = new
        self.players, self.rules, self.n = new.players, new.rules, len(new.players)
        self.sides = partnerships(self.n)
        self.side_of = {seat: i for i, side in enumerate(self.sides) for seat in side}
        self.entries: list[Entry] = [new]
        self.log: list[LogLine] = []
        self.shows: list[ShowRecord] = []
        self.results: list[GameResult] = []
        self.game_number = 0
        self.deals_played = 0
        self.first_dealers: list[int] = []  # per game of the match
        if new.pegging is not None and new.pegging not in PEGGING_MODES:
            raise EntryError(f"pegging: expected one of {', '.join(PEGGING_MODES)}, got {new.pegging!r}")
        self.pegging_by = PeggingMode(new.pegging or PeggingMode.CARDS)  # how the play is entered (PegBy switches it)
        self.pegged_by_points = False  # this deal's play has points pegged by points
        self._start_game(new.first_dealer)

    def _start_game(self, first_dealer: int) -> None:
        self.game_number += 1
        self.first_dealer = first_dealer
        self.first_dealers.append(first_dealer)
        self.dealer: int | None = None
        self.deal_number = 0
        self.deal: Deal | None = None
        self.scores = [0] * len(self.sides)
        self.pegs = [(0, 0)] * len(self.sides)
        self.offers: list[Offer] = []
        self.phase: Phase = Phase.DISCARD

    # --- the public face ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase.over

    @property
    def result(self) -> GameResult | None:
        """The current game's result once it has ended."""
        return self.results[-1] if self.over else None

    @property
    def count_first(self) -> bool:
        """Whether the players see the count before they claim (the app is the scorer), or only
        after (they count first, and muggins means something). Unset: first when muggins is off."""
        chosen = self.setup.count_first
        return self.rules.muggins is MugginsMode.OFF if chosen is None else chosen

    def wins(self) -> list[int]:
        wins = [0] * len(self.sides)
        for result in self.results:
            wins[result.winner] += 1
        return wins

    def match_points(self) -> list[int]:
        points = [0] * len(self.sides)
        for result in self.results:
            points[result.winner] += result.game_points
        return points

    def opponents(self, seat: int) -> tuple[int, ...]:
        """Opponent seats clockwise from ``seat`` (partners excluded)."""
        return tuple(s for s in ((seat + i) % self.n for i in range(1, self.n))
                     if self.side_of[s] != self.side_of[seat])

    def apply(self, entry: Entry) -> list[LogLine]:
        """Apply one entry; returns the log lines it wrote. EntryError: refused, nothing changed."""
        handler = _HANDLERS.get(type(entry))
        if handler is None:
            raise EntryError(f"a {entry.TYPE} entry cannot be applied to a game")
        if self.phase is Phase.MATCH_OVER:
            raise EntryError("the match is over" if self.rules.match_games > 1 else "the game is over")
        if self.phase is Phase.GAME_OVER and not isinstance(entry, NextGame):
            raise EntryError(f"game {self.game_number} is over: start the next game of the match")
        start = len(self.log)
        handler(self, entry, len(self.entries))
        self.entries.append(entry)
        return self.log[start:]

    # --- entries -------------------------------------------------------------------------------
    def _discard(self, entry: Discard, index: int) -> None:
        self._need(Phase.DISCARD, "the discards")
        dealer = self.first_dealer if self.dealer is None else (self.dealer + 1) % self.n
        deal = Deal(self.deal_number + 1, self.n, dealer, entry.cards, entry.blind, self.players)  # validates
        self.offers = []  # the cards are mixed in: every muggins offer ends
        self.dealer, self.deal, self.deal_number = dealer, deal, self.deal_number + 1
        self.deals_played += 1
        self.pegged_by_points = False
        self.phase = Phase.CUT

    def _cut(self, entry: Cut, index: int) -> None:
        self._need(Phase.CUT, "the cut")
        self.deal.cut(entry.starter)
        self.phase = Phase.PLAY
        heels = his_heels(entry.starter)
        self._claim(index, LogKind.HEELS, self.dealer, heels.points if heels else 0, entry.heels, "his heels")

    def _lay(self, entry: Lay, index: int) -> None:
        self._need(Phase.PLAY, "a card laid")
        self._by_cards("a card laid")
        award = self.deal.lay(entry.card)
        if self.deal.play_over:
            self.phase = Phase.SHOW
        self._claim(index, LogKind.PLAY, award.seat, award.points, entry.claim,
                    ", ".join(award.reasons) or f"{entry.card}")

    def _go(self, entry: Go, index: int) -> None:
        self._need(Phase.PLAY, "a go")
        self._by_cards("a go")
        if entry.claim and self.deal.preview_go().points == 0:
            raise EntryError("claim: this go does not end the count, so nobody scores on it")
        award = self.deal.go()
        if award.seat is not None:
            self._claim(index, LogKind.PLAY, award.seat, award.points, entry.claim, "the go")

    def _peg_points(self, entry: PegPoints, index: int) -> None:
        """Pegging by points: the points a player pegs in the play, as the players counted them."""
        self._need(Phase.PLAY, "points pegged in the play")
        if self.pegging_by is not PeggingMode.POINTS:
            raise EntryError("points pegged: this game enters the play card by card (switch to pegging by points)")
        self._seat(entry.seat, "seat")
        if entry.points < 1:
            raise EntryError(f"points: a peg of {entry.points} moves no peg (at least 1)")
        try:
            check_claim("play", entry.points, "points")
        except ImpossibleClaimError as exc:
            raise EntryError(str(exc)) from None
        if entry.said is not None and entry.said not in PEG_SAID:
            raise EntryError(f"said: expected one of {', '.join(PEG_SAID)}, got {entry.said!r}")
        if entry.said is not None and PEG_SAID[entry.said] != entry.points:
            raise EntryError(f"points: {entry.said} pegs {PEG_SAID[entry.said]}, not {entry.points}")
        self.pegged_by_points = True
        who = self.players[entry.seat]
        what = {"go": "the go", "31": "31"}.get(entry.said, "in the play")
        text = f"{who}: {what} for {entry.points}" if entry.said else f"{who} pegs {entry.points} in the play"
        self._peg(index, self.side_of[entry.seat], entry.seat, entry.points, LogKind.PLAY, text)

    def _play_done(self, entry: PlayDone, index: int) -> None:
        self._need(Phase.PLAY, "the end of the play")
        if self.pegging_by is not PeggingMode.POINTS:
            raise EntryError("play done: the play entered card by card ends with its last card")
        self.phase = Phase.SHOW

    def _peg_by(self, entry: PegBy, index: int) -> None:
        if entry.mode not in PEGGING_MODES:
            raise EntryError(f"mode: expected one of {', '.join(PEGGING_MODES)}, got {entry.mode!r}")
        if entry.mode == self.pegging_by:
            raise EntryError(f"mode: the play is already entered by {entry.mode}")
        if entry.mode == PeggingMode.CARDS and self.phase is Phase.PLAY and self.pegged_by_points:
            raise EntryError("mode: this deal's play is pegged by points: card by card can start with the next deal")
        self.pegging_by = PeggingMode(entry.mode)

    def _show(self, entry: ShowCount, index: int) -> None:
        self._need(Phase.SHOW, "a show")
        kind, seat, cards = self.deal.show_cards(entry.cards)
        stray = [str(c) for c in entry.unconfirmed if c not in cards]
        if stray:
            raise EntryError(f"unconfirmed: {' '.join(stray)} is not a card of this count ({' '.join(map(str, cards))})")
        counted = self.deal.count(cards, kind is ShowKind.CRIB)
        self.deal.show_index += 1
        claimed = counted.total if entry.claim is None else entry.claim
        self.shows.append(ShowRecord(self.game_number, self.deal_number, seat, kind, tuple(map(str, cards)),
                                     str(self.deal.starter), counted.total, claimed, counted.spoken, entry.photo,
                                     index, tuple(map(str, entry.unconfirmed))))
        if self.deal.next_show is None:
            self.phase = Phase.DISCARD
        self._claim(index, LogKind(kind), seat, counted.total, entry.claim, counted.spoken)

    def _muggins(self, entry: Muggins, index: int) -> None:
        self._seat(entry.by, "by")
        offer = self._open_offer(entry.offer)
        if entry.by not in offer.callers:
            raise EntryError(f"{self.players[entry.by]} may not call muggins on {self.players[offer.seat]}: "
                             f"only an opponent may ({', '.join(self.players[s] for s in offer.callers)})")
        self.offers.remove(offer)
        self._peg(index, self.side_of[entry.by], entry.by, offer.points, LogKind.MUGGINS,
                  f"muggins: {self.players[entry.by]} takes {offer.points} missed by {self.players[offer.seat]} "
                  f"({offer.kind})", ref=offer.entry)

    def _decline(self, entry: Decline, index: int) -> None:
        offer = self._open_offer(entry.offer)
        self.offers.remove(offer)
        self._note(index, offer.side, offer.seat, LogKind.LOST,
                   f"muggins declined: {offer.points} missed by {self.players[offer.seat]} are lost", offer.entry)

    def _penalty(self, entry: PenaltyEntry, index: int) -> None:
        penalty = PENALTIES.get(entry.key)
        if penalty is None:
            raise EntryError(f"key: unknown penalty {entry.key!r} (known: {', '.join(PENALTIES)})")
        self._seat(entry.offender, "offender")
        opponent = entry.opponent
        if opponent is None:
            if len(self.sides) != 2:
                raise EntryError("opponent: with 3 players name the opponent who pegs the penalty")
            opponent = self.opponents(entry.offender)[0]
        self._seat(opponent, "opponent")
        if self.side_of[opponent] == self.side_of[entry.offender]:
            raise EntryError("opponent: the penalty goes to an opponent, not the offender's side")
        off_side, opp_side = self.side_of[entry.offender], self.side_of[opponent]
        after_off, after_opp = penalty.apply(self.scores[off_side], self.scores[opp_side],
                                             cards=entry.cards, overclaim=entry.overclaim)
        who = self.players[entry.offender]
        if after_off < self.scores[off_side]:
            self._back(index, off_side, entry.offender, self.scores[off_side] - after_off,
                       f"penalty ({penalty.breach}): {who} goes back {self.scores[off_side] - after_off}")
        if after_opp > self.scores[opp_side]:
            self._peg(index, opp_side, opponent, after_opp - self.scores[opp_side], LogKind.PENALTY,
                      f"penalty ({penalty.breach}) by {who}: {self.players[opponent]} pegs "
                      f"{after_opp - self.scores[opp_side]}")

    def _next_game(self, entry: NextGame, index: int) -> None:
        if self.phase is not Phase.GAME_OVER:
            raise EntryError("the current game is not over")
        winner = self.results[-1].winner
        dealer = self.dealer if self.dealer is not None else self.first_dealer
        first = next(s for s in ((dealer + i) % self.n for i in range(1, self.n + 1))
                     if self.side_of[s] != winner)
        self._start_game(first)

    # --- scoring --------------------------------------------------------------------------------
    def _claim(self, index: int, kind: LogKind, seat: int, entitled: int, claimed: int | None, what: str) -> None:
        """Judge a claim (None: the proposal accepted) and move the pegs (RULES.md "Muggins")."""
        side, who = self.side_of[seat], self.players[seat]
        if claimed is None or claimed == entitled:
            if entitled:
                self._peg(index, side, seat, entitled, kind, f"{who}: {what} for {entitled}", entitled, entitled)
            return
        judged = evaluate(claimed, entitled, self.rules, kind)  # the rules core's one rule, as crib score
        if judged.overclaim:
            text = f"{who} claimed {claimed} of {entitled}: {judged.overclaim} too many, corrected (no penalty)"
            self._peg(index, side, seat, judged.pegged, kind, text, claimed, entitled, always=True)
            return
        missed, mode = judged.missed, judged.mode
        if judged.pegged == entitled:  # muggins off: the product is the scorer
            text = f"{who} claimed {claimed} of {entitled}: corrected to {entitled} (muggins is off)"
            self._peg(index, side, seat, judged.pegged, kind, text, claimed, entitled, always=True)
            return
        if judged.lost:
            self._peg(index, side, seat, judged.pegged, kind, f"{who} claimed {claimed} of {entitled} for his heels",
                      claimed, entitled, always=True)
            self._note(index, side, seat, LogKind.LOST, f"{missed} for his heels lost: his heels is never mugginsable")
            return
        self._peg(index, side, seat, judged.pegged, kind, f"{who} claimed {claimed} of {entitled}: {missed} missed",
                  claimed, entitled, always=True)
        if self.over:
            return
        callers = self.opponents(seat)
        if mode is MugginsMode.MANDATORY:
            taker = callers[0]
            self._peg(index, self.side_of[taker], taker, missed, LogKind.MUGGINS,
                      f"muggins (mandatory): {self.players[taker]} takes {missed} missed by {who} ({kind})",
                      ref=index)
            return
        self.offers.append(Offer(index, seat, side, missed, kind, callers,
                                 PLAY_EXPIRY if kind is LogKind.PLAY else SHOW_EXPIRY))

    def _peg(self, index: int, side: int, seat: int | None, points: int, kind: LogKind, text: str,
             claimed: int | None = None, entitled: int | None = None, always: bool = False,
             ref: int | None = None) -> None:
        if points <= 0 and not always:
            return
        old = self.scores[side]
        new = min(old + points, self.rules.target)
        if new != old:
            self.scores[side], self.pegs[side] = new, (new, old)
            # "in the play: before the scorer pegs again"
            self.offers = [o for o in self.offers
                           if not (o.side == side and o.kind is LogKind.PLAY and o.entry < index)]
        self.log.append(LogLine(index, self.game_number, self.deal_number, side, seat, new - old, kind, text,
                                claimed, entitled, ref))
        if new >= self.rules.target and not self.over:
            self._end_game(side)

    def _back(self, index: int, side: int, seat: int, points: int, text: str) -> None:
        old_front, old_back = self.pegs[side]
        new = max(self.scores[side] - points, 0)
        self.scores[side] = new
        self.pegs[side] = (new, min(old_back, new - 1)) if new else (0, 0)
        self.log.append(LogLine(index, self.game_number, self.deal_number, side, seat, new - old_front,
                                LogKind.PENALTY, text))

    def _note(self, index: int, side: int, seat: int | None, kind: LogKind, text: str, ref: int | None = None) -> None:
        self.log.append(LogLine(index, self.game_number, self.deal_number, side, seat, 0, kind, text, ref=ref))

    def _end_game(self, pegged_out: int) -> None:
        self.offers = []
        self.results.append(outcome(self.scores, pegged_out, self.rules, self.game_number, self.deal_number))
        needed = self.rules.match_games // 2 + 1
        self.phase = Phase.MATCH_OVER if max(self.wins()) >= needed else Phase.GAME_OVER

    # --- checks -----------------------------------------------------------------------------------
    def _need(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise EntryError(f"{what} cannot come now: the game is at the {self.phase}")

    def _by_cards(self, what: str) -> None:
        if self.pegging_by is PeggingMode.POINTS:
            raise EntryError(f"{what}: this game pegs the play by points (switch to card by card to lay cards)")

    def _seat(self, seat: int, field: str) -> None:
        if not 0 <= seat < self.n:
            raise EntryError(f"{field}: seat {seat} is not one of the {self.n} seats (0..{self.n - 1})")

    def _open_offer(self, entry: int) -> Offer:
        for offer in self.offers:
            if offer.entry == entry:
                return offer
        open_ = ", ".join(str(o.entry) for o in self.offers) or "none"
        raise EntryError(f"offer: no open muggins offer from entry {entry} (open offers: {open_}); "
                         "in the play an offer ends when the scorer pegs again, a hand's or crib's "
                         "when the next deal starts")


_HANDLERS = {Discard: Game._discard, Cut: Game._cut, Lay: Game._lay, Go: Game._go, ShowCount: Game._show,
             Muggins: Game._muggins, Decline: Game._decline, PenaltyEntry: Game._penalty,
             NextGame: Game._next_game, PegPoints: Game._peg_points, PlayDone: Game._play_done,
             PegBy: Game._peg_by}


def replay(entries: list[Entry]) -> Game:
    """The game after ``entries`` (the first is the NewGame); EntryError names the bad entry."""
    if not entries or not isinstance(entries[0], NewGame):
        raise EntryError("entry 0: a game starts with a new-game entry")
    game = Game(entries[0])
    for index, entry in enumerate(entries[1:], start=1):
        try:
            game.apply(entry)
        except EntryError as exc:
            raise EntryError(f"entry {index} ({entry.TYPE}): {exc}") from None
    return game

