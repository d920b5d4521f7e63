"""A PNG picture of the lit board from an LED buffer (the board's read-back or a decoded frame)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from hardware.geometry import Geometry

PIXELS_PER_MM = 4
BOARD_RGB = (92, 58, 30)
HOLE_RGB = (40, 26, 14)
LABEL_WIDTH = 110   # pixels left of the board for the track names ("track 1" in its colour)
LABEL_SIZE = 22     # font size of the track names, pixels


def _visible(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """LED values are dim on purpose (brightness levels); stretch them so a picture shows hue."""
    peak = max(rgb)
    if peak == 0:
        return HOLE_RGB
    gain = 255 / peak * min(1.0, 0.35 + peak / 128)
    return tuple(min(255, int(c * gain)) for c in rgb)  # type: ignore[return-value]


def picture(geometry: Geometry, grb: bytes) -> Image.Image:
    if len(grb) != geometry.led_count * 3:
        raise ValueError(f"{len(grb)} LED bytes for a board of {geometry.led_count} LEDs")
    xs = [x for x, _ in geometry.positions]
    ys = [y for _, y in geometry.positions]
    margin = 8
    width = int((max(xs) + margin) * PIXELS_PER_MM) + LABEL_WIDTH
    height = int((max(ys) + margin) * PIXELS_PER_MM)
    image = Image.new("RGB", (width, height), BOARD_RGB)
    draw = ImageDraw.Draw(image)
    _track_labels(draw, geometry)
    radius = 2.6 * PIXELS_PER_MM
    for led, (x, y) in enumerate(geometry.positions):
        g, r, b = grb[3 * led:3 * led + 3]
        cx, cy = x * PIXELS_PER_MM + LABEL_WIDTH, y * PIXELS_PER_MM
        colour = _visible((r, g, b))
        if colour != HOLE_RGB:
            halo = radius * 1.6
            draw.ellipse((cx - halo, cy - halo, cx + halo, cy + halo),
                         fill=tuple((c + 2 * o) // 3 for c, o in zip(colour, BOARD_RGB)))
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
    return image


def label_box(geometry: Geometry, track: int) -> tuple[int, int, int, int]:
    """Where the name of ``track`` (from 0) is written: left of the board, level with its holes."""
    ys = [geometry.positions[led][1] for led in geometry.hole_leds[track]]
    middle = (min(ys) + max(ys)) / 2 * PIXELS_PER_MM
    return 6, int(middle - LABEL_SIZE), LABEL_WIDTH - 6, int(middle + LABEL_SIZE)


def _track_labels(draw: ImageDraw.ImageDraw, geometry: Geometry) -> None:
    try:
        font = ImageFont.load_default(size=LABEL_SIZE)
    except TypeError:  # Pillow < 10.1: the small bitmap font
        font = ImageFont.load_default()
    for track in range(geometry.tracks):
        x1, y1, _, y2 = label_box(geometry, track)
        colour = tuple(min(255, c + 60) for c in geometry.track_rgb[track])  # light enough on the wood
        draw.text((x1, (y1 + y2) / 2), f"track {track + 1}", fill=colour, font=font, anchor="lm")


def save_png(geometry: Geometry, grb: bytes, path: str | Path) -> Path:
    path = Path(path)
    picture(geometry, grb).save(path, format="PNG")
    return path
