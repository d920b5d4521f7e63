"""Contact sheets for checking the data engine by eye: deck faces with their index boxes, and scenes
with their labels (visible indices green, hidden ones red, card outlines blue).

    python -m vision.synth.contact decks OUT.png [DECK ...]
    python -m vision.synth.contact scenes OUT.png [--mix v3] [--n 12] [--seed 0] [--layout L]
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from vision.synth.art import load_deck

SHEET_CODES = ("AS", "TD", "JC", "QH", "KS", "6D", "9C", "8H")


def _tile(images: list[np.ndarray], columns: int, pad: int = 6, fill: int = 90) -> np.ndarray:
    h = max(i.shape[0] for i in images)
    w = max(i.shape[1] for i in images)
    rows = (len(images) + columns - 1) // columns
    sheet = np.full((rows * (h + pad) + pad, columns * (w + pad) + pad, 3), fill, np.uint8)
    for k, image in enumerate(images):
        r, c = divmod(k, columns)
        y, x = pad + r * (h + pad), pad + c * (w + pad)
        sheet[y: y + image.shape[0], x: x + image.shape[1]] = image
    return sheet


def deck_row(name: str, codes=SHEET_CODES, height: int = 200) -> np.ndarray:
    """One deck's faces on grey, each index box drawn in green, the deck's name on the left."""
    deck = load_deck(name)
    tiles = []
    for code in codes:
        face = deck.faces[code]
        alpha = face[:, :, 3:4].astype(np.float32) / 255
        rgb = (face[:, :, :3] * alpha + 90 * (1 - alpha)).astype(np.uint8)
        for x1, y1, x2, y2 in deck.indices[code]:
            cv2.rectangle(rgb, (int(x1), int(y1)), (int(x2), int(y2)), (0, 200, 0), 2)
        scale = height / rgb.shape[0]
        tiles.append(cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    label = np.full((height, 170, 3), 90, np.uint8)
    cv2.putText(label, name, (4, height // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    return _tile([label] + tiles, len(tiles) + 1, pad=4)


def draw_labels(image: np.ndarray, annotation: dict) -> np.ndarray:
    out = image.copy()
    for card in annotation["cards"]:
        cv2.polylines(out, [np.int32(card["corners"])], True, (255, 120, 0), 1, cv2.LINE_AA)
        for index in card["indices"]:
            x1, y1, x2, y2 = (int(v) for v in index["box"])
            if x2 > x1:
                colour = (0, 220, 0) if index["visible"] else (0, 0, 230)
                cv2.rectangle(out, (x1, y1), (x2, y2), colour, 1)
    text = f"{annotation['layout']} {annotation.get('arrangement', '')} {annotation['deck']}"
    cv2.putText(out, text, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(out, text, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def scene_sheet(seeds, size=(480, 360), columns: int = 4, labels: bool = True, **render_args) -> np.ndarray:
    from vision.synth.scene import render_scene

    tiles = []
    for seed in seeds:
        image, annotation = render_scene(int(seed), size=size, **render_args)
        tiles.append(draw_labels(image, annotation) if labels else image)
    # Portrait or square frames are letterboxed into the landscape tile.
    w, h = size
    boxed = []
    for t in tiles:
        canvas = np.full((max(w, h), max(w, h), 3), 90, np.uint8)
        canvas[: t.shape[0], : t.shape[1]] = t
        boxed.append(canvas[: max(h, t.shape[0]), : max(w, t.shape[1])])
    return _tile(boxed, columns)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="contact sheets of the data engine")
    parser.add_argument("what", choices=("decks", "scenes"))
    parser.add_argument("out")
    parser.add_argument("decks", nargs="*")
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mix", default="v3")
    parser.add_argument("--layout", default=None)
    parser.add_argument("--no-labels", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "decks":
        from vision.synth.art import TRAIN_DECKS
        sheet = _tile([deck_row(d) for d in (args.decks or TRAIN_DECKS)], 1)
    else:
        sheet = scene_sheet(range(args.seed, args.seed + args.n), labels=not args.no_labels, mix=args.mix,
                            layout=args.layout, decks=tuple(args.decks) or None)
    cv2.imwrite(args.out, sheet)
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
