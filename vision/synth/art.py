"""Card art for training: fetched and rendered by the engine itself, cached on disk, never committed.

Each deck becomes 52 RGBA faces (numpy, ``FACE_HEIGHT`` px tall) plus the boxes of their corner
indices (face pixels). Sources and licences are listed in ``SOURCES.md`` next to this module.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CARD_CODES, RANKS, SUITS
from vision.synth.kde_art import KDE_THEMES, faces_kde
from vision.synth.raster import FACE_HEIGHT, ArtError, read_rgba, trim_face

ART_VERSION = "2"  # bump when rendering or index finding changes: invalidates the cache

KENNARD_PACKAGE = "@heruka_urgyen/react-playing-cards@0.5.0"
SVG_CARDS_PACKAGE = "svg-cards@4.0.2"
AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
# Aisleriot themes with English indices (A, J, Q, K) and French suits; others (anglo*, German,
# Swiss, Russian, Italian themes) are left out: anglo* are kept unseen for evaluation;
# guyenne-classic is left out because its court cards carry no rank letter.
AISLERIOT_THEMES = (
    "paris", "bellot", "dondorf", "neoclassical", "tango",
    "simplistic", "ornamental", "plastic", "orell", "tigullio",
)
# Decks printed with an index in all four corners (checked by eye on the rendered sheets).
FOUR_INDEX_DECKS = frozenset({"dondorf"})

# The decks the committed models (v2) were trained on: the default mix keeps rendering them.
V2_DECKS: tuple[str, ...] = ("kennard", "kennard-bf", "svg-cards") + AISLERIOT_THEMES
TRAIN_DECKS: tuple[str, ...] = V2_DECKS + tuple(KDE_THEMES)
# Casino-style designs never used to train or tune: only rendered on request (bench/vision.py
# --decks) to measure how the models do on deck designs they have not seen.
EVAL_DECKS: tuple[str, ...] = ("anglo", "anglo_poker", "anglo_modern")
# Decks built by a command of their own into the art cache, never by ``ensure_deck``: "rf100-real"
# is real cards cut out of rf100-poker's train photos (``python -m vision.train.cutouts``), several
# faces a code. Mix v5 draws it for a share of its scenes.
REAL_DECK = "rf100-real"
BUILT_DECKS: dict[str, str] = {REAL_DECK: "python -m vision.train.cutouts"}
KNOWN_DECKS: tuple[str, ...] = TRAIN_DECKS + EVAL_DECKS + tuple(BUILT_DECKS)
SHIPPABLE_DECKS: tuple[str, ...] = ("kennard",)  # CC0: the only art used for committed samples


class UnknownDeckError(ValueError):
    """A deck name that is not one of KNOWN_DECKS."""


class DeckNotBuiltError(ValueError):
    """A deck of BUILT_DECKS that its command has not built into the art cache yet."""


@dataclass(frozen=True)
class Deck:
    name: str
    faces: dict  # card code -> RGBA uint8 (h, w, 4)
    indices: dict  # card code -> tuple of (x1, y1, x2, y2) float boxes in face pixels
    # Decks with several faces a code (cut-outs of real photos): code -> ((face, indices), ...), the
    # first being faces[code] and indices[code]; empty for a deck with one face a code.
    variants: dict = field(default_factory=dict)


def cache_dir() -> Path:
    root = os.environ.get("CRIB_ART_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "crib-companion", "art")
    return Path(root) / f"v{ART_VERSION}"


def _run(cmd: list[str], cwd: Path | None = None) -> None:
    try:
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, timeout=600)
    except FileNotFoundError as exc:
        raise ArtError(f"{cmd[0]} is not installed (needed to build card art)") from exc
    except subprocess.CalledProcessError as exc:
        raise ArtError(f"{' '.join(cmd[:3])} failed: {exc.stderr.decode(errors='replace').strip()[:200]}") from exc


def _npm_package(spec: str, work: Path) -> Path:
    """``npm pack`` a package into ``work`` and unpack it; returns the package folder."""
    _run(["npm", "pack", "--silent", spec], cwd=work)
    tgz = next(work.glob("*.tgz"))
    with tarfile.open(tgz) as tar:
        tar.extractall(work / "unpacked", filter="data")
    return work / "unpacked" / "package"


def _render_svg(svg: Path, out: Path, height: int) -> np.ndarray:
    _run(["rsvg-convert", "-h", str(height), "-o", str(out), str(svg)])
    return read_rgba(out)


def _faces_kennard(work: Path, folder: str) -> dict:
    package = _npm_package(KENNARD_PACKAGE, work)
    faces = {}
    for code in CARD_CODES:
        svg = package / "src" / "images" / folder / f"{code}.svg"
        faces[code] = trim_face(_render_svg(svg, work / f"{code}.png", FACE_HEIGHT))
    return faces


_SVG_CARDS_SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_SVG_CARDS_RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def _faces_svg_cards(work: Path) -> dict:
    package = _npm_package(SVG_CARDS_PACKAGE, work)
    faces = {}
    for code in CARD_CODES:
        rank, suit = code[0], code[1]
        name = f"{_SVG_CARDS_SUITS[suit]}_{_SVG_CARDS_RANKS.get(rank, rank)}.png"
        faces[code] = trim_face(read_rgba(package / "png" / "2x" / name))
    return faces


def _faces_aisleriot(work: Path, theme: str) -> dict:
    """Render the theme's whole sheet (13 columns x 5 rows: clubs, diamonds, hearts, spades, extras)."""
    source = AISLERIOT_DIR / f"{theme}.svgz"
    if not source.exists():
        raise ArtError(f"aisleriot theme {source} missing: install the Debian package gnome-cards-data")
    svg = work / f"{theme}.svg"
    with gzip.open(source, "rb") as src, open(svg, "wb") as dst:
        shutil.copyfileobj(src, dst)
    sheet = _render_svg(svg, work / f"{theme}.png", FACE_HEIGHT * 5 + 40)
    cell_w, cell_h = sheet.shape[1] / 13.0, sheet.shape[0] / 5.0
    faces = {}
    sheet_rows = "CDHS"
    for code in CARD_CODES:
        col, row = RANKS.index(code[0]), sheet_rows.index(code[1])
        x1, y1 = int(round(col * cell_w)), int(round(row * cell_h))
        x2, y2 = int(round((col + 1) * cell_w)), int(round((row + 1) * cell_h))
        faces[code] = trim_face(sheet[y1:y2, x1:x2])
    return faces


def _ink_mask(face: np.ndarray) -> np.ndarray:
    """Printed marks (black or coloured) on the card's paper."""
    bgr = face[:, :, :3].astype(np.int16)
    gray = bgr.mean(axis=2)
    opaque = face[:, :, 3] > 200
    paper = np.median(gray[opaque & (gray >= np.percentile(gray[opaque], 40))])
    colourful = (bgr.max(axis=2) - bgr.min(axis=2)) > 70
    dark = gray < paper - 80
    return (opaque & (colourful | dark)).astype(np.uint8)


def find_corner_index(face: np.ndarray) -> tuple[float, float, float, float] | None:
    """Box of the top-left corner index (rank + small suit) of an upright face, or None."""
    h, w = face.shape[:2]
    win_w, win_h = int(w * 0.30), int(h * 0.36)
    ink = _ink_mask(face)[:win_h, :win_w]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    clean = np.zeros_like(ink)
    for i in range(1, count):
        x, y, cw, ch, area = stats[i]
        long_line = cw > 0.8 * win_w or ch > 0.8 * win_h
        if area >= 4 and not long_line:
            clean[labels == i] = 1
    # Join the strokes of a glyph ("10", broken serifs) but not the rank with its suit.
    k = max(3, int(w * 0.012)) | 1
    joined = cv2.dilate(clean, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    parts = [stats[i] for i in range(1, count) if stats[i][4] >= 0.0004 * w * h]
    if not parts:
        return None
    rank = min(parts, key=lambda s: (s[0] + s[2] / 2) ** 2 + (s[1] + s[3] / 2) ** 2)
    rx, ry, rw, rh = rank[:4]
    box = [rx, ry, rx + rw, ry + rh]
    below = [s for s in parts if s[1] >= ry + rh * 0.6 and s[1] - (ry + rh) < rh * 0.8
             and s[0] < rx + rw and s[0] + s[2] > rx and s[3] < rh * 1.5]
    if below:
        suit = min(below, key=lambda s: s[1])
        box = [min(box[0], suit[0]), box[1], max(box[2], suit[0] + suit[2]), suit[1] + suit[3]]
    pad = (k - 1) / 2  # undo the dilation, then keep a small margin
    margin = 0.012 * w
    return (max(0.0, box[0] + pad - margin), max(0.0, box[1] + pad - margin),
            box[2] - pad + margin, box[3] - pad + margin)


def odd_index_box(box, typical) -> bool:
    """Whether an index box found on a face is missing or unlike the deck's typical one (its median):
    too wide, too tall or short, or too far from where the others lie."""
    med_w, med_h = typical[2] - typical[0], typical[3] - typical[1]
    return (box is None or (box[2] - box[0]) > 1.7 * med_w or (box[3] - box[1]) > 1.35 * med_h
            or (box[3] - box[1]) < 0.65 * med_h or abs(box[0] - typical[0]) > 0.6 * med_w
            or abs(box[1] - typical[1]) > 0.4 * med_h)


def _deck_indices(name: str, faces: dict) -> dict:
    """Index boxes for every card: found per face, checked against the deck's typical box."""
    found = {code: find_corner_index(face) for code, face in faces.items()}
    boxes = np.array([b for b in found.values() if b is not None])
    med = np.median(boxes, axis=0)
    result = {}
    for code, face in faces.items():
        box = found[code]
        if odd_index_box(box, med):
            box = tuple(med)
        h, w = face.shape[:2]
        x1, y1, x2, y2 = (float(v) for v in box)
        corners = [(x1, y1, x2, y2), (w - x2, h - y2, w - x1, h - y1)]  # the card is point-symmetric
        if name in FOUR_INDEX_DECKS:
            corners += [(w - x2, y1, w - x1, y2), (x1, h - y2, x2, h - y1)]
        result[code] = tuple(corners)
    return result


def _build_deck(name: str, folder: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="crib-art-") as tmp:
        work = Path(tmp)
        if name == "kennard":
            faces = _faces_kennard(work, "2color")
        elif name == "kennard-bf":
            faces = _faces_kennard(work, "2color-bf")
        elif name == "svg-cards":
            faces = _faces_svg_cards(work)
        elif name in KDE_THEMES:
            faces = faces_kde(work, name)
        else:
            faces = _faces_aisleriot(work, name)
        indices = _deck_indices(name, faces)
        staging = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for code, face in faces.items():
            cv2.imwrite(str(staging / f"{code}.png"), face)
        (staging / "indices.json").write_text(json.dumps({c: [list(b) for b in v] for c, v in indices.items()}))
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)


def built_deck_dir(name: str) -> Path:
    """Where a deck of BUILT_DECKS lives once built (the art cache)."""
    return cache_dir() / name


def deck_built(name: str) -> bool:
    return (built_deck_dir(name) / "indices.json").exists()


def require_built(name: str) -> Path:
    """The folder of a built deck, or DeckNotBuiltError naming the command that builds it."""
    if not deck_built(name):
        folder = built_deck_dir(name)
        raise DeckNotBuiltError(f"deck {name!r} is not built (no {folder / 'indices.json'}): build it with "
                                f"`{BUILT_DECKS[name]} --out {folder}`")
    return built_deck_dir(name)


def deck_fingerprint(name: str) -> str:
    """A short hash of a built deck's index files: renders of it change when it is built again."""
    folder = require_built(name)
    digest = hashlib.sha256()
    for file in ("indices.json", "variants.json"):
        if (folder / file).exists():
            digest.update((folder / file).read_bytes())
    return digest.hexdigest()[:16]


def ensure_deck(name: str) -> Path:
    """Render ``name`` into the cache if it is not there yet; returns its folder (a deck of
    BUILT_DECKS is never rendered here: DeckNotBuiltError names its command)."""
    if name not in KNOWN_DECKS:
        raise UnknownDeckError(f"unknown deck {name!r}; known: {', '.join(KNOWN_DECKS)}")
    if name in BUILT_DECKS:
        return require_built(name)
    folder = cache_dir() / name
    if not (folder / "indices.json").exists():
        _build_deck(name, folder)
    return folder


@functools.lru_cache(maxsize=32)  # every known deck stays loaded (~35 MB each): a miss re-reads 52 PNGs
def load_deck(name: str) -> Deck:
    folder = ensure_deck(name)
    indices = json.loads((folder / "indices.json").read_text())
    faces = {code: read_rgba(folder / f"{code}.png") for code in CARD_CODES}
    indices = {c: tuple(tuple(b) for b in v) for c, v in indices.items()}
    variants = {}
    if (folder / "variants.json").exists():  # several faces a code: {code: [{"face": file, "indices": boxes}]}
        listed = json.loads((folder / "variants.json").read_text())
        for code in CARD_CODES:
            variants[code] = tuple((faces[code] if v["face"] == f"{code}.png" else read_rgba(folder / v["face"]),
                                    tuple(tuple(b) for b in v["indices"])) for v in listed[code])
    return Deck(name, faces, indices, variants)
