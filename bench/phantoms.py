"""The phantom rule and the index column (issue 39), measured on the Recognizer's output.

    nice -n 15 python bench/phantoms.py capture real|real-train|tuning|bench [--n 150] [--mix v4] [--layout fan] [--models DIR]
    nice -n 15 python bench/phantoms.py judge real|real-train|tuning|bench [same options]
                                              [--rules none|phantoms|column|gaps|both|all]

``capture`` runs the recogniser once per photo and keeps, per photo, what interpret was given
(the read indices and the card boxes) and what it returned, with the truth, in build/phantoms/
(a pickle; the models run once, the rules are judged many times). ``judge`` applies the rules
(``vision.phantoms``, ``vision.index_column``; ``gaps`` runs the reader on the column's gaps, the
photo decoded or rendered again) to the kept output and prints precision, unflagged
precision, recall, exactly right photos and unread boxes per family (real) or per layout
(renders), before and after, with the cards each rule changed.

real: the real validation split at 1x (as ``bench/vision.py --real --real-scales 1``: judged only);
real-train: every 5th real train photo and tuning: rendered tuning scenes (seeds 8,500,000+), where
values are chosen; bench: the rendered bench (seeds 9,000,000+: judged only, never tuned on).
``--layout fan`` renders fans and overlapping rows only.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).absolute().parent.parent  # not resolve(): a snapshot may link to this file
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))

CACHE = ROOT / "build" / "phantoms"


def capture_one(recognizer, pixels, name: str) -> dict:
    """The recognition of one photo before the rules (interpret's, the pipeline's ``table`` stage)
    with what it was given (the read indices, the card boxes, the photo's scale)."""
    given = {}
    staged = hasattr(recognizer, "table")  # the typed stages: cards -> table -> amend
    original = recognizer.table if staged else recognizer.interpret

    def spy(*args):
        result = original(*args)
        if staged:
            _cards, reads, photo, _name = args
            given.update(indices=reads.indices, card_boxes=reads.cards, scale=photo.scale, recognition=result)
        else:
            indices, card_boxes, photo, _name = args
            given.update(indices=indices, card_boxes=card_boxes, scale=photo.scale, recognition=result)
        return result

    setattr(recognizer, "table" if staged else "interpret", spy)
    try:
        recognizer.recognize(pixels, name)
    finally:
        delattr(recognizer, "table" if staged else "interpret")
    return given


def capture_real(recognizer, side: str = "val", every: int = 1) -> list[dict]:
    """The real photos of one side of the split (every ``every``-th: train is for choosing values)."""
    import cv2

    from real_photos import is_closeup
    from vision.train.real_sets import real_photos_of

    photos = [p for p in real_photos_of(side) if p.family != "crops" and p.cards][::every]
    kept = []
    for photo in photos:
        item = capture_one(recognizer, cv2.imread(str(photo.image)), photo.name)
        item.update(name=photo.name, family=photo.family, truth=frozenset(photo.cards), visible=frozenset(photo.cards),
                    closeup=is_closeup(photo))
        kept.append(item)
    return kept


def capture_rendered(recognizer, n: int, mix: str, tuning: bool, layout: str | None = None,
                     seed: int | None = None) -> list[dict]:
    vision_bench = vision_bench_module()
    width, height = vision_bench.SIZE
    args = argparse.Namespace(n=n, seed=seed, tuning=tuning, mix=mix, show_share=0.4, decks=None, workers=1,
                              size=f"{width}x{height}")
    decks, seeds = vision_bench.check_args(args, argparse.ArgumentParser())
    if layout:  # one layout only (fans and rows: the index column), rendered as the bench renders its hard scenes
        plan = [{"seed": s, "layout": layout, "table_conventions": False, "kind": "hard"} for s in seeds]
        rendered = [vision_bench._render((spec, decks, mix, args.size)) for spec in plan]
        jpegs, annotations = [r[0] for r in rendered], [r[1] for r in rendered]
    else:
        jpegs, annotations = vision_bench.render_all(args, decks, seeds)
    kept = []
    for seed, data, annotation in zip(seeds, jpegs, annotations):
        item = capture_one(recognizer, data, f"seed{seed}")
        truth = frozenset(c["card"] for c in annotation["cards"])
        visible = frozenset(c["card"] for c in annotation["cards"] if any(i["visible"] for i in c["indices"]))
        item.update(name=f"seed{seed}", family=annotation["layout"], arrangement=annotation.get("arrangement") or "-",
                    truth=truth, visible=visible, closeup=False, annotation=annotation)
        kept.append(item)
    return kept


def cache_path(what: str, n: int, mix: str, layout: str | None = None, seed: int | None = None) -> Path:
    if what.startswith("real"):
        return CACHE / f"{what}.pkl"
    return CACHE / f"{what}-{mix}-{n}{f'-{layout}' if layout else ''}{f'-{seed}' if seed else ''}.pkl"


# ---------------------------------------------------------------------------------------------- judging


def judge_photo(cards, item) -> dict:
    truth, visible = item["truth"], item["visible"]
    reported = [c.card for c in cards]
    flagged = [c for c in cards if c.confirm]
    return {"family": item["family"], "arrangement": item.get("arrangement", "-"), "name": item["name"],
            "truth": len(visible), "reported": len(reported), "correct": sum(c in truth for c in reported),
            "found": len(visible & set(reported)), "flagged": len(flagged),
            "flagged_wrong": sum(c.card not in truth for c in flagged),
            "unread": len(item["recognition"].unread_boxes),
            "exact": set(reported) == set(truth) and len(reported) == len(truth),
            "false": sorted(set(reported) - truth), "missed": sorted(visible - set(reported))}


def totals(scores) -> dict:
    t = {k: sum(s[k] for s in scores) for k in ("truth", "reported", "correct", "found", "flagged", "flagged_wrong",
                                                "unread", "exact")}
    t["photos"] = len(scores)
    unflagged = t["reported"] - t["flagged"]
    t["precision"] = t["correct"] / t["reported"] if t["reported"] else 1.0
    t["unflagged"] = (t["correct"] - (t["flagged"] - t["flagged_wrong"])) / unflagged if unflagged else 1.0
    t["recall"] = t["found"] / t["truth"] if t["truth"] else 1.0
    return t


def table(scores, key: str, extra: dict | None = None) -> None:
    print(f"| {key} | photos | precision | unflagged | recall | exact | unread | reported (wrong) | cards (missed) |")
    print("|---|---|---|---|---|---|---|---|---|")
    groups: dict[str, list] = {}
    for s in scores:
        groups.setdefault(s[key], []).append(s)
    for name, group in [*sorted(groups.items()), *(extra or {}).items(), ("all", scores)]:
        t = totals(group)
        print(f"| {name} | {t['photos']} | {t['precision']:.2%} | {t['unflagged']:.2%} | {t['recall']:.2%} | "
              f"{t['exact']} | {t['unread']} | {t['reported']} ({t['reported'] - t['correct']}) | "
              f"{t['truth']} ({t['truth'] - t['found']}) |")


def pixels_of(item):
    """The photo's pixels again: the real photo's file, or the scene rendered again (deterministic)."""
    import cv2
    import numpy as np

    if "annotation" not in item:
        from vision.train.real_sets import real_photos_of

        global _REAL_FILES
        if _REAL_FILES is None:
            _REAL_FILES = {p.name: p.image for side in ("val", "train") for p in real_photos_of(side)}
        return cv2.imread(str(_REAL_FILES[item["name"]]))
    bench = vision_bench_module()
    a = item["annotation"]
    spec = {"seed": a["seed"], "layout": a["layout"], "table_conventions": a.get("kind") == "show",
            "kind": a.get("kind")}
    jpeg, _ = bench._render((spec, None, a["mix"], bench.SIZE))
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


_REAL_FILES = None


def gap_reader(recognizer, pixels):
    """A reader of index boxes (photo pixels) for ``vision.index_column.look_in_gaps``."""
    import numpy as np

    from vision.classes import CARD_CODES
    from vision.detections import Detections
    from vision.read import read_indices

    def read(index_boxes):
        rows = Detections(np.asarray(index_boxes, np.float32), np.ones(len(index_boxes)), np.zeros(len(index_boxes)))
        got = read_indices(recognizer.classifier.run, pixels, rows, recognizer.crop_size, recognizer.crop_margin,
                           scales=recognizer.settings.read.margin_scales,
                           recheck_below=recognizer.settings.read.recheck_below)
        return [(CARD_CODES[got.card_id[i]], float(got.card_confidence[i]),
                 CARD_CODES[got.runner_up_id[i]] if got.runner_up_id[i] >= 0 else None,
                 float(got.runner_up_confidence[i])) for i in range(len(got))]
    return read


def apply_rules(item, rules: str, recognizer=None):
    """The cards after the rules, and what each changed."""
    from vision.config import DEFAULTS

    cards = item["recognition"].cards
    # the read boxes in their frame (decoded pixels, ``scale`` photo pixels each)
    indices, card_boxes = item["indices"].at_scale(item["scale"]), item["card_boxes"].at_scale(item["scale"])
    notices = []
    if rules in ("phantoms", "both", "all"):
        from vision.phantoms import drop_phantoms

        cards, said = drop_phantoms(cards, indices, card_boxes, DEFAULTS.phantoms)
        notices += said
    if rules in ("column", "both", "all", "gaps"):
        from vision.index_column import cards_on_index_columns

        cards, said = cards_on_index_columns(cards, indices, card_boxes, DEFAULTS.index_column, DEFAULTS.phantoms)
        notices += said
    if rules in ("gaps", "all"):
        from vision.index_column import column_gaps, look_in_gaps

        gaps = column_gaps(cards, indices, card_boxes, DEFAULTS.index_column, DEFAULTS.phantoms)
        if len(gaps[0]):
            cards, said = look_in_gaps(cards, gaps, gap_reader(recognizer, pixels_of(item)), DEFAULTS.index_column)
            notices += said
    return cards, notices


def vision_bench_module():
    import importlib.util

    if "vision_bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("vision_bench", ROOT / "bench" / "vision.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["vision_bench"] = module  # the renderers' processes find its functions by name
        spec.loader.exec_module(module)
    return sys.modules["vision_bench"]


def judge(items, rules: str, by: str, show: int, recognizer=None) -> None:
    before = [judge_photo(i["recognition"].cards, i) for i in items]
    after, changes = [], []
    for item in items:
        cards, notices = apply_rules(item, rules, recognizer)
        after.append(judge_photo(cards, item))
        old, new = Counter(c.card for c in item["recognition"].cards), Counter(c.card for c in cards)
        if old != new:
            changes.append((item, sorted((old - new).elements()), sorted((new - old).elements()), notices))
    closeups = any(i["closeup"] for i in items)
    extra = {"closeup": [s for s, i in zip(before, items) if i["closeup"]]} if closeups else None
    print(f"\n### before ({len(items)} photos)\n")
    table(before, by, extra)
    extra = {"closeup": [s for s, i in zip(after, items) if i["closeup"]]} if extra else None
    print(f"\n### after: rules {rules}\n")
    table(after, by, extra)
    if by == "family" and any(i.get("arrangement", "-") != "-" for i in items):
        print("\n### per arrangement, after\n")
        table(after, "arrangement")
    gained = lost = 0
    print(f"\n{len(changes)} photos changed (removed: R = a right card, W = a wrong one; added the same):")
    for item, removed, added, notices in changes:
        truth = item["truth"]
        tag = lambda codes: " ".join(f"{c}({'R' if c in truth else 'W'})" for c in codes)  # noqa: E731
        gained += sum(c not in truth for c in removed) + sum(c in truth for c in added)
        lost += sum(c in truth for c in removed) + sum(c not in truth for c in added)
        if show:
            print(f"  {item['name']} ({item['family']}): removed {tag(removed)}; added {tag(added)}; "
                  f"{'; '.join(str(n.args) for n in notices)}")
    print(f"good changes {gained}, bad changes {lost}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("capture", "judge"))
    parser.add_argument("what", choices=("real", "real-train", "tuning", "bench"),
                        help="real: the validation split (judged); real-train: every 5th real train photo "
                             "(values are chosen there and on tuning); tuning; bench (judged)")
    parser.add_argument("--n", type=int, default=150)
    parser.add_argument("--mix", default="v4")
    parser.add_argument("--layout", default=None, help="render this layout only (fan: fans and overlapping rows)")
    parser.add_argument("--seed", type=int, default=None, help="first scene seed (default: the set's first)")
    parser.add_argument("--rules", default="both", choices=("none", "phantoms", "column", "gaps", "both", "all"),
                        help="phantoms; column: sure reads on the index column; gaps: column and a look in its gaps "
                             "(runs the reader); both: phantoms and column; all: the three")
    parser.add_argument("--quiet", action="store_true", help="no list of the photos changed")
    parser.add_argument("--models", type=Path, default=None,
                        help="models folder (default models/); its captures are kept apart, by the folder's name")
    args = parser.parse_args(argv)
    if args.models is not None and not (args.models / "models.json").exists():
        parser.exit(2, f"error: {args.models}: no models.json (not a model folder)\n")
    path = cache_path(args.what, args.n, args.mix, args.layout, args.seed)
    if args.models is not None:
        path = path.with_name(f"{args.models.name}-{path.name}")
    if args.action == "capture":
        from vision.pipeline import Recognizer

        recognizer = Recognizer(args.models, backend="onnxruntime")
        t = time.perf_counter()
        if args.what.startswith("real"):
            items = capture_real(recognizer, "val") if args.what == "real" else capture_real(recognizer, "train", 5)
        else:
            items = capture_rendered(recognizer, args.n, args.mix, args.what == "tuning", args.layout, args.seed)
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(items))
        print(f"captured {len(items)} photos into {path} in {time.perf_counter() - t:.0f} s")
        return 0
    if not path.exists():
        parser.exit(2, f"error: nothing captured at {path}: run 'capture {args.what}' first\n")
    items = pickle.loads(path.read_bytes())
    recognizer = None
    if args.rules in ("gaps", "all"):
        from vision.pipeline import Recognizer

        recognizer = Recognizer(args.models, backend="onnxruntime")
    judge(items, args.rules, "arrangement" if args.layout else "family", not args.quiet, recognizer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
