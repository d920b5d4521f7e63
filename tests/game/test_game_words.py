"""The game's words are types (issue 49 s4): a phase is a ``Phase``, a game's end a ``GameEnd``,
each a str enum whose value is the word journals, exports and JSON output have always held, so
stored games of any age read the same and no output changes."""

import json
import sqlite3
from pathlib import Path

import pytest

from companion.game import GameSession, Phase, Store
from companion.game.journal import DB_NAME
from companion.game.report import final_state, result_words
from companion.game.script import run_script
from companion.rules import DEFAULT, GameEnd, game_outcome

from tests.game.conftest import played, script
from tests.game.test_game_engine import source_001_deal

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "journal_v1.sql"


def test_the_words_are_the_ones_stored_and_printed():
    assert [p.value for p in Phase] == ["discard", "cut", "play", "show", "game over", "match over"]
    assert [e.value for e in GameEnd] == ["win", "skunk", "double skunk"]
    for word in (*Phase, *GameEnd):
        assert str(word) == f"{word}" == word.value  # in messages: the word, not Phase.GAME_OVER
        assert json.loads(json.dumps(word)) == word.value
        assert type(word)(json.loads(json.dumps(word))) is word
    assert [p for p in Phase if p.over] == [Phase.GAME_OVER, Phase.MATCH_OVER]


def test_a_game_goes_through_its_phases_as_members():
    session = GameSession.new(["Ann", "Ben"])
    assert session.view().phase is Phase.DISCARD and session.game.phase is Phase.DISCARD
    with pytest.raises(ValueError, match="a card laid cannot come now: the game is at the discard$"):
        session.lay("5H")
    run = played("double_skunk")
    view = run.session.view()
    assert view.phase is Phase.MATCH_OVER and view.match_over  # a single game: the match is over
    assert run.session.game.result.kind is GameEnd.DOUBLE_SKUNK
    assert view.board.win_kind is GameEnd.DOUBLE_SKUNK
    assert all(isinstance(kind, GameEnd) for _, _, kind, _ in run.session.game.result.losers)


def test_the_rules_core_says_how_a_game_ended():
    assert game_outcome((121, 100), 0, DEFAULT).kind is GameEnd.WIN
    assert game_outcome((121, 80), 0, DEFAULT).kind is GameEnd.SKUNK
    assert result_words(GameEnd.SKUNK, 2) == result_words("skunk", 2) == "wins with a skunk (2 game points)"
    assert result_words(GameEnd.WIN, 1) == "wins (1 game point)"


def test_json_output_holds_the_words():
    run = played("double_skunk")
    view = run.session.view()
    state = final_state(view, [line.as_json() for line in run.session.game.log])
    text = json.dumps({"state": state, "view": view.as_json()})
    again = json.loads(text)
    assert again["state"]["phase"] == "match over" and again["state"]["skunk"] == "double skunk"
    assert again["view"]["phase"] == "match over" and again["view"]["result"]["kind"] == "double skunk"
    assert again["view"]["board"]["win_kind"] == "double skunk"


def test_stored_summaries_and_old_journals_read_the_same(data_folder):
    store = Store()
    run = run_script(script("double_skunk"), store=store)
    row = next(r for r in store.games() if r.id == run.session.game_id)
    assert row.summary["phase"] == "match over" and row.summary["result"]["kind"] == "double skunk"
    assert Phase(row.summary["phase"]) is Phase.MATCH_OVER
    store.close()
    # a journal written by the first schema, before the words were types
    old = data_folder / "old"
    old.mkdir()
    db = sqlite3.connect(old / DB_NAME)
    db.executescript(FIXTURE.read_text())
    db.close()
    store = Store(old)
    partial, finished = GameSession.open(store, 1), GameSession.open(store, 2)
    assert partial.view().phase is Phase.DISCARD
    assert finished.view().phase.over and isinstance(finished.game.results[-1].kind, GameEnd)


# --- the view's records -------------------------------------------------------------------------
VIEWS_BEFORE = Path(__file__).resolve().parent / "fixtures" / "views_before_records.json"


def test_the_view_json_is_what_it_was_when_the_view_held_dicts():
    """``crib game show --json`` prints ``view.as_json()``: byte for byte what it printed before the
    view's members became records (views of two scripts, written by the code of 4c0875b)."""
    before = json.loads(VIEWS_BEFORE.read_text())
    for name, views in before.items():
        journal = played(name).session.journal
        for index, expected in views.items():
            view = GameSession(journal[: int(index) + 1]).view()
            assert json.dumps(view.as_json()) == json.dumps(expected), f"{name} after entry {index}"


def test_the_view_holds_frozen_records():
    from dataclasses import FrozenInstanceError

    from companion.game.records import GameResult, LogLine, Offer
    from companion.game.view import NextShow, PlayStep, Proposal, RenegeSeen, ShownCount

    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer="Ann")
    source_001_deal(session)
    session.show(claim=2)  # Ben's hand is worth 4: 2 missed, Ann may take them
    view = session.view()
    assert isinstance(view.next_show, NextShow) and isinstance(view.next_show.proposal, Proposal)
    assert view.next_show.cards == ("5H", "5C", "6D", "JD") and view.next_show.kind == "hand"
    assert all(isinstance(step, PlayStep) for step in view.play) and view.play[0].card == "TH" and view.play[4].card == "go"
    assert isinstance(view.play[0].reasons, tuple)
    (shown,) = view.shown
    assert isinstance(shown, ShownCount) and shown.claimed == 2 and shown.cards == ("TH", "5S", "7C", "8S")
    assert all(isinstance(o, Offer) for o in view.offers) and view.offers[0].seat == 1
    assert all(isinstance(line, LogLine) for line in view.log)
    with pytest.raises(FrozenInstanceError):
        shown.claimed = 8
    done = played("double_skunk").session.view()
    assert isinstance(done.result, GameResult) and done.results == (done.result,)
    assert RenegeSeen(0, 1, 2).penalty == 2


def test_how_the_play_is_entered_is_a_pegging_mode():
    from companion.game.events import NewGame, PegBy, PeggingMode

    session = GameSession.new(["Ann", "Ben"], pegging="points")
    assert session.view().pegging is PeggingMode.POINTS and session.game.pegging_by is PeggingMode.POINTS
    session.peg_by("cards")
    assert session.view().pegging is PeggingMode.CARDS
    first, switch = session.journal[0], session.journal[-1]
    assert first.as_json()["pegging"] == "points" and switch.as_json() == {"type": "peg-by", "mode": "cards"}
    assert NewGame.from_json(json.loads(json.dumps(first.as_json()))).pegging is PeggingMode.POINTS
    assert PegBy.from_json({"mode": "points"}).mode is PeggingMode.POINTS
    assert GameSession.new(["Ann", "Ben"]).view().pegging is PeggingMode.CARDS  # older journals: no field
    with pytest.raises(ValueError, match="mode: expected one of cards, points, got 'dice'"):
        session.peg_by("dice")


# --- where points came from, which count a show is ------------------------------------------------
def test_log_and_show_kinds_are_the_words_json_holds():
    from companion.game import LogKind, ShowKind

    assert [k.value for k in LogKind] == ["heels", "play", "hand", "crib", "muggins", "penalty", "lost"]
    assert [k.value for k in ShowKind] == ["hand", "crib"]
    for word in (*LogKind, *ShowKind):
        assert str(word) == f"{word}" == word.value and json.loads(json.dumps(word)) == word.value
    game = played("double_skunk").session.game
    assert all(isinstance(line.kind, LogKind) for line in game.log)
    assert all(isinstance(record.kind, ShowKind) for record in game.shows)
    session = GameSession.new(["Ann", "Ben"], {"preset": "acc", "muggins": "optional"}, first_dealer="Ann")
    source_001_deal(session)
    assert session.view().next_show.kind is ShowKind.HAND
    session.show(claim=2)  # Ben's hand is worth 4: 2 missed, Ann may take them
    view = session.view()
    assert view.shown[0].kind is ShowKind.HAND and view.offers[0].kind is LogKind.HAND
    assert json.loads(json.dumps(view.as_json()))["offers"][0]["kind"] == "hand"


def test_a_log_line_or_show_of_an_unknown_kind_is_refused():
    from companion.game import GameError, LogKind
    from companion.game.records import LogLine, Offer, ShowRecord

    words = "heels, play, hand, crib, muggins, penalty, lost"
    with pytest.raises(GameError, match=rf"^kind: expected a LogKind \({words}\), got the bare word 'dice'$"):
        LogLine(3, 1, 1, 0, 0, 2, "dice", "Ann: 15 for 2")
    with pytest.raises(GameError, match=r"^kind: expected a LogKind \(.*\), got the bare word 'lost'$"):
        LogLine(3, 1, 1, 0, 0, 0, "lost", "2 lost")  # the right word, but not the member
    with pytest.raises(GameError, match=r"^kind: expected a LogKind \(.*\), got the bare word 'play'$"):
        Offer(3, 0, 0, 2, "play", (1,), "when the scorer pegs again")
    with pytest.raises(GameError, match=r"^kind: expected a ShowKind \(hand, crib\), got <LogKind.MUGGINS: .*>$"):
        ShowRecord(1, 1, 0, LogKind.MUGGINS, ("5H",), "JD", 2, 2, "fifteen 2", None)


# The words a log line's or a show's kind, a group's role (vision.Role) and a journal entry's TYPE
# hold; compared bare, a typo or a rename goes unseen.
KIND_WORDS = {"heels", "play", "hand", "crib", "muggins", "penalty", "lost", "starter", "unknown",
              "discard", "cut", "lay", "go", "show", "decline", "next-game", "peg", "undo", "redo"}
KIND_NAMES = {"kind", "role", "TYPE"}
SCANNED = ("companion", "vision", "hardware")


def _is_kind(node) -> bool:
    """``x.kind``, ``kind`` or ``x["kind"]`` (and the same of ``role`` and ``TYPE``)."""
    import ast

    return (isinstance(node, ast.Attribute) and node.attr in KIND_NAMES
            or isinstance(node, ast.Name) and node.id in KIND_NAMES
            or isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in KIND_NAMES)


def _bare_words(node) -> set[str]:
    import ast

    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)} & KIND_WORDS


def bare_kind_comparisons(source: str, name: str) -> list[str]:
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            words = set().union(*(_bare_words(o) for o in operands))
            if words and any(_is_kind(o) for o in operands):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_kind_is_compared_with_a_bare_word():
    root = Path(__file__).resolve().parents[2]
    found = [hit for folder in SCANNED for path in sorted((root / folder).rglob("*.py"))
             for hit in bare_kind_comparisons(path.read_text(), str(path.relative_to(root)))]
    assert not found, "compare with LogKind / ShowKind / Role members or the entry's class:\n" + "\n".join(found)


def test_the_kind_scan_finds_a_bare_word():
    source = ('if nxt.kind == "crib": pass\nif line.kind in ("play", "heels"): pass\nif kind != "lost": pass\n'
              'if line["kind"] == "muggins": pass\nif g.role == "crib": pass\nif item.kind == "fifteen": pass\n'
              'if entry.TYPE == "discard": pass\nif role in ("starter",): pass\n')
    assert [hit.split(": ", 1)[0] for hit in bare_kind_comparisons(source, "x.py")] == [
        "x.py:1", "x.py:2", "x.py:3", "x.py:4", "x.py:5", "x.py:7", "x.py:8"]
