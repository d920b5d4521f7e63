"""What the show asks the player (issue 54, items 3 and 4): on freshly rendered shows and on the
sample photos, how many cards each show asks about, how many shows ask nothing, and how many
counts are wrong with nothing asked about them.

    python bench/shows.py [--n 300] [--seed 9100000] [--whole-show-size 1920x1440] [--samples-only] [--models DIR]

1. Renders N shows with ``vision.synth.render_scene(seed + i, layout=..., table_conventions=True)``,
   the layouts "hand_starter", "two_hands_crib_starter", "three_hands_crib_starter" (3 players:
   three hands, the crib, the starter, 17 cards) and "four_hands_crib_starter" (4 players, 21
   cards) in turn, two shows each: one at the capture guide's distance (mix v3, 1280x960; the 3-
   and 4-player shows 1920x1440, ``--whole-show-size``) and one harder (mix v4, its chips and
   printed matter, shrunk to 0.6: the cards further away), each encoded as a JPEG (quality 90). Show i is seed + i, its layout ``SHOW_LAYOUTS[(i // 2) % 4]``
   and its kind guide for even i: the 2-player layouts keep half the plan, and each of their shows
   is the one the earlier plan (those two layouts in turn, ``(i // 2) % 2``) had at that seed
   (its figures up to session 25's 300 shows came from that plan). A whole 3- or 4-player show
   fits 17 or 21 cards in the frame, its cards down to 4 % of its short side
   (``vision.synth.scene.WHOLE_SHOW_SMALLEST``): at 1280x960 they are too small to read well (a
   phone's photo of a whole table has more pixels), so they are rendered at 1920x1440 (their 74
   shows at the guide's distance in the plan of 300: 1.46 and 2.51 questions a show with three and
   four hands, roles right on 31 and 30 of 37; at 1280x960, 3.38 and 5.41, roles right on 27 and
   23). Seeds start at 9,100,000, above the recognition
   bench's and never used for training.
2. Counts each with ``companion.photo.count_show`` and compares every counted hand and crib with
   the truth's (the scene's groups counted with its starter, matched to the group read by the most
   cards in common): a count is *wrong* when its total differs from the truth's, and *asked* when
   the show asks about it (a doubt on its count, or the starter's own).
3. Prints per layout and kind, per kind and overall: questions per show (what the review asks: the cards that change a
   count, unsure cards in no count, unread boxes), the same as asked before the one-deck rule and
   the count-changing check (every flagged card and unread box), cards marked and not asked, shows
   with no question (now and before), counts wrong (all, and with nothing asked about them), and
   the mean chance of being counted right (``GroupShow.chance``) of the right and the wrong counts,
   and the shows whose roles are right (``roles_right``: the starter, as many hands and cribs as
   the truth, each true hand and crib mostly in a read group of its role).
4. Then the same on the sample photos with a sidecar and a starter (``sample_images/``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

FIRST_SHOW_SEED = 9_100_000  # above bench/vision.py's 9,000,000 + its runs; never a training seed
# The 2-player layouts first: with i // 2 % 4 they fall where the earlier plan (i // 2 % 2) had them.
SHOW_LAYOUTS = ("hand_starter", "two_hands_crib_starter", "three_hands_crib_starter", "four_hands_crib_starter")
KINDS = ("guide", "harder")
HARDER_SCALE = 0.6
SIZE = (1280, 960)
WHOLE_SHOW_SIZE = (1920, 1440)  # the 3- and 4-player shows: 17 or 21 cards in one photo


def plan(n: int, seed: int, whole_show_size: tuple[int, int] = WHOLE_SHOW_SIZE) -> list[dict]:
    """Each show: its seed, layout, mix, size and scale; guide and harder in turn, the four layouts each."""
    specs = []
    for i in range(n):
        layout = SHOW_LAYOUTS[(i // 2) % len(SHOW_LAYOUTS)]
        specs.append({"seed": seed + i, "layout": layout, "kind": KINDS[i % 2], "mix": "v3" if i % 2 == 0 else "v4",
                      "scale": 1.0 if i % 2 == 0 else HARDER_SCALE,
                      "size": whole_show_size if layout in SHOW_LAYOUTS[2:] else SIZE})
    return specs


def render(spec: dict) -> tuple[bytes, dict]:
    from vision.synth import render_scene

    image, annotation = render_scene(spec["seed"], layout=spec["layout"], table_conventions=True, mix=spec["mix"],
                                     size=spec.get("size", SIZE))
    if spec["scale"] != 1.0:
        image = cv2.resize(image, None, fx=spec["scale"], fy=spec["scale"], interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return jpeg.tobytes(), annotation


def truth_totals(annotation: dict) -> list[tuple[str, tuple[str, ...], int]]:
    """(role, cards, total) of each hand and the crib of the truth, counted with its starter."""
    from companion.rules import Card, score

    starter = next((g["cards"][0] for g in annotation["groups"] if g["role"] == "starter" and g["cards"]), None)
    out = []
    for group in annotation["groups"]:
        if group["role"] in ("hand", "crib") and len(group["cards"]) == 4 and starter:
            cards = [Card.parse(c) for c in group["cards"]]
            out.append((group["role"], tuple(group["cards"]),
                        score(cards, Card.parse(starter), crib=group["role"] == "crib").total))
    return out


def roles_right(recognition, annotation: dict) -> bool:
    """Whether the photo's table has the truth's roles: its starter alone the true starter, as many
    hands and cribs as the truth, and each true hand and crib mostly (3 of its 4 cards or more) in
    the read group of the same role that holds most of it (the cards themselves may be misread)."""
    read = [(str(g.role), set(g.cards)) for g in recognition.groups]
    truth = [(g["role"], set(g["cards"])) for g in annotation["groups"]]
    if not read:
        return False
    if [c for r, c in read if r == "starter"] != [c for r, c in truth if r == "starter"]:
        return False
    for role in ("hand", "crib"):
        if sum(r == role for r, _ in read) != sum(r == role for r, _ in truth):
            return False
    for role, cards in truth:
        if role in ("hand", "crib"):
            best_role, best = max(read, key=lambda g: len(g[1] & cards))
            if best_role != role or len(best & cards) < 3:
                return False
    return True


def judge(shown, annotation: dict) -> dict:
    """One show's figures against its truth."""
    asked = shown.asked
    asked_cards = {d.card for d in asked}
    starter_asked = any(d.group is None for d in asked)
    flagged_cards = {c.card for c in shown.recognition.cards if c.confirm}
    flagged = len(flagged_cards)
    marked = {d.card for d in shown.marked} - asked_cards
    plain = flagged_cards - asked_cards - marked  # unsure, in no count (or with no other reading): still asked
    counts = wrong = wrong_unasked = 0
    chances = {"right": [], "wrong": []}
    for role, cards, total in truth_totals(annotation):
        read = max((g for g in shown.groups if g.show is not None), default=None,
                   key=lambda g: len(set(g.cards) & set(cards)))
        if read is None or not set(read.cards) & set(cards):
            continue  # not counted: the player sees it is not
        counts += 1
        is_asked = starter_asked or any(d.group == read.label for d in asked)
        right = read.show.total == total
        chances["right" if right else "wrong"].append(read.chance)
        if not right:
            wrong += 1
            wrong_unasked += not is_asked
    unread = len(shown.recognition.unread_boxes)
    questions = len(asked_cards | plain) + unread
    return {"questions": questions, "asked": len(asked_cards), "plain": len(plain), "unread": unread,
            "flagged": flagged, "before": flagged + unread, "marked": len(marked),
            "no_question": questions == 0, "no_question_before": flagged + unread == 0,
            "counts": counts, "wrong": wrong,
            "wrong_unasked": wrong_unasked, "chances": chances, "roles": roles_right(shown.recognition, annotation)}


def report(name: str, rows: list[dict]) -> None:
    if not rows:
        print(f"{name}: no shows")
        return
    n = len(rows)
    total = lambda key: sum(r[key] for r in rows)  # noqa: E731
    right = [c for r in rows for c in r["chances"]["right"]]
    wrong = [c for r in rows for c in r["chances"]["wrong"]]
    mean = lambda xs: f"{100 * statistics.fmean(xs):.1f} %" if xs else "-"  # noqa: E731
    print(f"{name}: {n} shows; questions {total('questions') / n:.2f} per show (cards changing a count "
          f"{total('asked') / n:.2f}, unsure cards in no count {total('plain') / n:.2f}, unread boxes "
          f"{total('unread') / n:.2f}; every flagged card and unread box, as asked before: {total('before') / n:.2f}); "
          f"marked, not asked {total('marked') / n:.2f}; {total('no_question')} / {n} shows ask nothing "
          f"(before: {total('no_question_before')}); counts wrong {total('wrong')} / {total('counts')}, "
          f"{total('wrong_unasked')} with nothing asked; chance counted right: right counts {mean(right)}, "
          f"wrong counts {mean(wrong)}; roles right {total('roles')} / {n} shows")


def samples() -> list[tuple[str, dict]]:
    out = []
    for sidecar in sorted((ROOT / "sample_images").glob("*.json")):
        annotation = json.loads(sidecar.read_text())
        image = sidecar.with_suffix(".jpg")
        if image.exists() and any(g["role"] == "starter" for g in annotation.get("groups", ())):
            out.append((str(image), annotation))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="rendered shows (default 300)")
    parser.add_argument("--seed", type=int, default=FIRST_SHOW_SEED, help=f"first seed (default {FIRST_SHOW_SEED})")
    parser.add_argument("--whole-show-size", default="x".join(map(str, WHOLE_SHOW_SIZE)), metavar="WxH",
                        help="size of the 3- and 4-player shows at the guide's distance (default %(default)s)")
    parser.add_argument("--samples-only", action="store_true", help="only the sample photos")
    parser.add_argument("--models", default=None, help="folder holding models.json (default: the shipped models)")
    parser.add_argument("--verbose", action="store_true", help="one line per show")
    args = parser.parse_args()
    if args.seed < FIRST_SHOW_SEED:
        parser.exit(2, f"error: show bench seeds start at {FIRST_SHOW_SEED}; got --seed {args.seed}\n")
    try:
        whole_show_size = tuple(int(v) for v in args.whole_show_size.lower().split("x"))
        assert len(whole_show_size) == 2 and min(whole_show_size) >= 64
    except (ValueError, AssertionError):
        parser.exit(2, f"error: --whole-show-size is WxH, each at least 64; got {args.whole_show_size!r}\n")
    from companion.photo import NoCardsError, count_show
    from vision import Recognizer

    recognizer = Recognizer(args.models)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    by_layout: dict[tuple[str, str], list[dict]] = defaultdict(list)
    start = time.perf_counter()
    for spec in ([] if args.samples_only else plan(args.n, args.seed, whole_show_size)):
        jpeg, annotation = render(spec)
        try:
            row = judge(count_show(jpeg, recognizer=recognizer), annotation)
        except NoCardsError:
            row = {"questions": 0, "asked": 0, "plain": 0, "unread": 0, "flagged": 0, "before": 0, "marked": 0,
                   "no_question": False, "no_question_before": False, "counts": 0, "wrong": 0, "wrong_unasked": 0,
                   "chances": {"right": [], "wrong": []}, "roles": False}
        by_kind[spec["kind"]].append(row)
        by_layout[spec["layout"], spec["kind"]].append(row)
        if args.verbose:
            print(spec["seed"], spec["kind"], spec["layout"], {k: v for k, v in row.items() if k != "chances"})
    rendered = time.perf_counter() - start
    if not args.samples_only:
        for layout in SHOW_LAYOUTS:
            for kind in KINDS:
                report(f"{layout}, {kind}", by_layout[layout, kind])
            report(f"{layout}, both", by_layout[layout, "guide"] + by_layout[layout, "harder"])
    for kind in KINDS:
        report(f"rendered shows, {kind}", by_kind[kind])
    if not args.samples_only:
        report("rendered shows, all", by_kind["guide"] + by_kind["harder"])
        print(f"({rendered:.0f} s for {args.n} shows, {rendered / max(args.n, 1):.2f} s each: render and count; "
              f"3- and 4-player shows at {whole_show_size[0]}x{whole_show_size[1]})")
    rows = []
    for path, annotation in samples():
        row = judge(count_show(path, recognizer=recognizer), annotation)
        rows.append(row)
        if args.verbose:
            print(Path(path).name, {k: v for k, v in row.items() if k != "chances"})
    report("sample photos", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
