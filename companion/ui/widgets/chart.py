"""Bar charts drawn with Kivy graphics: one group of bars per player, one bar per measure."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui import theme as T


class BarChart(Widget):
    title = StringProperty("")
    groups = ListProperty([])      # names along the bottom (players)
    series = ListProperty([])      # (measure name, [value per group])

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.placed: list[tuple[str, float, float, float, float]] = []  # each text drawn: (text, x, y, w, h)
        self.bind(pos=self.redraw, size=self.redraw, groups=self.redraw, series=self.redraw, title=self.redraw)

    @staticmethod
    def _texture(text, size):
        label = CoreLabel(text=text, font_size=sp(size), font_name=T.UI_FONT)
        label.refresh()
        return label.texture

    def _text(self, text, x, y, size=15, colour=T.TEXT, center=True) -> float:
        """Draws ``text`` with its bottom at ``y``; returns its width."""
        texture = self._texture(text, size)
        w, h = texture.size
        left = x - w / 2 if center else x
        Color(*colour)
        Rectangle(texture=texture, pos=(left, y), size=(w, h))
        self.placed.append((text, left, y, w, h))
        return w

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        self.placed = []
        if self.width < 50 or self.height < 50:
            return
        pad, bottom_pad, left = dp(10), dp(40), self.x + dp(10)
        title_h = self._texture(self.title or " ", 18).height
        legend_h = self._texture("hand", 14).height
        value_h = self._texture("0.0", 13).height
        legend_y = self.top - pad - title_h - dp(6) - legend_h
        # The bars and the values over them stay below the legend row.
        plot_top = legend_y - dp(6) - value_h - dp(2)
        plot_h = max(plot_top - (self.y + bottom_pad), 0)
        values = [v for _, vals in self.series for v in vals]
        peak = max(values + [1e-9])
        with self.canvas:
            Color(*T.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            self._text(self.title, left, self.top - pad - title_h, 18, T.ACCENT, center=False)
            Color(*T.MUTED)
            Line(points=[left, self.y + bottom_pad, self.right - dp(10), self.y + bottom_pad], width=1)
            if not self.groups or not self.series:
                self._text("no games yet", self.center_x, self.y + bottom_pad + plot_h / 2)
                return
            group_w = (self.width - dp(20)) / len(self.groups)
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
                               gx + s * bar_w + bar_w * 0.45, self.y + bottom_pad + h + dp(2), 13)
                self._text(name, gx + group_w * 0.4, self.y + dp(12), 15)
            x = left
            for s, (measure, _vals) in enumerate(self.series):
                colour = T.TRACKS[s % len(T.TRACKS)]
                Color(*colour)
                Rectangle(pos=(x, legend_y + (legend_h - dp(12)) / 2), size=(dp(12), dp(12)))
                x += dp(18) + self._text(measure, x + dp(18), legend_y, 15, T.TEXT, center=False) + dp(24)
