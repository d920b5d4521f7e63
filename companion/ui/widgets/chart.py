"""Bar charts drawn with Kivy graphics: one group of bars per player, one bar per measure."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui import theme as T


class BarChart(Widget):
    title = StringProperty("")
    groups = ListProperty([])      # names along the bottom (players)
    series = ListProperty([])      # (measure name, [value per group])

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, groups=self.redraw, series=self.redraw, title=self.redraw)

    def _text(self, text, x, y, size=15, colour=T.TEXT, center=True) -> None:
        label = CoreLabel(text=text, font_size=size, font_name=T.UI_FONT)
        label.refresh()
        w, h = label.texture.size
        Color(*colour)
        Rectangle(texture=label.texture, pos=(x - w / 2 if center else x, y), size=(w, h))

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.width < 50 or self.height < 50:
            return
        top_pad, bottom_pad, left = 64, 40, self.x + 10
        plot_h = self.height - top_pad - bottom_pad
        values = [v for _, vals in self.series for v in vals]
        peak = max(values + [1e-9])
        with self.canvas:
            Color(*T.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            self._text(self.title, self.x + 10, self.top - 28, 18, T.ACCENT, center=False)
            Color(*T.MUTED)
            Line(points=[left, self.y + bottom_pad, self.right - 10, self.y + bottom_pad], width=1)
            if not self.groups or not self.series:
                self._text("no games yet", self.center_x, self.center_y)
                return
            group_w = (self.width - 20) / len(self.groups)
            bar_w = group_w * 0.8 / len(self.series)
            for g, name in enumerate(self.groups):
                gx = left + g * group_w + group_w * 0.1
                for s, (measure, vals) in enumerate(self.series):
                    value = vals[g] if g < len(vals) else 0
                    h = plot_h * value / peak
                    colour = T.TRACKS[s % len(T.TRACKS)]
                    Color(*colour)
                    Rectangle(pos=(gx + s * bar_w, self.y + bottom_pad), size=(bar_w * 0.9, h))
                    self._text(f"{value:.1f}" if isinstance(value, float) else str(value),
                               gx + s * bar_w + bar_w * 0.45, self.y + bottom_pad + h + 2, 13)
                self._text(name, gx + group_w * 0.4, self.y + 12, 15)
            for s, (measure, _vals) in enumerate(self.series):
                colour = T.TRACKS[s % len(T.TRACKS)]
                Color(*colour)
                Rectangle(pos=(self.x + 10 + s * 150, self.top - 50), size=(12, 12))
                self._text(measure, self.x + 28 + s * 150, self.top - 54, 14, colour, center=False)
