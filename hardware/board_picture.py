"""The README's picture of the board: the drilling template beside the lit board, as one PNG.

    python -c "from hardware.board_picture import save; save('docs/board/board-3-track.png')"

The template is the SVG of ``hardware.template`` rasterised by rsvg-convert (librsvg2-bin); the lit
board is the LED buffer read back from the real firmware running in the simulator, drawn by
``hardware.render``.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from PIL import Image

from hardware import template
from hardware.geometry import Geometry
from hardware.link import Link, open_port
from hardware.render import picture
from hardware.simulator import Simulator
from hardware.state import BoardState

HEIGHT = 640          # pixels of each half
GAP = 24
SHOWN = {3: BoardState(((67, 61), (88, 80), (59, 55)), dealer=1, brightness=6, skunk_line=90,
                       double_skunk_line=60, games=(1, 0, 1)),
         2: BoardState(((67, 61), (88, 80)), dealer=1, brightness=6, skunk_line=90, games=(1, 0))}


def lit_board(geometry: Geometry) -> Image.Image:
    with Simulator(geometry.name) as sim, Link(open_port(sim.url)) as link:
        link.hello(geometry=geometry)
        link.set_state(SHOWN[geometry.tracks])
        grb = link.read_leds()
        link.bye()
    return picture(geometry, grb)


def template_png(geometry: Geometry, height: int) -> Image.Image:
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "t.svg"
        png = Path(tmp) / "t.png"
        svg.write_text(template.svg(template.drawing(geometry)))
        subprocess.run(["rsvg-convert", "-h", str(height), "-o", str(png), str(svg)], check=True)
        return Image.open(png).convert("RGB")


def side_by_side(left: Image.Image, right: Image.Image, height: int = HEIGHT) -> Image.Image:
    def fit(image):
        return image.resize((round(image.width * height / image.height), height), Image.LANCZOS)
    left, right = fit(left), fit(right)
    out = Image.new("RGB", (left.width + GAP + right.width, height), (255, 255, 255))
    out.paste(left, (0, 0))
    out.paste(right, (left.width + GAP, 0))
    return out


def save(path: str | Path, geometry: str = "3-track") -> Path:
    board = Geometry.load(geometry)
    image = side_by_side(template_png(board, HEIGHT), lit_board(board))
    image.save(path, optimize=True)
    return Path(path)
