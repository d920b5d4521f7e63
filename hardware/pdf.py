"""A minimal PDF writer for the drilling template: vector paths and Helvetica text, pages tiled
at 1:1 for A4 or Letter (landscape), a 100 mm scale bar on every page. Standard library only."""

from __future__ import annotations

import math
import zlib
from pathlib import Path

from hardware.template import SCALE_BAR_MM, Drawing, Shape

PT_PER_MM = 72 / 25.4
PAPER_MM = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}    # landscape: the board is wide
MARGIN_MM = 10.0        # printers leave about 5 mm; the tile starts inside 10
FOOTER_MM = 16.0        # below the tile: the scale bar and the page's place
OVERLAP_MM = 10.0       # each tile repeats this much of its neighbour, to glue them edge to edge
KAPPA = 0.5522847498    # four Bezier quarter arcs make a circle


class PaperError(ValueError):
    """A paper size this writer does not know."""


def _num(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _rgb(rgb) -> str:
    return " ".join(_num(c / 255) for c in rgb)


def _text_width(text: str, size: float) -> float:
    """Helvetica, roughly: digits 0.556 em, capitals 0.667, the rest 0.5."""
    return size * sum(0.556 if c.isdigit() else 0.667 if c.isupper() else 0.278 if c in " .,:;il" else 0.5
                      for c in text)


def _escape(text: str) -> str:
    raw = text.encode("cp1252", "replace").decode("latin-1")
    return raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _paint(shape: Shape) -> tuple[str, str]:
    """The colour and width operators, and the paint operator (stroke, fill or both)."""
    ops = []
    if shape.stroke:
        ops.append(f"{_rgb(shape.stroke)} RG {_num(shape.width)} w")
        ops.append("[0.8 0.6] 0 d" if shape.dash else "[] 0 d")
    if shape.fill:
        ops.append(f"{_rgb(shape.fill)} rg")
    paint = "B" if shape.stroke and shape.fill else "S" if shape.stroke else "f"
    return " ".join(ops), paint


def _shape_ops(shape: Shape) -> str:
    """PDF operators for one shape in the drawing's coordinates (mm, y down: the page's matrix maps them)."""
    p = shape.points
    if shape.kind == "text":
        size = shape.size
        width = _text_width(shape.text, size)
        shift = {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
        angle = math.radians(shape.data.get("rotate", 0))
        a, b = math.cos(angle), math.sin(angle)
        x, y = p[0] - shift * a, p[1] - shift * b
        return (f"{_rgb(shape.fill or (0, 0, 0))} rg BT /F1 {_num(size)} Tf {_num(a)} {_num(b)} {_num(b)} "
                f"{_num(-a)} {_num(x)} {_num(y)} Tm ({_escape(shape.text)}) Tj ET")
    style, paint = _paint(shape)
    if shape.kind == "circle":
        cx, cy, r = p
        k = r * KAPPA
        path = (f"{_num(cx + r)} {_num(cy)} m "
                f"{_num(cx + r)} {_num(cy + k)} {_num(cx + k)} {_num(cy + r)} {_num(cx)} {_num(cy + r)} c "
                f"{_num(cx - k)} {_num(cy + r)} {_num(cx - r)} {_num(cy + k)} {_num(cx - r)} {_num(cy)} c "
                f"{_num(cx - r)} {_num(cy - k)} {_num(cx - k)} {_num(cy - r)} {_num(cx)} {_num(cy - r)} c "
                f"{_num(cx + k)} {_num(cy - r)} {_num(cx + r)} {_num(cy - k)} {_num(cx + r)} {_num(cy)} c h")
    elif shape.kind == "rect":
        path = f"{_num(p[0])} {_num(p[1])} {_num(p[2])} {_num(p[3])} re"
    else:   # line, polygon
        path = f"{_num(p[0])} {_num(p[1])} m " + " ".join(
            f"{_num(p[i])} {_num(p[i + 1])} l" for i in range(2, len(p), 2))
        if shape.kind == "polygon":
            path += " h"
    return f"{style} {path} {paint}"


def tiles(drawing: Drawing, paper: str) -> list[tuple[float, float, float, float]]:
    """The drawing's windows (x, y, width, height in mm), one per page, row by row."""
    if paper not in PAPER_MM:
        raise PaperError(f"paper {paper!r}: choose {' or '.join(PAPER_MM)}")
    page_w, page_h = PAPER_MM[paper]
    tile_w, tile_h = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM - FOOTER_MM
    x0, y0, w, h = drawing.box
    cols = max(1, math.ceil((w - OVERLAP_MM) / (tile_w - OVERLAP_MM)))
    rows = max(1, math.ceil((h - OVERLAP_MM) / (tile_h - OVERLAP_MM)))
    return [(x0 + c * (tile_w - OVERLAP_MM), y0 + r * (tile_h - OVERLAP_MM), tile_w, tile_h)
            for r in range(rows) for c in range(cols)]


def _glue_lines(drawing: Drawing, tile) -> str:
    """Dashed lines where the next tile's drawing starts (only where there is a next tile)."""
    tx, ty, tw, th = tile
    x0, y0, w, h = drawing.box
    ops = ["0.6 0.6 0.6 RG 0.2 w [2 1.5] 0 d"]
    if tx + tw < x0 + w:
        ops.append(f"{_num(tx + tw - OVERLAP_MM)} {_num(ty)} m {_num(tx + tw - OVERLAP_MM)} {_num(ty + th)} l S")
    if ty + th < y0 + h:
        ops.append(f"{_num(tx)} {_num(ty + th - OVERLAP_MM)} m {_num(tx + tw)} {_num(ty + th - OVERLAP_MM)} l S")
    return " ".join(ops) if len(ops) > 1 else ""


def _page(drawing: Drawing, tile, number: int, count: int, paper: str, body: str) -> str:
    page_w, page_h = PAPER_MM[paper]
    tx, ty, tw, th = tile
    k = PT_PER_MM
    ops = ["q",
           # drawing mm (y down) -> page points (y up), the tile's corner at the top-left margin
           f"{_num(k)} 0 0 {_num(-k)} {_num((MARGIN_MM - tx) * k)} {_num((page_h - MARGIN_MM + ty) * k)} cm",
           f"{_num(tx)} {_num(ty)} {_num(tw)} {_num(th)} re W n",
           body,
           _glue_lines(drawing, tile),
           "Q"]
    # the page's own furniture in page mm (y down from the top): a frame round the tile, the
    # scale bar and the page's place, never clipped
    fx, fy = MARGIN_MM, page_h - MARGIN_MM - FOOTER_MM + 6
    ops += ["q", f"{_num(k)} 0 0 {_num(-k)} 0 {_num(page_h * k)} cm",
            f"0 0 0 RG 0.2 w [] 0 d {_num(MARGIN_MM)} {_num(MARGIN_MM)} {_num(tw)} {_num(th)} re S",
            f"% scale-bar {_num(SCALE_BAR_MM)} mm",
            f"0 0 0 RG 0.4 w {_num(fx)} {_num(fy)} m {_num(fx + SCALE_BAR_MM)} {_num(fy)} l S"]
    for tick in range(0, int(SCALE_BAR_MM) + 1, 10):
        tall = 2.5 if tick in (0, 50, 100) else 1.2
        ops.append(f"0.25 w {_num(fx + tick)} {_num(fy - tall)} m {_num(fx + tick)} {_num(fy)} l S")
    label = (f"crib board {drawing.name}, page {number} of {count} ({paper.upper() if paper == 'a4' else 'Letter'}, "
             f"landscape): print at 100 % (actual size, no fit to page); the bar must measure 100 mm. "
             f"Overlap {OVERLAP_MM:g} mm: glue along the dashed lines.")
    ops.append(f"0 0 0 rg BT /F1 2.6 Tf 1 0 0 -1 {_num(fx)} {_num(fy + 5)} Tm ({_escape(label)}) Tj ET")
    ops.append(f"BT /F1 2.6 Tf 1 0 0 -1 {_num(fx + SCALE_BAR_MM + 3)} {_num(fy)} Tm (100 mm) Tj ET")
    ops.append("Q")
    return "\n".join(ops)


def pdf_bytes(drawing: Drawing, paper: str = "a4") -> bytes:
    pages = tiles(drawing, paper)
    body = "\n".join(_shape_ops(s) for s in drawing.shapes)
    page_w, page_h = PAPER_MM[paper]
    objects: list[bytes] = []

    def add(content: bytes) -> int:
        objects.append(content)
        return len(objects)

    catalog = add(b"")       # filled in once the page tree's number is known
    tree = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for number, tile in enumerate(pages, 1):
        stream = zlib.compress(_page(drawing, tile, number, len(pages), paper, body).encode("latin-1"), 9)
        content = add(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add((f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 {_num(page_w * PT_PER_MM)} "
                         f"{_num(page_h * PT_PER_MM)}] /Resources << /Font << /F1 {font} 0 R >> >> "
                         f"/Contents {content} 0 R >>").encode()))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode()
    objects[tree - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                         f"/Count {len(kids)} >>").encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, content in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + content + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out)


def page_streams(data: bytes) -> list[bytes]:
    """The pages' content streams of a PDF written here, uncompressed (for tests and checks)."""
    import re

    return [zlib.decompress(m.group(1)) for m in re.finditer(rb"/FlateDecode >>\nstream\n(.*?)\nendstream", data, re.S)]


def write_pdf(drawing: Drawing, path: str | Path, paper: str = "a4") -> Path:
    path = Path(path)
    path.write_bytes(pdf_bytes(drawing, paper))
    return path
