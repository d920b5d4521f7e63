"""Where the rendered scenes' missed cards are lost (issue 39): per missed card (a visible index,
the card not reported), the recogniser's read index boxes on its visible indices say which stage
lost it:

- ``not detected``: no index box covers a visible index (the detector's part);
- ``misread``: the best box there reads another card (the reader's part; ``runner-up right`` when
  its second choice was the card);
- ``read right, dropped``: the box reads the card and the logic after it dropped it (``sure``: the
  reader gave it >= 0.5; the card's score is the detector's score x the reader's probability).

Each row also says how much of the card's best visible index shows (``shown``, 0.5-1: a low share
is an index mostly hidden by the card on it, a high one an index in view that was still lost).

    nice -n 15 python bench/misses.py [--models DIR] [--n 100] [--tuning] [--layout fan] [--verbose]

The bench scenes (seeds 9,000,000+) are judged only; choose values on ``--tuning`` scenes.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).absolute().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))

COVERED = 0.3  # share of a visible index a read box must cover to be a reading of it
SURE_READ = 0.5
KINDS = ("not detected", "misread", "misread (runner-up right)", "read right, dropped (sure)",
         "read right, dropped (unsure)")


def where_lost(code: str, visible_boxes: list, indices) -> tuple[str, dict]:
    """Which stage lost the card ``code`` whose visible index boxes are ``visible_boxes`` (photo
    pixels), given the read index boxes ``indices`` (``vision.detections.Detections`` with reads)."""
    from vision.boxes import box_containment
    from vision.classes import CARD_CODES

    if not len(indices):
        return "not detected", {}
    share = box_containment(np.asarray(visible_boxes, np.float32), indices.xyxy).max(axis=0)  # per read box
    best = int(np.argmax(share))
    if share[best] <= COVERED:
        return "not detected", {}
    read = CARD_CODES[indices.card_id[best]] if indices.card_id[best] >= 0 else None
    reader = float(indices.reader[best])
    found = {"read": read, "reader": round(reader, 2), "box_score": round(float(indices.confidence[best]), 2)}
    if read == code:
        return f"read right, dropped ({'sure' if reader >= SURE_READ else 'unsure'})", found
    runner_up = CARD_CODES[indices.runner_up_id[best]] if indices.runner_up_id[best] >= 0 else None
    return ("misread (runner-up right)" if runner_up == code else "misread"), found


def capture_final(recognizer, pixels, name: str) -> dict:
    """The recogniser's final result (after ``amend``: phantoms dropped, index columns added) and
    its read index boxes."""
    kept = {}
    original = recognizer.amend

    def spy(result, reads, photo):
        kept.update(recognition=original(result, reads, photo), indices=reads.indices)
        return kept["recognition"]

    recognizer.amend = spy
    try:
        recognizer.recognize(pixels, name)
    finally:
        del recognizer.amend
    return kept


def losses(items) -> list[dict]:
    """One row per missed visible card of captured scenes (``phantoms.capture_rendered`` with
    ``capture_final``)."""
    rows = []
    for item in items:
        reported = {c.card for c in item["recognition"].cards}
        for card in item["annotation"]["cards"]:
            visible = [i["box"] for i in card["indices"] if i["visible"]]
            if not visible or card["card"] in reported:
                continue
            kind, found = where_lost(card["card"], visible, item["indices"])
            tallest = max(b[3] - b[1] for b in visible)  # the index's height in the photo, px
            # how much of its best index shows (renders with index shares; None in older annotations)
            shares = [i["shown"] for i in card["indices"] if i["visible"] and "shown" in i]
            shown = max(shares) if shares else None
            rows.append({"scene": item["name"], "layout": item["family"], "card": card["card"], "lost": kind,
                         "index_px": round(float(tallest)), "shown": shown, **found})
    return rows


def report(rows: list[dict], cards: int, verbose: bool) -> None:
    print(f"{len(rows)} of {cards} visible cards missed")
    layouts = sorted({r["layout"] for r in rows})
    print("| layout | " + " | ".join(KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for layout in [*layouts, "all"]:
        counts = Counter(r["lost"] for r in rows if layout in ("all", r["layout"]))
        print(f"| {layout} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    heights = {kind: [r["index_px"] for r in rows if r["lost"] == kind] for kind in KINDS}
    print("index height (px), median: " + ", ".join(f"{k} {int(np.median(v))}" for k, v in heights.items() if v))
    shares = {kind: [r["shown"] for r in rows if r["lost"] == kind and r["shown"] is not None] for kind in KINDS}
    if any(shares.values()):  # a low share: the index was mostly hidden; a high one: it showed and was lost
        print("share of the index showing, median: " + ", ".join(f"{k} {np.median(v):.2f}" for k, v in shares.items() if v))
    if verbose:
        for r in rows:
            print(r)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None, help="models folder (default models/)")
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--mix", default="v4")
    parser.add_argument("--tuning", action="store_true", help="tuning scenes (seeds 8,500,000+), where values are chosen")
    parser.add_argument("--layout", default=None, help="render this layout only (fan: fans and overlapping rows)")
    parser.add_argument("--verbose", action="store_true", help="list every missed card")
    args = parser.parse_args(argv)
    if args.models is not None and not (args.models / "models.json").exists():
        parser.exit(2, f"error: {args.models}: no models.json (not a model folder)\n")
    if args.n < 1:
        parser.exit(2, "error: --n must be at least 1\n")
    import phantoms

    from vision.pipeline import Recognizer

    phantoms.capture_one = capture_final  # the result the player sees, not the table stage's
    items = phantoms.capture_rendered(Recognizer(args.models, backend="onnxruntime"), args.n, args.mix, args.tuning,
                                      args.layout)
    cards = sum(len(item["visible"]) for item in items)
    print(f"{'tuning' if args.tuning else 'bench'} scenes: {len(items)} (mix {args.mix}"
          f"{f', {args.layout} only' if args.layout else ''}), models {args.models or 'models/'}")
    report(losses(items), cards, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
