"""Two versions of the recognition code on the same photos and the same models, timed in turn (the
machine is shared and noisy: the ratio is the figure, not the milliseconds).

    python bench/code_speed.py [--old c252c59] [--new . | --new HEAD] [--models models] [--n 100] [--repeat 3]

``--old`` is a commit: its tree is checked out once as a git worktree under build/code_speed/
(kept for the next run). ``--new`` is a folder holding the code (default: this checkout, its
working tree as it is) or a commit, checked out as ``--old`` is. Each version runs in a long-lived subprocess of its own (same interpreter,
same environment, so the same threads: onnxruntime takes one per core in both), loads the models
once and recognises a photo when asked; the photos go to both in turn, one at a time, alternating
which goes first, so load changes hit both alike; each photo is read ``--repeat`` times by each and
its fastest time kept (a run that another process delayed says little about the code). The photos are the recorded bench scenes of
``bench/recognition_diff.py`` (build/refactor_baseline/scenes, 1280x960 JPEGs) or, without them,
``--n`` scenes rendered as ``bench/vision.py`` renders them. Prints each version's median, the
median of the per-photo ratios new / old and the ratio of the medians, and how many photos'
cards differ (they should not: use recognition_diff for that).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OLD_COMMIT = "c252c59"  # the commit before issue 37's refactor began (3a09636's parent)
SCENES = ROOT / "build" / "refactor_baseline" / "scenes"

# The worker: recognises the JPEG whose path arrives on stdin, answers its ms and cards on stdout.
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from vision.pipeline import Recognizer
recognizer = Recognizer(sys.argv[2], backend="onnxruntime")
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    data = open(line.strip(), "rb").read()
    t = time.perf_counter()
    result = recognizer.recognize(data, "photo")
    ms = (time.perf_counter() - t) * 1000
    print(json.dumps({"ms": ms, "cards": [c.card for c in result.cards]}), flush=True)
"""


class Worker:
    """One version of the code in a subprocess of its own."""

    def __init__(self, tree: Path, models: Path):
        self.tree = tree
        self.process = subprocess.Popen([sys.executable, "-c", WORKER, str(tree), str(models)], cwd=tree,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._answer()

    def _answer(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"error: the worker for {self.tree} stopped (see its error above)")
        return json.loads(line)

    def recognise(self, photo: Path) -> dict:
        self.process.stdin.write(f"{photo}\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def tree_of(given: str) -> Path:
    """A folder holding the code as it is, or a commit's tree (``commit_tree``)."""
    folder = Path(given)
    if (folder / "vision" / "pipeline.py").is_file():
        return folder.resolve()
    return commit_tree(given)


def commit_tree(commit: str) -> Path:
    """The commit's tree as a worktree under build/code_speed/ (made once)."""
    full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                          capture_output=True, text=True)
    if full.returncode:
        raise ValueError(f"{commit}: neither a checkout (vision/pipeline.py) nor a commit of this repository")
    sha = full.stdout.strip()
    tree = ROOT / "build" / "code_speed" / sha[:12]
    if not (tree / "vision" / "pipeline.py").is_file():
        tree.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), sha], check=True,
                       capture_output=True)
    return tree


def photos(n: int) -> list[Path]:
    """The recorded bench scenes, or ``n`` rendered ones written under build/code_speed/scenes."""
    recorded = sorted(SCENES.glob("scene*.jpg"))
    if recorded:
        return recorded[:n]
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_vision", ROOT / "bench" / "vision.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    folder = ROOT / "build" / "code_speed" / "scenes"
    folder.mkdir(parents=True, exist_ok=True)
    seeds = list(range(bench.FIRST_BENCH_SEED, bench.FIRST_BENCH_SEED + n))
    paths = []
    for spec_ in bench.scene_plan(seeds, "v3", 0.4):
        path = folder / f"scene{spec_['seed']}.jpg"
        if not path.is_file():
            path.write_bytes(bench._render((spec_, None, "v3", bench.SIZE))[0])
        paths.append(path)
    return paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=OLD_COMMIT, help=f"the old code's commit (default {OLD_COMMIT})")
    parser.add_argument("--new", default=str(ROOT), help="the new code's folder or commit (default: this checkout)")
    parser.add_argument("--models", type=Path, default=ROOT / "models", help="the models both use")
    parser.add_argument("--n", type=int, default=100, help="photos (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="reads of each photo by each version, the fastest kept")
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.exit(2, f"error: --n and --repeat must be at least 1, got {args.n} and {args.repeat}\n")
    if not (args.models / "models.json").is_file():
        parser.exit(2, f"error: {args.models}: no models.json (not a model folder)\n")
    try:
        old, new = commit_tree(args.old), tree_of(args.new)
    except ValueError as exc:
        parser.exit(2, f"error: {exc}\n")
    shots = photos(args.n)
    workers = {"old": Worker(old, args.models.resolve()), "new": Worker(new, args.models.resolve())}
    names = list(workers)
    for worker in workers.values():  # first-call costs out of the timings
        worker.recognise(shots[0])
    ms: dict[str, list[float]] = {name: [] for name in names}
    differ = 0
    try:
        for i, photo in enumerate(shots):
            answers: dict[str, list[dict]] = {name: [] for name in names}
            for k in range(args.repeat):
                for name in (names if (i + k) % 2 == 0 else names[::-1]):
                    answers[name].append(workers[name].recognise(photo))
            for name in names:
                ms[name].append(min(a["ms"] for a in answers[name]))
            differ += answers["old"][0]["cards"] != answers["new"][0]["cards"]
    finally:
        for worker in workers.values():
            worker.close()
    for name, tree in (("old", old), ("new", new)):
        print(f"{name} ({tree}): median {statistics.median(ms[name]):.1f} ms per photo over {len(shots)} photos "
              f"(the fastest of {args.repeat})")
    ratios = [n / o for n, o in zip(ms["new"], ms["old"])]
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"new / old: median of per-photo ratios {statistics.median(ratios):.3f} (quartiles {quartiles[0]:.3f}"
          f"-{quartiles[2]:.3f}), ratio of medians {statistics.median(ms['new']) / statistics.median(ms['old']):.3f}; "
          f"photos whose cards differ: {differ}  (threads: onnxruntime {os.cpu_count()} in both)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
