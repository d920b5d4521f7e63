"""The drilling template: every hole, LED and button of a geometry at 1:1, in millimetres.

One list of shapes (``drawing``) is written as SVG (``svg``: width/height and viewBox in mm, so
the drawing's units are the board's) or as PDF pages tiled for A4 or Letter (``hardware.pdf``).
Coordinates are the geometry's own: a hole's centre in the SVG is its (x, y) in the JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from hardware.geometry import GAME_HOLE, Geometry

HOLE_MM = 5.0          # a 5 mm through-hole WS2812 LED sits in it (or a 5050 strip LED shines through)
LED_MM = 5.0           # a 5050 strip LED's body, drawn dashed behind the hole
BUTTON_MM = 7.0        # a 7 mm panel-mount momentary push button
MARGIN_MM = 6.0        # wood around the outermost hole or button
TITLE_MM = 14.0        # room above the board for the title
SCALE_BAR_MM = 100.0
NUMBER_EVERY = 5
BUTTON_PINS = ("D8", "D9", "D10", "D11", "D12", "A0", "A1", "A2", "A3")   # firmware buttons.c, in order
STRIP_RGB = (90, 90, 90)
INK = (0, 0, 0)


@dataclass(frozen=True)
class Shape:
    kind: str                          # circle, rect, line, polygon, text
    points: tuple[float, ...]          # circle: cx cy r; rect: x y w h; line/polygon: x y x y ...; text: x y
    stroke: tuple[int, int, int] | None = INK
    fill: tuple[int, int, int] | None = None
    width: float = 0.25                # stroke width, mm
    text: str = ""
    size: float = 2.2                  # text height, mm
    anchor: str = "middle"             # start, middle, end
    role: str = ""                     # hole, led, button, strip, number, scale, ... (SVG class)
    data: dict = field(default_factory=dict, compare=False)
    dash: bool = False


@dataclass(frozen=True)
class Drawing:
    name: str
    box: tuple[float, float, float, float]   # x, y, width, height in mm (the SVG's viewBox)
    shapes: tuple[Shape, ...]


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def _ink(rgb) -> tuple[int, int, int]:
    """A track colour dark enough to read on white paper."""
    return tuple(int(c * 0.8) for c in rgb)  # type: ignore[return-value]


def board_box(geometry: Geometry) -> tuple[float, float, float, float]:
    """The board's outline (x0, y0, x1, y1) in mm: every hole and button with MARGIN_MM around it."""
    xs = [x for x, _ in geometry.positions] + [b[2] for b in geometry.buttons]
    ys = [y for _, y in geometry.positions] + [b[3] for b in geometry.buttons]
    reach = max(HOLE_MM, BUTTON_MM if geometry.buttons else 0) / 2 + MARGIN_MM
    return (min(min(xs) - reach, 0.0), min(min(ys) - reach, 0.0), max(xs) + reach + 8, max(ys) + reach)


def _arrow(x0, y0, x1, y1, size=1.6) -> Shape:
    """A small arrowhead at the middle of the segment, pointing from (x0, y0) to (x1, y1)."""
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    mx, my = (x0 + x1) / 2 + ux * size / 2, (y0 + y1) / 2 + uy * size / 2
    return Shape("polygon", (mx, my, mx - ux * size - uy * size / 2, my - uy * size + ux * size / 2,
                             mx - ux * size + uy * size / 2, my - uy * size - ux * size / 2),
                 stroke=None, fill=STRIP_RGB, role="arrow")


def drawing(geometry: Geometry) -> Drawing:
    x0, y0, x1, y1 = board_box(geometry)
    shapes: list[Shape] = [Shape("rect", (x0, y0, x1 - x0, y1 - y0), width=0.35, role="outline")]
    track_of = {}
    for t, track in enumerate(geometry.hole_leds):
        for led in (*track, geometry.dealer_leds[t], *(geometry.game_leds[t] if geometry.game_leds else ())):
            track_of[led] = t
    names = geometry.led_names()
    # the strip's path in wiring order, behind the holes: a line, an arrow on every jump and
    # on every 5th step, the LED's strip number at every row's start and at every single LED
    positions = geometry.positions
    for i in range(1, geometry.led_count):
        (ax, ay), (bx, by) = positions[i - 1], positions[i]
        jump = abs(by - ay) > 0.1 or abs(bx - ax) > 12.5
        shapes.append(Shape("line", (ax, ay, bx, by), stroke=STRIP_RGB, width=0.3 if not jump else 0.2,
                            role="strip", dash=jump))
        if jump or i % 5 == 0:
            shapes.append(_arrow(ax, ay, bx, by))
    games = {led for track in geometry.game_leds for led in track}
    for i, (x, y) in enumerate(positions):
        before = positions[i - 1] if i else None
        after = positions[i + 1] if i + 1 < geometry.led_count else None
        row_start = before is None or abs(before[1] - y) > 0.1 or abs(before[0] - x) > 12.5
        if not row_start:
            continue
        if i in games:                       # packed side by side: the number goes below
            spot, anchor = (x, y + HOLE_MM / 2 + 2.2), "middle"
        elif after is not None and abs(after[1] - y) < 0.1 and after[0] < x:   # the row runs left
            spot, anchor = (x + HOLE_MM / 2 + 0.6, y + 0.6), "start"
        else:
            spot, anchor = (x - HOLE_MM / 2 - 0.6, y + 0.6), "end"
        if i == geometry.status_led or i in geometry.dealer_leds:
            spot, anchor = (x + HOLE_MM / 2 + 0.6, y + 0.6), "start"
        shapes.append(Shape("text", spot, stroke=None, fill=STRIP_RGB, text=f"#{i}", size=1.8, anchor=anchor,
                            role="strip-number"))
    for led, (x, y) in enumerate(positions):
        colour = _ink(geometry.track_rgb[track_of[led]]) if led in track_of else INK
        shapes.append(Shape("rect", (x - LED_MM / 2, y - LED_MM / 2, LED_MM, LED_MM), stroke=(160, 160, 160),
                            width=0.15, role="led", dash=True))
        shapes.append(Shape("circle", (x, y, HOLE_MM / 2), stroke=colour, width=0.35, role="hole",
                            data={"led": led, "name": names[led]}))
        shapes.append(Shape("line", (x - 0.8, y, x + 0.8, y), width=0.12, role="centre"))
        shapes.append(Shape("line", (x, y - 0.8, x, y + 0.8), width=0.12, role="centre"))
    # hole numbers every 5, and the markers' names
    for t, track in enumerate(geometry.hole_leds):
        ink = _ink(geometry.track_rgb[t])
        for position in range(NUMBER_EVERY, GAME_HOLE, NUMBER_EVERY):
            x, y = positions[track[position]]
            shapes.append(Shape("text", (x, y - HOLE_MM / 2 - 0.7), stroke=None, fill=ink, text=str(position),
                                size=2.0, role="number"))
        for led, label in ((track[0], "start"), (track[GAME_HOLE], "game"), (geometry.dealer_leds[t], "dealer")):
            x, y = positions[led]
            shapes.append(Shape("text", (x, y - HOLE_MM / 2 - 0.7), stroke=None, fill=ink, text=label,
                                size=1.8, role="label"))
        if geometry.game_leds:
            x, y = positions[geometry.game_leds[t][0]]
            shapes.append(Shape("text", (x - HOLE_MM / 2, y - HOLE_MM / 2 - 0.7), stroke=None, fill=ink,
                                text="games won", size=1.8, anchor="start", role="label"))
        ys = [positions[led][1] for led in track[1:GAME_HOLE]]
        shapes.append(Shape("text", (x1 - 3, (min(ys) + max(ys)) / 2), stroke=None, fill=ink,
                            text=f"track {t + 1}", size=3.2, role="track", data={"rotate": -90}))
    x, y = positions[geometry.status_led]
    shapes.append(Shape("text", (x + HOLE_MM / 2 + 4.5, y + 0.7), stroke=None, fill=INK,
                        text="status LED: the strip's data in (D6)", size=1.8, anchor="start", role="label"))
    for index, (t, action, bx, by) in enumerate(geometry.buttons):
        shapes.append(Shape("circle", (bx, by, BUTTON_MM / 2), stroke=_ink(geometry.track_rgb[t]), width=0.35,
                            role="button", data={"track": t, "action": action}))
        shapes.append(Shape("line", (bx - 1, by, bx + 1, by), width=0.12, role="centre"))
        shapes.append(Shape("line", (bx, by - 1, bx, by + 1), width=0.12, role="centre"))
        pin = BUTTON_PINS[index] if index < len(BUTTON_PINS) else "?"
        shapes.append(Shape("text", (bx, by + BUTTON_MM / 2 + 2.4), stroke=None, fill=INK, text=action, size=2.2,
                            role="label"))
        shapes.append(Shape("text", (bx - BUTTON_MM / 2 - 0.8, by + 0.7), stroke=None, fill=INK, text=pin,
                            size=1.6, anchor="end", role="label"))
    # title and a scale bar to check the print
    title = (f"crib board {geometry.name}: drilling template 1:1, {geometry.led_count} holes "
             f"(Ø{HOLE_MM:g} mm), {len(geometry.buttons)} buttons (Ø{BUTTON_MM:g} mm); print at 100 %")
    shapes.append(Shape("text", (x0, y0 - TITLE_MM + 4), stroke=None, fill=INK, text=title, size=3.2,
                        anchor="start", role="title"))
    shapes.extend(scale_bar(x0, y0 - 5))
    return Drawing(geometry.name, (x0 - 4, y0 - TITLE_MM, x1 - x0 + 8, y1 - y0 + TITLE_MM + 4), tuple(shapes))


def scale_bar(x: float, y: float) -> list[Shape]:
    """A 100 mm bar with ticks every 10 mm: measure it on the print."""
    shapes = [Shape("line", (x, y, x + SCALE_BAR_MM, y), width=0.4, role="scale")]
    for k in range(0, int(SCALE_BAR_MM) + 1, 10):
        tall = 2.0 if k in (0, 50, 100) else 1.0
        shapes.append(Shape("line", (x + k, y - tall, x + k, y), width=0.25, role="scale-tick"))
    shapes.append(Shape("text", (x + SCALE_BAR_MM + 2, y), stroke=None, fill=INK,
                        text="100 mm: check this on the print", size=2.4, anchor="start", role="scale-label"))
    return shapes


def _svg_shape(shape: Shape) -> str:
    cls = f' class="{shape.role}"' if shape.role else ""
    paint = (f' stroke="{_hex(shape.stroke)}" stroke-width="{shape.width:g}"' if shape.stroke else ' stroke="none"')
    paint += f' fill="{_hex(shape.fill)}"' if shape.fill else ' fill="none"'
    if shape.dash:
        paint += ' stroke-dasharray="0.8 0.6"'
    extra = "".join(f' data-{k}="{escape(str(v))}"' for k, v in shape.data.items() if k != "rotate")
    p = shape.points
    if shape.kind == "circle":
        return f'<circle{cls} cx="{p[0]:g}" cy="{p[1]:g}" r="{p[2]:g}"{paint}{extra}/>'
    if shape.kind == "rect":
        return f'<rect{cls} x="{p[0]:g}" y="{p[1]:g}" width="{p[2]:g}" height="{p[3]:g}"{paint}{extra}/>'
    if shape.kind == "line":
        return f'<line{cls} x1="{p[0]:g}" y1="{p[1]:g}" x2="{p[2]:g}" y2="{p[3]:g}"{paint}/>'
    if shape.kind == "polygon":
        pts = " ".join(f"{p[i]:.3f},{p[i + 1]:.3f}" for i in range(0, len(p), 2))
        return f'<polygon{cls} points="{pts}"{paint}/>'
    rotate = shape.data.get("rotate")
    turn = f' transform="rotate({rotate:g} {p[0]:g} {p[1]:g})"' if rotate else ""
    return (f'<text{cls} x="{p[0]:g}" y="{p[1]:g}" font-size="{shape.size:g}" text-anchor="{shape.anchor}"'
            f' font-family="Helvetica, Arial, sans-serif" fill="{_hex(shape.fill or INK)}"{turn}>'
            f'{escape(shape.text)}</text>')


def svg(drawing_: Drawing) -> str:
    x, y, w, h = drawing_.box
    body = "\n".join(_svg_shape(s) for s in drawing_.shapes)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
            f'viewBox="{x:g} {y:g} {w:g} {h:g}">\n'
            f'<title>crib board {escape(drawing_.name)}: drilling template at 1:1 (units: mm)</title>\n'
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>\n'
            f'{body}\n</svg>\n')
