"""``crib score``, ``crib stats``, ``crib peg`` and ``crib discard``: the rules core on the command line.

The JSON shapes are a contract other tools depend on (issue 2); keep them stable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from companion.cli.common import CliError
from companion.words import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    score = subparsers.add_parser(
        "score", help="count a hand or crib with the starter",
        description="Count a 4-card hand (or crib) with the starter: spoken count and total. "
                    "With --batch, read JSON lines {\"hand\": [...], \"starter\": \"..\", "
                    "\"crib\": false} on stdin and write one JSON line per input line.")
    score.add_argument("cards", nargs="*", help="four cards, e.g. 5H 5C 5S JD (also 10H, 5♥)")
    score.add_argument("--starter", help="the starter (cut) card")
    score.add_argument("--crib", action="store_true", help="count as the crib (only a 5-card flush scores)")
    score.add_argument("--claim", type=int, metavar="N", help="judge a claimed score of N points")
    score.add_argument("--rules", default="acc", help="rule set for --claim: acc (default), home, pub")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.add_argument("--batch", action="store_true", help="score JSON lines from stdin")
    score.add_argument("--explain", action="store_true",
                       help="list every scoring combination (with --batch: include the items)")
    score.set_defaults(handler=run_score)

    stats = subparsers.add_parser(
        "stats", help="exact score distribution over all 12,994,800 hands",
        description="Count every (4 cards + starter) combination exactly: how many score 0..29.")
    stats.add_argument("--crib", action="store_true", help="crib rules (4-card flush scores 0)")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(handler=run_stats)

    peg = subparsers.add_parser(
        "peg", help="score a play (pegging): type the cards, or JSON on stdin",
        description="Type the cards in the order they were laid, and go for a player who could not lay one: "
                    "crib peg TH 5H 5S 5C go 6D 7C JD 8S. Whose turn it is follows from the plays: the player "
                    "after the dealer leads, turns go clockwise, a player who said go is passed over until the "
                    "count starts again (at 31, or once everyone has said go; the last to lay pegs the go). "
                    "Players are numbered by seat, 0 to N-1, the dealer by default the last (so the leader, "
                    "the pone, is 0); with 4 players the partnerships are 0 & 2 and 1 & 3. "
                    'With no cards, stdin is read as JSON for scripts: {"players": 2, "plays": ["4S", "7H", '
                    '"go", ...], "hands": [[...], ...], "dealer": 1} (hands and dealer optional; hands by seat, '
                    "to find reneges).")
    peg.add_argument("plays", nargs="*", metavar="PLAY",
                     help="a card (5H, 10D, TD) or go, in the order played; none: read JSON from stdin")
    peg.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                     help="how many play, with typed plays (default 2)")
    peg.add_argument("--dealer", type=int, default=None, metavar="SEAT",
                     help="the dealer's seat, 0 to N-1, with typed plays (default N-1: the leader is player 0)")
    peg.add_argument("--json", action="store_true", help="print JSON")
    peg.set_defaults(handler=run_peg)

    discard = subparsers.add_parser(
        "discard", help="rank every discard of a 6- or 5-card deal",
        description="Exact expected hand points over every starter, plus (dealer) or minus (pone) "
                    "the expected crib, with the other crib cards drawn at random from the unseen cards.")
    discard.add_argument("cards", nargs="+", help="6 cards (2 players) or 5 cards (3-4 players)")
    side = discard.add_mutually_exclusive_group(required=True)
    side.add_argument("--dealer", action="store_true", help="the crib is yours (or your partner's)")
    side.add_argument("--pone", action="store_true", help="the crib is an opponent's")
    discard.add_argument("--json", action="store_true", help="print JSON")
    discard.set_defaults(handler=run_discard)


# ---------------------------------------------------------------- score

def _json_object(text: str, keys: set[str], not_json: str, not_object: str) -> dict[str, Any]:
    """Parse ``text`` as one JSON object whose keys are all in ``keys``; CliError otherwise."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{not_json}: {exc}") from None
    if not isinstance(record, dict):
        raise CliError(not_object)
    unknown = set(record) - keys
    if unknown:
        raise CliError(f"unknown {plural(len(unknown), 'key', number=False)}: {', '.join(sorted(unknown))}")
    return record


def _possible_claim(kind: str, claimed: int | None, flag: str = "--claim") -> None:
    """A claim no cards could score (over 29, 19, 25, 26, 27, below 0) is refused with one line, not judged."""
    from companion.claims import ImpossibleClaimError, check_claim

    try:
        check_claim(kind, claimed, flag)
    except ImpossibleClaimError as exc:
        raise CliError(str(exc)) from None


def run_score(args: argparse.Namespace) -> int:
    if args.batch:
        if args.cards or args.starter or args.claim is not None or args.crib:
            raise CliError("--batch reads hands from stdin: give no cards, --starter, --crib or --claim")
        return score_batch(sys.stdin, sys.stdout, explain=args.explain)
    from companion.rules.cards import Card, parse_cards
    from companion.rules.muggins import evaluate
    from companion.rules.rulesets import ruleset
    from companion.rules.show import score

    if any("," in token for token in args.cards):
        cards = " ".join(part for token in args.cards for part in token.split(",") if part)
        raise CliError(f"separate the cards with spaces, not commas: crib score {cards}")
    if len(args.cards) == 5 and not args.starter:
        *hand, starter = args.cards
        raise CliError(f"5 cards: a hand is 4 cards, the starter goes with --starter, "
                       f"e.g. crib score {' '.join(hand)} --starter {starter}")
    if len(args.cards) != 4:
        raise CliError(f"give 4 cards for a hand or crib, got {len(args.cards)}")
    if not args.starter:
        raise CliError("the starter is missing: add --starter CARD")
    rules = ruleset(args.rules)
    _possible_claim("crib" if args.crib else "hand", args.claim)
    show = score(parse_cards(args.cards), Card.parse(args.starter), crib=args.crib)
    claim = evaluate(args.claim, show.total, rules, "crib" if args.crib else "hand") if args.claim is not None else None
    if args.json:
        out = show.as_json()
        if claim is not None:
            out["claim"] = claim.as_json()
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(show.spoken)
    if args.explain:
        for item in show.items:
            print(f"  {item.kind:8s} {' '.join(str(c) for c in item.cards):18s} {item.points:2d}")
    print(f"total {show.total}")
    if claim is not None:
        print(claim.describe())
    return 0


def score_batch(lines: TextIO, out: TextIO, explain: bool = False) -> int:
    """One JSON line out per line in; a bad line gets {"error": ...}; exit 1 if any failed."""
    from companion.rules.cards import Card, parse_cards
    from companion.rules.show import score

    failed = False
    for line in lines:
        try:
            record = _json_object(line, {"hand", "starter", "crib"}, "not JSON", "each line must be a JSON object")
            hand, starter, crib = record.get("hand"), record.get("starter"), record.get("crib", False)
            if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
                raise CliError('"hand" must be a list of card strings')
            if not isinstance(starter, str):
                raise CliError('"starter" must be a card string')
            if not isinstance(crib, bool):
                raise CliError('"crib" must be true or false')
            show = score(parse_cards(hand), Card.parse(starter), crib=crib)
            result: dict[str, Any] = show.as_json(with_cards=False) if explain else {"total": show.total}
        except ValueError as exc:
            failed = True
            result = {"error": str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    out.flush()
    return 1 if failed else 0


# ---------------------------------------------------------------- stats

def run_stats(args: argparse.Namespace) -> int:
    from companion.rules.stats import score_distribution

    started = time.perf_counter()
    dist = score_distribution(crib=args.crib)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"hands": dist.hands, "counts": list(dist.counts), "mean": dist.mean,
                          "seconds": round(seconds, 4)}))
        return 0
    print(f"{'crib' if args.crib else 'hand'} scores over {dist.hands:,} hands (4 cards + starter)")
    for points, count in enumerate(dist.counts):
        print(f"{points:>3} {count:>12,}")
    print(f"mean {dist.mean:.6f}  ({seconds:.3f} s)")
    return 0


# ---------------------------------------------------------------- peg

PEG_EXAMPLE = '{"players": 2, "plays": ["TH", "5H", "5S", "go", "6D"]}'
TYPED_EXAMPLE = "crib peg TH 5H 5S go 6D"
OVER_31_HINT = "; if that player could not lay a card, type go before it"


def run_peg(args: argparse.Namespace) -> int:
    from companion.rules.play import OverThirtyOneError, peg

    if args.plays:
        players, plays, hands, dealer = _typed_play(args)
        number_from = 1  # a player counts the plays typed from 1
    else:
        if args.players is not None or args.dealer is not None:
            raise CliError('--players and --dealer go with typed plays; in JSON on stdin, give "players" and "dealer"')
        players, plays, hands, dealer = _json_play()
        number_from = 0  # the index in "plays"
    try:
        result = peg(players, plays, hands, leader=(dealer + 1) % players, number_from=number_from)
    except OverThirtyOneError as exc:
        raise CliError(f"{exc}{OVER_31_HINT if args.plays else ''}") from None
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        print(format_play(result))
    return 0


def _typed_play(args: argparse.Namespace) -> tuple[int, list[str], None, int]:
    """The play as typed on the command line: its players, tokens, no hands, the dealer's seat."""
    if any("," in token for token in args.plays):
        plays = " ".join(part for token in args.plays for part in token.split(",") if part)
        raise CliError(f"separate the plays with spaces, not commas: crib peg {plays}")
    players = args.players or 2
    return players, list(args.plays), None, _dealer_seat(args.dealer, players, "--dealer")


def _dealer_seat(dealer: Any, players: int, name: str) -> int:
    """The dealer's seat (default the last, so the leader is player 0), checked against the players."""
    if dealer is None:
        return players - 1
    if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer not in range(players):
        raise CliError(f"{name} must be the dealer's seat, 0 to {players - 1} with {players} players, "
                       f"got {json.dumps(dealer)}")
    return dealer


def _json_play() -> tuple[int, list[str], list | None, int]:
    """The play read as JSON from stdin (the form for scripts)."""
    from companion.rules.cards import parse_cards

    if sys.stdin.isatty():  # nothing piped in: say what to type rather than wait in silence
        print(f"crib peg: type the play as JSON, then Ctrl-D; for example\n  {PEG_EXAMPLE}\n"
              f"or pipe it in: echo '{PEG_EXAMPLE}' | crib peg\n"
              f"or give the plays as arguments: {TYPED_EXAMPLE}", file=sys.stderr, flush=True)
    text = sys.stdin.read()
    request = _json_object(text, {"players", "plays", "hands", "dealer"}, "stdin is not JSON",
                           'stdin must be a JSON object {"players": N, "plays": [...]}')
    players, plays, hands = request.get("players"), request.get("plays"), request.get("hands")
    if not isinstance(players, int) or isinstance(players, bool):
        raise CliError('"players" must be 2, 3 or 4')
    if players not in (2, 3, 4):  # checked here: the dealer's seat is counted round them
        raise CliError(f'"players": the play needs 2, 3 or 4 players, got {players}')
    if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
        raise CliError('"plays" must be a list of card strings and "go"')
    if hands is not None:
        if not isinstance(hands, list) or not all(
                isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands):
            raise CliError('"hands" must be a list of lists of card strings')
        hands = [parse_cards(hand) for hand in hands]
    return players, plays, hands, _dealer_seat(request.get("dealer"), players, '"dealer"')


def format_play(result) -> str:
    """The play as text: one line per card or go with the count and what it pegged, then the totals."""
    from companion.rules.play import partnerships

    lines = []
    for e in result.events:
        play = str(e.card) if e.card else "go"
        scored = f"  {e.points} ({', '.join(e.reasons)})" if e.points else ""
        lines.append(f"player {e.player}  {play:<3} {e.count:>3}{scored}")
    for r in result.reneges:
        cards = " ".join(str(c) for c in r.playable) or "cards unknown"
        lines.append(f"renege: player {r.player} said go at {r.count} holding {cards}; opponent pegs {r.penalty}")
    lines.append("totals: " + ", ".join(f"player {p} {t}" for p, t in enumerate(result.totals)))
    if result.players == 4:
        lines.append("partnerships: " + ", ".join(
            f"{' & '.join(map(str, side))} {sum(result.totals[p] for p in side)}" for side in partnerships(4)))
    if not result.complete:
        lines.append("(the play is not finished)")
    return "\n".join(lines)


# ---------------------------------------------------------------- discard

def run_discard(args: argparse.Namespace) -> int:
    from companion.rules.cards import parse_cards
    from companion.rules.discard import CRIB_MODEL, advise

    advice = advise(parse_cards(args.cards), dealer=args.dealer)
    if args.json:
        print(json.dumps(advice.as_json()))
        return 0
    sign = "+" if advice.dealer else "-"
    print(f"{'discard':<8} {'keep':<12} {'hand':>6} {sign + 'crib':>6} {'net':>6}")
    for o in advice.options:
        print(f"{' '.join(map(str, o.discard)):<8} {' '.join(map(str, o.keep)):<12} "
              f"{o.expected_hand:6.2f} {o.expected_crib:6.2f} {o.expected_net:6.2f}")
    print(f"crib model: {CRIB_MODEL}")
    return 0
