"""The risk-coverage curve on the real validation photos (issue 50): cards ranked by the chance the
models give them, the share left unflagged (coverage) against the share of wrong cards among
those (risk), for the shipped models (the doubt model's chance) and the same models without their
doubt block (interpret's confidence, as models v10 shipped it). Also each one's operating point:
the flags it actually raises.

    python bench/risk_coverage.py [--models DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from bench.doubt_cost import without_doubt  # noqa: E402
from vision.pipeline import Recognizer  # noqa: E402

COVERAGES = (0.80, 0.85, 0.90, 0.92, 0.94, 0.96, 0.98, 0.99, 1.00)


def scored_cards(recognizer, photos) -> list[tuple[float, bool, bool]]:
    """(chance, right, flagged) of every card reported on ``photos``."""
    cards = []
    for photo in photos:
        result = recognizer.recognize(cv2.imread(str(photo.image)), photo.name)
        cards += [(c.confidence, c.card in photo.cards, c.confirm) for c in result.cards]
    return cards


def curve(cards: list[tuple[float, bool, bool]]) -> list[tuple[float, int, int]]:
    """(coverage, cards kept, wrong among them) at each of COVERAGES, the surest cards kept first."""
    ranked = sorted(cards, key=lambda c: -c[0])
    points = []
    for coverage in COVERAGES:
        kept = ranked[: round(coverage * len(ranked))]
        points.append((coverage, len(kept), sum(not right for _, right, _ in kept)))
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    args = parser.parse_args()
    from bench.real_photos import validation_scenes
    from vision.train.real_cards import RealDataError

    try:
        photos = validation_scenes()
    except RealDataError as exc:
        print(f"risk-coverage: no real photos here ({exc})")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"doubt model": scored_cards(Recognizer(args.models), photos),
                 "rules (v10)": scored_cards(Recognizer(without_doubt(args.models, Path(tmp))), photos)}
    print(f"{len(photos)} real validation photos; risk = wrong cards among those left unflagged\n")
    print("| coverage | " + " | ".join(f"{name}: risk (wrong / kept)" for name in sides) + " |")
    print("|---|" + "---|" * len(sides))
    curves = {name: curve(cards) for name, cards in sides.items()}
    for i, coverage in enumerate(COVERAGES):
        row = [f"{curves[n][i][2] / max(curves[n][i][1], 1):.2%} ({curves[n][i][2]} / {curves[n][i][1]})" for n in sides]
        print(f"| {coverage:.0%} | " + " | ".join(row) + " |")
    print()
    for name, cards in sides.items():
        kept = [c for c in cards if not c[2]]
        wrong = sum(not right for _, right, _ in kept)
        print(f"{name} as shipped: {len(kept)} of {len(cards)} cards unflagged (coverage {len(kept) / len(cards):.1%}), "
              f"{wrong} wrong among them (risk {wrong / max(len(kept), 1):.2%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
