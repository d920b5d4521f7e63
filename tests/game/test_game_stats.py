"""Statistics per player: averages, muggins given and taken, best hand, games / wins / skunks, CSV."""

import csv
import io

from companion.game import GameSession, Store
from companion.game.script import run_script
from companion.game.stats import add_game, collect, write_csv

from tests.game.conftest import script


def test_one_deal_by_hand():
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer="Ann")
    session.discard([["2C", "3C"], ["KH", "QH"]])
    session.cut("4D")
    for card in "TH 5H 5S 5C".split():
        session.lay(card)
    session.go()
    for card in "6D 7C JD".split():
        session.lay(card)
    session.lay("8S", claim=0)     # Ben misses his last card
    session.muggins("Ann")
    session.show()                 # Ben: TH 5S 7C 8S + 4D
    session.show(claim=10)         # Ann: 5H 5C 6D JD + 4D = 17, misses 7
    session.muggins("Ben")
    session.show()                 # crib 2C 3C KH QH + 4D
    table = {}
    add_game(table, session.game)
    ann, ben = table["ann"], table["ben"]
    assert (ann.deals, ann.hands, ann.hand_points, ann.cribs) == (1, 1, 17, 1)
    assert ann.play_points == 10 and ben.play_points == 2
    assert (ann.muggins_taken, ann.muggins_given, ben.muggins_taken, ben.muggins_given) == (1, 7, 7, 1)
    assert ann.best_hand == 17 and ann.best_hand_cards == "5H 5C 6D JD + 4D"
    assert ann.games == 0  # not finished


def test_games_wins_and_skunks_over_the_store_and_csv():
    store = Store()
    run_script(script("skunk"), store=store)
    run_script(script("pub_best_of_three"), store=store)
    table = {row.player: row for row in collect(store)}
    skunk_winner = run_script(script("skunk")).session.game.results[-1].winner
    names = ("Ann", "Ben")
    assert table[names[skunk_winner]].skunks_won >= 1 and table[names[1 - skunk_winner]].skunked >= 1
    assert table["Ann"].games == table["Ben"].games == 4
    assert table["Ann"].wins + table["Ben"].wins == 4
    out = io.StringIO()
    write_csv(collect(store), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["player"] for r in rows] == ["Ann", "Ben"]
    assert int(rows[0]["games"]) == 4 and float(rows[0]["average_hand"]) > 0


def test_the_pegging_average_counts_only_deals_whose_play_is_over():
    """Issue 48 s4: 7 pegged in the one deal played, the next deal dealt but not yet played:
    the average is 7, not 3.5; a play under way counts once it is over."""
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "off"}, first_dealer="Ann",
                              pegging="points")
    session.discard()
    session.cut("4D")
    session.peg("Ann", 5)
    session.peg("Ben", 2)
    session.peg("Ann", 2)
    session.play_done()
    for hand in (["TH", "5S", "7C", "8S"], ["5H", "5C", "6D", "JD"], ["2C", "3C", "KH", "QH"]):
        session.show(hand)
    session.discard()                       # deal 2 dealt, not played
    table = {}
    add_game(table, session.game)
    assert (table["ann"].deals, table["ann"].play_points, table["ann"].average_pegging) == (1, 7, 7.0)
    session.cut("9S")
    session.peg("Ben", 3)                   # deal 2's play under way: not yet counted
    table = {}
    add_game(table, session.game)
    assert (table["ben"].deals, table["ben"].play_points, table["ann"].average_pegging) == (1, 2, 7.0)
    session.play_done()                     # its play over: counted, at the show
    table = {}
    add_game(table, session.game)
    assert (table["ben"].deals, table["ben"].play_points, table["ben"].average_pegging) == (2, 5, 2.5)
    assert table["ann"].average_pegging == 3.5
