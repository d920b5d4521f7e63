"""``GameView``: everything a screen (or the terminal) shows, as plain data built from a Game:
frozen records (``NextShow``, ``ShownCount``, ``PlayStep``, ``RenegeSeen``, the engine's ``Offer``,
``LogLine`` and ``GameResult``), and ``as_json()`` for ``crib game show --json``."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from companion.rules import Card, GameEnd, RuleSet

from companion.game.engine import Game
from companion.game.events import PeggingMode
from companion.game.phase import Phase
from companion.game.records import GameResult, LogLine, Offer, ShowKind
from companion.game.setup import rules_as_json

# A count's items are the rules core's, as ``crib score --json`` prints them: {"kind", "cards", "points"}.
Items = tuple[dict, ...]


@dataclass(frozen=True, slots=True)
class Proposal:
    """What the cards of the next count are worth (shown before the claim when the app counts first)."""

    total: int
    spoken: str
    items: Items


@dataclass(frozen=True, slots=True)
class NextShow:
    """The count that comes next in the show."""

    seat: int
    kind: ShowKind
    cards: tuple[str, ...] | None   # known to the game (the play's cards, the discards), else None
    proposal: Proposal | None       # None while the cards are not known


@dataclass(frozen=True, slots=True)
class ShownCount:
    """One count of this deal's show, as the players hear it once claimed."""

    entry: int | None               # the show entry that counted it
    seat: int
    kind: ShowKind
    cards: tuple[str, ...]
    starter: str
    total: int                      # what the cards are worth
    claimed: int
    spoken: str
    items: Items
    unconfirmed: tuple[str, ...] = ()  # of a photo's cards, those kept as read without the player's check


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One card laid (or a go) in this deal's play."""

    seat: int
    card: str                       # the card, or "go"
    count: int                      # the running count after it
    points: int
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RenegeSeen:
    """A renege seen in this deal's play: a penalty may be recorded."""

    seat: int
    cards: int                      # cards that could have been played
    penalty: int


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
    rules: RuleSet
    game_number: int
    deal_number: int
    phase: Phase
    dealer: int | None                      # seat
    to_act: int | None                      # seat whose turn it is (play) or whose count is next (show)
    next_show: NextShow | None
    count_first: bool                       # the proposal is shown before the claim (else only after it)
    shown: tuple[ShownCount, ...]           # this deal's counts so far (revealed after each claim)
    count: int | None                       # the running count in the play
    play: tuple[PlayStep, ...]              # this deal's play
    starter: str | None
    scores: tuple[int, ...]                 # per side
    pegs: tuple[tuple[int, int], ...]       # per side: (front, back)
    offers: tuple[Offer, ...]               # open muggins offers
    log: tuple[LogLine, ...]                # every peg movement of this game with its reason
    reneges: tuple[RenegeSeen, ...]         # reneges seen in this deal's play
    result: GameResult | None               # the game's result once over
    results: tuple[GameResult, ...]         # every finished game of the match
    wins: tuple[int, ...]
    match_points: tuple[int, ...]
    match_over: bool
    can_undo: int
    can_redo: int
    board: BoardView
    pegging: PeggingMode = PeggingMode.CARDS  # how the play is entered
    next_dealer: int | None = None          # at the discard: the seat that deals the deal about to start

    @property
    def current_deal(self) -> int:
        """The deal being played; at the discard, the deal about to start (never "deal 0").
        ``deal_number`` counts the deals started: at the discard it is the one just finished."""
        return self.deal_number + 1 if self.phase is Phase.DISCARD else self.deal_number

    def as_json(self) -> dict:
        """What ``crib game show --json`` prints: every field, records as objects, enums as their words."""
        out = asdict(self)
        out["rules"] = rules_as_json(self.rules)
        out["result"] = None if self.result is None else self.result.as_json()
        out["results"] = tuple(result.as_json() for result in self.results)
        for shown in out["shown"]:  # a count with every card checked says nothing of it, as before the mark
            if not shown["unconfirmed"]:
                del shown["unconfirmed"]
        return out

    def said(self, claim: int | None) -> int | None:
        """The claim to record when a player typed ``claim`` (None: nothing). With the count shown
        first, saying nothing accepts it (None); with the count shown only after the claim, a
        player who says nothing pegs nothing (0), and what he missed may be taken as muggins."""
        if claim is not None or self.count_first:
            return claim
        return 0


def game_name(game_id: int | None, game_of_match: int = 1, match_games: int = 1) -> str:
    """How a game is called everywhere (the app's table and Home, ``crib game list``, ``resume``
    and its prompt): "game 2" by its stored id, the number ``crib game resume`` takes, never by
    its place among the games of a match; in a match, that place follows ("game 2 (game 1 of the
    match)"). A game never stored (a script played in memory) is "game"."""
    name = "game" if game_id is None else f"game {game_id}"
    if match_games > 1:
        name += f" (game {game_of_match} of the match)"
    return name


def build_view(game: Game, can_undo: int, can_redo: int) -> GameView:
    deal = game.deal
    live = deal is not None and not game.over
    to_act, next_show = None, None
    by_points = game.pegging_by is PeggingMode.POINTS
    if live and game.phase is Phase.PLAY and not by_points:  # pegged by points: nobody's turn is kept
        to_act = deal.to_act
    elif live and game.phase is Phase.SHOW and deal.next_show is not None:
        kind, seat = deal.next_show
        cards = deal.known_cards(kind, seat)
        proposal = None
        if cards is not None:
            counted = deal.count(cards, kind is ShowKind.CRIB)
            proposal = Proposal(counted.total, counted.spoken, tuple(counted.as_json(with_cards=False)["items"]))
        to_act = seat
        next_show = NextShow(seat, kind, None if cards is None else tuple(str(c) for c in cards), proposal)
    shown = ()
    if deal is not None:
        shown = tuple(_shown(deal, record) for record in game.shows
                      if (record.game, record.deal) == (game.game_number, game.deal_number))
    play = ()
    if deal is not None:
        play = tuple(PlayStep(deal.seat(e.player), str(e.card) if e.card else "go", e.count, e.points,
                              tuple(e.reasons)) for e in deal.pegging.events)
    result = game.result
    return GameView(
        players=game.players, sides=game.sides,
        side_names=tuple(" & ".join(game.players[s] for s in side) for side in game.sides),
        rules=game.rules, game_number=game.game_number, deal_number=game.deal_number,
        phase=game.phase, dealer=game.dealer, to_act=to_act, next_show=next_show,
        count_first=game.count_first, shown=shown,
        count=deal.pegging.count if live and game.phase is Phase.PLAY and not by_points else None, play=play,
        starter=str(deal.starter) if deal is not None and deal.starter else None,
        scores=tuple(game.scores), pegs=tuple(game.pegs),
        offers=tuple(game.offers),
        log=tuple(line for line in game.log if line.game == game.game_number),
        reneges=tuple(RenegeSeen(seat, cards, 2 * cards) for seat, cards in (deal.reneges if deal is not None else ())),
        result=result, results=tuple(game.results), wins=tuple(game.wins()),
        match_points=tuple(game.match_points()), match_over=game.phase is Phase.MATCH_OVER,
        can_undo=can_undo, can_redo=can_redo, board=board_view(game), pegging=game.pegging_by,
        next_dealer=_next_dealer(game))


def _next_dealer(game: Game) -> int | None:
    """Who deals the deal about to start (the first dealer, then the deal passes to the left)."""
    if game.phase is not Phase.DISCARD:
        return None
    return game.first_dealer if game.dealer is None else (game.dealer + 1) % game.n


def _shown(deal, record) -> ShownCount:
    """One count of the show as the players hear it once claimed: the cards, what was claimed,
    the total and its breakdown (counted again: the record keeps only the total)."""
    counted = deal.count(tuple(Card.parse(c) for c in record.cards), record.kind is ShowKind.CRIB)
    return ShownCount(record.entry, record.seat, record.kind, tuple(record.cards), record.starter, record.entitled,
                      record.claimed, record.spoken, tuple(counted.as_json(with_cards=False)["items"]),
                      record.unconfirmed)


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
