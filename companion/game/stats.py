"""Statistics per player over stored games (players are known by name across games).

Averages per deal: the hand and the crib at what the cards were worth (the rules core's
count, whatever was claimed), the pegging at what the player pegged in the play. A deal counts
once its play is over (its show begun, or the game won in it): a deal just dealt, or one whose
play goes on, is in neither the deals nor the pegging yet. Muggins:
points others took from the player's missed counts (given) and points the player took from
others (taken). Games, wins and skunks count finished games (each game of a match).
"""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from typing import Iterable, TextIO

from companion.rules import GameEnd

from companion.game.engine import Game, replay
from companion.game.history import walk
from companion.game.records import LogKind, ShowKind
from companion.game.journal import Store
from companion.game.phase import Phase

CSV_FIELDS = ("player", "games", "wins", "skunks_won", "skunked", "deals", "average_hand", "average_crib",
              "average_pegging", "muggins_given", "muggins_taken", "best_hand", "best_hand_cards")


@dataclass
class PlayerStats:
    player: str
    games: int = 0
    wins: int = 0
    skunks_won: int = 0       # games won by a skunk or double skunk
    skunked: int = 0          # games lost by a skunk or double skunk
    deals: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    play_points: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0
    best_hand: int = 0
    best_hand_cards: str = ""

    @property
    def average_hand(self) -> float:
        return self.hand_points / self.hands if self.hands else 0.0

    @property
    def average_crib(self) -> float:
        return self.crib_points / self.cribs if self.cribs else 0.0

    @property
    def average_pegging(self) -> float:
        return self.play_points / self.deals if self.deals else 0.0

    def row(self) -> dict:
        return {"player": self.player, "games": self.games, "wins": self.wins, "skunks_won": self.skunks_won,
                "skunked": self.skunked, "deals": self.deals, "average_hand": round(self.average_hand, 2),
                "average_crib": round(self.average_crib, 2), "average_pegging": round(self.average_pegging, 2),
                "muggins_given": self.muggins_given, "muggins_taken": self.muggins_taken,
                "best_hand": self.best_hand, "best_hand_cards": self.best_hand_cards}

    def as_json(self) -> dict:
        return {**asdict(self), **self.row()}


def add_game(table: dict[str, PlayerStats], game: Game) -> None:
    """Add one game (or match) to the per-player table."""
    players = game.players
    rows = [table.setdefault(name.strip().lower(), PlayerStats(name)) for name in players]
    played = deals_played(game)
    for row in rows:
        row.deals += len(played)
    for record in game.shows:
        row = rows[record.seat]
        if record.kind is ShowKind.CRIB:
            row.cribs, row.crib_points = row.cribs + 1, row.crib_points + record.entitled
        else:
            row.hands, row.hand_points = row.hands + 1, row.hand_points + record.entitled
            if record.entitled > row.best_hand or not row.best_hand_cards:
                row.best_hand = record.entitled
                row.best_hand_cards = " ".join(record.cards) + f" + {record.starter}"
    claims = {(line.entry, line.kind): line for line in game.log if line.kind is not LogKind.MUGGINS}
    for line in game.log:
        if line.kind is LogKind.PLAY and line.seat is not None and (line.game, line.deal) in played:
            rows[line.seat].play_points += line.points
        elif line.kind is LogKind.MUGGINS:
            rows[line.seat].muggins_taken += line.points
            missed = next((l for (entry, kind), l in claims.items()
                           if entry == line.ref and kind is not LogKind.LOST), None)
            if missed is not None and missed.seat is not None:
                rows[missed.seat].muggins_given += line.points
    for result in game.results:
        for seat, row in enumerate(rows):
            side = game.side_of[seat]
            row.games += 1
            if side == result.winner:
                row.wins += 1
                row.skunks_won += result.kind is not GameEnd.WIN
            elif any(loser[0] == side and loser[2] is not GameEnd.WIN for loser in result.losers):
                row.skunked += 1


def deals_played(game: Game) -> set[tuple[int, int]]:
    """(game, deal) of every deal whose play is over: a show counted in it, the game won in it
    (in the play or at the show), or the current deal at its show."""
    played = {(record.game, record.deal) for record in game.shows}
    played |= {(result.number, result.deals) for result in game.results if result.deals > 0}
    if game.phase is Phase.SHOW and game.deal_number > 0:
        played.add((game.game_number, game.deal_number))
    return played


def collect(store: Store) -> list[PlayerStats]:
    """Statistics over every stored game, by player name."""
    table: dict[str, PlayerStats] = {}
    for row in store.games():
        add_game(table, replay(walk(store.entries(row.id)).in_force))
    return sorted(table.values(), key=lambda s: s.player.lower())


def write_csv(table: Iterable[PlayerStats], out: TextIO) -> None:
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
    writer.writeheader()
    for stats in table:
        writer.writerow(stats.row())


def _average(value: float, counted: int) -> str:
    """An average for the table; "—" when there was nothing to average (a player who never had a crib)."""
    return f"{value:>5.2f}" if counted else f"{'—':>5}"


def format_table(table: list[PlayerStats]) -> str:
    if not table:
        return "no games yet"
    head = f"{'player':<12} {'games':>5} {'wins':>4} {'skunks':>6} {'skunked':>7} {'deals':>5} " \
           f"{'hand':>5} {'crib':>5} {'peg':>5} {'mug-':>4} {'mug+':>4}  best hand"
    lines = [head]
    for s in table:
        lines.append(f"{s.player:<12} {s.games:>5} {s.wins:>4} {s.skunks_won:>6} {s.skunked:>7} {s.deals:>5} "
                     f"{_average(s.average_hand, s.hands)} {_average(s.average_crib, s.cribs)} "
                     f"{_average(s.average_pegging, s.deals)} "
                     f"{s.muggins_given:>4} {s.muggins_taken:>4}  {s.best_hand} ({s.best_hand_cards or '-'})")
    lines.append("hand, crib: average worth per count; peg: points pegged in the play per deal; "
                 "mug-: points others took by muggins; mug+: points taken by muggins")
    return "\n".join(lines)
