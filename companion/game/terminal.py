"""Playing a stored game from a terminal (``crib game resume ID``): one line per move.

The moves are the GameSession's actions; a wrong move prints one line saying why and the game
waits for the next (nothing is stored for it).
"""

from __future__ import annotations

import shlex
from typing import TextIO

from companion.game.errors import GameError
from companion.game.session import GameSession

HELP = """moves (cards like 5H TD QS; names or seat numbers for players):
  discard 2C 2H / 3C 9H [blind 5D]   each player's discards in seating order ("discard" alone: not typed)
  cut JH [heels N]                   the starter (heels N: what the dealer claims for his heels)
  5H [claim N] | lay 5H [claim N]    the player to act lays a card (points proposed unless claimed)
  go [claim N]                       the player to act says go
  show [CARDS] [claim N] [photo P]   the next count of the show (cards known from the play need not be typed)
  muggins NAME [OFFER] | decline [OFFER]
  penalty KEY OFFENDER [opponent NAME] [cards N] [overclaim N]
  next (next game of a match)  undo  redo  forget (drop undone entries)  state  help  quit"""


def prompt_line(session: GameSession) -> str:
    view = session.view()
    scores = ", ".join(f"{name} {score}" for name, score in zip(view.side_names, view.scores))
    players = view.players
    where = f"game {view.game_number}, deal {view.deal_number}: {scores}."
    if view.phase == "discard":
        dealer = (session.game.first_dealer if view.dealer is None else (view.dealer + 1) % len(players))
        what = f"{players[dealer]} deals: discards next"
    elif view.phase == "cut":
        what = "the cut next"
    elif view.phase == "play":
        what = f"count {view.count}: {players[view.to_act]} to play"
    elif view.phase == "show":
        show = view.next_show
        whose = "the crib" if show["kind"] == "crib" else f"{players[show['seat']]}'s hand"
        proposal = f" ({show['proposal']['total']}: {show['proposal']['spoken']})" if show["proposal"] else " (type the cards)"
        what = f"show {whose}{proposal}"
    else:
        result = view.result
        what = f"{view.side_names[result['winner']]} wins ({result['kind']}, {result['game_points']} game points)"
        what += "; the match is over" if view.match_over else "; 'next' starts the next game"
    offers = "".join(f"\n  muggins offer {o['entry']}: {o['points']} missed by {players[o['seat']]} ({o['kind']}, "
                     f"ends {o['expires']})" for o in view.offers)
    redo = f" [{view.can_redo} undone: redo or forget]" if view.can_redo else ""
    return f"{where} {what}{redo}{offers}"


def _options(words: list[str], names: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    rest, options, i = [], {}, 0
    while i < len(words):
        if words[i] in names and i + 1 < len(words):
            options[words[i]] = words[i + 1]
            i += 2
        else:
            rest.append(words[i])
            i += 1
    return rest, options


def _int(text: str | None, name: str) -> int | None:
    if text is None:
        return None
    if not text.isdigit():
        raise GameError(f"{name}: expected a whole number, got {text!r}")
    return int(text)


def _who(text: str) -> int | str:
    return int(text) if text.isdigit() else text


class Terminal:
    def __init__(self, session: GameSession, source: TextIO, out: TextIO) -> None:
        self.session, self.source, self.out = session, source, out

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> None:
        self.say(prompt_line(self.session))
        for raw in self.source:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line in ("quit", "exit"):
                break
            try:
                lines = self.move(line)
            except GameError as exc:
                self.say(f"refused: {exc}")
                continue
            except ValueError as exc:
                self.say(f"refused: {exc}")
                continue
            for log_line in lines or ():
                self.say(f"  {log_line.text}")
            self.say(prompt_line(self.session))

    def move(self, line: str):
        session = self.session
        words = shlex.split(line)
        verb, args = words[0].lower(), words[1:]
        if verb == "help":
            self.say(HELP)
            return None
        if verb == "state":
            return None
        if verb in ("undo", "redo"):
            getattr(session, verb)()
            return None
        if verb == "forget":
            self.say(f"  {session.forget_undone()} undone entries dropped")
            return None
        if verb == "next":
            return session.next_game()
        if verb == "discard":
            rest, options = _options(args, ("blind",))
            if not rest:
                return session.discard(None, options.get("blind"))
            groups = [group.split() for group in " ".join(rest).split("/")]
            return session.discard(groups, options.get("blind"))
        if verb == "cut":
            rest, options = _options(args, ("heels",))
            if len(rest) != 1:
                raise GameError("cut: give the starter card, e.g. cut JH")
            return session.cut(rest[0], _int(options.get("heels"), "heels"))
        if verb == "go":
            _, options = _options(args, ("claim",))
            return session.go(_int(options.get("claim"), "claim"))
        if verb == "show":
            rest, options = _options(args, ("claim", "photo"))
            return session.show(rest or None, _int(options.get("claim"), "claim"), options.get("photo"))
        if verb == "muggins":
            if not args:
                raise GameError("muggins: say who takes the points, e.g. muggins Ann")
            return session.muggins(_who(args[0]), _int(args[1] if len(args) > 1 else None, "offer"))
        if verb == "decline":
            return session.decline(_int(args[0] if args else None, "offer"))
        if verb == "penalty":
            rest, options = _options(args, ("opponent", "cards", "overclaim"))
            if len(rest) != 2:
                raise GameError("penalty: give the penalty and the offender, e.g. penalty renege Ben cards 1")
            return session.penalty(rest[0], _who(rest[1]),
                                   None if "opponent" not in options else _who(options["opponent"]),
                                   _int(options.get("cards"), "cards") or 1,
                                   _int(options.get("overclaim"), "overclaim") or 0)
        if verb == "lay":
            words, verb, args = args, (args[0] if args else ""), args[1:]
        rest, options = _options(args, ("claim",))
        if rest:
            raise GameError(f"unknown move {line!r} (help lists the moves)")
        try:
            return session.lay(verb, _int(options.get("claim"), "claim"))
        except GameError as exc:
            if "not a card" in str(exc):
                raise GameError(f"unknown move {line!r} (help lists the moves)") from None
            raise
