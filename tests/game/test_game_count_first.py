"""The count shown before the claim, or only after it: with muggins on the player claims first,
then the count and its breakdown are shown, then muggins is offered (the play alike). A game's
setting is kept in its journal; journals written before it existed still load."""

import io
import json

import pytest

from companion.cli import main
from companion.game import GameSession
from companion.game.engine import replay
from companion.game.errors import EntryError
from companion.game.events import NewGame, entry_from_json
from companion.game.journal import Store
from companion.game.terminal import Terminal
from companion.game.transfer import parse_export

DEAL = ["discard QD JD / 2D 9C", "cut 6S", "7C", "JC", "AH"]   # Ann deals; Ben's hand 7C AH 5D 4D
BEN_HAND = "fifteen two and a run of four is six"


def play(session, moves) -> str:
    out = io.StringIO()
    Terminal(session, io.StringIO("\n".join(moves) + "\n"), out).run()
    return out.getvalue()


def test_the_default_follows_muggins_and_is_kept_in_the_journal(tmp_path):
    store = Store(tmp_path)
    for muggins, first in (("off", True), ("optional", False), ("mandatory", False)):
        session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": muggins}, store=store)
        assert session.view().count_first is first
        assert session.journal[0].as_json()["count_first"] is first
        game_id = session.game_id
        session.close()
        with GameSession.open(store, game_id) as again:
            assert again.view().count_first is first
    chosen = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, count_first=True)
    assert chosen.view().count_first is True
    with pytest.raises(EntryError, match="count_first: expected true or false, got 'yes'"):
        GameSession.new(["Ann", "Ben"], count_first="yes")


def test_a_journal_from_before_the_setting_loads_and_follows_muggins():
    old = {"type": "new-game", "players": ["Ann", "Ben"], "first_dealer": 0, "dealer_cut": None,
           "rules": {"name": "acc-custom", "target": 121, "muggins": "optional", "skunk_line": 90,
                     "double_skunk_line": None, "game_points": [2, 3, None], "match_games": 1, "lowball": False}}
    entry = entry_from_json(old)
    assert entry.count_first is None and entry.as_json() == old  # written back unchanged
    assert replay([entry]).count_first is False
    assert replay([entry_from_json({**old, "rules": {**old["rules"], "muggins": "off"}})]).count_first is True
    with pytest.raises(EntryError, match="count_first: expected true or false, got 1"):
        entry_from_json({**old, "count_first": 1})
    # an export of a game with the setting reads back with it
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, count_first=True)
    entries = parse_export(json.loads(json.dumps(session.export())))
    assert isinstance(entries[0], NewGame) and entries[0].count_first is True


def test_silence_pegs_nothing_when_the_count_follows_the_claim():
    hidden = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}).view()
    shown = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, count_first=True).view()
    assert (hidden.said(None), hidden.said(3)) == (0, 3)
    assert (shown.said(None), shown.said(3)) == (None, 3)


def test_terminal_with_muggins_claim_then_count_then_muggins():
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, short=True)
    out = play(session, DEAL + ["AS", "muggins Ben", "5D", "3H", "4D claim 5", "KS claim 1", "show",
                                "show claim 3"])
    lines = out.splitlines()
    # the play: a pair laid without a claim pegs nothing; its points are shown after, then muggins
    pair = lines.index("  AS at count 19: pair for 2")
    assert lines[pair + 1] == "  Ann claimed 0 of 2: 2 missed"
    assert "muggins offer" in lines[pair + 3] and "muggins: Ben takes 2 missed by Ann (play)" in out
    # the example: a card Ann could hold (unseen) and lay at 18; what it scores is hers to count
    assert "count 18: Ann to play (claim the points, e.g. 5H claim N)" in lines[pair - 1]
    # the show: the prompt shows Ben's cards but not their count, a bare "show" is refused
    prompt = next(line for line in lines if line.endswith("show Ben's hand 7C AH 5D 4D: count it and claim "
                                                          "(show claim N)"))
    reveal = lines.index(f"  Ben's hand 7C AH 5D 4D, starter 6S: 6 ({BEN_HAND})")
    assert "6" not in prompt.split("show Ben's hand")[1] and BEN_HAND not in "\n".join(lines[:reveal])
    assert "refused: show: claim first, e.g. show claim 8 (the count is shown after the claim)" in out
    assert lines[reveal + 1] == "  Ben claimed 3 of 6: 3 missed"
    assert "muggins offer" in lines[reveal + 3] and "Ben missed 3 in the hand" in lines[reveal + 3]
    view = session.view()
    assert view.shown[-1].claimed == 3 and view.shown[-1].total == 6
    assert [item["kind"] for item in view.shown[-1].items] == ["fifteen", "run"]


def test_terminal_with_the_count_first_shows_it_before_the_claim():
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, short=True,
                              count_first=True)
    out = play(session, DEAL + ["AS", "5D", "3H", "4D", "KS", "show"])
    assert "claim the points" not in out and "claimed 0 of" not in out  # silence accepts the points
    assert "  Ann: pair for 2" in out
    assert f"show Ben's hand (6: {BEN_HAND})" in out  # the count before the claim
    assert "Ben: " + BEN_HAND + " for 6" in out and "Ben's hand 7C AH 5D 4D, starter" not in out
    assert session.view().scores[1] >= 6 and not session.view().offers


def test_crib_game_new_takes_the_setting(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("CRIB_DATA_DIR", str(tmp_path))
    for flags, first in (([], False), (["--count-first"], True), (["--muggins", "off"], True),
                         (["--muggins", "off", "--no-count-first"], False)):
        assert main(["game", "new", "Ann", "Ben", "--muggins", "optional", *flags, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["count_first"] is first
