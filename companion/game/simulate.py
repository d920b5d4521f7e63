"""Random legal games as scripts: for the property tests, the kill -9 test and the bench.

``random_script(seed, ...)`` deals real shuffled cards, discards and plays legally (a player
says go only with no playable card). A ``sloppy`` table sometimes claims too few or too many
points and calls or declines muggins; ``claims`` / ``calls`` give other habits. The script is
built while a GameSession plays it, so it stops exactly where the game (or match) ends.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from companion.claims import MAX_PLAY, MOST, could_score
from companion.rules.cards import DECK

from companion.game.phase import Phase
from companion.game.records import ShowKind
from companion.game.session import GameSession

DEALT = {2: 6, 3: 5, 4: 5}

ClaimHabit = Callable[[random.Random, str, int], "int | None"]   # (rng, kind, entitled) -> claim
CallHabit = Callable[[random.Random, object], "int | str | None"]  # (rng, offer) -> seat | "decline"


def sloppy_claim(rng: random.Random, kind: str, entitled: int) -> int | None:
    roll = rng.random()
    if roll < 0.12 and entitled:  # too few, never what no cards could score (19: 18 said)
        claim = rng.randint(0, entitled - 1)
        while not could_score(kind, claim):
            claim -= 1
        return claim
    if roll < 0.18:  # too many, but never what no cards could score (refused, not corrected)
        claim = min(entitled + rng.randint(1, 3), MOST.get(kind, MAX_PLAY))
        while claim > entitled and not could_score(kind, claim):  # 19, 25, 26, 27: the next below
            claim -= 1
        return claim if claim > entitled else None
    return None


def sloppy_call(rng: random.Random, offer) -> int | str | None:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(offer.callers)
    return "decline" if roll < 0.8 else None


def random_script(seed: int, players: Sequence[str] = ("Ann", "Ben"), rules: str | dict = "acc",
                  short: bool = False, sloppy: bool = False, max_deals: int | None = None,
                  first_dealer: int = 0, claims: ClaimHabit | None = None,
                  calls: CallHabit | None = None) -> dict:
    table = _Table(random.Random(seed), claims or (sloppy_claim if sloppy else (lambda r, k, e: None)),
                   calls or sloppy_call)
    session = GameSession.new(players, rules, first_dealer=first_dealer, short=short)
    script = {"players": list(players), "rules": rules, "short": short, "first_dealer": first_dealer, "deals": []}
    while session.game.phase is not Phase.MATCH_OVER and (max_deals is None or len(script["deals"]) < max_deals):
        if session.game.phase is Phase.GAME_OVER:
            session.next_game()
        script["deals"].append(table.deal(session))
    return script


class _Table:
    def __init__(self, rng: random.Random, claims: ClaimHabit, calls: CallHabit) -> None:
        self.rng, self.claims, self.calls = rng, claims, calls

    def _call(self, session: GameSession, item: dict) -> None:
        game = session.game
        offer = next((o for o in game.offers if o.entry == len(game.entries) - 1), None)
        call = None if offer is None else self.calls(self.rng, offer)
        if call == "decline":
            session.decline(offer.entry)
            item["muggins"] = "decline"
        elif call is not None:
            session.muggins(call, offer.entry)
            item["muggins"] = game.players[call]

    def deal(self, session: GameSession) -> dict:
        game, rng = session.game, self.rng
        n = game.n
        deck = list(DECK)
        rng.shuffle(deck)
        dealt = DEALT[n]
        hands = [deck[i * dealt:(i + 1) * dealt] for i in range(n)]
        rest = deck[n * dealt:]
        discards = [hand[4:] for hand in hands]
        hands = [hand[:4] for hand in hands]
        blind = rest.pop() if n == 3 else None
        session.discard(discards, blind)
        deal: dict = {"discards": {game.players[s]: [str(c) for c in d] for s, d in enumerate(discards)}}
        if blind is not None:
            deal["blind"] = str(blind)
        starter = rest.pop()
        heels = self.claims(rng, "heels", 2) if starter.rank == 11 else None
        session.cut(starter, heels)
        deal["cut"] = str(starter)
        if heels is not None:
            deal["heels"] = heels
        deal["play"] = self._play(session, hands)
        deal["show"] = show = []
        while game.phase is Phase.SHOW:
            kind, seat = game.deal.next_show
            cards = game.deal.known_cards(kind, seat)
            claim = self.claims(rng, kind, game.deal.count(cards, kind is ShowKind.CRIB).total)
            item: dict = {"cards": [str(c) for c in cards]}
            if claim is not None:
                item["claim"] = claim
            session.show(None, claim)
            self._call(session, item)
            show.append(item)
        return deal

    def _play(self, session: GameSession, hands) -> list:
        game, rng = session.game, self.rng
        play: list = []
        held = {s: list(h) for s, h in enumerate(hands)}
        while game.phase is Phase.PLAY:
            seat = game.deal.to_act
            room = 31 - game.deal.pegging.count
            playable = [c for c in held[seat] if c.value <= room]
            if playable:
                card = rng.choice(playable)
                claim = self.claims(rng, "play", session.preview_lay(card).points)
                item: dict = {"card": str(card)}
                session.lay(card, claim)
                held[seat].remove(card)
            else:
                points = game.deal.preview_go().points
                claim = self.claims(rng, "play", points) if points else None
                item = {"go": True}
                session.go(claim)
            if claim is not None:
                item["claim"] = claim
            self._call(session, item)
            play.append(item if len(item) > 1 else item.get("card", "go"))
        return play
