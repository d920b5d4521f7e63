"""The play: the worked examples of sources 001 and 002 reproduced exactly, 3 and 4 players,
reneges, bad input, and random legal plays."""

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules.cards import DECK, parse_cards
from companion.rules.play import Pegging, partnerships, peg


def events(result):
    return [(e.player, str(e.card) if e.card else "go", e.count, e.points, list(e.reasons))
            for e in result.events]


def hands(*texts):
    return [parse_cards(t.split()) for t in texts]


def test_source_001_play():
    # North (pone, player 0) and you (dealer, player 1): "You pegged 10, North 3."
    result = peg(2, "TH 5H 5S 5C go 6D 7C JD 8S".split(), hands("TH 5S 7C 8S", "5H 5C 6D JD"))
    assert events(result) == [
        (0, "TH", 10, 0, []),
        (1, "5H", 15, 2, ["fifteen"]),
        (0, "5S", 20, 2, ["pair"]),
        (1, "5C", 25, 6, ["pair royal"]),
        (0, "go", 25, 0, []),
        (1, "6D", 31, 2, ["thirty-one"]),
        (0, "7C", 7, 0, []),          # "The player who did not play the last card starts."
        (1, "JD", 17, 0, []),
        (0, "8S", 25, 1, ["last card"]),
    ]
    assert result.totals == (3, 10)
    assert result.reneges == () and result.complete


def test_source_002_first_example():
    # Alice (pone, player 0) and Bob (player 1); Bob pegs 1 for the go at 30, Alice leads again.
    result = peg(2, "4S 7H 4D JC go 5C go 7C 8D 9S".split(), hands("4S 4D 7C 9S", "7H JC 5C 8D"))
    assert events(result) == [
        (0, "4S", 4, 0, []),
        (1, "7H", 11, 0, []),
        (0, "4D", 15, 2, ["fifteen"]),
        (1, "JC", 25, 0, []),
        (0, "go", 25, 0, []),
        (1, "5C", 30, 1, ["go"]),
        (1, "go", 30, 0, []),
        (0, "7C", 7, 0, []),
        (1, "8D", 15, 2, ["fifteen"]),
        (0, "9S", 24, 4, ["run of 3", "last card"]),
    ]
    assert result.totals == (6, 3)
    assert result.reneges == ()


def test_source_002_second_example():
    # Bob (pone, player 0) and Alice (player 1): pair, pair royal, 15, runs of 3 and 4, 31, then
    # Bob leads a queen and pegs the last card.
    result = peg(2, "4S 4D 4C 3H 2S 5D go 9C QH".split(), hands("4S 4C 2S QH", "4D 3H 5D 9C"))
    assert events(result) == [
        (0, "4S", 4, 0, []),
        (1, "4D", 8, 2, ["pair"]),
        (0, "4C", 12, 6, ["pair royal"]),
        (1, "3H", 15, 2, ["fifteen"]),
        (0, "2S", 17, 3, ["run of 3"]),
        (1, "5D", 22, 4, ["run of 4"]),
        (0, "go", 22, 0, []),
        (1, "9C", 31, 2, ["thirty-one"]),   # 31 replaces the go
        (0, "QH", 10, 1, ["last card"]),
    ]
    assert result.totals == (10, 10)


def test_issue_example_without_hands_may_stop_early():
    result = peg(2, ["4S", "7H", "4D", "JC", "go", "5C", "go"])
    assert result.totals == (2, 1)
    assert not result.complete
    assert events(result)[-2] == (1, "5C", 30, 1, ["go"])


def test_final_card_making_31_scores_two_not_three():
    result = peg(2, "TH TS AC KC 9H 9D 6C 7D".split())
    assert events(result)[-1] == (1, "7D", 31, 2, ["thirty-one"])
    assert events(result)[1][3:] == (2, ["pair"])
    assert events(result)[3][3:] == (2, ["thirty-one"])


def test_fifteen_with_pair_royal_and_double_pair_royal():
    result = peg(2, "5H 5S 5D 5C".split())
    assert [e[3:] for e in events(result)] == [
        (0, []), (2, ["pair"]), (8, ["fifteen", "pair royal"]), (12, ["double pair royal"])]


@pytest.mark.parametrize("plays, last_points, reasons", [
    ("5C 7D 6H", 3, ["run of 3"]),             # any order (RULES.md, source 000: 5-7-6)
    ("7C 5D 6H", 3, ["run of 3"]),             # source 001: 7, 5, 6 scores 3
    ("6C 4D 5H", 5, ["fifteen", "run of 3"]),  # source 004: 6, 4, 5 is a run of three
    ("3C 5D 6H 4S", 4, ["run of 4"]),          # source 002: 3-5-6-4
    ("3C 4D 4H 5S", 0, []),                    # 3-4-4-5 is not a run
    ("7C 8D 7H", 0, []),                       # pairs only with the card just played
    ("AC 2D 3H 4S 5C", 7, ["fifteen", "run of 5"]),
    ("9C AD 2H 3S", 5, ["fifteen", "run of 3"]),  # the 9 is not part of the run
    ("QC KD AH", 0, []),                       # ace is low: Q-K-A is not a run
])
def test_runs_and_pairs_in_the_play(plays, last_points, reasons):
    assert events(peg(2, plays.split()))[-1][3:] == (last_points, reasons)


def test_runs_and_pairs_never_span_a_reset():
    # 9C is laid before the reset, 8H and 7S after it: no run 9-8-7
    result = peg(2, "TH TS 9C go AD go 8H 7S".split())
    assert events(result)[4:] == [
        (0, "AD", 30, 1, ["go"]), (0, "go", 30, 0, []),
        (1, "8H", 8, 0, []), (0, "7S", 15, 2, ["fifteen"])]


def test_three_players():
    plays = "5C TC KS 5D AS 7C 9H 8D 6D go go go 2S 3H 4H".split()
    result = peg(3, plays, hands("5C 5D 9H 2S", "TC AS 8D 3H", "KS 7C 6D 4H"))
    assert events(result) == [
        (0, "5C", 5, 0, []), (1, "TC", 15, 2, ["fifteen"]), (2, "KS", 25, 0, []),
        (0, "5D", 30, 0, []), (1, "AS", 31, 2, ["thirty-one"]),
        (2, "7C", 7, 0, []),               # the player after the one who made 31 leads
        (0, "9H", 16, 0, []), (1, "8D", 24, 3, ["run of 3"]), (2, "6D", 30, 5, ["run of 4", "go"]),
        (0, "go", 30, 0, []), (1, "go", 30, 0, []), (2, "go", 30, 0, []),
        (0, "2S", 2, 0, []), (1, "3H", 5, 0, []), (2, "4H", 9, 4, ["run of 3", "last card"]),
    ]
    assert result.totals == (0, 7, 9) and result.reneges == ()


def test_a_passed_player_is_skipped_until_the_reset():
    # 3 players: player 0 passes at 25; 1 and 2 keep laying
    result = peg(3, "TC TD 5S go AC 2C go go".split())
    assert [e[0] for e in events(result)] == [0, 1, 2, 0, 1, 2, 1, 2]
    assert events(result)[5][3:] == (1, ["go"])   # 2C at 28 earns the go
    pegging = Pegging(3)
    for token in "TC TD 5S go AC 2C go go".split():
        pegging.go() if token == "go" else pegging.lay(parse_cards([token])[0])
    assert pegging.to_act == 0 and pegging.count == 0  # the player after player 2 leads


def test_four_players_are_two_partnerships():
    result = peg(4, "TC 5D 5S 5H 5C go go go go".split())
    assert result.totals == (13, 2, 2, 6)
    assert partnerships(4) == ((0, 2), (1, 3))
    assert [sum(result.totals[p] for p in side) for side in partnerships(4)] == [15, 8]
    assert partnerships(2) == ((0,), (1,))


def test_renege_with_hands_known():
    plays = "4S 7H 4D JC go 5C go 2C 8D 9S".split()
    result = peg(2, plays, hands("4S 4D 2C 9S", "7H JC 5C 8D"))
    assert len(result.reneges) == 1
    renege = result.reneges[0]
    assert (renege.player, renege.event, renege.count) == (0, 4, 25)
    assert [str(c) for c in renege.playable] == ["2C"]
    assert renege.penalty == 2


def test_renege_counts_every_card_that_fits():
    # at 24 player 1 holds A, 3 and 9: A+3 fit together (28), the 9 does not
    result = peg(2, "TC KD 4S go".split(), hands("TC 4S 9C 9D", "KD AH 3D 9H"))
    renege = result.reneges[0]
    assert (renege.player, renege.event) == (1, 3)
    assert sorted(map(str, renege.playable)) == ["3D", "AH"]
    assert renege.should_have_played == 2 and renege.penalty == 4


def test_certain_renege_without_hands():
    result = peg(2, ["4S", "go"])  # at 4 any card fits
    assert [(r.player, r.event, r.playable, r.penalty) for r in result.reneges] == [(1, 1, (), 4)]
    assert peg(2, "TC KD 4S go".split()).reneges == ()  # at 24 a go may be honest


@pytest.mark.parametrize("players, plays, given_hands, message", [
    (2, "5H 5H", None, "5H was already laid"),
    (2, "5H 6H", ["5H 2C 3C 4C", "7D 8D 9D TD"], "player 1 does not hold 6H"),
    (2, "TH TS TC 2C", None, "over 31"),
    (2, "AC AD AH AS 2C 2D 2H 2S go", None, "the play is over"),
    (2, "AC AD AH AS 2C 2D 2H 2S 3C", None, "the play is over"),
    (5, "AC", None, "2, 3 or 4 players"),
    (2, "AC", ["AC 2C 3C", "4C 5C 6C 7C"], "4 distinct cards"),
    (2, "AC", ["AC 2C 3C 4C", "4C 5C 6C 7C"], "4C is in hands 0 and 1"),
    (2, "AC", ["AC 2C 3C 4C"], "1 hand given for 2 players"),
    (2, "AC XY", None, "'XY'"),
])
def test_bad_plays(players, plays, given_hands, message):
    with pytest.raises(ValueError, match=message):
        peg(players, plays.split(), [parse_cards(h.split()) for h in given_hands] if given_hands else None)


def play_randomly(players, rng):
    deck = list(DECK)
    rng.shuffle(deck)
    held = [deck[4 * p: 4 * p + 4] for p in range(players)]
    pegging = Pegging(players, [list(h) for h in held])
    tokens = []
    while not pegging.complete:
        player = pegging.to_act
        playable = [c for c in held[player] if pegging.count + c.value <= 31]
        if playable:
            card = rng.choice(playable)
            held[player].remove(card)
            pegging.lay(card)
            tokens.append(str(card))
        else:
            pegging.go()
            tokens.append("go")
    return [list(h) for h in (deck[4 * p: 4 * p + 4] for p in range(players))], tokens, pegging.result()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.randoms(use_true_random=False))
def test_random_legal_plays(players, rng):
    dealt, tokens, result = play_randomly(players, rng)
    assert result.complete and result.reneges == ()
    assert sum(result.totals) == sum(e.points for e in result.events)
    assert all(0 < e.count <= 31 for e in result.events)
    assert sum(1 for e in result.events if e.card) == 4 * players
    assert set(result.events[-1].reasons) & {"last card", "thirty-one"}
    # the last card point is awarded exactly once; a go point only after a pass
    assert sum(1 for e in result.events for r in e.reasons if r in ("last card",)) <= 1
    replay = peg(players, tokens, dealt)
    assert replay.events == result.events


def test_players_numbered_by_seat_with_the_leader_given():
    """Issue 56 s3 (crib peg --dealer): the same play, the pone at seat 1; hands are by seat."""
    from companion.rules.play import OverThirtyOneError, PlayError

    plays = "TH 5H 5S 5C go 6D 7C JD 8S".split()
    by_leader, by_seat = peg(2, plays), peg(2, plays, leader=1)
    assert [e.player for e in by_seat.events] == [1 - e.player for e in by_leader.events]
    assert by_seat.totals == by_leader.totals[::-1] == (10, 3)
    hands = [parse_cards("5H 5C 6D JD".split()), parse_cards("TH 5S 7C 8S".split())]
    assert peg(2, plays, hands, leader=1).totals == (10, 3)
    with pytest.raises(PlayError, match="the leader is player 0 to 1, got 2"):
        peg(2, plays, leader=2)
    with pytest.raises(OverThirtyOneError, match="play 4 \\(2C\\)"):
        peg(2, "TH TS TC 2C".split(), number_from=1)
