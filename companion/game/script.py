"""Game scripts: a whole game (or match) as JSON, played through a GameSession.

Schema (README "Keeping a game"): ``players``; ``rules`` (preset name or object); ``short``;
``first_dealer`` (name or seat) or ``dealer_cut``; ``deals``: per deal ``discards`` (by name
or seat order, optional), ``blind`` (3 players), ``cut``, ``heels`` (claim), ``play`` (cards,
"go", or objects with ``claim`` and ``muggins``), ``show`` (in order or by name / "crib"),
``penalties`` (with ``after``: discards | cut | play | show). A bad script is refused at its
first wrong entry, named by deal number and field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game.errors import EntryError, GameError, ScriptError
from companion.game.phase import Phase
from companion.game.records import ShowKind
from companion.game.session import GameSession
from companion.game.script_check import DEAL_FIELDS, STAGES, check_script
from companion.game.setup import seat_of


@dataclass
class ScriptRun:
    session: GameSession
    skipped: list[str] = field(default_factory=list)


def load_script(path: str | Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return data


def run_script(data: Any, store=None) -> ScriptRun:
    """Play a script; ScriptError names the first wrong entry ("deal 3, play[4]: ...").

    Every field's type is checked before anything is played, and the game is played in memory:
    only a script that plays to its end is stored (in one transaction), so a refused one leaves
    nothing behind."""
    check_script(data)
    run = _play(data)
    if store is not None:
        session = run.session
        game_id = store.create(session.journal[0], GameSession._summary(session.game), session.journal[1:])
        store.lock(game_id)
        run.session = GameSession(session.journal, store, game_id)
    return run


def _play(data: dict) -> ScriptRun:
    players = data["players"]
    cut = data.get("dealer_cut")
    if isinstance(cut, dict):
        try:
            cut = [cut[name] for name in players]
        except KeyError as exc:
            raise ScriptError(f"dealer_cut: no card for {exc.args[0]}") from None
    try:
        session = GameSession.new(players, data.get("rules"), first_dealer=data.get("first_dealer"),
                                  dealer_cut=cut, short=data.get("short", False))
    except GameError as exc:
        raise ScriptError(str(exc)) from None
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise ScriptError(f"deals: expected a list of deals, got {deals!r}")
    run = ScriptRun(session)
    for number, deal in enumerate(deals, start=1):
        _DealRunner(run, number, deal).run()
    return run


class _DealRunner:
    def __init__(self, run: ScriptRun, number: int, deal: Any) -> None:
        self.run_, self.session, self.number, self.deal = run, run.session, number, deal
        self.where = f"deal {number}"

    def fail(self, field_name: str, message: str) -> ScriptError:
        return ScriptError(f"{self.where}, {field_name}: {message}")

    def run(self) -> None:
        game = self.session.game
        if not isinstance(self.deal, dict):
            raise ScriptError(f"{self.where}: expected an object with discards, cut, play and show")
        unknown = set(self.deal) - DEAL_FIELDS
        if unknown:
            raise self.fail(sorted(unknown)[0], f"unknown field (fields: {', '.join(sorted(DEAL_FIELDS))})")
        if game.phase is Phase.MATCH_OVER:
            raise ScriptError(f"{self.where}: the {'match' if game.rules.match_games > 1 else 'game'} "
                              f"is already over (it ended in deal {game.results[-1].deals} of game "
                              f"{game.results[-1].number})")
        if game.phase is Phase.GAME_OVER:
            self.session.next_game()
        self.where = f"deal {self.number}" + (f" (game {game.game_number})" if game.rules.match_games > 1 else "")
        penalties = self._penalties()
        steps = [("discards", self._discards), ("cut", self._cut), ("play", self._play), ("show", self._show)]
        for stage, step in steps:
            if self.session.game.over:
                if self.deal.get(stage):
                    self.run_.skipped.append(f"{self.where}: {stage} skipped: the game had ended")
                break
            step()
            for index, penalty in penalties.get(stage, []):
                if self.session.game.over:
                    break
                self._do(f"penalties[{index}]", self.session.penalty, **penalty)

    def _do(self, field_name: str, action, *args, **kwargs):
        try:
            return action(*args, **kwargs)
        except ScriptError:
            raise
        except (GameError, ValueError) as exc:
            raise self.fail(field_name, str(exc)) from None

    def _seat(self, who: Any, field_name: str) -> int:
        try:
            return seat_of(self.session.game.players, who, field_name)
        except EntryError as exc:
            raise ScriptError(f"{self.where}, {exc}") from None

    # --- stages --------------------------------------------------------------------------------
    def _discards(self) -> None:
        discards = self.deal.get("discards")
        players = self.session.game.players
        if isinstance(discards, dict):
            seats = {self._seat(name, "discards"): cards for name, cards in discards.items()}
            missing = [players[s] for s in range(len(players)) if s not in seats]
            if missing:
                raise self.fail("discards", f"no discards for {missing[0]}")
            discards = [seats[s] for s in range(len(players))]
        elif discards is not None and not isinstance(discards, list):
            raise self.fail("discards", f"expected discards by player name, got {discards!r}")
        self._do("discards", self.session.discard, discards, self.deal.get("blind"))

    def _cut(self) -> None:
        if "cut" not in self.deal:
            raise self.fail("cut", "missing: the starter card")
        heels = self.deal.get("heels")
        self._check_claim(heels, "heels")
        self._do("cut", self.session.cut, self.deal["cut"], heels)

    def _play(self) -> None:
        play = self.deal.get("play")
        if not isinstance(play, list):
            raise self.fail("play", f"expected the cards laid and \"go\" in order, got {play!r}")
        for index, token in enumerate(play):
            name = f"play[{index}]"
            if self.session.game.over:
                self.run_.skipped.append(f"{self.where}: {name} and the rest skipped: the game had ended")
                return
            if self.session.game.phase is not Phase.PLAY:
                raise self.fail(name, "the play is already over (every card has been laid)")
            claim, call = None, None
            if isinstance(token, dict):
                extra = set(token) - {"card", "go", "claim", "muggins"}
                if extra:
                    raise self.fail(name, f"unknown field {sorted(extra)[0]!r} (fields: card or go, claim, muggins)")
                claim, call = token.get("claim"), token.get("muggins")
                self._check_claim(claim, f"{name}.claim")
                is_go = token.get("go") is True
                if is_go == ("card" in token):
                    raise self.fail(name, "give either \"card\" or \"go\": true")
                token = "go" if is_go else token["card"]
            if isinstance(token, str) and token.strip().lower() == "go":
                self._do(name, self.session.go, claim)
            else:
                self._do(name, self.session.lay, token, claim)
            self._call(call, name)
        if self.session.game.phase is Phase.PLAY and not self.session.game.over:
            raise self.fail("play", f"ends before every card is laid ({self.session.view().players[self.session.game.deal.to_act]} is to act)")

    def _show(self) -> None:
        show = self.deal.get("show")
        game = self.session.game
        order = list(game.deal.show_order)
        if isinstance(show, dict):
            keys = {}
            for key in show:
                crib = key == ShowKind.CRIB  # a script names the crib by its word, a hand by its player
                seat = game.dealer if crib else self._seat(key, "show")
                keys[(ShowKind.CRIB if crib else ShowKind.HAND, seat)] = key
            items = [(f"show.{keys[o]}", show[keys[o]]) if o in keys else (None, o) for o in order]
        elif isinstance(show, list):
            if len(show) > len(order):
                raise self.fail("show", f"{len(show)} counts for {len(order)} (each hand in order, then the crib)")
            items = [(f"show[{i}]", item) for i, item in enumerate(show)]
            items += [(None, o) for o in order[len(show):]]
        else:
            raise self.fail("show", f"expected the counts in show order, got {show!r}")
        for name, item in items:
            if self.session.game.over:
                if name is not None:
                    self.run_.skipped.append(f"{self.where}: {name} and later counts skipped: the game had ended")
                return
            if name is None:
                kind, seat = item
                raise self.fail("show", f"no count for {'the crib' if kind is ShowKind.CRIB else game.players[seat]}")
            cards, claim, photo, call = self._show_item(name, item)
            self._do(name, self.session.show, cards, claim, photo)
            self._call(call, name)

    def _show_item(self, name: str, item: Any):
        if item is None or isinstance(item, int) and not isinstance(item, bool):
            self._check_claim(item, f"{name}")
            return None, item, None, None
        if isinstance(item, list):
            return item, None, None, None
        if not isinstance(item, dict):
            raise self.fail(name, f"expected cards, a claimed total, or an object, got {item!r}")
        extra = set(item) - {"cards", "claim", "photo", "muggins"}
        if extra:
            raise self.fail(name, f"unknown field {sorted(extra)[0]!r} (fields: cards, claim, photo, muggins)")
        self._check_claim(item.get("claim"), f"{name}.claim")
        return item.get("cards"), item.get("claim"), item.get("photo"), item.get("muggins")

    def _call(self, call: Any, name: str) -> None:
        if call is None:
            return
        game = self.session.game
        offer = next((o for o in game.offers if o.entry == len(game.entries) - 1), None)
        if offer is None:
            raise self.fail(f"{name}.muggins", "no missed points there to take or decline")
        if isinstance(call, str) and call.strip().lower() == "decline":
            self._do(f"{name}.muggins", self.session.decline, offer.entry)
        else:
            self._do(f"{name}.muggins", self.session.muggins, self._seat(call, f"{name}.muggins"), offer.entry)

    def _check_claim(self, claim: Any, name: str) -> None:
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool) or claim < 0):
            raise self.fail(name, f"a claim is a whole number of points >= 0, got {claim!r}")

    def _penalties(self) -> dict[str, list[tuple[int, dict]]]:
        penalties = self.deal.get("penalties", [])
        if not isinstance(penalties, list):
            raise self.fail("penalties", "expected a list of penalties")
        out: dict[str, list[tuple[int, dict]]] = {}
        for index, item in enumerate(penalties):
            name = f"penalties[{index}]"
            if not isinstance(item, dict) or "key" not in item or "offender" not in item:
                raise self.fail(name, "expected {\"key\": ..., \"offender\": ..., \"after\": ...}")
            extra = set(item) - {"key", "offender", "opponent", "cards", "overclaim", "after"}
            if extra:
                raise self.fail(name, f"unknown field {sorted(extra)[0]!r}")
            after = item.get("after", "show")
            if after not in STAGES:
                raise self.fail(f"{name}.after", f"expected one of {', '.join(STAGES)}, got {after!r}")
            args = {k: v for k, v in item.items() if k != "after"}
            args["offender"] = self._seat(args["offender"], f"{name}.offender")
            if args.get("opponent") is not None:
                args["opponent"] = self._seat(args["opponent"], f"{name}.opponent")
            out.setdefault(after, []).append((index, args))
        return out
