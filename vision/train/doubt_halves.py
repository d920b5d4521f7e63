"""The real validation photos in two halves, for the doubt model (issue 54): the models never saw
these photos, so a doubt model fitted on one half learns what "sure" means on unseen photos, and
the other half judges it. Half ``a`` tunes the shipped doubt model and ``b`` judges it; the swap
(fitted on ``b``, judged on ``a``) gives every photo a figure from a doubt model that never saw it.

The halves are fixed once in ``real_val_halves.txt`` beside this file (never regenerated): by photo,
stratified by set and family (the desk close-ups apart from the rest of desk), each stratum's photos
ordered by the SHA-1 of their names and dealt alternately, a first.

    python -m vision.train.doubt_halves --write   # how the file was made (refuses to overwrite it)
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

HALVES_FILE = Path(__file__).resolve().parent / "real_val_halves.txt"
HALVES = ("a", "b")
TUNES = "a"  # the half the shipped doubt model is fitted and its threshold chosen on


class HalvesError(ValueError):
    """The halves file is missing, or a line of it cannot be read (one line naming it)."""


def _stratum(photo) -> str:
    from vision.train.real_cards import is_closeup_photo

    return f"{photo.family}/closeup" if is_closeup_photo(photo) else photo.family


def deal(photos) -> dict[str, str]:
    """Photo name -> half: each stratum ordered by its names' SHA-1, dealt a, b, a, ..."""
    strata: dict[str, list] = {}
    for photo in photos:
        strata.setdefault(_stratum(photo), []).append(photo)
    halves: dict[str, str] = {}
    for key in sorted(strata):
        ordered = sorted(strata[key], key=lambda p: hashlib.sha1(p.name.encode()).hexdigest())
        for k, photo in enumerate(ordered):
            halves[photo.name] = HALVES[k % 2]
    return halves


def read_halves(path: Path = HALVES_FILE) -> dict[str, str]:
    """Photo name -> half, as committed."""
    if not Path(path).is_file():
        raise HalvesError(f"no halves file at {path}")
    halves: dict[str, str] = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        words = line.split("#")[0].split()
        if not words:
            continue
        if len(words) != 2 or words[0] not in HALVES:
            raise HalvesError(f"{path}:{number}: expected 'a NAME' or 'b NAME', got {line.strip()!r}")
        halves[words[1]] = words[0]
    return halves


def write_halves(halves: dict[str, str], path: Path = HALVES_FILE) -> None:
    lines = ["# The real validation photos that show cards, in two halves for the doubt model",
             "# (vision/train/doubt_halves.py). Fixed once, never regenerated: a tunes, b judges, then swapped."]
    lines += [f"{halves[name]} {name}" for name in sorted(halves)]
    Path(path).write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.doubt_halves", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"deal the halves into {HALVES_FILE.name}")
    args = parser.parse_args(argv)
    from vision.train.real_sets import real_photos_of

    photos = [p for p in real_photos_of("val") if p.family != "crops" and p.cards]
    halves = deal(photos)
    if args.write:
        if HALVES_FILE.exists():
            parser.exit(2, f"error: {HALVES_FILE} exists: the halves are fixed once\n")
        write_halves(halves)
    for half in HALVES:
        names = {n for n, h in halves.items() if h == half}
        by_family: dict[str, int] = {}
        for p in photos:
            if p.name in names:
                by_family[p.family] = by_family.get(p.family, 0) + 1
        print(f"{half}: {len(names)} photos, " + ", ".join(f"{f} {n}" for f, n in sorted(by_family.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
