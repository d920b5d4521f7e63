"""The table the player sees, before and after a change to how cards are grouped (issue 49 s1):
records, on the recognitions of ``bench/recognition_diff.py``'s set, what the product makes of
each photo, then reruns it on the same recognitions and prints what differs.

    python bench/table_diff.py --record [--out build/table_baseline]
    python bench/table_diff.py [--baseline build/table_baseline]

``--record`` recognises the set once (the sample photos, the real validation scenes when
``../shared/data/real-cards`` is here, and the rendered scenes of a recognition baseline,
``--scenes``) and keeps the recognitions beside the table's results (``recognitions.pkl``), so a
rerun takes seconds and tells the table's changes apart from the recognition's (which
``bench/recognition_diff.py`` compares). Per photo, in the player's words: the groups and notices
as counted (``count_recognition`` after ``name_unread`` with nothing named), each unread box
(the first three) named as a card not in the photo and left out, each flagged card (the first
three) confirmed, and the review (``Review``): every card's group and flag, after confirming each
flagged card and leaving out each unread box, and the reviewed recognition once nothing is left
to check. Exit status 1 when anything differs, 2 when there is no baseline.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DIR = ROOT / "build" / "table_baseline"
SCENES_OF = ROOT / "build" / "refactor_baseline_s23"
SPARE = ("AS", "KD", "7C", "2H", "9S", "QC")  # named for an unread box: the first not in the photo
AT_MOST = 3  # unread boxes and flagged cards tried per photo


def _table(recognition) -> dict:
    return {"cards": [(c.card, c.confirm) for c in recognition.cards],
            "groups": [g.as_json() for g in recognition.groups],
            "warnings": recognition.warning_texts(),
            "unread": len(recognition.unread_boxes)}


def _counted(recognition) -> dict:
    from companion.photo import count_recognition

    try:
        show = count_recognition(recognition)
    except ValueError as exc:
        return {"error": str(exc)}
    return {"groups": [(g.label, str(g.role), list(g.cards), g.problem, g.show.total if g.show else None)
                       for g in show.groups],
            "warnings": list(show.warnings), "doubts": [d.message for d in show.doubts]}


def _tried(what, *args) -> dict:
    try:
        return what(*args)
    except ValueError as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def _review_state(review) -> dict:
    return {"cards": [(c.code, str(c.group), c.unsure, c.confirmed) for c in review.cards],
            "groups": {str(k): v for k, v in review.groups().items()},
            "problems": review.problems()}


def table_results(recognition) -> dict:
    """What the product makes of one recognition (see the module docstring)."""
    from companion.photo import count_show, name_unread
    from companion.ui.review import Review

    out = {"as_counted": _tried(lambda r: {**_table(t := name_unread(r, {})), "show": _counted(t)}, recognition)}
    taken = {c.card for c in recognition.cards}
    spare = next(code for code in SPARE if code not in taken)
    for number in range(1, min(len(recognition.unread_boxes), AT_MOST) + 1):
        out[f"named {number}"] = _tried(lambda r: _table(name_unread(r, {number: spare})), recognition)
        out[f"left out {number}"] = _tried(lambda r: _table(name_unread(r, {number: None})), recognition)
    flagged = [c.card for c in recognition.cards if c.confirm][:AT_MOST]
    for code in flagged:
        out[f"confirmed {code}"] = _tried(lambda r: _table(count_show(r, confirmed=[code]).recognition), recognition)

    def review_of(r) -> dict:
        review = Review(r)
        states = {"start": _review_state(review)}
        for i, card in enumerate(list(review.cards)):
            if card.code is None:
                review.not_a_card(i)
            elif card.unsure:
                review.confirm(i)
            else:
                continue
            states[f"after {i}"] = _review_state(review)
        if not review.problems():
            states["result"] = _table(review.recognition())
        return states

    out["review"] = _tried(review_of, recognition)
    return out


def recognitions(scenes: Path) -> dict:
    """The set's recognitions, as ``bench/recognition_diff.py`` reads them (its scenes from the
    baseline folder ``scenes``)."""
    from bench.recognition_diff import photo_set
    from vision import Recognizer

    recognizer = Recognizer()
    return {key: recognizer.recognize(source, name)
            for key, source, name in photo_set(("samples", "real", "scenes"), scenes, record=False)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="recognise the set and record the table's results")
    parser.add_argument("--baseline", "--out", dest="folder", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--scenes", type=Path, default=SCENES_OF, help="a recognition baseline's folder (its scenes)")
    parser.add_argument("--kept", action="store_true",
                        help="with --record: the recognitions already kept in the folder, not made again")
    args = parser.parse_args(argv)
    kept, results_file = args.folder / "recognitions.pkl", args.folder / "table.json"
    start = time.perf_counter()
    if args.record and args.kept and kept.is_file():
        found = pickle.loads(kept.read_bytes())
    elif args.record:
        found = recognitions(args.scenes)
        args.folder.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(pickle.dumps(found))
    elif not kept.is_file() or not results_file.is_file():
        parser.exit(2, f"error: {results_file} not found: run with --record first (before the change)\n")
    else:
        found = pickle.loads(kept.read_bytes())
    results = {name: json.loads(json.dumps(table_results(r))) for name, r in found.items()}
    seconds = time.perf_counter() - start
    if args.record:
        results_file.write_text(json.dumps(results, indent=0))
        print(f"recorded the table of {len(results)} photos in {seconds:.0f} s to {results_file}")
        return 0
    baseline = json.loads(results_file.read_text())
    differing = 0
    for name, after in results.items():
        before = baseline.get(name)
        if before == after:
            continue
        differing += 1
        print(f"{name}:")
        for key in sorted(set(before or {}) | set(after)):
            if (before or {}).get(key) != after.get(key):
                print(f"  {key}: {(before or {}).get(key)}\n    -> {after.get(key)}")
    tried = sum(len(r) for r in results.values())
    print(f"compared the table of {len(results)} photos ({tried} cases) in {seconds:.0f} s: "
          f"{'no difference' if not differing else f'{differing} photos differ'}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
