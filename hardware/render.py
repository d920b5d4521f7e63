"""A PNG picture of the lit board from an LED buffer (the board's read-back or a decoded frame)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from hardware.geometry import Geometry

PIXELS_PER_MM = 4
BOARD_RGB = (92, 58, 30)
HOLE_RGB = (40, 26, 14)


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
    width = int((max(xs) + margin) * PIXELS_PER_MM)
    height = int((max(ys) + margin) * PIXELS_PER_MM)
    image = Image.new("RGB", (width, height), BOARD_RGB)
    draw = ImageDraw.Draw(image)
    radius = 2.6 * PIXELS_PER_MM
    for led, (x, y) in enumerate(geometry.positions):
        g, r, b = grb[3 * led:3 * led + 3]
        cx, cy = x * PIXELS_PER_MM, y * PIXELS_PER_MM
        colour = _visible((r, g, b))
        if colour != HOLE_RGB:
            halo = radius * 1.6
            draw.ellipse((cx - halo, cy - halo, cx + halo, cy + halo),
                         fill=tuple((c + 2 * o) // 3 for c, o in zip(colour, BOARD_RGB)))
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
    return image


def save_png(geometry: Geometry, grb: bytes, path: str | Path) -> Path:
    path = Path(path)
    picture(geometry, grb).save(path, format="PNG")
    return path
