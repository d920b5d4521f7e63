"""``GameSession``: the one object the app and the terminal drive.

Each player action is a method that records one journal entry: the entry is checked by
replaying it on the game (refused: EntryError, nothing stored), then committed to the journal
(when the session has a store), then listeners get the new view. Undo and redo are entries too,
so the journal only ever grows. A session that writes a stored game holds its lock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Callable, Sequence

from companion.claims import ImpossibleClaimError, check_claim
from companion.rules import Card, RuleSet
from companion.rules.rulesets import MugginsMode

from companion.game.engine import Game, replay
from companion.game.errors import EntryError, GameError, RedoPendingError
from companion.game.events import (
    HISTORY_TYPES, PEG_SAID, PEGGING_MODES, Cut, Decline, Discard, Entry, ForgetUndone, Go, Lay, Muggins,
    NewGame, NextGame, PegBy, PeggingMode, PegPoints, PenaltyEntry, PlayDone, Redo, ShowCount, Undo)
from companion.game.history import History, walk
from companion.game.journal import Store
from companion.game.phase import Phase
from companion.game.records import LogLine
from companion.game.setup import card, cards, dealer_by_cut, make_rules, player_names, seat_of
from companion.game.view import GameView, build_view

log = logging.getLogger(__name__)
Listener = Callable[[GameView], None]


class GameSession:
    def __init__(self, journal: Sequence[Entry], store: Store | None = None, game_id: int | None = None,
                 read_only: bool = False) -> None:
        """A session over an existing journal (every entry ever written, undo/redo included)."""
        self.read_only = read_only
        self.journal = list(journal)
        self.history: History = walk(self.journal)
        self.game: Game = replay(self.history.in_force)
        self.store, self.game_id = store, game_id
        self._listeners: list[Listener] = []
        # a new move while undone ones wait: refused (RedoPendingError: redo, or forget_undone()
        # first), or, when True, it drops them as an editor does (the terminal game plays so)
        self.new_move_forgets_undone = False

    # --- opening ------------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: Sequence[str], rules: RuleSet | str | dict | None = None, *,
            first_dealer: int | str | None = None, dealer_cut: Sequence[Card | str] | None = None,
            short: bool = False, count_first: bool | None = None, pegging: PeggingMode | str | None = None,
            store: Store | None = None) -> "GameSession":
        """A new game: players in seating order (clockwise); the first dealer chosen or by cut.
        ``count_first``: show each count before the player claims it (default: only when muggins
        is off; with muggins on the player claims first, then the count is shown). ``pegging``:
        "cards" (the default: each card laid) or "points" (the points each player pegs)."""
        players = player_names(players)
        if not isinstance(short, bool):
            raise EntryError(f"short: expected true or false, got {short!r}")
        cut = cards(dealer_cut, "dealer_cut") if dealer_cut is not None else None
        if cut is not None and len(cut) == len(players):
            dealer = dealer_by_cut(cut)
            if first_dealer is not None and seat_of(players, first_dealer, "first_dealer") != dealer:
                raise EntryError(f"first_dealer: the lowest card cut ({cut[dealer]}) deals: {players[dealer]}")
        else:
            dealer = seat_of(players, first_dealer if first_dealer is not None else 0, "first_dealer")
        if count_first is not None and not isinstance(count_first, bool):
            raise EntryError(f"count_first: expected true or false, got {count_first!r}")
        if pegging is not None and pegging not in PEGGING_MODES:
            raise EntryError(f"pegging: expected one of {', '.join(PEGGING_MODES)}, got {pegging!r}")
        ruleset = make_rules(rules, short)
        if count_first is None:
            count_first = ruleset.muggins is MugginsMode.OFF
        first = NewGame(players, ruleset, dealer, cut, count_first, None if pegging is None else PeggingMode(pegging))
        game = Game(first)  # checks players, seats, rules
        game_id = None
        if store is not None:
            game_id = store.create(first, summary=cls._summary(game))
            store.lock(game_id)
        return cls([first], store, game_id)

    @classmethod
    def open(cls, store: Store, game_id: int) -> "GameSession":
        """Resume a stored game (takes its lock: JournalBusyError when open elsewhere)."""
        store.lock(game_id)
        try:
            return cls(store.entries(game_id), store, game_id)
        except BaseException:
            store.unlock(game_id)
            raise

    @classmethod
    def read(cls, store: Store, game_id: int) -> "GameSession":
        """A stored game to look at or export, without its lock (it refuses entries)."""
        return cls(store.entries(game_id), store, game_id, read_only=True)

    def close(self) -> None:
        if self.store is not None and self.game_id is not None and not self.read_only:
            self.store.unlock(self.game_id)
        self._listeners.clear()

    def __enter__(self) -> "GameSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- player actions -----------------------------------------------------------------------------
    def discard(self, discards: Sequence[Sequence[Card | str]] | None = None,
                blind: Card | str | None = None) -> list[LogLine]:
        """A deal starts: each seat's discards (seating order) and the blind card for 3 players."""
        parsed = None if discards is None else tuple(cards(d, f"cards[{i}]") for i, d in enumerate(discards))
        return self.record(Discard(parsed, None if blind is None else card(blind, "blind")))

    def next_deal(self) -> list[LogLine]:
        """The next deal starts by itself, its discards not typed (the app's "Next deal" after the
        show): a step the player does not take, so ``undo`` takes it back with the move before it."""
        return self.record(Discard(None, None, auto=True))

    def cut(self, starter: Card | str, heels: int | None = None) -> list[LogLine]:
        _possible("heels", heels, "heels")
        return self.record(Cut(card(starter, "starter"), heels))

    def lay(self, played: Card | str, claim: int | None = None) -> list[LogLine]:
        _possible("play", claim)
        return self.record(Lay(card(played), claim))

    def go(self, claim: int | None = None) -> list[LogLine]:
        _possible("play", claim)
        return self.record(Go(claim))

    def peg(self, who: int | str, points: int | str) -> list[LogLine]:
        """Pegging by points: ``who`` pegs ``points`` just scored in the play (a number, or "go"
        for the go's 1, "31" for the 31's 2)."""
        said = points if isinstance(points, str) and points in PEG_SAID else None
        if said is not None:
            points = PEG_SAID[said]
        if not isinstance(points, int) or isinstance(points, bool):
            raise EntryError(f"points: a whole number of points, 'go' or '31', got {points!r}")
        _possible("play", points, "points")
        return self.record(PegPoints(seat_of(self.game.players, who, "who"), points, said))

    def play_done(self) -> list[LogLine]:
        """Pegging by points: the play is over; the show comes next."""
        return self.record(PlayDone())

    def peg_by(self, mode: PeggingMode | str) -> list[LogLine]:
        """Switch how the play is entered: "cards" (each card laid) or "points" (the points pegged)."""
        if mode not in PEGGING_MODES:
            raise EntryError(f"mode: expected one of {', '.join(PEGGING_MODES)}, got {mode!r}")
        return self.record(PegBy(PeggingMode(mode)))

    def show(self, hand: Sequence[Card | str] | None = None, claim: int | None = None,
             photo: str | None = None, unconfirmed: Sequence[Card | str] = ()) -> list[LogLine]:
        """The next count of the show (pone first ... dealer, then the crib). ``unconfirmed``: of
        a photo's cards, those kept as read without the player's check (marked so in the game)."""
        upcoming = self.game.deal.next_show if self.game.phase is Phase.SHOW and self.game.deal else None
        _possible(upcoming[0] if upcoming else "hand", claim)  # 29 at most, never 19, 25, 26, 27
        return self.record(ShowCount(None if hand is None else cards(hand), claim, photo, cards(unconfirmed, "unconfirmed")))

    def muggins(self, by: int | str, offer: int | None = None) -> list[LogLine]:
        """``by`` takes the missed points of ``offer`` (default: the newest open offer)."""
        return self.record(Muggins(seat_of(self.game.players, by, "by"), self._offer(offer)))

    def decline(self, offer: int | None = None) -> list[LogLine]:
        return self.record(Decline(self._offer(offer)))

    def penalty(self, key: str, offender: int | str, opponent: int | str | None = None,
                cards: int = 1, overclaim: int = 0) -> list[LogLine]:
        players = self.game.players
        return self.record(PenaltyEntry(key, seat_of(players, offender, "offender"),
                                        None if opponent is None else seat_of(players, opponent, "opponent"),
                                        cards, overclaim))

    def next_game(self) -> list[LogLine]:
        return self.record(NextGame())

    def preview_lay(self, played: Card | str):
        """What laying a card would earn (seat, points, reasons), without laying it."""
        if self.game.phase is not Phase.PLAY:
            raise EntryError(f"a card laid cannot come now: the game is at the {self.game.phase}")
        return self.game.deal.preview_lay(card(played))

    def preview_go(self):
        """What a go now would earn (the go point goes to the last card's player when it ends the count)."""
        if self.game.phase is not Phase.PLAY:
            raise EntryError(f"a go cannot come now: the game is at the {self.game.phase}")
        return self.game.deal.preview_go()

    def go_doubt(self) -> str | None:
        """Why a go by the player to act now can never be right (to question before it is
        recorded), or None; ``Deal.go_doubt`` says when."""
        if self.game.phase is not Phase.PLAY or self.game.over:
            return None
        reason = self.game.deal.go_doubt()
        who = self.game.players[self.game.deal.to_act]
        return None if reason is None else f"{who} says go {reason}: a go cannot be right here"

    def correct_card(self, wrong: Card | str, right: Card | str) -> int:
        """The players say a card the game holds for this deal was really another: ``wrong`` (in
        the discards, the cut, the play or a count of the show) is ``right``. The deal is played
        again with the change first (refused with the reason, nothing changed, when it does not
        play), then the journal says it as it happened: the deal's entries are undone, forgotten
        and recorded again with ``right``. Returns how many entries were recorded again."""
        wrong, right = card(wrong, "wrong"), card(right, "right")
        if self.history.undone:
            raise RedoPendingError(f"{len(self.history.undone)} undone entries wait for redo: redo them, "
                                   "or forget them, before a correction")
        in_force = self.history.in_force
        start = max((i for i, e in enumerate(in_force) if isinstance(e, Discard)), default=None)
        if start is None or self.game.deal is None:
            raise EntryError("correct: no deal has started")
        again = [_with_card(entry, wrong, right) for entry in in_force[start:]]
        if again == in_force[start:]:
            raise EntryError(f"correct: {wrong} is not among this deal's cards")
        try:
            replay(in_force[:start] + again)
        except EntryError as exc:
            raise EntryError(f"correct: with {right} for {wrong} the deal does not play: "
                             f"{str(exc).split(': ', 1)[-1]}") from None
        listeners, self._listeners = self._listeners, []  # one change for the screens, not dozens
        try:
            for _ in again:  # each entry itself (an automatic one never takes the move before with it)
                self._history_entry(Undo())
            self.forget_undone()
            for entry in again:
                self.record(entry)
        finally:
            self._listeners = listeners
        self._changed()
        return len(again)

    # --- history --------------------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the player's latest move: a step the app took by itself after it (``auto``:
        the next deal started) goes with it, so the game returns to where the player acted."""
        with self._one_change():
            self._history_entry(Undo())
            while _automatic(self.history.undone[-1]) and len(self.history.in_force) > 1:
                self._history_entry(Undo())

    def redo(self) -> None:
        """Bring back the move undone last, and the steps the app took by itself after it."""
        with self._one_change():
            self._history_entry(Redo())
            while self.history.undone and _automatic(self.history.undone[-1]):
                self._history_entry(Redo())

    @contextlib.contextmanager
    def _one_change(self):
        """The listeners hear one change for what is done inside (one view, not one per entry)."""
        listeners, self._listeners = self._listeners, []
        try:
            yield
        finally:
            self._listeners = listeners
        self._changed()

    def forget_undone(self) -> int:
        """Drop the entries waiting for redo (they stay in the journal, out of force). Returns how many."""
        count = len(self.history.undone)
        if count:
            self._history_entry(ForgetUndone(count))
        return count

    # --- recording ------------------------------------------------------------------------------------
    def record(self, entry: Entry) -> list[LogLine]:
        """Check, apply and commit one game entry; returns the peg movements it caused."""
        if isinstance(entry, HISTORY_TYPES) or isinstance(entry, NewGame):
            raise EntryError(f"a {entry.TYPE} entry goes through undo/redo/forget_undone, not record")
        undone = len(self.history.undone)
        if undone and not self.new_move_forgets_undone:
            raise RedoPendingError(f"{undone} undone entries wait for redo: redo them, "
                                   "or forget them, before a new move")
        before = self._summary(self.game) if undone else None
        lines = self.game.apply(entry)  # refused: nothing changed, the undone entries still wait
        try:
            if undone:  # the move stands, so the undone entries go (journalled, as forget_undone)
                forget = ForgetUndone(undone)
                self._commit(forget, summary=before)
                self.history.push(forget)
            self._commit(entry)
        except BaseException:
            self.game = replay(self.history.in_force)  # the entry is not stored: take it back
            raise
        self.history.push(entry)
        self._changed()
        return lines

    def _history_entry(self, entry: Entry) -> None:
        trial = History(list(self.history.in_force), list(self.history.undone))
        trial.push(entry)
        game = replay(trial.in_force)
        self._commit(entry, game)
        self.history, self.game = trial, game
        self._changed()

    def _commit(self, entry: Entry, game: Game | None = None, summary: dict | None = None) -> None:
        if self.read_only:
            raise GameError(f"game {self.game_id} is open read-only here: resume it to play")
        if self.store is not None:
            self.store.append(self.game_id, len(self.journal), entry, summary or self._summary(game or self.game))
        self.journal.append(entry)

    @staticmethod
    def _summary(game: Game) -> dict:
        result = game.results[-1].as_json() if game.results else None
        return {"phase": game.phase, "game": game.game_number, "deal": game.deal_number,
                "scores": list(game.scores), "wins": game.wins(), "result": result}

    # --- what the screen shows ------------------------------------------------------------------------
    def view(self) -> GameView:
        return build_view(self.game, len(self.history.in_force) - 1, len(self.history.undone))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(view)`` after every change; returns the function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self) -> None:
        if not self._listeners:
            return
        view = self.view()
        for listener in list(self._listeners):
            try:
                listener(view)
            except Exception:  # a broken screen or board must never stop the game
                log.exception("game listener failed")

    def _offer(self, offer: int | None) -> int:
        if offer is not None:
            return offer
        if not self.game.offers:
            raise EntryError("offer: there is no open muggins offer")
        return self.game.offers[-1].entry

    def export(self) -> dict:
        from companion.game.transfer import export_game

        return export_game(self.journal, self.game)


def _automatic(entry: Entry) -> bool:
    """A step the app took by itself (undo and redo pass over it with the move before it)."""
    return isinstance(entry, Discard) and entry.auto


def _possible(kind: str, claim: int | None, name: str = "claim") -> None:
    """A new claim no cards could be worth is refused (EntryError, nothing stored); a stored
    journal holding one still replays (the engine corrects it as an overclaim)."""
    try:
        check_claim(kind, claim, name)
    except ImpossibleClaimError as exc:
        raise EntryError(str(exc)) from None


def _with_card(entry: Entry, wrong: Card, right: Card) -> Entry:
    """``entry`` with card ``wrong`` replaced by ``right`` (the entry itself when it has no such card)."""
    def swap(value):
        if value == wrong:
            return right
        if isinstance(value, tuple):
            return tuple(swap(v) for v in value)
        return value
    if isinstance(entry, (Discard, Cut, Lay, ShowCount)):
        changes = {f: swap(getattr(entry, f)) for f in ("cards", "blind", "starter", "card") if hasattr(entry, f)}
        return dataclasses.replace(entry, **changes)
    return entry
