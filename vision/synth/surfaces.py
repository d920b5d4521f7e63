"""Table surfaces: GIMP patterns, GNOME background photos, and procedural textures.

Procedural textures (wood, felt, cloth, keyboard-like grids, paper) make the engine work even
without the Debian image packages; the packaged images add real photographic variety.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

import cv2
import numpy as np

from vision.synth.art import cache_dir

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")
GNOME_BACKGROUNDS = Path("/usr/share/backgrounds/gnome")
_MAX_SIDE = 1024


class PatternFormatError(ValueError):
    """A GIMP .pat file that does not follow the pattern format."""


def read_gimp_pattern(path: Path) -> np.ndarray:
    """Decode a GIMP pattern (.pat: big-endian header, 'GPAT' magic, raw pixels) to BGR uint8."""
    data = path.read_bytes()
    if len(data) < 24:
        raise PatternFormatError(f"{path}: too short for a GIMP pattern")
    header_size, version, width, height, depth = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT" or depth not in (1, 2, 3, 4) or width * height == 0:
        raise PatternFormatError(f"{path}: not a GIMP pattern (magic {data[20:24]!r}, depth {depth})")
    pixels = np.frombuffer(data, np.uint8, count=width * height * depth, offset=header_size)
    pixels = pixels.reshape(height, width, depth)
    if depth in (1, 2):
        return cv2.cvtColor(np.ascontiguousarray(pixels[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(pixels[:, :, :3]), cv2.COLOR_RGB2BGR)


def _photo_files() -> list[Path]:
    if not GNOME_BACKGROUNDS.exists():
        return []
    return sorted(p for p in GNOME_BACKGROUNDS.iterdir() if p.suffix.lower() in (".webp", ".jpg", ".jpeg", ".png"))


@functools.lru_cache(maxsize=1)
def packaged_surfaces() -> tuple[tuple[str, bool], ...]:
    """Cached downsized copies of the packaged textures: (path, tile) pairs; tile=True repeats."""
    folder = cache_dir() / "surfaces"
    folder.mkdir(parents=True, exist_ok=True)
    result = []
    patterns = sorted(GIMP_PATTERNS.rglob("*.pat")) if GIMP_PATTERNS.exists() else []
    for path in patterns:
        out = folder / f"pat_{path.parent.name}_{path.stem}.png"
        if not out.exists():
            try:
                cv2.imwrite(str(out), read_gimp_pattern(path))
            except PatternFormatError:
                continue
        result.append((str(out), True))
    for path in _photo_files():
        out = folder / f"photo_{path.stem}.jpg"
        if not out.exists():
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            scale = _MAX_SIDE / max(image.shape[:2])
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        result.append((str(out), False))
    return tuple(result)


@functools.lru_cache(maxsize=64)
def _load(path: str) -> np.ndarray:
    return cv2.imread(path, cv2.IMREAD_COLOR)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.random((max(2, cells * h // max(h, w) + 2), max(2, cells * w // max(h, w) + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _random_colour(rng: np.random.Generator, lo: int = 20, hi: int = 235) -> np.ndarray:
    return rng.integers(lo, hi, 3).astype(np.float32)


def _wood(rng, h, w):
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)], np.float32)
    y = np.arange(h, dtype=np.float32)[:, None]
    warp = _smooth_noise(rng, h, w, 6) * rng.uniform(20, 80)
    freq = rng.uniform(0.03, 0.12)
    rings = (np.sin((y + warp) * freq) + 1) / 2
    fine = _smooth_noise(rng, h, w, 200) * 0.3
    shade = 0.65 + 0.35 * rings + fine - 0.15
    image = base[None, None, :] * shade[:, :, None]
    if rng.random() < 0.5:  # planks
        plank = int(rng.uniform(0.1, 0.4) * h)
        image[::plank] *= 0.4
    return image if rng.random() < 0.5 else np.ascontiguousarray(np.rot90(cv2.resize(image, (h, w))))


def _felt(rng, h, w):
    base = _random_colour(rng, 10, 180)
    if rng.random() < 0.5:
        base = np.array([rng.uniform(20, 80), rng.uniform(80, 150), rng.uniform(10, 60)], np.float32)  # card-table green
    noise = rng.normal(0, rng.uniform(3, 12), (h, w, 1)).astype(np.float32)
    blotch = (_smooth_noise(rng, h, w, 8)[:, :, None] - 0.5) * rng.uniform(10, 40)
    return base[None, None, :] + noise + blotch


def _cloth(rng, h, w):
    a, b = _random_colour(rng), _random_colour(rng)
    period = rng.uniform(6, 60)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:  # checks / tartan
        t = ((np.sin(xx * 2 * np.pi / period) > 0) ^ (np.sin(yy * 2 * np.pi / period) > 0)).astype(np.float32)
    else:  # stripes
        t = (np.sin((xx * rng.uniform(-1, 1) + yy) * 2 * np.pi / period) > 0).astype(np.float32)
    image = a[None, None, :] * t[:, :, None] + b[None, None, :] * (1 - t[:, :, None])
    weave = (np.sin(xx * 2.2) * np.sin(yy * 2.2))[:, :, None] * rng.uniform(0, 12)
    return image + weave + rng.normal(0, 4, (h, w, 1))


def _keyboard(rng, h, w):
    body = _random_colour(rng, 10, 90) if rng.random() < 0.6 else _random_colour(rng, 150, 240)
    key = np.clip(body + rng.uniform(-60, 60), 0, 255)
    image = np.empty((h, w, 3), np.uint8)
    image[:] = body
    pitch = int(rng.uniform(30, 90))
    gap = max(3, pitch // 6)
    for row, y in enumerate(range(0, h, pitch)):
        offset = (row * pitch // 3) % pitch
        for x in range(-offset, w, pitch):
            image[y + gap: y + pitch - gap, max(0, x + gap): max(0, x + pitch - gap)] = key
            if rng.random() < 0.7:  # a legend on the key
                cx, cy = x + pitch // 2, y + pitch // 2
                colour = tuple(int(v) for v in (255 - key))
                cv2.putText(image, chr(int(rng.integers(65, 91))), (cx - pitch // 6, cy + pitch // 6),
                            cv2.FONT_HERSHEY_SIMPLEX, pitch / 60, colour, max(1, pitch // 30), cv2.LINE_AA)
    return image.astype(np.float32)


def _paper(rng, h, w):
    image = np.empty((h, w, 3), np.float32)
    image[:] = rng.uniform(200, 250)
    image += rng.normal(0, 3, (h, w, 1))
    spacing = int(rng.uniform(18, 45))
    for y in range(int(rng.uniform(10, 60)), h, spacing):
        if rng.random() < 0.8:
            x = int(rng.uniform(10, 60))
            while x < w - 40:
                word = int(rng.uniform(15, 80))
                cv2.line(image, (x, y), (x + word, y), (60, 60, 60), max(1, spacing // 12))
                x += word + int(rng.uniform(6, 18))
    return image


PROCEDURAL = (_wood, _felt, _cloth, _keyboard, _paper)


def procedural_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    maker = PROCEDURAL[int(rng.integers(len(PROCEDURAL)))]
    return np.clip(maker(rng, h, w), 0, 255).astype(np.uint8)


def surface(rng: np.random.Generator, h: int, w: int, packaged_images: bool = True) -> np.ndarray:
    """A table texture of (h, w), BGR uint8, in table coordinates.

    ``packaged_images=False`` keeps to procedural textures (for images we ship: no third-party pixels).
    """
    packaged = packaged_surfaces() if packaged_images else ()
    if packaged and rng.random() < 0.55:
        path, tile = packaged[int(rng.integers(len(packaged)))]
        image = _load(path)
        if tile:
            scale = rng.uniform(1.0, 3.0)
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            reps = (h // image.shape[0] + 1, w // image.shape[1] + 1, 1)
            image = np.tile(image, reps)[:h, :w]
        else:
            crop = rng.uniform(0.4, 1.0)
            ch, cw = int(image.shape[0] * crop), int(image.shape[1] * crop)
            y0 = int(rng.integers(0, image.shape[0] - ch + 1))
            x0 = int(rng.integers(0, image.shape[1] - cw + 1))
            image = cv2.resize(image[y0:y0 + ch, x0:x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)
        if rng.random() < 0.5:  # recolour: surfaces come in every colour
            hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
            hsv[:, :, 0] = (hsv[:, :, 0].astype(int) + int(rng.integers(0, 180))) % 180
            image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        return np.ascontiguousarray(image)
    return procedural_texture(rng, h, w)
