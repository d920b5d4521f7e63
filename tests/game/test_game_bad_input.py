"""Bad input in bulk: game scripts and exports with one field changed, fed to ``crib game replay
--save`` and ``crib game import``. A value of a type no field takes is always refused: exit 2, one
line naming the field, and no game stored. Any other value is either played (and stored) or
refused the same way; never a traceback."""

import contextlib
import copy
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.cli import main
from companion.game import Store
from companion.game.script import run_script

from tests.game.conftest import script
from test_game_scripts import bad as _changed  # a copy of the document with one value changed

SCRIPTS = ("readme_example", "three_players", "four_players", "pub_best_of_three", "lowball")
# In an export these are for the reader only: the import recomputes them.
NOT_READ = ("exported", "summary")
# No field of a script or an export takes any of these (a fraction, a negative number, an object
# with an unknown field, a list of lists of fractions).
NEVER_VALID = (1.5, -1, {"?": 1}, [[1.5]])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "go", "Ann", "Ben", "5H", "crib", "decline", "acc", "show", "x" * 3]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["card", "go", "claim", "cards", "key", "type", "Ann", "?"]), inner, max_size=3),
    max_leaves=8)


def _paths(node, path=()):
    """Every value's path in a JSON document (not the root)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield path + (key,)
        yield from _paths(child, path + (key,))


def _scripts():
    return {name: script(name) for name in SCRIPTS}


def _exports():
    exports = {}
    for name in SCRIPTS[:3]:
        session = run_script(script(name)).session
        session.undo()  # an undo and an entry waiting for redo, so history entries are fed too
        exports[name] = session.export()
    return exports


DOCUMENTS = {"replay": _scripts(), "import": _exports()}
PATHS = {kind: {name: [p for p in _paths(doc) if p[0] not in NOT_READ] for name, doc in docs.items()}
         for kind, docs in DOCUMENTS.items()}


def _crib(kind: str, document, folder: Path) -> tuple[int, str, int]:
    """Run ``crib game replay --save`` or ``crib game import`` on the document: the exit status,
    stderr, and how many games the store gained."""
    path = folder / "input.json"
    path.write_text(json.dumps(document))
    before = len(Store().games())
    err = io.StringIO()
    args = ["game", "replay", str(path), "--save"] if kind == "replay" else ["game", "import", str(path)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(args)
    return status, err.getvalue(), len(Store().games()) - before


def _one_clear_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("crib game: error: ") and "Traceback" not in err, err
    return lines[0]


@st.composite
def mutation(draw, kind, values):
    name = draw(st.sampled_from(sorted(DOCUMENTS[kind])))
    path = draw(st.sampled_from(PATHS[kind][name]))
    return name, path, draw(values)


@pytest.mark.parametrize("kind", ["replay", "import"])
def test_every_unchanged_document_is_accepted_and_stored(kind, tmp_path):
    for document in DOCUMENTS[kind].values():
        status, err, stored = _crib(kind, document, tmp_path)
        assert (status, err, stored) == (0, "", 1)


@pytest.mark.parametrize("kind", ["replay", "import"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_value_no_field_takes_is_refused_with_one_line_and_nothing_stored(kind, tmp_path, data):
    name, path, value = data.draw(mutation(kind, st.sampled_from(NEVER_VALID)))
    status, err, stored = _crib(kind, _changed(DOCUMENTS[kind][name], path, value), tmp_path)
    assert status == 2, (name, path, value)
    _one_clear_line(err)
    assert stored == 0


@pytest.mark.parametrize("kind", ["replay", "import"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_value_is_played_or_refused_cleanly(kind, tmp_path, data):
    name, path, value = data.draw(mutation(kind, JSON_VALUES))
    status, err, stored = _crib(kind, _changed(DOCUMENTS[kind][name], path, value), tmp_path)
    if status == 0:
        assert err == "" and stored == 1
    else:
        assert status == 2, (name, path, value)
        _one_clear_line(err)
        assert stored == 0


@pytest.mark.parametrize("players, message", [
    ([5, "Ben"], "players[0]: a player's name is text, got 5"),
    (["Ann", None], "players[1]: a player's name is text, got None"),
    (["Ann", ["Ben"]], "players[1]: a player's name is text, got ['Ben']"),
    (["Ann", "  "], "players[1]: a player's name is text, got '  '"),
])
def test_a_player_name_that_is_not_text_is_named(players, message, tmp_path):
    for kind in ("replay", "import"):
        document = copy.deepcopy(DOCUMENTS[kind]["readme_example"])
        if kind == "replay":
            document["players"] = players
        else:
            document["entries"][0]["players"] = players
        status, err, stored = _crib(kind, document, tmp_path)
        assert status == 2 and stored == 0
        assert message in _one_clear_line(err), err


def test_muggins_by_a_seat_that_is_not_at_the_table_is_refused(tmp_path):
    document = copy.deepcopy(DOCUMENTS["import"]["readme_example"])
    muggins = next(e for e in document["entries"] if e["type"] == "muggins")
    muggins["by"] = 2  # a two-player game has seats 0 and 1
    status, err, stored = _crib("import", document, tmp_path)
    assert status == 2 and stored == 0
    assert "by: seat 2 is not one of the 2 seats" in _one_clear_line(err)
