"""Two model folders' speed on the same photos, measured in one run (the machine is shared and
noisy: the ratio is the figure, not the milliseconds).

    python bench/models_speed.py --models build/candidate/models [--against models] [--n 40]

Renders ``--n`` bench scenes (1280x960 JPEGs, seeds 9,000,000+) and recognises each photo with both
recognisers in turn, alternating which goes first, so load changes hit both alike. Prints each
one's median and p90 end-to-end milliseconds (decode + infer + post + second look) and the ratio
of the medians, beside the 150 ms target for the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    bench = _bench_vision()  # its scene plan, renderer, seed ranges, percentile and speed target
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="the candidate model folder")
    parser.add_argument("--against", type=Path, default=ROOT / "models", help="the peer (default: the shipped models)")
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=bench.FIRST_BENCH_SEED)
    args = parser.parse_args(argv)
    for folder in (args.models, args.against):
        if not (folder / "models.json").is_file():
            parser.exit(2, f"error: {folder}: no models.json (not a model folder)\n")
    if args.n < 1:
        parser.exit(2, f"error: --n must be at least 1, got {args.n}\n")
    if args.seed < bench.FIRST_BENCH_SEED:
        parser.exit(2, f"error: bench seeds start at {bench.FIRST_BENCH_SEED} (lower ones are tuning or training "
                       f"seeds); got --seed {args.seed}\n")
    seeds = list(range(args.seed, args.seed + args.n))
    clash = set(seeds) & bench.training_seeds()
    if clash:
        parser.exit(2, f"error: seeds {sorted(clash)[:5]} are training scenes; choose another --seed\n")
    from vision.pipeline import Recognizer

    plan = bench.scene_plan(seeds, "v3", 0.4)
    jpegs = [bench._render((spec, None, "v3", bench.SIZE))[0] for spec in plan]
    recognizers = {"candidate": Recognizer(args.models, backend="onnxruntime"), "peer": Recognizer(args.against, backend="onnxruntime")}
    for recognizer in recognizers.values():  # first-call costs out of the timings
        recognizer.recognize(jpegs[0], "warm-up")
    times: dict[str, list[float]] = {name: [] for name in recognizers}
    names = list(recognizers)
    for i, data in enumerate(jpegs):
        for name in (names if i % 2 == 0 else names[::-1]):
            t = time.perf_counter()
            recognizers[name].recognize(data, f"scene{i}")
            times[name].append((time.perf_counter() - t) * 1000)
    for name, folder in (("candidate", args.models), ("peer", args.against)):
        median = statistics.median(times[name])
        verdict = "PASS" if median <= bench.TARGET_MEDIAN_MS else "FAIL"
        print(f"{name} ({folder}): median {median:.1f} ms, p90 {bench._percentile(times[name], 90):.1f} ms per "
              f"1280x960 JPEG over {len(jpegs)} photos  target <= {bench.TARGET_MEDIAN_MS:.0f} ms {verdict}")
    ratio = statistics.median(times["candidate"]) / statistics.median(times["peer"])
    print(f"ratio of medians, candidate / peer: {ratio:.2f}x (the same photos, in turn, one run)")
    return 0


def _bench_vision():
    """bench/vision.py as a module (its scene plan and renderer)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_vision", Path(__file__).resolve().parent / "vision.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())
