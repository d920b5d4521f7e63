"""Recognition results before and after a change to the runtime: records every result on a fixed set
of photos, then reruns the set and prints what differs (issue 37: a refactor changes no result).

    python bench/recognition_diff.py --record [--out build/refactor_baseline]
    python bench/recognition_diff.py [--baseline build/refactor_baseline] [--only samples,real,scenes,large]

The set: the sample photos (``sample_images/*.jpg``, read from their files as ``crib recognize``
does), the real validation scenes (``vision/train/real_split.txt``, 431 photos showing cards, read
as ``bench/real_photos.py`` does) when ``../shared/data/real-cards`` is here, and 100 rendered bench
scenes (seeds 9,000,000+, mix v3 as ``bench/vision.py`` renders them, JPEG quality 90), and the
sample photos enlarged three times (3,840 px on the long side, JPEG quality 90: decoded at half
that size, so every box crosses between the photo's pixels and the decoded ones, ``large``). The
scenes' and the large photos' JPEGs are written beside the baseline on ``--record`` and reused from
there, so a change to the renderer or to OpenCV's resize does not show up as a recognition
difference.

Compared per photo: the cards (code, confidence to 1e-4, box to 0.05 px, flag, runner-up), the
groups, the warnings as text, the unread boxes and how many cards the second look read. Exit
status 1 when anything differs, 2 when there is no baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))

import cv2  # noqa: E402

DEFAULT_DIR = ROOT / "build" / "refactor_baseline"
SCENES, FIRST_SEED, MIX, SHOW_SHARE = 100, 9_000_000, "v3", 0.4
CONFIDENCE_TOLERANCE, BOX_TOLERANCE = 1e-4, 0.05
PARTS = ("samples", "real", "scenes", "large")
LARGE_FACTOR = 3  # 1,280 px samples -> 3,840 px: decoded at 1,920 px, 2 photo pixels each


def record_of(result) -> dict:
    """What is compared of one recognition (no timings)."""
    return {"cards": [{"card": c.card, "confidence": c.confidence, "box": list(c.box), "confirm": c.confirm,
                       "runner_up": c.runner_up, "runner_up_confidence": c.runner_up_confidence} for c in result.cards],
            "groups": [g.as_json() for g in result.groups],
            "warnings": [str(w) for w in result.warnings],
            "unread_boxes": [list(b) for b in result.unread_boxes],
            "looked_again": result.looked_again}


def scene_jpegs(folder: Path, record: bool) -> list[tuple[str, bytes]]:
    """The bench scenes' JPEGs: rendered and written on ``record``, read back otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    if record:
        import vision_bench as bench  # bench/vision.py, imported under another name below
        from vision.synth import render_scene

        for spec in bench.scene_plan(list(range(FIRST_SEED, FIRST_SEED + SCENES)), MIX, SHOW_SHARE):
            image, _ = render_scene(spec["seed"], size=bench.SIZE, layout=spec["layout"],
                                    table_conventions=spec["table_conventions"], mix=MIX)
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            (folder / f"scene{spec['seed']}.jpg").write_bytes(jpeg.tobytes())
    files = sorted(folder.glob("scene*.jpg"))
    return [(f.stem, f.read_bytes()) for f in files]


def large_jpegs(folder: Path, record: bool) -> list[tuple[str, bytes]]:
    """The sample photos enlarged ``LARGE_FACTOR`` times: written on ``record``, read back otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    if record:
        for path in sorted((ROOT / "sample_images").glob("*.jpg")):
            image = cv2.imread(str(path))
            big = cv2.resize(image, None, fx=LARGE_FACTOR, fy=LARGE_FACTOR, interpolation=cv2.INTER_CUBIC)
            ok, jpeg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            (folder / path.name).write_bytes(jpeg.tobytes())
    return [(f.name, f.read_bytes()) for f in sorted(folder.glob("*.jpg"))]


def photo_set(parts: tuple[str, ...], folder: Path, record: bool):
    """The set's photos in order, each as (key, what ``Recognizer.recognize`` reads, name): the
    samples from their files, the real validation scenes as pixels, the scenes' and the large
    photos' JPEGs from ``folder`` (written there first on ``record``)."""
    if "samples" in parts:
        for path in sorted((ROOT / "sample_images").glob("*.jpg")):
            yield f"samples/{path.name}", path, path.name
    if "real" in parts:
        from bench.real_photos import validation_scenes
        from vision.train.real_cards import RealDataError

        try:
            photos = validation_scenes()
        except RealDataError as exc:
            print(f"real photos left out: {exc}")
            photos = []
        for photo in photos:
            yield f"real/{photo.name}", cv2.imread(str(photo.image)), photo.name
    if "scenes" in parts:
        for name, data in scene_jpegs(folder / "scenes", record):
            yield f"scenes/{name}", data, name
    if "large" in parts:
        for name, data in large_jpegs(folder / "large", record):
            yield f"large/{name}", data, name


def run_set(recognizer, parts: tuple[str, ...], folder: Path, record: bool) -> dict[str, dict]:
    return {key: record_of(recognizer.recognize(source, name)) for key, source, name in photo_set(parts, folder, record)}


def _close(a, b, tolerance: float) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def differences(before: dict, after: dict) -> list[str]:
    """One line per difference of one photo's results."""
    lines = []
    if [c["card"] for c in before["cards"]] != [c["card"] for c in after["cards"]]:
        return [f"cards {[c['card'] for c in before['cards']]} -> {[c['card'] for c in after['cards']]}"]
    for b, a in zip(before["cards"], after["cards"]):
        if abs(b["confidence"] - a["confidence"]) > CONFIDENCE_TOLERANCE:
            lines.append(f"{b['card']} confidence {b['confidence']:.5f} -> {a['confidence']:.5f}")
        if not _close(b["box"], a["box"], BOX_TOLERANCE):
            lines.append(f"{b['card']} box {b['box']} -> {a['box']}")
        if (b["confirm"], b["runner_up"]) != (a["confirm"], a["runner_up"]):
            lines.append(f"{b['card']} confirm/runner-up {b['confirm']}/{b['runner_up']} -> {a['confirm']}/{a['runner_up']}")
        elif abs(b["runner_up_confidence"] - a["runner_up_confidence"]) > CONFIDENCE_TOLERANCE:
            lines.append(f"{b['card']} runner-up confidence {b['runner_up_confidence']:.5f} -> {a['runner_up_confidence']:.5f}")
    for key in ("groups", "warnings", "looked_again"):
        if before[key] != after[key]:
            lines.append(f"{key} {before[key]} -> {after[key]}")
    if len(before["unread_boxes"]) != len(after["unread_boxes"]) or not all(
            _close(b, a, BOX_TOLERANCE) for b, a in zip(before["unread_boxes"], after["unread_boxes"])):
        lines.append(f"unread boxes {before['unread_boxes']} -> {after['unread_boxes']}")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="record the baseline (renders the scenes)")
    parser.add_argument("--baseline", "--out", dest="folder", type=Path, default=DEFAULT_DIR,
                        help=f"the baseline's folder (default {DEFAULT_DIR.relative_to(ROOT)})")
    parser.add_argument("--only", default=",".join(PARTS), help="parts of the set to run (default all)")
    args = parser.parse_args(argv)
    parts = tuple(p.strip() for p in args.only.split(",") if p.strip())
    if unknown := [p for p in parts if p not in PARTS]:
        parser.exit(2, f"error: unknown part {unknown[0]!r}; known: {', '.join(PARTS)}\n")
    baseline_file = args.folder / "baseline.json"
    if not args.record and not baseline_file.is_file():
        parser.exit(2, f"error: {baseline_file} not found: run with --record first (before the change)\n")
    if not args.record and "scenes" in parts and not list((args.folder / "scenes").glob("scene*.jpg")):
        parser.exit(2, f"error: {args.folder / 'scenes'} holds no scene: run with --record first\n")
    if not args.record and "large" in parts and not list((args.folder / "large").glob("*.jpg")):
        parser.exit(2, f"error: {args.folder / 'large'} holds no photo: run with --record first\n")

    from vision import Recognizer

    recognizer = Recognizer()
    start = time.perf_counter()
    results = run_set(recognizer, parts, args.folder, args.record)
    seconds = time.perf_counter() - start
    if args.record:
        args.folder.mkdir(parents=True, exist_ok=True)
        baseline_file.write_text(json.dumps(results, indent=0))
        counts = {p: sum(1 for k in results if k.startswith(p + "/")) for p in parts}
        print(f"recorded {len(results)} photos ({counts}) in {seconds:.0f} s to {baseline_file}")
        return 0
    baseline = json.loads(baseline_file.read_text())
    compared = {p: 0 for p in parts}
    differing: dict[str, list[str]] = {}
    for name, after in results.items():
        compared[name.split("/")[0]] += 1
        if name not in baseline:
            differing[name] = ["not in the baseline"]
        elif lines := differences(baseline[name], after):
            differing[name] = lines
    missing = [n for n in baseline if n.split("/")[0] in parts and n not in results]
    for name in missing:
        differing[name] = ["in the baseline, not run now"]
    for name, lines in differing.items():
        print(f"{name}:")
        print("".join(f"  {line}\n" for line in lines), end="")
    cards = sum(len(r["cards"]) for r in results.values())
    warnings = sum(len(r["warnings"]) for r in results.values())
    print(f"compared {sum(compared.values())} photos ({', '.join(f'{p} {n}' for p, n in compared.items())}; "
          f"{cards} cards, {warnings} warnings) in {seconds:.0f} s: "
          f"{'no difference' if not differing else f'{len(differing)} photos differ'}")
    return 1 if differing else 0


if __name__ == "__main__":
    import importlib.util

    spec = importlib.util.spec_from_file_location("vision_bench", Path(__file__).resolve().parent / "vision.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_bench"] = module
    spec.loader.exec_module(module)
    sys.exit(main())
