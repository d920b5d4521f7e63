"""The drilling template: every hole where the geometry puts its LED, at 1:1 in millimetres;
the PDF's pages, their size and the 100 mm scale bar on each."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import main
from hardware import pdf, template
from hardware.geometry import GAME_HOLE, Geometry

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


def _svg(path):
    root = ET.parse(path).getroot()
    return root, root.iter(f"{SVG}circle")


@pytest.mark.parametrize("name", ["3-track", "2-track"])
def test_svg_has_every_hole_at_its_geometry_place_in_mm(tmp_path, name):
    geometry = Geometry.load(name)
    out = tmp_path / "t.svg"
    assert main(["board", "template", "--geometry", name, "--svg", str(out)]) == 0
    root, circles = _svg(out)
    # 1:1: the page is as many millimetres wide as the viewBox has units
    x, y, w, h = map(float, root.get("viewBox").split())
    assert root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm"
    circles = list(circles)
    holes = [c for c in circles if c.get("class") == "hole"]
    assert len(holes) == geometry.led_count
    for hole in holes:
        led = int(hole.get("data-led"))
        assert (float(hole.get("cx")), float(hole.get("cy"))) == geometry.positions[led]
        assert float(hole.get("r")) * 2 == template.HOLE_MM
        assert hole.get("data-name") == geometry.led_names()[led]
    assert sorted(int(h.get("data-led")) for h in holes) == list(range(geometry.led_count))
    buttons = [c for c in circles if c.get("class") == "button"]
    assert [(float(b.get("cx")), float(b.get("cy"))) for b in buttons] == [(bx, by) for _, _, bx, by in geometry.buttons]
    assert len(buttons) == 3 * geometry.tracks
    # every hole and button lies inside the board's outline, which lies inside the page
    outline = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "outline")
    ox, oy, ow, oh = (float(outline.get(k)) for k in ("x", "y", "width", "height"))
    for c in holes + buttons:
        cx, cy, r = float(c.get("cx")), float(c.get("cy")), float(c.get("r"))
        assert ox < cx - r and cx + r < ox + ow and oy < cy - r and cy + r < oy + oh
    assert x <= ox and ox + ow <= x + w and y <= oy and oy + oh <= y + h


def test_svg_numbers_every_fifth_hole_in_the_track_colour_and_draws_the_strip_order(tmp_path):
    geometry = Geometry.load("3-track")
    root = ET.fromstring(template.svg(template.drawing(geometry)))
    numbers = [t for t in root.iter(f"{SVG}text") if t.get("class") == "number"]
    assert len(numbers) == geometry.tracks * (GAME_HOLE // 5)
    for t in range(geometry.tracks):
        colour = template._hex(template._ink(geometry.track_rgb[t]))
        mine = [n for n in numbers if n.get("fill") == colour]
        assert [int(n.text) for n in mine] == list(range(5, GAME_HOLE, 5))
        for n in mine:           # just above its hole
            x, y = geometry.positions[geometry.hole_leds[t][int(n.text)]]
            assert float(n.get("x")) == x and y - template.HOLE_MM < float(n.get("y")) < y
    strip = [line for line in root.iter(f"{SVG}line") if line.get("class") == "strip"]
    assert len(strip) == geometry.led_count - 1          # one segment from each LED to the next
    for i, line in enumerate(strip):
        assert (float(line.get("x1")), float(line.get("y1"))) == geometry.positions[i]
        assert (float(line.get("x2")), float(line.get("y2"))) == geometry.positions[i + 1]
    assert len([p for p in root.iter(f"{SVG}polygon") if p.get("class") == "arrow"]) > geometry.led_count // 5
    scale = next(line for line in root.iter(f"{SVG}line") if line.get("class") == "scale")
    assert float(scale.get("x2")) - float(scale.get("x1")) == 100


def test_committed_templates_are_what_the_command_draws():
    for name in ("3-track", "2-track"):
        drawing = template.drawing(Geometry.load(name))
        committed = (ROOT / "docs" / "board" / f"template-{name}.svg").read_text()
        assert committed == template.svg(drawing)
        for paper in pdf.PAPER_MM:
            assert (ROOT / "docs" / "board" / f"template-{name}-{paper}.pdf").read_bytes() == pdf.pdf_bytes(drawing, paper)


def _pdf_pages(data: bytes):
    boxes = [tuple(map(float, m.groups())) for m in re.finditer(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)]
    streams = pdf.page_streams(data)
    assert len(streams) == len(boxes)
    bars = [re.search(rb"% scale-bar 100 mm\n[^\n]* ([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l S", s).groups()
            for s in streams]
    return boxes, bars, streams


@pytest.mark.parametrize("paper,size_mm", [("a4", (297, 210)), ("letter", (279.4, 215.9))])
def test_pdf_pages_are_tiled_on_the_paper_with_a_100_mm_scale_bar_each(tmp_path, paper, size_mm):
    out = tmp_path / "t.pdf"
    assert main(["board", "template", "--geometry", "3-track", "--pdf", str(out), "--paper", paper]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    boxes, bars, streams = _pdf_pages(data)
    drawing = template.drawing(Geometry.load("3-track"))
    tiles = pdf.tiles(drawing, paper)
    # the board (337 mm wide) needs two landscape pages side by side; every page carries a bar
    assert len(boxes) == len(tiles) == 2 and len(bars) == len(boxes)
    assert re.search(rb"/Count 2 ", data)
    for w, h in boxes:
        assert (round(w / pdf.PT_PER_MM, 1), round(h / pdf.PT_PER_MM, 1)) == size_mm
    for x1, _, x2, _ in bars:             # in the page's own mm: the bar is 100 mm on paper
        assert float(x2) - float(x1) == 100
    # the tiles cover the whole drawing, overlapping by the glue margin
    x0, y0, w, h = drawing.box
    assert tiles[0][0] == x0 and tiles[-1][0] + tiles[-1][2] >= x0 + w
    assert tiles[1][0] == tiles[0][0] + tiles[0][2] - pdf.OVERLAP_MM
    assert all(t[1] == y0 and t[3] >= h for t in tiles)
    # the drawing is placed at 1 mm = 72/25.4 pt on every page
    for stream in streams:
        assert stream.count(f"{pdf._num(pdf.PT_PER_MM)} 0 0 {pdf._num(-pdf.PT_PER_MM)}".encode()) == 2
        assert stream.count(b" re W n") == 1          # clipped to its tile


def test_template_bad_input_is_one_line_with_status_2(tmp_path, capsys):
    assert main(["board", "template", "--geometry", "5-track", "--svg", str(tmp_path / "x.svg")]) == 2
    assert "no geometry '5-track'" in capsys.readouterr().err
    assert main(["board", "template", "--geometry", "3-track"]) == 2
    assert "give --svg OUT" in capsys.readouterr().err
    assert main(["board", "template", "--svg", str(tmp_path / "nowhere" / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert "no folder" in err and len(err.strip().splitlines()) == 1
