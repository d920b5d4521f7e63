"""Rule set presets exactly as RULES.md, game outcomes, penalties, and muggins."""

import pytest

from companion.rules.muggins import ClaimError, evaluate
from companion.rules.rulesets import (
    DEFAULT, PENALTIES, PRESETS, GameOutcome, GamePoints, MugginsMode, RuleSetError, game_outcome,
    ruleset)


def test_presets_match_the_rules_table():
    acc, home, pub = ruleset("acc"), ruleset("home"), ruleset("pub")
    assert DEFAULT is acc and set(PRESETS) == {"acc", "home", "pub"}
    assert [r.target for r in (acc, home, pub)] == [121, 121, 121]
    assert [r.muggins for r in (acc, home, pub)] == [MugginsMode.OFF, MugginsMode.OFF, MugginsMode.MANDATORY]
    assert [r.skunk_line for r in (acc, home, pub)] == [90, 90, 90]
    assert [r.double_skunk_line for r in (acc, home, pub)] == [None, 60, None]
    assert acc.game_points == GamePoints(2, 3, None)
    assert home.game_points == GamePoints(1, 2, 3)
    assert pub.game_points == GamePoints(1, 2, None)
    assert [r.match_games for r in (acc, home, pub)] == [1, 1, 3]
    assert not any(r.lowball for r in (acc, home, pub))


def test_unknown_preset_and_bad_changes():
    with pytest.raises(RuleSetError, match="unknown rule set 'club'"):
        ruleset("club")
    with pytest.raises(RuleSetError):
        DEFAULT.with_changes(skunk_line=130)
    with pytest.raises(RuleSetError):
        DEFAULT.with_changes(double_skunk_line=60)  # acc has no double skunk points
    with pytest.raises(RuleSetError):
        DEFAULT.with_changes(match_games=2)
    short = DEFAULT.with_changes(target=61, skunk_line=30)
    assert short.target == 61 and DEFAULT.target == 121
    assert DEFAULT.with_changes(muggins="optional").muggins is MugginsMode.OPTIONAL


@pytest.mark.parametrize("preset, scores, kind, points", [
    ("acc", (121, 91), "win", 2),
    ("acc", (121, 90), "skunk", 3),      # 90 is the stink hole: skunked
    ("acc", (125, 30), "skunk", 3),      # no double skunk under ACC
    ("home", (121, 91), "win", 1),
    ("home", (121, 61), "skunk", 2),
    ("home", (121, 60), "double skunk", 3),
    ("pub", (121, 90), "skunk", 2),      # a lurch
    ("pub", (121, 100), "win", 1),
])
def test_game_outcomes(preset, scores, kind, points):
    outcome = game_outcome(scores, 0, ruleset(preset))
    assert (outcome.winner, outcome.kind, outcome.game_points) == (0, kind, points)


def test_lowball_the_side_that_pegs_out_loses():
    lowball = DEFAULT.with_changes(lowball=True)
    assert game_outcome((80, 121), 1, lowball) == GameOutcome(0, "skunk", 3)
    assert game_outcome((95, 121), 1, lowball).kind == "win"
    assert game_outcome((95, 121), 1, lowball).winner == 0


def test_game_outcome_rejects_impossible_results():
    with pytest.raises(RuleSetError):
        game_outcome((100, 90), 0)
    with pytest.raises(RuleSetError):
        game_outcome((121, 121), 0)


def test_penalties_table():
    assert set(PENALTIES) == {"bottom-card", "wrong-deal-unconfirmed", "examining-crib", "renege",
                              "false-game-claim", "moving-opponents-peg", "starter-misplaced"}
    assert PENALTIES["renege"].apply(50, 60, cards=2) == (50, 64)
    assert PENALTIES["wrong-deal-unconfirmed"].apply(7, 60) == (0, 60)   # not below 0
    assert PENALTIES["wrong-deal-unconfirmed"].apply(27, 60) == (17, 60)
    assert PENALTIES["false-game-claim"].apply(110, 90, overclaim=6) == (95, 96)
    for key in ("bottom-card", "examining-crib", "moving-opponents-peg", "starter-misplaced"):
        assert PENALTIES[key].apply(10, 10) == (10, 12)


@pytest.mark.parametrize("mode, muggins", [("off", 0), ("optional", 3), ("mandatory", 3)])
def test_muggins_follows_the_mode(mode, muggins):
    result = evaluate(9, 12, DEFAULT.with_changes(muggins=mode), "hand")
    assert (result.claimed, result.entitled, result.missed, result.overclaim) == (9, 12, 3, 0)
    assert result.muggins == muggins and result.mode.value == mode


@pytest.mark.parametrize("mode, pegged, muggins, lost", [("off", 12, 0, 0), ("optional", 9, 3, 0),
                                                         ("mandatory", 9, 3, 0)])
def test_what_the_claimant_pegs_follows_the_mode(mode, pegged, muggins, lost):
    """Muggins off: the product is the scorer and the right count is pegged (docs/RULES.md)."""
    result = evaluate(9, 12, DEFAULT.with_changes(muggins=mode), "hand")
    assert (result.pegged, result.muggins, result.lost) == (pegged, muggins, lost)
    assert ("the peg goes to 12" in result.describe()) == (mode == "off")


def test_his_heels_missed_with_muggins_on_is_lost_not_taken():
    result = evaluate(0, 2, ruleset("pub"), "heels")
    assert (result.pegged, result.muggins, result.lost) == (0, 0, 2)
    assert result.describe() == "claimed 0 of 2: 2 missed and lost (his heels is never taken by muggins)"
    assert evaluate(0, 2, ruleset("acc"), "heels").pegged == 2


def test_overclaim_is_corrected_not_mugginsed():
    result = evaluate(14, 12, ruleset("pub"), "crib")
    assert (result.missed, result.overclaim, result.muggins, result.pegged) == (0, 2, 0, 12)
    assert evaluate(12, 12, ruleset("pub")).correct


@pytest.mark.parametrize("kind", ["heels", "penalty"])
def test_heels_and_penalties_are_never_mugginsable(kind):
    result = evaluate(0, 2, ruleset("pub"), kind)
    assert result.missed == 2 and result.muggins == 0


def test_play_points_are_mugginsable():
    assert evaluate(0, 2, ruleset("pub"), "play").muggins == 2


def test_bad_claims():
    with pytest.raises(ClaimError):
        evaluate(-1, 3)
    with pytest.raises(ClaimError):
        evaluate(1, 3, DEFAULT, "show")
