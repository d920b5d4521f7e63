"""The cribbage rules core (standard library only), settled by shared/rules/RULES.md.

cards     Card (parse / str), parse_cards
show      score(hand, starter, crib) -> Show (items, total, spoken); his_heels
play      peg(players, plays, hands) -> PlayResult; Pegging for a play in progress
muggins   evaluate(claimed, entitled, rules, kind) -> ClaimResult
rulesets  RuleSet, presets acc / home / pub, game_outcome -> GameOutcome (GameEnd), PENALTIES
discard   advise(dealt, dealer) -> DiscardAdvice (exact expected values)
stats     score_distribution(crib) -> Distribution over all 12,994,800 hands; possible_total(points)
"""

from companion.rules.cards import Card, CardParseError, DuplicateCardError, parse_cards
from companion.rules.discard import DiscardAdvice, DiscardOption, advise
from companion.rules.muggins import ClaimResult, evaluate
from companion.rules.play import Pegging, PlayError, PlayEvent, PlayResult, Renege, partnerships, peg
from companion.rules.rulesets import (
    DEFAULT, PENALTIES, PRESETS, GameEnd, GameOutcome, MugginsMode, RuleSet, game_outcome, ruleset)
from companion.rules.show import HandError, ScoreItem, Show, his_heels, score
from companion.rules.stats import IMPOSSIBLE_TOTALS, Distribution, possible_total, score_distribution

__all__ = [
    "Card", "CardParseError", "DuplicateCardError", "parse_cards",
    "DiscardAdvice", "DiscardOption", "advise",
    "ClaimResult", "evaluate",
    "Pegging", "PlayError", "PlayEvent", "PlayResult", "Renege", "partnerships", "peg",
    "DEFAULT", "PENALTIES", "PRESETS", "GameEnd", "GameOutcome", "MugginsMode", "RuleSet", "game_outcome", "ruleset",
    "HandError", "ScoreItem", "Show", "his_heels", "score",
    "IMPOSSIBLE_TOTALS", "Distribution", "possible_total", "score_distribution",
]
