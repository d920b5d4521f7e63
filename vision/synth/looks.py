"""Mix v3 looks of real photos: what cards and phones do to a picture beyond the v2 camera.

Per card (``card_looks``): slightly off-white paper, print grain, worn edges, a smooth curl (the
card bowed along one axis, with the shading a curved sheet catches) and a glossy streak. The
curl is a mapping of face coordinates, so the outline and index boxes follow it exactly.
Per photo (``phone_camera``): the v2 light and optics, dim warm light, then what a phone's
processing adds: noise reduction smear, sharpening halos, HDR tone mapping, JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import photo


@dataclass(frozen=True)
class Bend:
    """A card bowed along one axis: the other coordinate scales by (1 + amount * sin(pi * t)) about
    the middle, t running 0..1 along ``axis`` (0: across x, 1: across y). Corners stay put; edges
    bulge (amount > 0, the middle nearer the camera) or pinch (amount < 0)."""

    axis: int = 0
    amount: float = 0.0

    def forward(self, uv: np.ndarray) -> np.ndarray:
        """Normalised face points (u, v in 0..1) -> where the curl moves them (may leave 0..1)."""
        uv = np.asarray(uv, np.float64).reshape(-1, 2).copy()
        along, other = (0, 1) if self.axis == 0 else (1, 0)
        uv[:, other] = 0.5 + (uv[:, other] - 0.5) * (1 + self.amount * np.sin(np.pi * uv[:, along]))
        return uv

    def pad(self, w: int, h: int) -> int:
        """Pixels of margin the curled face needs around it."""
        return int(math.ceil(max(self.amount, 0.0) / 2 * max(w, h))) + 2


FLAT = Bend()


def _curl(face: np.ndarray, bend: Bend) -> tuple[np.ndarray, int]:
    """Warp an RGBA face by ``bend`` into a canvas padded by ``bend.pad``; returns (canvas, pad)."""
    h, w = face.shape[:2]
    pad = bend.pad(w, h)
    yy, xx = np.mgrid[0: h + 2 * pad, 0: w + 2 * pad].astype(np.float32)
    u, v = (xx - pad) / w, (yy - pad) / h
    if bend.axis == 0:
        v = 0.5 + (v - 0.5) / (1 + bend.amount * np.sin(np.pi * np.clip(u, 0, 1)))
    else:
        u = 0.5 + (u - 0.5) / (1 + bend.amount * np.sin(np.pi * np.clip(v, 0, 1)))
    return cv2.remap(face, u * w, v * h, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)), pad


def _paper(rng, rgb: np.ndarray) -> np.ndarray:
    """Off-white (cream, grey or blue-ish) paper and print grain."""
    tint = (np.array([rng.uniform(0.84, 0.97), rng.uniform(0.93, 0.99), 1.0]) if rng.random() < 0.6  # BGR: cream
            else np.full(3, rng.uniform(0.86, 0.97)) * rng.uniform(0.97, 1.03, 3))
    rgb *= tint[None, None, :]
    grain = rng.normal(0, rng.uniform(2, 7), rgb.shape[:2]).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), rng.uniform(0.5, 1.2))
    rgb += grain[:, :, None]
    return rgb


def _wear(rng, rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Worn edges: specks along the card's border, lighter (worn ink) or darker (dirt)."""
    h, w = alpha.shape
    band = max(1, int(round(w * rng.uniform(0.012, 0.03))))
    inside = (alpha > 128).astype(np.uint8)
    border = inside & ~cv2.erode(inside, np.ones((2 * band + 1, 2 * band + 1), np.uint8)).astype(bool)
    speck = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), max(0.6, band / 2))
    specks = border.astype(bool) & (speck > np.quantile(speck, rng.uniform(0.45, 0.75)))
    colour = rng.uniform(215, 245) if rng.random() < 0.6 else rng.uniform(90, 150)
    strength = rng.uniform(0.4, 0.9)
    rgb[specks] = rgb[specks] * (1 - strength) + colour * strength
    return rgb


def _shading(rng, rgb: np.ndarray, bend: Bend) -> np.ndarray:
    """Light across a curved sheet, and sometimes a glossy streak along the curl."""
    h, w = rgb.shape[:2]
    t = np.linspace(0, 1, w if bend.axis == 0 else h, dtype=np.float32)
    shade = 1 + rng.uniform(0, 0.1) * np.cos(np.pi * t + rng.uniform(-0.8, 0.8)) * np.sign(bend.amount or 1)
    gloss = np.zeros_like(t)
    if rng.random() < 0.35:
        gloss = rng.uniform(0.25, 0.6) * np.exp(-(((t - rng.uniform(0.1, 0.9)) / rng.uniform(0.04, 0.15)) ** 2))
    shape = (1, -1, 1) if bend.axis == 0 else (-1, 1, 1)
    rgb *= shade.reshape(shape)
    rgb += (255 - rgb) * gloss.reshape(shape)
    return rgb


def card_looks(rng: np.random.Generator, face: np.ndarray) -> tuple[np.ndarray, int, Bend]:
    """One card's v3 looks on an RGBA face; returns (padded curled face, pad in px, its Bend)."""
    rgb = face[:, :, :3].astype(np.float32)
    alpha = face[:, :, 3]
    rgb = _paper(rng, rgb)
    if rng.random() < 0.5:
        rgb = _wear(rng, rgb, alpha)
    bend = Bend(int(rng.integers(2)), float(rng.uniform(-0.03, 0.05))) if rng.random() < 0.6 else FLAT
    rgb = _shading(rng, rgb, bend)
    out = np.dstack([np.clip(rgb, 0, 255).astype(np.uint8), alpha])
    if bend is FLAT:
        return out, 0, bend
    curled, pad = _curl(out, bend)
    return curled, pad, bend


def gloss_on_cards(rng: np.random.Generator, image: np.ndarray, cards_mask: np.ndarray) -> np.ndarray:
    """A lamp's reflection on the glossy cards (the matte table does not shine): an elongated
    highlight blending cards toward white, never past ~65 % so the ink stays darker than the paper."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, angle = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, np.pi)
    a = ((xx - cx) * np.cos(angle) + (yy - cy) * np.sin(angle)) / (rng.uniform(0.08, 0.35) * max(w, h))
    b = (-(xx - cx) * np.sin(angle) + (yy - cy) * np.cos(angle)) / (rng.uniform(0.02, 0.1) * max(w, h))
    glow = rng.uniform(0.3, 0.65) * np.exp(-(a ** 2 + b ** 2)) * cv2.GaussianBlur(cards_mask.astype(np.float32), (0, 0), 1.0)
    out = image.astype(np.float32)
    out += (255 - out) * glow[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _tone_map(rng, out: np.ndarray) -> np.ndarray:
    """HDR-style local tone mapping: compress the large-scale light, keep (boost) local detail."""
    h, w = out.shape[:2]
    lum = out.mean(axis=2) + 1.0
    sigma = max(h, w) * rng.uniform(0.02, 0.06)
    f = 8  # the large-scale light is smooth: blur it at 1/8 size and scale it back (4x faster)
    small = cv2.resize(lum, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    base = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / f), (w, h), interpolation=cv2.INTER_LINEAR)
    k = rng.uniform(0.55, 0.85)
    target = 128.0 * (base / 128.0) ** k
    out = out * (target / base)[:, :, None]
    mean = out.mean(axis=2, keepdims=True)
    return mean + (out - mean) * rng.uniform(1.0, 1.3)  # phones push saturation with it


def phone_camera(rng: np.random.Generator, image: np.ndarray, min_card_height: float) -> np.ndarray:
    """v2's light, colour and optics, plus dim warm light and a phone's processing."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    out *= photo._soft_field(rng, h, w)[:, :, None]
    if rng.random() < 0.3:
        out *= photo._shadow_blob(rng, h, w)[:, :, None]
    if rng.random() < 0.2:
        out += photo._glare(rng, h, w)[:, :, None]
    dim = rng.random() < 0.25
    if dim:  # a living-room lamp: dark and warm (BGR: less blue, more red)
        out *= np.array([rng.uniform(0.55, 0.75), rng.uniform(0.8, 0.92), rng.uniform(1.0, 1.15)])[None, None, :]
        out *= rng.uniform(0.35, 0.6)
    else:
        out *= rng.uniform(0.85, 1.15, 3)[None, None, :]
        out = out * rng.uniform(0.75, 1.2) + rng.uniform(-20, 20)
    out = np.clip(out, 0, 255)
    out = 255.0 * (out / 255.0) ** rng.uniform(0.75, 1.3)
    max_sigma = max(0.3, 0.011 * min_card_height)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, min(1.8, max_sigma)))
    noise = rng.uniform(4, 10) if dim else rng.uniform(1, 6) if rng.random() < 0.6 else 0.0
    if noise:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    if dim and rng.random() < 0.85:  # the phone's auto exposure lifts it back up, noise and all
        out *= rng.uniform(1.5, 2.2)
    result = np.clip(out, 0, 255).astype(np.uint8)
    if dim or rng.random() < 0.35:  # noise reduction smears fine texture
        d = 5 if max(h, w) <= 800 else 7
        result = cv2.bilateralFilter(result, d, rng.uniform(20, 60), rng.uniform(3, 8))
    out = result.astype(np.float32)
    if rng.random() < 0.5:  # sharpening: halos along every edge
        out = out + rng.uniform(0.5, 1.6) * (out - cv2.GaussianBlur(out, (0, 0), rng.uniform(0.8, 2.2)))
    if rng.random() < 0.35:
        out = _tone_map(rng, np.clip(out, 0, 255))
    result = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 93))])
        result = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return result
