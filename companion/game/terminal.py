"""Playing a stored game from a terminal (``crib game resume ID``): one line per move.

The moves are the GameSession's actions; a wrong move prints one line saying why and the game
waits for the next (nothing is stored for it). As in an editor, a new move after ``undo`` drops
the moves undone (one line says so); ``quit`` says the game is saved and how to resume it.
"""

from __future__ import annotations

import shlex
from typing import TextIO

from companion.rules import Card
from companion.rules.cards import DECK

from companion.game.errors import GameError
from companion.game.events import Cut, Decline, Discard, Go, Lay, Muggins, NextGame, PenaltyEntry, ShowCount
from companion.game.phase import Phase
from companion.game.records import LogKind, Offer, ShowKind
from companion.game.report import result_words
from companion.game.session import GameSession
from companion.game.view import game_name

HELP = """moves (cards like 5H TD QS; names or seat numbers for players):
  discard 2C 2H / 3C 9H [blind 5D]   each player's discards in seating order ("discard" alone: not typed)
  cut JH [heels N]                   the starter (heels N: what the dealer claims for his heels)
  5H [claim N] | lay 5H [claim N]    the player to act lays a card and claims its points (no claim: the
                                     points proposed when counts are shown first, else none)
  go [claim N]                       the player to act says go (claim: the go point it ends the count with);
                                     a go that cannot be right is questioned: go! records it as said
  show [CARDS] [claim N] [photo P]   the next count of the show (cards known from the play need not be typed);
                                     when counts are shown after the claim, claim first: the count follows
  muggins NAME [OFFER] | decline [OFFER]
  penalty KEY OFFENDER [opponent NAME] [cards N] [overclaim N]
  next (next game of a match)  undo  redo  forget (drop undone moves; a new move drops them too)
  state  help  quit (the game is saved as it goes: crib game resume ID goes on)"""


def _game_name(session: GameSession, view) -> str:
    """The stored game's id (what ``crib game resume`` takes), and the game of a match."""
    return game_name(session.game_id, view.game_number, view.rules.match_games)


# Cards the prompt tries first for its example of a claim, then the rest of the deck.
EXAMPLE_CARDS = tuple(Card.parse(c) for c in ("5H", "7C", "9D", "4S", "8H", "3C", "6D", "TS", "2H", "KC"))
PROMPT = "move> "


def claim_example(session: GameSession) -> Card | None:
    """A card for the prompt's example of a claim: one the player to act could hold and lay now
    (not laid, not the starter, not in the crib, and within 31: the session's own check). The
    game does not know the player's hand, and the count is the player's to make (the example
    shows only with the count hidden): the claim is shown as N, never what the card would score.
    None when no such card is left (the example is left out)."""
    for candidate in EXAMPLE_CARDS + tuple(c for c in DECK if c not in EXAMPLE_CARDS):
        try:
            session.preview_lay(candidate)
        except GameError:
            continue
        return candidate
    return None


def _offer_line(offer: Offer, players: tuple[str, ...], several: bool) -> str:
    """An open muggins offer as the table hears it: who missed what, who may take it and how. Its
    number is the move that missed the points; typing it is needed only with several offers open."""
    callers = [players[s] for s in offer.callers]
    number = f" {offer.entry}" if several else ""
    return (f"\n  muggins offer {offer.entry}: {players[offer.seat]} missed {offer.points} in the "
            f"{offer.kind} (move {offer.entry}); {' or '.join(callers)} may take them: "
            f"'muggins {callers[0]}{number}', or 'decline{number}'; it ends {offer.expires}")


def prompt_line(session: GameSession) -> str:
    view = session.view()
    scores = ", ".join(f"{name} {score}" for name, score in zip(view.side_names, view.scores))
    players = view.players
    where = f"{_game_name(session, view)}, deal {view.current_deal}: {scores}."
    if view.phase is Phase.DISCARD:
        dealer = (session.game.first_dealer if view.dealer is None else (view.dealer + 1) % len(players))
        what = f"{players[dealer]} deals: discards next"
    elif view.phase is Phase.CUT:
        what = "the cut next"
    elif view.phase is Phase.PLAY:
        what = f"count {view.count}: {players[view.to_act]} to play"
        if not view.count_first:  # nothing is pegged unless claimed: say how
            example = claim_example(session)
            what += f" (claim the points, e.g. {example} claim N)" if example else " (claim the points: CARD claim N)"
    elif view.phase is Phase.SHOW:
        show = view.next_show
        whose = "the crib" if show.kind is ShowKind.CRIB else f"{players[show.seat]}'s hand"
        if not view.count_first:  # the player counts and claims first: the count is shown after
            cards = f" {' '.join(show.cards)}: count it and claim (show claim N)" if show.cards else \
                ": type its cards and claim (show CARDS claim N)"
            what = f"show {whose}{cards}"
        else:
            proposal = f" ({show.proposal.total}: {show.proposal.spoken})" if show.proposal else " (type the cards)"
            what = f"show {whose}{proposal}"
    else:
        result = view.result
        what = f"{view.side_names[result.winner]} {result_words(result.kind, result.game_points)}"
        if not view.match_over:
            what += "; 'next' starts the next game"
        else:
            what += "; the match is over" if view.rules.match_games > 1 else "; the game is over"
    offers = "".join(_offer_line(o, players, len(view.offers) > 1) for o in view.offers)
    them = "it" if view.can_redo == 1 else "them"
    redo = f" [{view.can_redo} undone: redo brings {them} back, a new move forgets {them}]" if view.can_redo else ""
    return f"{where} {what}{redo}{offers}"


def revealed_count(view) -> str:
    """The count just claimed, shown after the claim: its cards, the total and the breakdown."""
    count = view.shown[-1]
    whose = "the crib" if count.kind is ShowKind.CRIB else f"{view.players[count.seat]}'s hand"
    return f"{whose} {' '.join(count.cards)}, starter {count.starter}: {count.total} ({count.spoken})"


def revealed_play(view, lines) -> str | None:
    """What the card (or go) just recorded was worth, shown after the claim when the claim was wrong."""
    if not any(line.kind is LogKind.PLAY and line.claimed != line.entitled for line in lines) or not view.play:
        return None
    last = view.play[-1]
    what = "the go" if last.card == "go" else last.card
    worth = f"{', '.join(last.reasons)} for {last.points}" if last.points else "no points"
    return f"{what} at count {last.count}: {worth}"


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
    if text.startswith("-") and text[1:].isdigit():
        what = "a claim" if name in ("claim", "heels") else name
        raise GameError(f"{name}: {what} cannot be negative, got {text}")
    if not text.isdigit():
        raise GameError(f"{name}: expected a whole number, got {text!r}")
    return int(text)


def _who(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _separated(cards: list[str], players: int) -> str:
    """``cards`` split evenly among the players, each share separated by '/' (an example to type)."""
    share = max(1, len(cards) // players)
    shares = [" ".join(cards[i:i + share]) for i in range(0, len(cards), share)]
    return " / ".join(shares)


def entry_words(entry, view) -> str:
    """A move in words (``view``: the game just before it), for undo and redo to say what they did."""
    players = view.players
    claim = getattr(entry, "claim", None)
    claimed = f", claimed {claim}" if claim is not None else ""
    if isinstance(entry, Discard):
        return "the discards" + (f" ({' / '.join(' '.join(map(str, d)) for d in entry.cards)})" if entry.cards else "")
    if isinstance(entry, Cut):
        return f"the cut {entry.starter}"
    if isinstance(entry, Lay) and view.to_act is not None:
        return f"{players[view.to_act]} laying {entry.card}{claimed}"
    if isinstance(entry, Go) and view.to_act is not None:
        return f"{players[view.to_act]} saying go{claimed}"
    if isinstance(entry, ShowCount) and view.next_show:
        show = view.next_show
        whose = "the crib" if show.kind is ShowKind.CRIB else f"{players[show.seat]}'s hand"
        return f"the count of {whose}{claimed}"
    if isinstance(entry, Muggins):
        return f"{players[entry.by]} taking muggins"
    if isinstance(entry, Decline):
        return "muggins declined"
    if isinstance(entry, PenaltyEntry):
        return f"the penalty {entry.key} on {players[entry.offender]}"
    if isinstance(entry, NextGame):
        return "the start of the next game"
    return f"the {entry.TYPE}"  # the journal's word for any other move


def typed_lines(prompt: str = PROMPT):
    """Lines typed at a terminal, with line editing and history (arrow keys) where Python has
    readline; ends at end of input (Ctrl-D)."""
    try:
        import readline  # noqa: F401 - once loaded, input() edits lines and recalls earlier ones
    except ImportError:  # pragma: no cover - Windows without pyreadline
        pass
    while True:
        try:
            yield input(prompt)
        except EOFError:
            print()
            return


def farewell(session: GameSession) -> str:
    """What ``quit`` (or the end of input) says: the game is saved, and how to go on."""
    if session.game_id is None:
        return "quit: this game was not stored"
    if session.view().match_over:
        return (f"game {session.game_id} is over and saved: 'crib game show {session.game_id}' shows it, "
                "'crib game stats' counts it")
    return (f"game {session.game_id} saved (every move is kept as it is made); "
            f"resume it with: crib game resume {session.game_id}")


class Terminal:
    def __init__(self, session: GameSession, source: TextIO, out: TextIO, echo: bool = False) -> None:
        """``echo``: write the prompt and each line read (input piped in, not typed: the output
        then reads as the session it was); at a terminal ``typed_lines`` shows the prompt."""
        self.session, self.source, self.out, self.echo = session, source, out, echo
        session.new_move_forgets_undone = True  # a new move after undo drops the undone ones

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> None:
        self.say(prompt_line(self.session))
        for raw in self.source:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if self.echo:
                self.say(f"{PROMPT}{line}")
            if any(ord(ch) < 32 or ord(ch) == 127 for ch in line):
                self.say("refused: the line holds control keys (arrow keys edit lines only at a terminal): "
                         "type the move again (help lists the moves)")
                continue
            if line in ("quit", "exit"):
                break
            waiting = self.session.view().can_redo
            try:
                lines = self.move(line)
            except GameError as exc:
                self.say(f"refused: {exc}")
                continue
            except ValueError as exc:
                self.say(f"refused: {exc}")
                continue
            if waiting and lines is not None and not self.session.view().can_redo:
                them = "it" if waiting == 1 else "them"
                self.say(f"  {waiting} undone move{'' if waiting == 1 else 's'} forgotten: "
                         f"the new move replaces {them} (undo takes the new move back)")
            for log_line in lines or ():
                self.say(f"  {log_line.text}")
            self.say(prompt_line(self.session))
        self.say(farewell(self.session))

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
            entry = session.history.undone[-1] if verb == "redo" and session.history.undone else None
            view_before = session.view()
            session.undo() if verb == "undo" else session.redo()
            if verb == "undo":  # the player's move (a step the app took after it goes with it)
                entry = session.history.undone[-1]
            # an undone move is said as it stood just before it was made: the view after the undo
            words = entry_words(entry, session.view() if verb == "undo" else view_before) if entry else ""
            self.say(f"  {'undone' if verb == 'undo' else 'redone'}: {words}")
            return None
        if verb == "forget":
            count = session.forget_undone()
            self.say(f"  {count} undone move{'' if count == 1 else 's'} dropped" if count else "  nothing undone to drop")
            return None
        if verb == "next":
            return session.next_game()
        if verb == "discard":
            rest, options = _options(args, ("blind",))
            if not rest:
                return session.discard(None, options.get("blind"))
            groups = [group.split() for group in " ".join(rest).split("/")]
            players = len(session.game.players)
            if len(groups) == 1 and players > 1:
                raise GameError(f"discard: separate each player's discards with '/', in seating order, "
                                f"e.g. discard {_separated(groups[0], players)}")
            return session.discard(groups, options.get("blind"))
        if verb == "cut":
            rest, options = _options(args, ("heels",))
            if len(rest) != 1:
                raise GameError("cut: give the starter card, e.g. cut JH")
            return session.cut(rest[0], _int(options.get("heels"), "heels"))
        if verb in ("go", "go!"):
            _, options = _options(args, ("claim",))
            doubt = session.go_doubt() if verb == "go" else None
            if doubt:  # asked, not recorded: the player lays a card, or insists with "go!"
                self.say(f"question: {doubt}. Lay a card, or type 'go!' to record the go as said.")
                return None
            return self._played(session.go(session.view().said(_int(options.get("claim"), "claim"))))
        if verb == "show":
            rest, options = _options(args, ("claim", "photo"))
            claim = _int(options.get("claim"), "claim")
            if rest and len(rest) != 4:
                raise GameError(f"show: a hand has 4 cards (the crib too), got {len(rest)} ({' '.join(rest)})")
            if claim is None and not session.view().count_first:
                raise GameError("show: claim first, e.g. show claim 8 (the count is shown after the claim)")
            lines = session.show(rest or None, claim, options.get("photo"))
            if not session.view().count_first:
                self.say(f"  {revealed_count(session.view())}")
            return lines
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
            return self._played(session.lay(verb, session.view().said(_int(options.get("claim"), "claim"))))
        except GameError as exc:
            if "not a card" in str(exc):
                raise GameError(f"unknown move {line!r} (help lists the moves)") from None
            raise

    def _played(self, lines):
        """After a card or a go claimed with the count hidden: its points, when the claim missed them."""
        view = self.session.view()
        if not view.count_first:
            shown = revealed_play(view, lines)
            if shown:
                self.say(f"  {shown}")
        return lines
