"""``make figures``: the README's recognition figures, measured on this machine, written between
the README's markers ``<!-- begin figures (make figures) -->`` and ``<!-- end figures -->`` (the
rest of the README is left alone; without the markers nothing is written and the command fails
with one line).

The block holds what a user gets with the shipped models and the default runtime: ``crib samples``
(the sample photos against their sidecars) and the real validation photos (README "Real photos";
where they are not here, the block keeps its previous real-photos line and says so). Then it says
how much these figures vary between machines. onnxruntime picks its CPU kernels by the processor
(AVX2, AVX-512, ...) and fuses layers as its graph optimisation level allows, so its sums round
differently on another machine; a card whose verdict rests on a comparison that close flips. The
variation is measured here by running the same photos through other kernels: onnxruntime at each
graph optimisation level and OpenCV's DNN runtime. A card found under some kernels and not others
is named: it lies on a threshold.

    python bench/figures.py [--readme README.md] [--print]
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from a checkout

BEGIN, END = "<!-- begin figures (make figures) -->", "<!-- end figures -->"
REAL_LINE = re.compile(r"^real validation photos .*$", re.M)
# (label, backend, onnxruntime graph optimisation level): the first is what crib uses.
KERNELS = (("onnxruntime, all optimisations (crib's default)", "onnxruntime", "ORT_ENABLE_ALL"),
           ("onnxruntime, extended optimisations", "onnxruntime", "ORT_ENABLE_EXTENDED"),
           ("onnxruntime, basic optimisations", "onnxruntime", "ORT_ENABLE_BASIC"),
           ("onnxruntime, no optimisation", "onnxruntime", "ORT_DISABLE_ALL"),
           ("OpenCV DNN", "opencv", None))


class FiguresError(ValueError):
    """The README has no figures block, or the figures cannot be measured."""


@contextlib.contextmanager
def kernels(level: str | None):
    """onnxruntime sessions made inside use graph optimisation ``level`` (None: as they are)."""
    if level is None:
        yield
        return
    import onnxruntime as ort

    made = ort.SessionOptions

    def options():
        chosen = made()
        chosen.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        return chosen
    ort.SessionOptions = options
    try:
        yield
    finally:
        ort.SessionOptions = made


def recognizer(backend: str, level: str | None):
    from vision import Recognizer

    with kernels(level):
        return Recognizer(backend=backend)  # the sessions are made here


def samples_run(recognize) -> tuple[object, dict[str, frozenset[str]]]:
    """``crib samples`` on the shipped sample photos: the summary and each photo's reported cards."""
    from companion.demo import judge_photos, photos_in
    from companion.paths import sample_images

    reported: dict[str, frozenset[str]] = {}

    def recognise(photo):
        result = recognize(photo)
        reported[Path(photo).name] = frozenset(c.card for c in result.cards)
        return result
    return judge_photos(photos_in(sample_images()), recognise), reported


def real_photos():
    """The real validation scenes, or None when the real photos are not here."""
    from vision.train.real_cards import RealDataError
    from vision.train.real_sets import real_photos_of

    try:
        return [p for p in real_photos_of("val") if p.family != "crops" and p.cards]
    except RealDataError:
        return None


def real_run(recognize_pixels, photos) -> tuple[dict, dict[str, frozenset[str]]]:
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    from real_photos import run, totals

    class Keep:  # bench/real_photos.run calls recognize(pixels, name)
        def __init__(self):
            self.reported: dict[str, frozenset[str]] = {}

        def recognize(self, pixels, name):
            result = recognize_pixels(pixels, name)
            self.reported[name] = frozenset(c.card for c in result.cards)
            return result
    keep = Keep()
    return totals(run(keep, photos)), keep.reported


def real_line(t: dict) -> str:
    return (f"real validation photos ({t['photos']}, never trained on): recall {t['recall']:.2%}, precision "
            f"{t['precision']:.2%}, {t['precision_unflagged']:.2%} of unflagged cards right, "
            f"{t['exact']} / {t['photos']} photos exactly right").replace("%", " %")


def flips(runs: list[dict[str, frozenset[str]]]) -> list[str]:
    """'photo CARD' for each card reported under some kernels and not under others."""
    out = []
    for name in sorted(runs[0]):
        seen = [r.get(name, frozenset()) for r in runs]
        for card in sorted(frozenset.union(*seen) - frozenset.intersection(*seen)):
            out.append(f"{name} {card}")
    return out


def spread(values, fmt="{}") -> str:
    low, high = min(values), max(values)
    return fmt.format(low) if low == high else f"{fmt.format(low)} to {fmt.format(high)}"


def machine() -> str:
    """The processor, its widest vector instructions, its cores, and the runtime's version."""
    import os

    import onnxruntime

    name, flags = platform.machine(), ""
    with contextlib.suppress(OSError):
        text = Path("/proc/cpuinfo").read_text()
        model = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
        name = f"{model.group(1).strip()} ({platform.machine()}" if model else f"{name} ("
        flags = ", AVX-512" if "avx512f" in text else ", AVX2" if "avx2" in text else ""
    name = name if "(" in name else f"{name} ("
    return f"{name}{flags}, {os.cpu_count()} cores), onnxruntime {onnxruntime.__version__}"


def measure(progress=print, real_kernels: bool = False) -> str:
    """The figures block's text (without the markers). The real photos go through the default
    kernel only unless ``real_kernels`` (each other kernel adds 2-3 minutes on 2 cores)."""
    photos = real_photos()
    sample_runs, real_runs = [], []
    default_real = None
    for number, (label, backend, level) in enumerate(KERNELS):
        start = time.perf_counter()
        made = recognizer(backend, level)
        summary, reported = samples_run(made.recognize)
        sample_runs.append((summary, reported))
        if photos is not None and (number == 0 or real_kernels):
            totals, real_reported = real_run(made.recognize, photos)
            real_runs.append((totals, real_reported))
            default_real = default_real or totals
        progress(f"{label}: samples {summary.found} / {summary.expected}"
                 + (f", real recall {real_runs[-1][0]['recall']:.2%}" if len(real_runs) > number else "")
                 + f" ({time.perf_counter() - start:.0f} s)")
    summary = sample_runs[0][0]
    version = made.models.version
    lines = ["```", f"crib samples: {summary.line()}"]
    lines.append(real_line(default_real) if default_real else "{real}")
    lines.append("```")
    flipped = flips([r for _, r in sample_runs])
    text = (f"Measured by `make figures` with models v{version} on {machine()}. The same photos through "
            f"{len(KERNELS) - 1} other kernels (onnxruntime's other graph optimisation levels, OpenCV's DNN "
            f"runtime), as another machine's processor would run them: sample cards found "
            f"{spread([s.found for s, _ in sample_runs])} of {summary.expected}, photos exactly right "
            f"{spread([s.exact for s, _ in sample_runs])} of {len(summary.photos)}")
    if len(real_runs) > 1:
        text += (f"; real validation recall {spread([t['recall'] * 100 for t, _ in real_runs], '{:.2f} %')}, "
                 f"precision {spread([t['precision'] * 100 for t, _ in real_runs], '{:.2f} %')}, photos exactly "
                 f"right {spread([t['exact'] for t, _ in real_runs])} of {default_real['photos']}")
        flipped += [f"real {f}" for f in flips([r for _, r in real_runs])]
    elif real_runs:
        text += "; the real validation photos through crib's default kernel only (make figures-all: all of them)"
    if flipped:
        shown = ", ".join(flipped[:6]) + (f" and {len(flipped) - 6} more" if len(flipped) > 6 else "")
        text += (f". A card found under some kernels and not others lies on a threshold: {shown}.")
    else:
        text += ". No card changed between these kernels."
    return "\n".join(lines) + "\n\n" + wrap(text) + "\n"


def wrap(text: str, width: int = 100) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False))


def block_of(readme: str, path: Path) -> tuple[int, int]:
    """Where the figures block's text lies in ``readme`` (between the two markers)."""
    begin, end = readme.find(BEGIN), readme.find(END)
    if begin < 0 or end < 0 or end < begin:
        raise FiguresError(f"{path}: no figures block (the lines {BEGIN} and {END}); nothing written")
    return begin + len(BEGIN), end


def rewrite(path: Path, text: str) -> str:
    """``path`` with ``text`` between the markers; a "{real}" placeholder keeps the real line there."""
    readme = path.read_text()
    start, stop = block_of(readme, path)
    if "{real}" in text:
        old = REAL_LINE.search(readme[start:stop])
        text = text.replace("{real}", old.group(0) if old else "(real validation photos: not measured)")
    return readme[:start] + "\n" + text + readme[stop:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md", help="the README to rewrite")
    parser.add_argument("--print", action="store_true", help="print the block; write nothing")
    parser.add_argument("--real-kernels", action="store_true",
                        help="the real validation photos through every kernel too (minutes more)")
    args = parser.parse_args(argv)
    try:
        if not args.print:
            block_of(args.readme.read_text(), args.readme)  # fail before minutes of measuring
        text = measure(progress=lambda line: print(f"figures: {line}", file=sys.stderr, flush=True),
                       real_kernels=args.real_kernels)
        if "{real}" in text:
            print("figures: the real validation photos are not here (README 'Real photos'): "
                  "the block keeps its previous real-photos line", file=sys.stderr)
        if args.print:
            print(text, end="")
            return 0
        args.readme.write_text(rewrite(args.readme, text))
    except (FiguresError, OSError) as exc:
        print(f"make figures: {exc}", file=sys.stderr)
        return 2
    print(f"figures: {args.readme} rewritten between its figures markers", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
