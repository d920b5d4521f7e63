"""``GameView``: everything a screen (or the terminal) shows, as plain data built from a Game."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from companion.rules import Card, GameEnd

from companion.game.engine import Game
from companion.game.phase import Phase


@dataclass(frozen=True)
class BoardView:
    """What the LED board should show: tracks are sides; pegs already fitted to 0..121 holes."""

    pegs: tuple[tuple[int, int], ...]
    dealer: int | None          # track of the dealer's side
    skunk_line: int | None
    double_skunk_line: int | None
    winner: int | None          # track to animate once the game is won
    target: int
    games_won: tuple[int, ...]
    win_kind: GameEnd | None = None  # how the game was won


@dataclass(frozen=True)
class GameView:
    players: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]      # seats per side (track); partners share one
    side_names: tuple[str, ...]
    rules: dict
    game_number: int
    deal_number: int
    phase: Phase
    dealer: int | None                      # seat
    to_act: int | None                      # seat whose turn it is (play) or whose count is next (show)
    next_show: dict | None                  # {"seat", "kind", "cards" (known or None), "proposal"}
    count_first: bool                       # the proposal is shown before the claim (else only after it)
    shown: tuple[dict, ...]                 # this deal's counts so far: seat, kind, cards, starter, total,
                                            # claimed, spoken, items, entry (revealed after each claim)
    count: int | None                       # the running count in the play
    play: tuple[dict, ...]                  # this deal's play: seat, card ("go"), count, points, reasons
    starter: str | None
    scores: tuple[int, ...]                 # per side
    pegs: tuple[tuple[int, int], ...]       # per side: (front, back)
    offers: tuple[dict, ...]                # open muggins offers
    log: tuple[dict, ...]                   # every peg movement of this game with its reason
    reneges: tuple[dict, ...]               # reneges seen in this deal's play (a penalty may be recorded)
    result: dict | None                     # the game's result once over
    results: tuple[dict, ...]               # every finished game of the match
    wins: tuple[int, ...]
    match_points: tuple[int, ...]
    match_over: bool
    can_undo: int
    can_redo: int
    board: BoardView
    pegging: str = "cards"                  # how the play is entered: "cards" (each card) or "points"
    next_dealer: int | None = None          # at the discard: the seat that deals the deal about to start

    @property
    def current_deal(self) -> int:
        """The deal being played; at the discard, the deal about to start (never "deal 0").
        ``deal_number`` counts the deals started: at the discard it is the one just finished."""
        return self.deal_number + 1 if self.phase is Phase.DISCARD else self.deal_number

    def as_json(self) -> dict:
        return asdict(self)

    def said(self, claim: int | None) -> int | None:
        """The claim to record when a player typed ``claim`` (None: nothing). With the count shown
        first, saying nothing accepts it (None); with the count shown only after the claim, a
        player who says nothing pegs nothing (0), and what he missed may be taken as muggins."""
        if claim is not None or self.count_first:
            return claim
        return 0


def build_view(game: Game, can_undo: int, can_redo: int) -> GameView:
    deal = game.deal
    live = deal is not None and not game.over
    to_act, next_show = None, None
    by_points = game.pegging_by == "points"
    if live and game.phase is Phase.PLAY and not by_points:  # pegged by points: nobody's turn is kept
        to_act = deal.to_act
    elif live and game.phase is Phase.SHOW and deal.next_show is not None:
        kind, seat = deal.next_show
        cards = deal.known_cards(kind, seat)
        proposal = None
        if cards is not None:
            counted = deal.count(cards, kind == "crib")
            proposal = {"total": counted.total, "spoken": counted.spoken,
                        "items": counted.as_json(with_cards=False)["items"]}
        to_act = seat
        next_show = {"seat": seat, "kind": kind, "cards": None if cards is None else [str(c) for c in cards],
                     "proposal": proposal}
    shown = ()
    if deal is not None:
        shown = tuple(_shown(deal, record) for record in game.shows
                      if (record.game, record.deal) == (game.game_number, game.deal_number))
    play = ()
    if deal is not None:
        play = tuple({"seat": deal.seat(e.player), "card": str(e.card) if e.card else "go", "count": e.count,
                      "points": e.points, "reasons": list(e.reasons)} for e in deal.pegging.events)
    result = game.result
    return GameView(
        players=game.players, sides=game.sides,
        side_names=tuple(" & ".join(game.players[s] for s in side) for side in game.sides),
        rules=game.setup.as_json()["rules"], game_number=game.game_number, deal_number=game.deal_number,
        phase=game.phase, dealer=game.dealer, to_act=to_act, next_show=next_show,
        count_first=game.count_first, shown=shown,
        count=deal.pegging.count if live and game.phase is Phase.PLAY and not by_points else None, play=play,
        starter=str(deal.starter) if deal is not None and deal.starter else None,
        scores=tuple(game.scores), pegs=tuple(game.pegs),
        offers=tuple(o.as_json() for o in game.offers),
        log=tuple(line.as_json() for line in game.log if line.game == game.game_number),
        reneges=tuple({"seat": seat, "cards": cards, "penalty": 2 * cards}
                      for seat, cards in (deal.reneges if deal is not None else ())),
        result=result.as_json() if result else None,
        results=tuple(r.as_json() for r in game.results), wins=tuple(game.wins()),
        match_points=tuple(game.match_points()), match_over=game.phase is Phase.MATCH_OVER,
        can_undo=can_undo, can_redo=can_redo, board=board_view(game), pegging=game.pegging_by,
        next_dealer=_next_dealer(game))


def _next_dealer(game: Game) -> int | None:
    """Who deals the deal about to start (the first dealer, then the deal passes to the left)."""
    if game.phase is not Phase.DISCARD:
        return None
    return game.first_dealer if game.dealer is None else (game.dealer + 1) % game.n


def _shown(deal, record) -> dict:
    """One count of the show as the players hear it once claimed: the cards, what was claimed,
    the total and its breakdown (counted again: the record keeps only the total)."""
    counted = deal.count(tuple(Card.parse(c) for c in record.cards), record.kind == "crib")
    return {"entry": record.entry, "seat": record.seat, "kind": record.kind, "cards": list(record.cards),
            "starter": record.starter, "total": record.entitled, "claimed": record.claimed,
            "spoken": record.spoken, "items": counted.as_json(with_cards=False)["items"]}


def board_view(game: Game) -> BoardView:
    target = game.rules.target
    pegs = tuple((_hole(front, target), _hole(back, target)) for front, back in game.pegs)
    # a hole on the board cannot hold both pegs (only the start can): keep the back one behind
    pegs = tuple((f, b if b < f or f == 0 else max(f - 1, 0)) for f, b in pegs)
    result = game.result
    skunk = _line(game.rules.skunk_line, target)
    double = _line(game.rules.double_skunk_line, target)
    return BoardView(pegs, None if game.dealer is None else game.side_of[game.dealer], skunk,
                     double if double is not None and skunk is not None and double < skunk else None,
                     result.winner if result else None, target, tuple(game.wins()),
                     result.kind if result else None)


def _hole(score: int, target: int) -> int:
    """A score as a board hole: reaching the target is the game hole (121); otherwise the
    score itself (a short game to 61 goes once round), at most hole 120."""
    return 121 if score >= target else min(score, 120)


def _line(line: int | None, target: int) -> int | None:
    return line if line is not None and 1 <= line <= min(target - 1, 119) else None
