"""The screens call the session's methods themselves (issue 49 s4): ``act(GameSession.lay, ...)``
runs that method on the game lane; no move is named by a string looked up at run time."""

import re
import time
from pathlib import Path

import pytest

from companion.game import GameSession, Phase
from companion.ui.background import direct_deliver
from companion.ui.services import Companion

ROOT = Path(__file__).resolve().parents[2]


def settled(companion: Companion) -> None:
    deadline = time.monotonic() + 30
    while not companion.idle:
        assert time.monotonic() < deadline, "the game lane did not finish"
        time.sleep(0.01)


def test_a_move_is_the_session_method_itself(tmp_path):
    companion = Companion(tmp_path, deliver=direct_deliver)
    opened, results, errors = [], [], []
    companion.new_game(["Ann", "Ben"], {"preset": "acc"}, first_dealer=0, done=opened.append)
    settled(companion)
    companion.act(GameSession.discard, done=results.append)
    companion.act(GameSession.cut, "JD", done=results.append)
    companion.act(GameSession.lay, "AS", done=results.append, failed=errors.append)
    companion.act(GameSession.next_game, failed=errors.append)  # refused by the session, in words
    settled(companion)
    assert opened and companion.view.phase is Phase.PLAY and companion.view.count == 1
    assert [line.text for line in results[1]] == ["Ann: his heels for 2"] and results[2] == []
    assert [str(e) for e in errors] == ["the current game is not over"]
    with pytest.raises(TypeError, match="GameSession method"):
        companion.act(None)
    companion.close_game()
    settled(companion)


def test_no_move_is_named_by_a_string():
    sources = {p: p.read_text() for area in ("companion/ui", "bench", "tests/ui") for pattern in ("*.py", "*.kv")
               for p in (ROOT / area).rglob(pattern) if p.name != "test_direct_calls.py"}
    named = {p.name: m for p, text in sources.items() for m in re.findall(r"""\bact\(\s*['"]\w+""", text)}
    assert not named
    assert not any("getattr(self._session" in text for text in sources.values())
