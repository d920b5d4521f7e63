"""The doubt model judged on real photos it never saw (issue 54), from one command: fitted on half
a of the real validation photos (``vision/train/real_val_halves.txt``) and judged on half b, then
swapped (fitted on b, judged on a), so every one of the 431 photos has a figure from a doubt model
that never saw it. Beside each ("before"): session 23's doubt model, fitted on the real train photos
(``vision/train/frozen/doubt_model_s23.json``, its models.json block).

    python bench/doubt_halves.py [--evidence vision/train/frozen/doubt_evidence_halves.csv]
                                 [--photos vision/train/frozen/doubt_photos_halves.csv] [--write-shipped]

It reads the evidence ``python -m vision.train.doubt collect-halves`` wrote (the shipped models run
on every validation photo under every look of ``vision.train.doubt_looks``, and on rendered tuning
scenes), so it runs in seconds; ``bench/vision.py --real --half b`` runs the pipeline itself on the
judging half. Per family (photos as taken): right cards flagged, wrong cards left unflagged, taps a
photo (a tap per flagged card, per wrong card left unflagged, per missed card or unread box) and
photos with no tap. Per look (the degradation check): recall, wrong cards left unflagged per
1,000 cards read, right cards flagged. ``--write-shipped`` puts the model fitted on half a into
models/models.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.doubt import DoubtModel  # noqa: E402
from vision.train.doubt import (C, FOLDS, PHOTO_COLUMNS, evidence_digest, evidence_of_row,  # noqa: E402
                                fit_on_half, read_evidence, write_into)
from vision.train.doubt_halves import HALVES, TUNES  # noqa: E402

FROZEN = ROOT / "vision" / "train" / "frozen"
EVIDENCE = FROZEN / "doubt_evidence_halves.csv"
PHOTOS = FROZEN / "doubt_photos_halves.csv"
BEFORE = FROZEN / "doubt_model_s23.json"  # the doubt block models v10 shipped with before issue 54
FAMILIES = ("black", "desk", "held", "poker", "table")
TARGET = {"flagged": 0.04, "family_flagged": 0.12, "taps": 0.2, "table_taps": 1.5, "no_tap": 0.90,
          "wrong_per_1000": 1.0}


def chance(model, row: dict) -> float:
    """A card's chance as the pipeline gives it: a card the model does not read again
    (``needs_reading``) keeps its second reading equal to its first."""
    evidence = evidence_of_row(row)
    if model.reread_below < 1.0 and not model.needs_reading(evidence):
        evidence = replace(evidence, again=evidence.reader)
    return model.probability(evidence)


def flags(model, rows: list[dict]) -> list[bool]:
    """Whether each card row is flagged: under the model's threshold, or its code named twice in its
    photo, or any card of a photo past the model's limits with a card flagged (``vision.doubt.weigh``)."""
    named = Counter((r["photo"], r["look"], r["card"]) for r in rows)
    flagged = [chance(model, r) < model.flag_below or named[(r["photo"], r["look"], r["card"])] > 1 for r in rows]
    if model.limits is None:
        return flagged
    photos: dict[tuple, list[int]] = {}
    for k, r in enumerate(rows):
        photos.setdefault((r["photo"], r["look"]), []).append(k)
    for members in photos.values():
        if any(flagged[k] for k in members) and \
                model.limits.what_is_wrong([evidence_of_row(rows[k]) for k in members]) is not None:
            for k in members:
                flagged[k] = True
    return flagged


def reread_share(model, rows: list[dict]) -> float:
    """The share of cards the model reads a second time."""
    return sum(model.needs_reading(evidence_of_row(r)) for r in rows) / max(len(rows), 1)


def judged(model, cards: list[dict], photos: list[dict]) -> dict:
    """Per (look, photo): flagged right and wrong cards, wrong cards unflagged, taps."""
    flagged = flags(model, cards)
    per: dict[tuple, dict] = {(p["look"], p["photo"]): {"family": p["family"], "closeup": p["closeup"] == "1",
                                                          "truth": int(p["truth"]), "missed": int(p["missed"]),
                                                          "unread": int(p["unread"]), "right": 0, "wrong": 0,
                                                          "right_flagged": 0, "wrong_flagged": 0}
                              for p in photos}
    for row, flag in zip(cards, flagged):
        s = per[(row["look"], row["photo"])]
        right = row["right"] == "1"
        s["right" if right else "wrong"] += 1
        s["right_flagged" if right else "wrong_flagged"] += flag
    for s in per.values():
        s["wrong_unflagged"] = s["wrong"] - s["wrong_flagged"]
        s["taps"] = s["right_flagged"] + s["wrong_flagged"] + s["wrong_unflagged"] + max(s["missed"], s["unread"])
    return per


def totals(group: list[dict]) -> dict:
    t = {k: sum(s[k] for s in group) for k in ("truth", "missed", "right", "wrong", "right_flagged",
                                                 "wrong_flagged", "wrong_unflagged", "taps")}
    t["photos"] = len(group)
    t["no_tap"] = sum(s["taps"] == 0 for s in group)
    t["read"] = t["right"] + t["wrong"]
    t["flagged_share"] = t["right_flagged"] / max(t["right"], 1)
    t["recall"] = (t["truth"] - t["missed"]) / max(t["truth"], 1)
    return t


def family_table(title: str, runs: dict[str, dict]) -> None:
    """``runs``: label -> judged photos (as taken)."""
    labels = list(runs)
    print(f"\n{title}\n\n| family | photos | " + " | ".join(
        f"{label}: right flagged | wrong unflagged | taps / photo | no tap" for label in labels) + " |")
    print("|---|---|" + "---|---|---|---|" * len(labels))
    for family in (*FAMILIES, "closeup", "all"):
        cells = []
        n = 0
        for label in labels:
            group = [s for s in runs[label].values()
                     if family == "all" or s["family"] == family or family == "closeup" and s["closeup"]]
            t = totals(group)
            n = t["photos"]
            cells.append(f"{t['right_flagged']} ({t['flagged_share']:.1%}) | {t['wrong_unflagged']} | "
                         f"{t['taps'] / max(n, 1):.2f} | {t['no_tap']} ({t['no_tap'] / max(n, 1):.0%})")
        print(f"| {family} | {n} | " + " | ".join(cells) + " |")


def look_table(title: str, runs: dict[str, dict], looks: list[str]) -> None:
    labels = list(runs)
    print(f"\n{title}\n\n| look | photos | recall | cards read (wrong) | " + " | ".join(
        f"{label}: wrong unflagged (per 1,000 read) | right flagged" for label in labels) + " |")
    print("|---|---|---|---|" + "---|---|" * len(labels))
    for look in looks:
        cells, base = [], None
        for label in labels:
            t = totals([s for (lk, _), s in runs[label].items() if lk == look])
            base = base or t
            cells.append(f"{t['wrong_unflagged']} ({1000 * t['wrong_unflagged'] / max(t['read'], 1):.2f}) | "
                         f"{t['right_flagged']} ({t['flagged_share']:.1%})")
        print(f"| {look} | {base['photos']} | {base['recall']:.2%} | {base['read']} ({base['wrong']}) | "
              + " | ".join(cells) + " |")


def verdict(label: str, run: dict) -> list[str]:
    taken = [s for (look, _), s in run.items() if look == "as_taken"]
    t = totals(taken)
    table = totals([s for s in taken if s["family"] == "table"])
    worst = max((totals([s for s in taken if s["family"] == f])["flagged_share"], f) for f in FAMILIES)
    looks = sorted({look for look, _ in run})
    per_look = [(1000 * (u := totals([s for (lk, _), s in run.items() if lk == look]))["wrong_unflagged"]
                 / max(u["read"], 1), look) for look in looks]
    checks = [
        (f"right cards flagged {t['flagged_share']:.1%} <= {TARGET['flagged']:.0%}", t["flagged_share"] <= TARGET["flagged"]),
        (f"worst family {worst[1]} {worst[0]:.1%} <= {TARGET['family_flagged']:.0%}", worst[0] <= TARGET["family_flagged"]),
        (f"taps a photo {t['taps'] / t['photos']:.2f} <= {TARGET['taps']}", t["taps"] / t["photos"] <= TARGET["taps"]),
        (f"table taps {table['taps'] / max(table['photos'], 1):.2f} <= {TARGET['table_taps']}",
         table["taps"] / max(table["photos"], 1) <= TARGET["table_taps"]),
        (f"photos with no tap {t['no_tap'] / t['photos']:.0%} >= {TARGET['no_tap']:.0%}",
         t["no_tap"] / t["photos"] >= TARGET["no_tap"]),
        (f"wrong unflagged per 1,000 read, worst look {max(per_look)[1]} {max(per_look)[0]:.2f} <= 1",
         max(per_look)[0] <= TARGET["wrong_per_1000"]),
    ]
    return [f"{label}: " + "; ".join(f"{text} {'PASS' if ok else 'FAIL'}" for text, ok in checks)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evidence", type=Path, default=EVIDENCE)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--write-shipped", action="store_true", help="the model fitted on half a into models/")
    args = parser.parse_args(argv)
    try:
        rows = read_evidence(args.evidence)
        photos = read_evidence(args.photos, PHOTO_COLUMNS)
    except ValueError as exc:
        parser.exit(2, f"error: {exc}\n")
    shipped = DoubtModel.from_json(json.loads(BEFORE.read_text()))
    provenance = {"evidence": str(args.evidence.relative_to(ROOT)) if args.evidence.is_relative_to(ROOT) else str(args.evidence),
                  "evidence_sha256": evidence_digest(args.evidence), "cards": len(rows), "folds": FOLDS, "C": C}
    models = {half: fit_on_half(rows, half, provenance=provenance) for half in HALVES}
    looks = sorted({r["look"] for r in photos}, key=lambda look: (look != "as_taken", look))
    print(f"evidence: {len(rows)} cards ({sum(r['right'] == '0' for r in rows)} wrong), "
          f"{sum(r['source'] == 'rendered' for r in rows)} of them on rendered scenes; {len(photos)} photo looks")
    for half, model in models.items():
        judge = [r for r in rows if r["source"] == "real" and r["half"] != half and r["look"] == "as_taken"]
        print(f"fitted on half {half}: threshold {model.flag_below:.4f}, read again under {model.reread_below:.6f} "
              f"({reread_share(model, judge):.0%} of the other half's cards as taken); " + ", ".join(
            f"{n} {c:+.2f}" for n, c in sorted(zip(model.features, model.coefficients), key=lambda t: -abs(t[1]))[:8]))
    runs_new, runs_old = {}, {}
    for tuned in HALVES:
        judge = next(h for h in HALVES if h != tuned)
        cards = [r for r in rows if r["source"] == "real" and r["half"] == judge]
        shots = [p for p in photos if p["half"] == judge]
        runs_new[tuned] = judged(models[tuned], cards, shots)
        runs_old[tuned] = judged(shipped, cards, shots) if shipped else None
    both_new = {**runs_new["a"], **runs_new["b"]}
    both_old = {**runs_old["a"], **runs_old["b"]} if shipped else None

    def taken(run):
        return {k: s for k, s in run.items() if k[0] == "as_taken"}

    for tuned in HALVES:
        judge = next(h for h in HALVES if h != tuned)
        runs = {"before": taken(runs_old[tuned]), f"tuned on {tuned}": taken(runs_new[tuned])} if shipped \
            else {f"tuned on {tuned}": taken(runs_new[tuned])}
        family_table(f"### Judged on half {judge} (photos as taken), tuned on half {tuned}", runs)
    family_table("### Every validation photo, each judged by the model tuned on the other half (photos as taken)",
                 {"before": taken(both_old), "after": taken(both_new)} if shipped else {"after": taken(both_new)})
    look_table("### The degradation check: every photo under each look, judged by the model tuned on the other half",
               {"before": both_old, "after": both_new} if shipped else {"after": both_new}, looks)
    print()
    for tuned in HALVES:
        print("\n".join(verdict(f"tuned on {tuned}, judged on the other half", runs_new[tuned])))
    print("\n".join(verdict("both halves", both_new)))
    if args.write_shipped:
        write_into(ROOT / "models", models[TUNES])
        print(f"the model tuned on half {TUNES} written into models/models.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
