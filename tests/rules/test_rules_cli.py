"""crib score / stats / peg / discard: the JSON contract, batch mode, and bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, monkeypatch, argv, stdin=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_text(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, ["score", "5H", "5C", "5S", "JD", "--starter", "5D"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("fifteen two, fifteen four,") and lines[0].endswith("one for his nob is twenty-nine")
    assert lines[1] == "total 29"


def test_score_json_contract(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["score", "5h", "5♣", "5S", "jack of diamonds",
                                                "--starter", "5D", "--json", "--claim", "28"])
    data = json.loads(out)
    assert status == 0
    assert list(data) == ["hand", "starter", "crib", "total", "items", "spoken", "claim"]
    assert data["hand"] == ["5H", "5C", "5S", "JD"] and data["starter"] == "5D"
    assert data["crib"] is False and data["total"] == 29
    assert all(list(item) == ["kind", "cards", "points"] for item in data["items"])
    assert {item["kind"] for item in data["items"]} == {"fifteen", "pair", "nobs"}
    assert sum(item["points"] for item in data["items"]) == 29
    assert data["claim"] == {"claimed": 28, "entitled": 29, "muggins": 1, "overclaim": 0, "pegged": 29}


def test_score_crib_and_overclaim(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["score", "2D", "4D", "8D", "KD", "--starter", "6C",
                                                "--crib", "--json", "--claim", "4"])
    data = json.loads(out)
    assert (data["crib"], data["total"], data["items"]) == (True, 0, [])
    assert data["claim"] == {"claimed": 4, "entitled": 0, "muggins": 0, "overclaim": 4, "pegged": 0}
    assert data["spoken"] == "nineteen"


def test_score_claim_text_names_the_mode(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["score", "5H", "5C", "6D", "JD", "--starter", "4D",
                                          "--claim", "15", "--rules", "pub"])
    assert out.splitlines()[-1] == "claimed 15 of 17: 2 missed; muggins is mandatory, an opponent takes them"


def test_score_with_muggins_off_pegs_the_right_count_as_the_game_does(capsys, monkeypatch):
    """Issue 48: one rule for a claim too low with muggins off (docs/RULES.md): the right count is
    pegged, by crib score and by the game alike."""
    from companion.game import GameSession

    _, out, _ = run(capsys, monkeypatch, ["score", "4H", "5H", "6H", "6D", "--starter", "6S", "--claim", "20"])
    assert out.splitlines()[-2:] == [
        "total 21", "claimed 20 of 21: 1 missed, the peg goes to 21 (muggins is off: the right count is pegged)"]
    session = GameSession.new(["Ann", "Ben"], "acc", first_dealer=0)
    session.discard([["2C", "2H"], ["3C", "9H"]])
    session.cut("6S")
    for played in ("4H", "KC", "6D", "QC", "go", "go", "5H", "JC", "6H", "TC"):  # Ben holds 4H 5H 6H 6D
        session.go() if played == "go" else session.lay(played)
    before = session.view().scores
    lines = session.show(claim=20)
    assert session.view().scores[1] - before[1] == 21 and lines[-1].claimed == 20 and "corrected to 21" in lines[-1].text


@pytest.mark.parametrize("claim", [19, 25, 26, 27])
@pytest.mark.parametrize("crib", [False, True])
def test_a_total_no_hand_or_crib_can_score_is_refused(capsys, monkeypatch, claim, crib):
    argv = ["score", "5H", "5C", "6D", "JD", "--starter", "4D", "--claim", str(claim)] + (["--crib"] if crib else [])
    status, out, err = run(capsys, monkeypatch, argv)
    what = "crib" if crib else "hand"
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"--claim: {claim} is impossible: no {what} counts {claim}" in err
    assert ('"nineteen" is said' in err) == (claim == 19)


@pytest.mark.parametrize("argv, message", [
    (["score", "5X", "5C", "5S", "JD", "--starter", "5D"], "crib score: error: not a card: '5X'"),
    (["score", "11H", "5C", "5S", "JD", "--starter", "5D"], "'11H'"),
    (["score", "5H", "5C", "5S", "JD"], "the starter is missing"),
    (["score", "5H", "5C", "5S", "--starter", "5D"], "give 4 cards"),
    (["score", "5H", "5C", "5S", "5H", "--starter", "5D"], "5H appears twice"),
    (["score", "5H", "5C", "5S", "JD", "--starter", "5H"], "the starter is also in the hand"),
    (["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--claim", "3", "--rules", "club"], "unknown rule set"),
    (["score", "5H", "--batch"], "--batch reads hands from stdin"),
    (["discard", "5H", "5C", "6D", "JD", "--dealer"], "6 cards"),
    (["discard", "5H", "5C", "6D", "JD", "4S", "ZZ", "--pone"], "'ZZ'"),
])
def test_bad_input_is_one_line_and_status_2(capsys, monkeypatch, argv, message):
    status, out, err = run(capsys, monkeypatch, argv)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_discard_needs_a_side(capsys):
    with pytest.raises(SystemExit) as info:
        main(["discard", "5H", "5C", "6D", "JD", "4S", "KC"])
    assert info.value.code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_batch_mode(capsys, monkeypatch):
    lines = [
        {"hand": ["5H", "5C", "5S", "JD"], "starter": "5D"},
        {"hand": ["5H"], "starter": "5D"},
        "not json",
        {"hand": ["2D", "4D", "8D", "KD"], "starter": "6C", "crib": True},
        {"hand": ["2D", "4D", "8D", "KD"], "starter": "6C", "crib": "yes"},
        {"hand": ["5X", "4D", "8D", "KD"], "starter": "6C"},
        {"hand": ["2D", "4D", "8D", "KD"], "starter": "6C", "extra": 1},
        {"hand": ["2D", "4D", "8D", "KD"], "starter": "6C"},
    ]
    stdin = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    status, out, err = run(capsys, monkeypatch, ["score", "--batch"], stdin)
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and err == ""
    assert len(results) == len(lines)
    assert results[0] == {"total": 29} and results[3] == {"total": 0} and results[7] == {"total": 4}
    for index in (1, 2, 4, 5, 6):
        assert list(results[index]) == ["error"]
    assert "4 cards" in results[1]["error"] and "not JSON" in results[2]["error"]
    assert "'5X'" in results[5]["error"] and "extra" in results[6]["error"]


def test_batch_explain_and_clean_exit(capsys, monkeypatch):
    stdin = json.dumps({"hand": ["5H", "5C", "6D", "JD"], "starter": "4D", "crib": False}) + "\n"
    status, out, _ = run(capsys, monkeypatch, ["score", "--batch", "--explain"], stdin)
    result = json.loads(out)
    assert status == 0 and list(result) == ["total", "items"] and result["total"] == 17
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in result["items"]


@pytest.mark.parametrize("crib, zero", [([], 1_009_008), (["--crib"], 1_022_208)])
def test_stats_json(capsys, monkeypatch, crib, zero):
    status, out, _ = run(capsys, monkeypatch, ["stats", *crib, "--json"])
    data = json.loads(out)
    assert status == 0 and list(data) == ["hands", "counts", "mean", "seconds"]
    assert data["hands"] == 12_994_800 and len(data["counts"]) == 30 and data["counts"][0] == zero
    assert data["counts"][29] == 4 and data["seconds"] < 10


def test_stats_text(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["stats"])
    assert "mean 4.769152" in out and " 29            4" in out


SOURCE_001 = {"players": 2, "plays": "TH 5H 5S 5C go 6D 7C JD 8S".split(),
              "hands": [["TH", "5S", "7C", "8S"], ["5H", "5C", "6D", "JD"]]}


def test_peg_json_contract(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["peg", "--json"], json.dumps(SOURCE_001))
    data = json.loads(out)
    assert status == 0 and list(data) == ["events", "totals", "reneges"]
    assert data["events"][0] == {"player": 0, "play": "TH", "count": 10, "points": 0, "reasons": []}
    assert data["events"][4] == {"player": 0, "play": "go", "count": 25, "points": 0, "reasons": []}
    assert data["events"][5] == {"player": 1, "play": "6D", "count": 31, "points": 2, "reasons": ["thirty-one"]}
    assert data["totals"] == [3, 10] and data["reneges"] == []


def test_peg_reports_reneges(capsys, monkeypatch):
    request = {"players": 2, "plays": "4S 7H 4D JC go 5C go 2C 8D 9S".split(),
               "hands": [["4S", "4D", "2C", "9S"], ["7H", "JC", "5C", "8D"]]}
    _, out, _ = run(capsys, monkeypatch, ["peg", "--json"], json.dumps(request))
    assert json.loads(out)["reneges"] == [
        {"player": 0, "event": 4, "count": 25, "playable": ["2C"], "penalty": 2}]


def test_peg_text_shows_partnerships(capsys, monkeypatch):
    request = {"players": 4, "plays": "TC 5D 5S 5H 5C go go go go".split()}
    status, out, _ = run(capsys, monkeypatch, ["peg"], json.dumps(request))
    assert status == 0
    assert "totals: player 0 13, player 1 2, player 2 2, player 3 6" in out
    assert "partnerships: 0 & 2 15, 1 & 3 8" in out


@pytest.mark.parametrize("stdin, message", [
    ("{", "stdin is not JSON"),
    ("[]", "must be a JSON object"),
    ('{"players": 2, "plays": ["TH", "TS", "TC", "2C"]}', "over 31"),
    ('{"players": 2, "plays": ["TH", "TH"]}', "TH was already laid"),
    ('{"players": 6, "plays": []}', "2, 3 or 4 players"),
    ('{"players": 2, "plays": "TH"}', '"plays" must be a list'),
    ('{"players": 2, "plays": [], "hand": []}', "unknown key: hand"),
    ('{"players": 2, "plays": ["5H"], "hands": [["5D", "2C", "3C", "4C"], ["6D", "7D", "8D", "9D"]]}',
     "player 0 does not hold 5H"),
])
def test_peg_bad_input(capsys, monkeypatch, stdin, message):
    status, out, err = run(capsys, monkeypatch, ["peg", "--json"], stdin)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err


# ---------------------------------------------------------------- issue 56 s3: the play typed as a player says it

def test_peg_typed_plays_print_as_the_json_form_does(capsys, monkeypatch):
    plays = SOURCE_001["plays"]
    json_status, json_text, _ = run(capsys, monkeypatch, ["peg"], json.dumps({"players": 2, "plays": plays}))
    status, text, err = run(capsys, monkeypatch, ["peg", *plays], "stdin is not read")
    assert (status, err) == (0, "") and json_status == 0 and text == json_text
    assert text.splitlines()[5] == "player 1  6D   31  2 (thirty-one)"
    assert text.splitlines()[-1] == "totals: player 0 3, player 1 10"
    _, as_json, _ = run(capsys, monkeypatch, ["peg", "--json", *plays])
    _, json_json, _ = run(capsys, monkeypatch, ["peg", "--json"], json.dumps({"players": 2, "plays": plays}))
    assert json.loads(as_json) == json.loads(json_json)


def test_peg_typed_turns_follow_each_go_and_each_31(capsys, monkeypatch):
    # 3 players: after a go the next player on goes on; 31 starts the count again, led by the next player
    _, out, _ = run(capsys, monkeypatch, ["peg", "--players", "3", *"TH 9C 8D go 4S 5H".split()])
    lines = out.splitlines()
    assert [line.split()[1] for line in lines[:6]] == ["0", "1", "2", "0", "1", "2"]
    assert lines[4] == "player 1  4S   31  2 (thirty-one)" and lines[5] == "player 2  5H    5"
    # 2 players: once both said go, the last to lay pegs the go and the other leads the new count
    _, out, _ = run(capsys, monkeypatch, ["peg", *"KH QH 5C go 4C go AC".split()])
    assert out.splitlines()[:7] == [
        "player 0  KH   10", "player 1  QH   20", "player 0  5C   25", "player 1  go   25",
        "player 0  4C   29  1 (go)", "player 0  go   29", "player 1  AC    1"]


def test_peg_dealer_names_the_seats(capsys, monkeypatch):
    plays = SOURCE_001["plays"]
    status, out, _ = run(capsys, monkeypatch, ["peg", "--dealer", "0", *plays])
    lines = out.splitlines()
    assert status == 0 and lines[0] == "player 1  TH   10" and lines[1] == "player 0  5H   15  2 (fifteen)"
    assert lines[-1] == "totals: player 0 10, player 1 3"
    request = {"players": 2, "dealer": 0, "plays": plays, "hands": SOURCE_001["hands"][::-1]}  # hands by seat
    _, from_json, _ = run(capsys, monkeypatch, ["peg"], json.dumps(request))
    assert from_json == out
    _, out, _ = run(capsys, monkeypatch, ["peg", "--players", "4", "--dealer", "1", *"TC 5D 5S 5H 5C".split()])
    assert [line.split()[1] for line in out.splitlines()[:5]] == ["2", "3", "0", "1", "2"]


@pytest.mark.parametrize("argv, message", [
    (["TH", "5X"], "play 2 (5X): not a card: '5X'"),
    (["TH", "TH"], "play 2 (TH): card TH was already laid"),
    (["TH", "TS", "TC", "2C"], "play 4 (2C): 2C by player 1 takes the count to 32 (over 31); "
                               "if that player could not lay a card, type go before it"),
    (["TH,5H"], "separate the plays with spaces, not commas: crib peg TH 5H"),
    (["--dealer", "2", "TH"], "--dealer must be the dealer's seat, 0 to 1 with 2 players, got 2"),
    (["--players", "5", "TH"], "argument --players: invalid choice: 5"),
    ("AC AD AH AS 2C 2D 2H 2S go".split(), "play 9 (go): cannot say go: the play is over (all 8 cards laid)"),
])
def test_peg_typed_bad_input_is_one_line_and_status_2(capsys, monkeypatch, argv, message):
    try:
        status = main(["peg", *argv])
    except SystemExit as exit:  # argparse's own check, one line through the crib parser
        status = exit.code
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("crib peg: error: ") and message in err


@pytest.mark.parametrize("argv, stdin, message", [
    (["--players", "3"], '{"players": 2, "plays": ["TH"]}', "--players and --dealer go with typed plays"),
    ([], '{"players": 2, "plays": ["TH"], "dealer": 2}', '"dealer" must be the dealer\'s seat, 0 to 1'),
    ([], '{"players": 0, "plays": ["TH"]}', "2, 3 or 4 players, got 0"),
])
def test_peg_json_seats_bad_input(capsys, monkeypatch, argv, stdin, message):
    status, out, err = run(capsys, monkeypatch, ["peg", *argv], stdin)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_discard_json_and_text(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["discard", "5H", "5C", "6D", "JD", "4S", "KC", "--pone", "--json"])
    data = json.loads(out)
    assert status == 0 and list(data) == ["dealt", "dealer", "crib_model", "options"]
    assert data["dealer"] is False and len(data["options"]) == 15
    best = data["options"][0]
    assert list(best) == ["discard", "keep", "expected_hand", "expected_crib", "expected_net"]
    assert best["discard"] == ["JD", "KC"]
    assert best["expected_net"] == pytest.approx(best["expected_hand"] - best["expected_crib"], abs=1e-5)
    _, text, _ = run(capsys, monkeypatch, ["discard", "5H", "5C", "6D", "JD", "4S", "--dealer"])
    assert text.splitlines()[0].split() == ["discard", "keep", "hand", "+crib", "net"]
    assert len(text.splitlines()) == 7 and "uniformly from the unseen cards" in text.splitlines()[-1]


def test_console_command_end_to_end():
    # the real entry point: one line on stderr, status 2, no traceback
    bad = subprocess.run([sys.executable, "-m", "companion", "score", "5X", "5C", "5S", "JD", "--starter", "5D"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "crib score: error: not a card: '5X' (bad suit; expected rank A 2-10 T J Q K and suit C D H S)\n"
    batch = subprocess.run([sys.executable, "-m", "companion", "score", "--batch"], capture_output=True,
                           text=True, input='{"hand":["5H","5C","5S","JD"],"starter":"5D"}\n{"hand":[]}\n')
    assert batch.returncode == 1
    assert [json.loads(line) for line in batch.stdout.splitlines()][0] == {"total": 29}


# ---------------------------------------------------------------- issue 17: hints where a newcomer goes wrong

def test_crib_alone_prints_the_version_and_every_command(capsys):
    from importlib.metadata import version

    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"crib (Crib Companion) {version('crib-companion')}\n")
    for command in ("score", "peg", "discard", "recognize", "show", "board", "game", "app"):
        assert f"\n    {command}" in out


def test_cards_separated_by_commas_are_told_to_use_spaces(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, ["score", "5H,5C,6D,JD", "--starter", "4D"])
    assert status == 2 and out == ""
    assert err == "crib score: error: separate the cards with spaces, not commas: crib score 5H 5C 6D JD\n"


def test_five_cards_without_a_starter_suggest_the_last_as_starter(capsys, monkeypatch):
    status, _, err = run(capsys, monkeypatch, ["score", "5H", "5C", "6D", "JD", "4D"])
    assert status == 2
    assert err.rstrip().endswith("e.g. crib score 5H 5C 6D JD --starter 4D")


def test_a_card_with_the_suit_first_suggests_the_card(capsys, monkeypatch):
    status, _, err = run(capsys, monkeypatch, ["score", "H5", "5C", "6D", "JD", "--starter", "4D"])
    assert status == 2 and "not a card: 'H5' (did you mean 5H? rank first, then suit)" in err
    status, _, err = run(capsys, monkeypatch, ["score", "5H", "5C", "6D", "JD", "--starter", "d4"])
    assert status == 2 and "did you mean 4D?" in err


def test_explain_lists_the_combinations_without_batch(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, ["score", "5H", "5C", "6D", "JD", "--starter", "4D", "--explain"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    items = [line.split() for line in lines[1:-1]]
    assert lines[-1] == "total 17"
    assert sum(int(item[-1]) for item in items) == 17
    assert ["nobs", "JD", "1"] in items and ["pair", "5H", "5C", "2"] in items
    assert sum(1 for item in items if item[0] == "fifteen") == 4


def test_peg_at_a_terminal_shows_an_example_first(capsys, monkeypatch):
    class Typed(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Typed('{"players": 2, "plays": ["TH", "5H"]}'))
    assert main(["peg"]) == 0
    out, err = capsys.readouterr()
    example = err.splitlines()[1].strip()
    assert err.startswith("crib peg: type the play as JSON, then Ctrl-D") and json.loads(example)["players"] == 2
    assert err.splitlines()[-1] == "or give the plays as arguments: crib peg TH 5H 5S go 6D"
    assert "player 1  5H   15  2 (fifteen)" in out
    status, out, err = run(capsys, monkeypatch, ["peg"], example)  # the example itself plays
    assert status == 0 and err == "" and "totals:" in out


# issue 36: a claim no hand could score is a mistyped number, refused in one line (not an overclaim)
def test_crib_score_refuses_a_claim_no_hand_can_score(capsys):
    status = main(["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--claim", "40"])
    err = capsys.readouterr().err
    assert status == 2 and err.strip() == "crib score: error: --claim: 40 is impossible: no hand counts more than 29"
    assert main(["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--claim", "-3"]) == 2
    assert "a claim cannot be negative" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["train", "--recipe", "v9", "--help"],
                                  ["score", "5H", "5C", "5S", "JD", "--starter", "5D"],
                                  ["recognize", "--json", "sample_images/hand_starter_spread.jpg"]])
def test_output_into_a_closed_pipe_ends_quietly(argv):
    # `crib ... | head -1`: the reader has gone before crib writes; no BrokenPipeError traceback
    child = subprocess.Popen([sys.executable, "-m", "companion", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT)
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 0 and err == ""
