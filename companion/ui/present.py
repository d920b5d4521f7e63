"""Plain words for the screens from the game's plain data (a ``GameView``): phase, whose turn,
offers, the log. Formatting only: the rules and the judging stay in the session."""

from __future__ import annotations

import math

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Sequence

from companion.game.events import PeggingMode
from companion.game.phase import Phase
from companion.game.records import ShowKind
from companion.game.view import game_name
from companion.rules import GameEnd
from companion.ui.theme import card_text
from vision import Role

PHASES = {Phase.DISCARD: "the deal", Phase.CUT: "the cut", Phase.PLAY: "the play", Phase.SHOW: "the show",
          Phase.GAME_OVER: "game over", Phase.MATCH_OVER: "match over"}


# The rule presets as a player names them (the ids stay in the data: acc, home, pub).
PRESET_WORDS = {"acc": "ACC rules", "home": "Home rules", "pub": "Pub rules"}
VARIANT_WORDS = {"custom": "custom", "short": "short game"}


def rules_words(name: str) -> str:
    """A game's rule set as a player says it: "acc-custom" -> "ACC rules (custom)"."""
    base, _, variant = str(name).partition("-")
    words = PRESET_WORDS.get(base, base)
    return f"{words} ({VARIANT_WORDS.get(variant, variant)})" if variant else words


def preset_of(words: str) -> str:
    """The preset id of its words on a spinner (an id is taken as it is)."""
    return next((key for key, said in PRESET_WORDS.items() if said == words), words)


# The board choices as a player names them (the ids stay in the settings: auto, sim, none, or a port).
BOARD_WORDS = {"auto": "Find my board", "sim": "Simulated board", "none": "No board", "port": "Name its port"}
BOARD_HELP = {"auto": "the board plugged in by USB", "sim": "the board's own program, run on this device",
              "none": "play without one", "port": "type where the board is plugged in"}


def board_help(choices: Sequence[str]) -> str:
    """One line saying what each board choice on a spinner does."""
    return "; ".join(f"{BOARD_WORDS[c]}: {BOARD_HELP[c]}" for c in choices) + "."


def board_of(words: str) -> str:
    """The board choice id of its words on a spinner (an id is taken as it is)."""
    return next((key for key, said in BOARD_WORDS.items() if said == words), words)


# The settings slider moves along the "nines" of the chance a card must reach to pass unasked:
# 1 -> 90 %, 2 -> 99 %, 3 -> 99.9 % (the doubt model's thresholds sit near 99 %, where a
# straight percent slider would leave no room to move).
SLIDER_NINES = (math.log10(2), 4.0)  # 50 % .. 99.99 %


def slider_of_threshold(threshold: float) -> float:
    """The slider's place for a threshold (the chance under which a card is flagged)."""
    low, high = SLIDER_NINES
    return min(high, max(low, -math.log10(max(1.0 - float(threshold), 10 ** -high))))


def threshold_of_slider(nines: float) -> float:
    """The threshold at the slider's place, to four decimals (as it is saved)."""
    return round(1.0 - 10 ** -float(nines), 4)


def confidence_words(threshold: float) -> str:
    """The recognition threshold in a player's words."""
    percent = f"{float(threshold) * 100:.2f}".rstrip("0").rstrip(".")
    sure = "half" if percent == "50" else f"{percent} %"
    return f"Ask me about cards I'm less than {sure} sure of"


def game_words(game_id: int | None, view=None) -> str:
    """The game as every screen names it: "Game 2", the number Home and ``crib game list`` give
    it (``game_name``), with its place in a match where it is one."""
    if view is None:
        return game_name(game_id).capitalize()
    return game_name(game_id, view.game_number, view.rules.match_games).capitalize()


def phase_line(view, game_id: int | None) -> str:
    return f"{game_words(game_id, view)} · deal {max(view.current_deal, 1)} · {PHASES[view.phase]}"


def turn_line(view) -> str:
    players = view.players
    if view.phase is Phase.DISCARD:
        if view.next_dealer is None:
            return "Deal the cards: each player discards to the crib"
        return f"{players[view.next_dealer]} deals {'first' if view.dealer is None else 'next'}"
    if view.phase is Phase.CUT:
        return f"Cut for the starter ({players[view.dealer]} deals)"
    if view.phase is Phase.PLAY and view.pegging is PeggingMode.POINTS:
        return "The play: peg the points as they are scored"
    if view.phase is Phase.PLAY and view.to_act is not None:
        return f"{players[view.to_act]} to play · count {view.count}"
    if view.phase is Phase.SHOW and view.next_show:
        who = players[view.next_show.seat]
        return f"{who}'s crib to count" if view.next_show.kind is ShowKind.CRIB else f"{who}'s hand to count"
    if view.result:
        r = view.result
        kind = "" if r.kind == GameEnd.WIN else f" by a {r.kind}"
        return f"{view.side_names[r.winner]} won{kind}"
    return ""


def offer_line(view, offer, items: Sequence[dict] | None = None) -> str:
    """ "Muggins: 2 missed by Ben (hand) - fifteen 7♣+8♦" with the items that may have been missed."""
    who = view.players[offer.seat]
    callers = " or ".join(view.players[s] for s in offer.callers)
    text = f"Muggins: {offer.points} missed by {who} ({offer.kind})"
    guess = missed_items(items or (), offer.points)
    if guess:
        text += " - " + ", ".join(item_words(i) for i in guess)
    return f"{text}. {callers} may take them."


def missed_items(items: Sequence[dict], missed: int) -> list[dict]:
    """The combinations that most likely make up ``missed`` points: the fewest items adding up to
    it, the ones counted last preferred (players miss the end of a long count)."""
    if missed <= 0:
        return []
    indexed = list(enumerate(items))
    for size in range(1, len(indexed) + 1):
        for combo in combinations(reversed(indexed), size):
            if sum(item["points"] for _, item in combo) == missed:
                return [item for _, item in sorted(combo, key=lambda x: x[0])]
        if size >= 4:
            break
    return []


def item_words(item: dict) -> str:
    cards = item["cards"]
    if item["kind"] == "fifteen":  # with suits: the four fifteens of 5 5 5 J are four different ones
        return "fifteen " + "+".join(card_text(c) for c in cards)
    return f"{item['kind']} " + " ".join(card_text(c) for c in cards)


def item_line(item: dict) -> str:
    return f"{item_words(item)}   {item['points']}"


def log_lines(view, n: int = 6) -> list[str]:
    return [line.text for line in view.log[-n:]][::-1]


def score_line(view, side: int) -> str:
    return f"{view.side_names[side]}"


def group_for(photo_show, cards: Sequence[str] | None, kind: ShowKind):
    """The photo's group to count for a hand whose cards the game knows (the group with the most
    of them), or for an unknown crib (the crib group, else a 4-card group that is no known hand).
    Returns (group or None, note for the player or None)."""
    if photo_show is None:
        return None, None
    groups = [g for g in photo_show.groups]
    if cards:
        known = set(cards)
        best = max(groups, key=lambda g: len(known & set(g.cards)), default=None)
        if best is None or not known & set(best.cards):
            return None, "this hand is not in the photo: counted from the cards played"
        if set(best.cards) != known:
            shown = " ".join(card_text(c) for c in best.cards)
            return best, f"the photo shows {shown}; the play had " + " ".join(card_text(c) for c in cards)
        return best, None
    # the group the photo or the player calls the crib (never just the first group counted with
    # crib rules: with the crib next, every group is)
    crib = [g for g in groups if g.role is Role.CRIB]
    if crib:
        return crib[0], None
    four = [g for g in groups if len(g.cards) == 4]
    if len(groups) == 1 or len(four) == 1:
        return (groups[0] if len(groups) == 1 else four[0]), None
    return None, "no crib in the photo: mark the crib's cards in the review, or pick them"


GUIDE_HAND_ROWS = 2  # the capture guide's hand rows: the pone's on top, the dealer's below


def guide_hand_names(view) -> tuple[str, ...]:
    """Whose hand each of the capture guide's rows is, top first (the order of the show: the
    pone's, then the dealer's), where the game knows and the guide has a row for each player (two
    players); else nothing (the rows are just "hand")."""
    if view is None or len(view.players) != GUIDE_HAND_ROWS or view.phase not in (Phase.PLAY, Phase.SHOW) \
            or view.dealer is None:
        return ()
    pone = (view.dealer + 1) % len(view.players)
    return tuple(f"{view.players[seat]}'s hand" for seat in (pone, view.dealer))


def hands_by_row(photo_show, hands) -> list | None:
    """The photo's hand groups ``hands`` top to bottom, when each lies in a row of its own (no
    two overlap up and down, as the guide's rows lay them); None when they do not."""
    boxes = {c.card: c.box for c in photo_show.recognition.cards}
    spans = []
    for group in hands:
        ys = [v for code in group.cards if code in boxes for v in (boxes[code][1], boxes[code][3])]
        if not ys:
            return None
        spans.append((min(ys), max(ys), group))
    spans.sort(key=lambda span: span[0])
    if any(below[0] < above[1] for above, below in zip(spans, spans[1:])):
        return None
    return [group for _top, _bottom, group in spans]


_CARD_CODE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


def with_suits(text: str) -> str:
    """The game's plain words with every card code (6S) said as the screens say cards (6♠)."""
    return _CARD_CODE.sub(lambda m: card_text(m.group(1)), text)


# --- the drawn board: the LED board's own shape ------------------------------------------------------
@dataclass(frozen=True)
class BoardShape:
    """Where the LED board's holes and lights are, in mm on the board (x to the right, y down),
    from its wiring geometry (hardware/geometry): per track the start hole, holes 1..120 (4 rows
    of 30, two laps out and back) and the game hole; the dealer's light and the games-won lights;
    ``box``: the board's outline (x0, y0, x1, y1) with a rim."""

    holes: tuple[tuple[tuple[float, float], ...], ...]   # [track][0..121]
    dealer: tuple[tuple[float, float], ...]              # [track]
    games: tuple[tuple[tuple[float, float], ...], ...]   # [track][game]
    box: tuple[float, float, float, float]


RIM_MM = 7.0


@lru_cache(maxsize=None)
def board_shape(tracks: int) -> BoardShape:
    """The shape of the LED board with ``tracks`` tracks (two sides, or partners: 2-track; three
    players: 3-track)."""
    from hardware.geometry import Geometry

    geometry = Geometry.load("3-track" if tracks >= 3 else "2-track")
    at = geometry.positions
    holes = tuple(tuple(at[led] for led in track) for track in geometry.hole_leds)
    dealer = tuple(at[led] for led in geometry.dealer_leds)
    games = tuple(tuple(at[led] for led in track) for track in geometry.game_leds)
    points = [p for track in holes for p in track] + list(dealer) + [p for track in games for p in track]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = (min(xs) - RIM_MM, min(ys) - RIM_MM, max(xs) + RIM_MM, max(ys) + RIM_MM)
    return BoardShape(holes, dealer, games, box)
