"""A photo (BGR pixels) shown to fit, with boxes drawn over it: each card's box and name,
flagged ones in red, highlighted ones filled; a layout guide for the camera. Tapping a box
dispatches ``on_card(index)``. Boxes are given in photo pixels with the photo's size."""

from __future__ import annotations

import numpy as np
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion.ui import theme as T


def cards_region(boxes, width: float, height: float, margin: float = 0.35) -> tuple[float, float, float, float]:
    """The part of a photo holding ``boxes`` with a margin (a share of the cards' extent), never
    smaller than a third of the photo: the cards fill the view and stay easy to tap."""
    if not boxes:
        return 0.0, 0.0, float(width), float(height)
    x1, y1 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x2, y2 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    pad = margin * max(x2 - x1, y2 - y1)
    half_w, half_h = max((x2 - x1) / 2 + pad, width / 6), max((y2 - y1) / 2 + pad, height / 6)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return max(cx - half_w, 0.0), max(cy - half_h, 0.0), min(cx + half_w, width), min(cy + half_h, height)


def texture_from_bgr(pixels: np.ndarray, texture: Texture | None = None) -> Texture:
    """A Kivy texture of BGR pixels (reused when the size matches)."""
    height, width = pixels.shape[:2]
    if texture is None or texture.size != (width, height):
        texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(np.ascontiguousarray(pixels[::-1]).tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class PhotoView(Widget):
    boxes = ListProperty([])        # dicts: box (x1,y1,x2,y2 photo px), label, colour, flagged, highlight, left_out
    photo_size = ListProperty([1, 1])  # the photo's width, height (the boxes' frame)
    guide = BooleanProperty(False)
    guide_hands = ListProperty([])        # whose each hand row of the guide is, top first (else "hand")
    texture_version = NumericProperty(0)
    origin = ListProperty([0.0, 0.0])    # the photo pixel at the view's top left (a zoomed region)

    __events__ = ("on_card",)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.texture: Texture | None = None
        self._labels: dict[str, object] = {}
        self.bind(pos=self.redraw, size=self.redraw, boxes=self.redraw, guide=self.redraw, guide_hands=self.redraw,
                  texture_version=self.redraw, photo_size=self.redraw)

    def set_photo(self, photo, region: tuple[float, float, float, float] | None = None) -> None:
        """Show a decoded photo (``vision.Photo``: its pixels may be fewer than the photo's, by its
        ``scale``), or nothing (None); ``region``: only that part of it (x1, y1, x2, y2 in photo
        pixels), zoomed to fit."""
        if photo is None:
            self.origin = [0.0, 0.0]
            self.texture = None
            self.texture_version += 1
            return
        pixels, left, top, right, bottom = photo.pixels, 0.0, 0.0, float(photo.width), float(photo.height)
        if region is not None:
            left, top = max(float(region[0]), 0.0), max(float(region[1]), 0.0)
            right, bottom = min(float(region[2]), right), min(float(region[3]), bottom)
            x1, y1, x2, y2 = (int(round(v)) for v in photo.decoded_xyxy((left, top, right, bottom)))
            pixels = pixels[y1:y2, x1:x2]
        self.origin = [left, top]
        self.texture = texture_from_bgr(np.ascontiguousarray(pixels), None)
        self.photo_size = [right - left, bottom - top]
        self.texture_version += 1

    def set_pixels(self, pixels: np.ndarray | None) -> None:
        """Show a camera's frame (BGR pixels) whole; the boxes are in its pixels."""
        from vision import photo_from_array

        self.set_photo(None if pixels is None else photo_from_array(pixels))

    def set_texture(self, texture: Texture) -> None:
        """Show a texture as it is (a camera's preview); the boxes are in its pixels."""
        if texture is not self.texture:
            self.texture = texture
            self.origin = [0.0, 0.0]
            self.photo_size = list(texture.size)
        self.texture_version += 1

    # --- where the photo lies in the widget -----------------------------------------------------------
    def frame(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the photo drawn to fit."""
        pw, ph = self.photo_size if self.texture is None else self.texture.size
        if pw <= 0 or ph <= 0 or self.width <= 0 or self.height <= 0:
            return self.x, self.y, self.width, self.height
        scale = min(self.width / pw, self.height / ph)
        w, h = pw * scale, ph * scale
        return self.x + (self.width - w) / 2, self.y + (self.height - h) / 2, w, h

    def to_widget(self, box) -> tuple[float, float, float, float]:
        fx, fy, fw, fh = self.frame()
        pw, ph = self.photo_size
        ox, oy = self.origin
        x1, y1, x2, y2 = box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy
        return fx + x1 / pw * fw, fy + fh - y2 / ph * fh, (x2 - x1) / pw * fw, (y2 - y1) / ph * fh

    def box_center(self, index: int) -> tuple[float, float]:
        x, y, w, h = self.to_widget(self.boxes[index]["box"])
        return x + w / 2, y + h / 2

    # --- drawing ----------------------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.clear()
        fx, fy, fw, fh = self.frame()
        with self.canvas:
            Color(0, 0, 0, 1)
            Rectangle(pos=self.pos, size=self.size)
            if self.texture is not None:
                Color(1, 1, 1, 1)
                Rectangle(texture=self.texture, pos=(fx, fy), size=(fw, fh))
            if self.guide:
                self._guide(fx, fy, fw, fh)
            for item in self.boxes:
                self._box(item)

    def _guide(self, fx, fy, fw, fh) -> None:
        """Where the cards go: hands in rows on the left, the crib to the right, the starter alone."""
        Color(1, 1, 1, 0.8)
        zones = (("hand", 0.04, 0.08, 0.56, 0.42), ("hand", 0.04, 0.52, 0.56, 0.92),
                 ("crib", 0.62, 0.30, 0.96, 0.70), ("starter", 0.78, 0.74, 0.94, 0.96))
        names = list(self.guide_hands)
        for name, x1, y1, x2, y2 in zones:
            colour = T.ROLE_COLOURS[name]
            said = names.pop(0) if name == "hand" and names else name
            Color(colour[0], colour[1], colour[2], 0.9)
            Line(rectangle=(fx + x1 * fw, fy + (1 - y2) * fh, (x2 - x1) * fw, (y2 - y1) * fh), width=1.5,
                 dash_length=8, dash_offset=6)
            self._text(said, fx + x1 * fw + 6, fy + (1 - y1) * fh - 24, colour, 18)

    def _box(self, item) -> None:
        x, y, w, h = self.to_widget(item["box"])
        colour = T.FLAG_COLOUR if item.get("flagged") else item.get("colour", T.OK)
        if item.get("highlight"):
            Color(T.HIGHLIGHT[0], T.HIGHLIGHT[1], T.HIGHLIGHT[2], 0.35)
            Rectangle(pos=(x, y), size=(w, h))
        Color(*colour)
        if item.get("left_out"):  # not a card: a thin dashed outline, never a counted card's frame
            Line(rectangle=(x, y, w, h), width=1, dash_length=8, dash_offset=6)
        else:
            Line(rectangle=(x, y, w, h), width=3 if item.get("flagged") or item.get("highlight") else 2)
        label = item.get("label")
        if label:
            self._text(label, x, y + h + 2, colour, 20, background=True)

    def _text(self, text, x, y, colour, size, background=False) -> None:
        key = f"{text}|{size}"
        label = self._labels.get(key)
        if label is None:
            label = CoreLabel(text=text, font_size=size, font_name=T.CARD_FONT, bold=True)
            label.refresh()
            self._labels[key] = label
        w, h = label.texture.size
        if background:
            Color(0, 0, 0, 0.75)
            Rectangle(pos=(x, y), size=(w + 6, h))
        Color(*colour)
        Rectangle(texture=label.texture, pos=(x + 3, y), size=(w, h))

    # --- taps --------------------------------------------------------------------------------------------
    def card_at(self, x: float, y: float) -> int | None:
        """The smallest box under the point (overlapping cards: the one on top is usually smaller)."""
        hits = []
        for i, item in enumerate(self.boxes):
            bx, by, bw, bh = self.to_widget(item["box"])
            if bx <= x <= bx + bw and by <= y <= by + bh:
                hits.append((bw * bh, i))
        return min(hits)[1] if hits else None

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos):
            index = self.card_at(*touch.pos)
            if index is not None:
                self.dispatch("on_card", index)
                return True
        return super().on_touch_down(touch)

    def on_card(self, index: int) -> None:
        pass
