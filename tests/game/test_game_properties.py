"""Random legal games (random discards, plays and claims) never break the game's invariants."""

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.game.engine import replay
from companion.game.script import run_script
from companion.game.simulate import random_script

TABLES = st.sampled_from([
    (("Ann", "Ben"), "acc"), (("Ann", "Ben"), "home"), (("Ann", "Ben"), "pub"),
    (("Ann", "Ben"), {"preset": "acc", "muggins": "optional"}),
    (("Ann", "Ben"), {"preset": "acc", "lowball": True}),
    (("Ann", "Ben", "Cat"), {"preset": "acc", "muggins": "optional"}),
    (("Ann", "Ben", "Cat", "Dan"), "pub"),
])


def check_invariants(session):
    game = session.game
    target = game.rules.target
    peg_history = {}
    ends = 0
    for index in range(1, len(session.history.in_force) + 1):
        partial = replay(session.history.in_force[:index])
        ends = len(partial.results)
        for side, (front, back) in enumerate(partial.pegs):
            assert 0 <= back <= front <= target
            assert back < front or front == 0
            assert partial.scores[side] == front
        previous = peg_history.get((partial.game_number, index - 1))
        if previous is not None:
            pegs_before, scores_before = previous
            penalised = any(l.kind == "penalty" for l in partial.log if l.entry == index - 1)
            for side, score in enumerate(partial.scores):
                if not penalised:
                    assert score >= scores_before[side], "scores only grow"
                if score > scores_before[side]:
                    # the leapfrog: the back peg takes the old front peg's hole
                    assert partial.pegs[side] == (score, scores_before[side])
        peg_history[(partial.game_number, index)] = (list(partial.pegs), list(partial.scores))
    assert ends == len(game.results)
    # the game ends exactly once per game, the instant a side reaches the target
    for result in game.results:
        assert sum(1 for s in result.scores if s >= target) == 1
        assert result.scores[result.pegged_out] == target


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), table=TABLES, sloppy=st.booleans(), short=st.booleans())
def test_random_legal_games_keep_the_invariants(seed, table, sloppy, short):
    players, rules = table
    script = random_script(seed, players=players, rules=rules, sloppy=sloppy, short=short)
    run = run_script(script)
    assert run.session.game.phase == "match over"
    check_invariants(run.session)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), undo_every=st.integers(2, 9))
def test_undo_then_redo_everything_gives_back_the_same_game(seed, undo_every):
    script = random_script(seed, rules={"preset": "acc", "muggins": "optional"}, sloppy=True, max_deals=4)
    session = run_script(script).session
    final = session.view()
    steps = len(session.history.in_force) // undo_every
    for _ in range(steps):
        session.undo()
    assert session.view().can_redo == steps
    for _ in range(steps):
        session.redo()
    assert session.view() == final
