"""KDE card decks (Debian ``kdegames-card-data-kf5``): one SVG per deck, one element id per card.

Cards are ``{rank}_{suit}`` elements (``1_club`` ... ``10_heart``, ``jack_spade``, ``queen_diamond``,
``king_heart``), rendered with ``rsvg-convert --export-id``; a card embedded as a PNG ``<image>``
(some themes are converted bitmap decks) is decoded straight from the SVG.
"""

from __future__ import annotations

import base64
import gzip
import re
import subprocess
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CARD_CODES
from vision.synth.raster import ArtError, read_rgba, trim_face

KDE_DIR = Path("/usr/share/carddecks")
# deck name -> folder under KDE_DIR: the designs with rank-over-suit corner indices (checked by eye
# on every face). Left out: dondorf, gm-paris, nicu-ornamental, tigullio-international (aisleriot
# themes we already render), xskat-german (German suits), future (chip-card art with hex-digit
# labels, not ranks), oxygen, oxygen-air, oxygen-white (rank in one top corner, suit in the other:
# no corner index), konqi-modern (four-colour suits: red spades, green hearts), xskat-french (a
# 32-card Skat deck: courts lettered B/D, the 2-6 faces are filler with wrong pips).
KDE_THEMES = {
    "kde-ancient-egyptians": "svg-ancient-egyptians",
    "kde-jolly-royal": "svg-jolly-royal",
    "kde-nicu-white": "svg-nicu-white",
    "kde-penguins": "svg-penguins",
    "kde-standard": "svg-standard",
}
_SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
RENDER_HEIGHT = 720  # card height rendered before the trim scales it to FACE_HEIGHT


def element_id(code: str) -> str:
    return f"{_RANKS.get(code[0], code[0])}_{_SUITS[code[1]]}"


def _svg_text(theme: str) -> tuple[Path, str]:
    folder = KDE_DIR / KDE_THEMES[theme]
    files = sorted(folder.glob("*.svgz")) if folder.exists() else []
    if not files:
        raise ArtError(f"KDE card deck {folder} missing: install the Debian package kdegames-card-data-kf5")
    return files[0], gzip.decompress(files[0].read_bytes()).decode("utf-8")


def _embedded_png(svg: str, ident: str) -> np.ndarray | None:
    """The PNG of an ``<image id=...>`` card, or None when the card is vector art."""
    match = re.search(r'<image\b[^>]*?\bid="%s"[^>]*>' % re.escape(ident), svg, re.S)
    if not match:
        return None
    data = re.search(r'href="data:image/png;base64,([^"]+)"', match.group(0), re.S)
    if not data:
        return None
    raw = base64.b64decode(re.sub(r"\s+", "", data.group(1)))
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_UNCHANGED)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def _rsvg(cmd: list[str]) -> None:
    try:
        subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    except FileNotFoundError as exc:
        raise ArtError("rsvg-convert is not installed (needed to build card art)") from exc
    except subprocess.CalledProcessError as exc:
        raise ArtError(f"{' '.join(cmd[:3])} failed: {exc.stderr.decode(errors='replace')[:200]}") from exc


def _opaque_box(face: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(face[:, :, 3] > 128)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _render_card(svg: Path, ident: str, out: Path) -> np.ndarray | None:
    """Render one element about RENDER_HEIGHT tall. ``--export-id`` draws the element where it
    lies on the page, so a probe at zoom 1 finds it and the second render crops the page to it."""
    _rsvg(["rsvg-convert", "-i", ident, "-z", "1", "-o", str(out), str(svg)])
    box = _opaque_box(read_rgba(out))
    if box is None:
        return None
    x0, y0, x1, y1 = box
    zoom = RENDER_HEIGHT / (y1 - y0)
    margin = 2
    _rsvg(["rsvg-convert", "-i", ident, "-z", f"{zoom:.5f}",
           f"--page-width={int((x1 - x0 + 2 * margin) * zoom)}", f"--page-height={int((y1 - y0 + 2 * margin) * zoom)}",
           f"--left={-(x0 - margin) * zoom:.2f}", f"--top={-(y0 - margin) * zoom:.2f}", "-o", str(out), str(svg)])
    return read_rgba(out)


def faces_kde(work: Path, theme: str) -> dict:
    """52 upright faces (RGBA, trimmed to the card, FACE_HEIGHT tall) of a KDE deck."""
    source, text = _svg_text(theme)
    svg = work / f"{theme}.svg"
    svg.write_text(text, encoding="utf-8")
    faces = {}
    for code in CARD_CODES:
        ident = element_id(code)
        face = _embedded_png(text, ident)
        if face is not None:
            face = cv2.resize(face, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)  # small bitmap cards
        else:
            face = _render_card(svg, ident, work / f"{code}.png")
        if face is None or _opaque_box(face) is None:
            raise ArtError(f"{source.name}: card {ident} renders empty")
        faces[code] = trim_face(face)
    return faces
