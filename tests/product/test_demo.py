"""companion.demo and ``crib samples``: recognition judged against the photos' JSON sidecars, and
the summary line ``make demo`` ends with."""

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.demo import (DemoSummary, PhotoJudgement, SidecarError, judge, judge_folder, judge_photos,
                            photos_in, read_truth)
from vision import CardGroup, RecognizedCard, Recognition, Role

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"


def _sidecar(folder: Path, stem: str, groups, hidden=()) -> Path:
    """A scene annotation: every card with one index, shown unless listed in ``hidden``."""
    cards = [{"card": c, "box": [0, 0, 10, 14], "indices": [{"box": [0, 0, 2, 3], "visible": c not in hidden}]}
             for _, codes in groups for c in codes]
    path = folder / f"{stem}.json"
    path.write_text(json.dumps({"image": f"{stem}.jpg", "cards": cards,
                                "groups": [{"role": r, "cards": list(c)} for r, c in groups]}))
    (folder / f"{stem}.jpg").write_bytes(b"not read by the fake recogniser")
    return path


def _recognition(*groups) -> Recognition:
    cards = tuple(RecognizedCard(c, 0.9, (0.0, 0.0, 10.0, 14.0)) for _, codes in groups for c in codes)
    return Recognition("table.jpg", 1280, 960, cards, tuple(CardGroup(Role(r), tuple(c)) for r, c in groups), ())


TABLE = [("hand", ("5H", "5C", "JD", "4S")), ("starter", ("5D",))]


def test_a_photo_read_exactly_is_judged_exactly_right(tmp_path):
    truth = read_truth(_sidecar(tmp_path, "a", TABLE))
    judged = judge(_recognition(*TABLE), truth, "a.jpg")
    assert (judged.expected, judged.found, judged.wrong, judged.groups_right, judged.exact) == (5, 5, 0, True, True)
    assert judged.line() == "a.jpg: 5 of 5 cards found, 0 wrong; exactly right"


def test_missed_wrong_and_regrouped_cards_are_counted(tmp_path):
    truth = read_truth(_sidecar(tmp_path, "a", TABLE))
    missed = judge(_recognition(("hand", ("5H", "5C", "JD")), ("starter", ("5D",))), truth)
    assert (missed.found, missed.wrong, missed.exact) == (4, 0, False)
    wrong = judge(_recognition(("hand", ("5H", "5C", "JD", "4S")), ("starter", ("6D",))), truth)
    assert (wrong.found, wrong.wrong, wrong.exact) == (4, 1, False)
    regrouped = judge(_recognition(("hand", ("5H", "5C", "JD", "4S", "5D"))), truth, "b.jpg")
    assert (regrouped.found, regrouped.wrong, regrouped.groups_right) == (5, 0, False)
    assert regrouped.line() == "b.jpg: 5 of 5 cards found, 0 wrong; groups differ"


def test_a_card_showing_no_index_is_not_expected_and_not_wrong_when_reported(tmp_path):
    truth = read_truth(_sidecar(tmp_path, "a", TABLE, hidden=("JD",)))
    assert truth.visible == {"5H", "5C", "4S", "5D"} and "JD" in truth.present
    for hand in (("5H", "5C", "4S"), ("5H", "5C", "JD", "4S")):
        judged = judge(_recognition(("hand", hand), ("starter", ("5D",))), truth)
        assert (judged.expected, judged.found, judged.wrong, judged.exact) == (4, 4, 0, True)


def test_the_summary_line_adds_up_every_photo(tmp_path):
    _sidecar(tmp_path, "a", TABLE)
    _sidecar(tmp_path, "b", [("hand", ("AS", "2S", "3S", "4S", "6S", "7S"))])
    (tmp_path / "no_sidecar.jpg").write_bytes(b"")
    assert [p.name for p in photos_in(tmp_path)] == ["a.jpg", "b.jpg"]
    reads = {"a.jpg": _recognition(*TABLE), "b.jpg": _recognition(("hand", ("AS", "2S", "3S", "KD")))}
    summary = judge_photos(photos_in(tmp_path), lambda photo: reads[photo.name])
    assert (summary.expected, summary.found, summary.wrong, summary.exact) == (11, 8, 1, 1)
    assert summary.line() == ("2 photos: 8 / 11 cards found (1 wrong), 1 / 2 photos exactly right "
                              "(every card, group and role)")
    assert DemoSummary(()).line().startswith("0 photos: 0 / 0 cards found")


@pytest.mark.parametrize("content,reason", [(None, "no sidecar"), ("{", "not JSON"), ('{"cards": []}', "not a scene annotation")])
def test_a_missing_or_malformed_sidecar_is_a_precise_error(tmp_path, content, reason):
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SidecarError) as err:
        read_truth(path)
    assert err.value.path == path and reason in str(err.value) and str(path) in str(err.value)


def test_crib_samples_prints_the_summary_line_of_real_photos(tmp_path, capsys):
    for stem in ("hand_starter_papers", "real_desk_three_cards"):
        shutil.copy(SAMPLES / f"{stem}.jpg", tmp_path)
        shutil.copy(SAMPLES / f"{stem}.json", tmp_path)
    assert main(["samples", str(tmp_path), "--each"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "hand_starter_papers.jpg: 5 of 5 cards found, 0 wrong; exactly right",  # models v5 (v4 left QH unread)
        # two of its cards are cut by the frame, with no card box: read from their indices' ground
        "real_desk_three_cards.jpg: 3 of 3 cards found, 0 wrong; exactly right",
        "2 photos: 8 / 8 cards found (0 wrong), 2 / 2 photos exactly right (every card, group and role)",
    ]
    assert judge_folder(tmp_path).line() == lines[-1]


def test_crib_samples_without_photos_is_a_one_line_error(tmp_path, capsys):
    assert main(["samples", str(tmp_path)]) == 2
    assert main(["samples", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"crib samples: error: {tmp_path}: no photo with a JSON sidecar",
                   f"crib samples: error: {tmp_path / 'missing'}: not a folder"]


def test_a_judgement_is_plain_data():
    judged = PhotoJudgement("x.jpg", 4, 4, 0, True)
    assert judged.exact and judged == PhotoJudgement("x.jpg", 4, 4, 0, True)


def test_a_sidecar_without_groups_judges_the_cards_only(tmp_path):
    """Loose cards or one card close up: the sidecar names no groups, so whatever groups the reader
    makes of them are not judged."""
    path = _sidecar(tmp_path, "loose", [("hand", ("KH", "2C"))])
    annotation = json.loads(path.read_text())
    annotation["groups"] = []
    path.write_text(json.dumps(annotation))
    truth = read_truth(path)
    assert truth.groups is None
    judged = judge(_recognition(("unknown", ("KH",)), ("unknown", ("2C",))), truth)
    assert (judged.found, judged.exact) == (2, True)
    assert not judge(_recognition(("unknown", ("KH",))), truth).exact


# issue 56 s3: the samples live inside the package; crib samples says where, and names them
def test_crib_samples_says_where_the_samples_are_before_judging_them(tmp_path, capsys, monkeypatch):
    shutil.copy(SAMPLES / "hand_starter_papers.jpg", tmp_path)
    shutil.copy(SAMPLES / "hand_starter_papers.json", tmp_path)
    monkeypatch.setattr("companion.cli.sample_commands.sample_images", lambda: tmp_path)
    assert main(["samples"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (f"sample photos: {tmp_path} (crib show NAME reads one by its name from any folder, "
                        "e.g. crib show hand_starter_papers)")
    assert lines[1:] == ["1 photo: 5 / 5 cards found (0 wrong), 1 / 1 photo exactly right (every card, group and role)"]


def test_crib_samples_list_names_the_photos_and_their_folder_without_reading_them(capsys, monkeypatch):
    from companion.paths import sample_images

    monkeypatch.setattr("vision.Recognizer", None)  # nothing is recognised
    assert main(["samples", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    photos = photos_in(sample_images())
    assert lines[0] == f"{len(photos)} photos in {sample_images()}"
    assert lines[1:] == [f"  {p.name}" for p in photos] and "  hand_starter_spread.jpg" in lines
