"""Plain words for the screens from the game's plain data (a ``GameView``): phase, whose turn,
offers, the log. Formatting only: the rules and the judging stay in the session."""

from __future__ import annotations

import re
from itertools import combinations
from typing import Sequence

from companion.ui.theme import card_text

PHASES = {"discard": "the deal", "cut": "the cut", "play": "the play", "show": "the show",
          "game over": "game over", "match over": "match over"}


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


def confidence_words(value: float) -> str:
    """The recognition threshold in a player's words."""
    percent = round(float(value) * 100)
    sure = "half" if percent == 50 else f"{percent} %"
    return f"Ask me about cards I'm less than {sure} sure of"


def phase_line(view) -> str:
    return f"Game {view.game_number} · deal {max(view.current_deal, 1)} · {PHASES.get(view.phase, view.phase)}"


def turn_line(view) -> str:
    players = view.players
    if view.phase == "discard":
        if view.next_dealer is None:
            return "Deal the cards: each player discards to the crib"
        return f"{players[view.next_dealer]} deals {'first' if view.dealer is None else 'next'}"
    if view.phase == "cut":
        return f"Cut for the starter ({players[view.dealer]} deals)"
    if view.phase == "play" and view.pegging == "points":
        return "The play: peg the points as they are scored"
    if view.phase == "play" and view.to_act is not None:
        return f"{players[view.to_act]} to play · count {view.count}"
    if view.phase == "show" and view.next_show:
        who = players[view.next_show["seat"]]
        return f"{who}'s crib to count" if view.next_show["kind"] == "crib" else f"{who}'s hand to count"
    if view.result:
        r = view.result
        kind = "" if r["kind"] == "win" else f" by a {r['kind']}"
        return f"{view.side_names[r['winner']]} won{kind}"
    return ""


def offer_line(view, offer: dict, items: Sequence[dict] | None = None) -> str:
    """ "Muggins: 2 missed by Ben (hand) - fifteen 7♣+8♦" with the items that may have been missed."""
    who = view.players[offer["seat"]]
    callers = " or ".join(view.players[s] for s in offer["callers"])
    text = f"Muggins: {offer['points']} missed by {who} ({offer['kind']})"
    guess = missed_items(items or (), offer["points"])
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
    return [line["text"] for line in view.log[-n:]][::-1]


def score_line(view, side: int) -> str:
    return f"{view.side_names[side]}"


def group_for(photo_show, cards: Sequence[str] | None, kind: str):
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
    crib = [g for g in groups if g.role == "crib"]
    if crib:
        return crib[0], None
    four = [g for g in groups if len(g.cards) == 4]
    if len(groups) == 1 or len(four) == 1:
        return (groups[0] if len(groups) == 1 else four[0]), None
    return None, "no crib in the photo: mark the crib's cards in the review, or pick them"


_CARD_CODE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


def with_suits(text: str) -> str:
    """The game's plain words with every card code (6S) said as the screens say cards (6♠)."""
    return _CARD_CODE.sub(lambda m: card_text(m.group(1)), text)
