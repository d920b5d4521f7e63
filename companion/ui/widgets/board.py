"""The cribbage board, drawn as the LED board it stands for (``present.board_shape``, from the
board's wiring geometry): per track (side) the start hole, 120 holes in 4 rows of 30 (two laps
out and back, groups of five) and the game hole at the far end; the front and back pegs, the
skunk lines, the dealer's light (a "D") and the games-won lights. Held wide the board lies as on
the table (start on the left); held tall it stands, turned a quarter left (start at the
bottom, the first track on the left). Its outline keeps the LED board's proportions
(``aspect``), centred in the widget."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.ui import theme as T
from companion.ui.present import board_shape

HOLE_MM = 1.4        # a hole's radius as drawn (the LED board's are 5 mm across, 8 mm apart)
DEALER_MM = 8.5      # the dealer's "D", across


class BoardWidget(Widget):
    pegs = ListProperty([])                    # per track: (front, back) holes 0..121
    dealer = ObjectProperty(None, allownone=True)
    skunk_line = ObjectProperty(None, allownone=True)
    double_skunk_line = ObjectProperty(None, allownone=True)
    games_won = ListProperty([])               # per track
    tracks = NumericProperty(2)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, pegs=self.redraw, dealer=self.redraw,
                  skunk_line=self.redraw, double_skunk_line=self.redraw, tracks=self.redraw,
                  games_won=self.redraw)

    def show_view(self, board_view, dealer=None) -> None:
        """Take a ``companion.game.BoardView``; ``dealer``: the track of the side about to deal
        (before Deal), marked instead of the last deal's dealer."""
        self.tracks = len(board_view.pegs)
        self.dealer = dealer if dealer is not None else board_view.dealer
        self.skunk_line = board_view.skunk_line
        self.double_skunk_line = board_view.double_skunk_line
        self.games_won = list(board_view.games_won)
        self.pegs = [tuple(p) for p in board_view.pegs]

    # --- from the board's millimetres to the widget's pixels ------------------------------------------
    @property
    def shape(self):
        return board_shape(int(self.tracks))

    @property
    def aspect(self) -> float:
        """The board's length over its width, as the LED board is."""
        x0, y0, x1, y1 = self.shape.box
        return (x1 - x0) / (y1 - y0)

    @property
    def landscape(self) -> bool:
        return self.width >= self.height

    def _scale(self) -> tuple[float, float, float]:
        """(pixels per mm, offset along, offset across): the outline as big as fits, centred."""
        x0, y0, x1, y1 = self.shape.box
        long_side, short_side = (self.width, self.height) if self.landscape else (self.height, self.width)
        scale = min(long_side / (x1 - x0), short_side / (y1 - y0))
        return scale, (long_side - (x1 - x0) * scale) / 2, (short_side - (y1 - y0) * scale) / 2

    def mm_xy(self, x: float, y: float) -> tuple[float, float]:
        """A point of the LED board (mm, y down) on the widget."""
        x0, y0, _x1, _y1 = self.shape.box
        scale, along, across = self._scale()
        u, v = along + (x - x0) * scale, across + (y - y0) * scale
        if self.landscape:
            return self.x + u, self.top - v
        return self.x + v, self.y + u    # standing: the start end at the bottom

    def hole_xy(self, track: int, hole: int) -> tuple[float, float]:
        return self.mm_xy(*self.shape.holes[track][max(0, min(hole, 121))])

    def outline(self) -> tuple[float, float, float, float]:
        """The board's outline on the widget: (left, bottom, right, top)."""
        x0, y0, x1, y1 = self.shape.box
        (ax, ay), (bx, by) = self.mm_xy(x0, y0), self.mm_xy(x1, y1)
        return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)

    def _radius(self) -> float:
        return max(1.5, HOLE_MM * self._scale()[0])

    # --- drawing ------------------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.width < 10 or self.height < 10:
            return
        r = self._radius()
        shape = self.shape
        left, bottom, right, top = self.outline()
        with self.canvas:
            Color(*T.WOOD)
            RoundedRectangle(pos=(left, bottom), size=(right - left, top - bottom), radius=[r * 3])
            for track in range(min(self.tracks, len(shape.holes))):
                colour = T.TRACKS[track % len(T.TRACKS)]
                Color(colour[0], colour[1], colour[2], 0.22)
                self._band(track, r)
                Color(*T.HOLE)
                for hole in range(0, 122):
                    x, y = self.hole_xy(track, hole)
                    size = r * (1.6 if hole in (0, 121) else 1.0)
                    Ellipse(pos=(x - size, y - size), size=(size * 2, size * 2))
                self._games(track, r)
            self._lines(r)
            self._dealer(r)
            self._pegs(r)

    def _band(self, track: int, r: float) -> None:
        """The track's colour behind its 120 holes."""
        points = [self.hole_xy(track, h) for h in range(1, 121)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        left, bottom = min(xs) - r * 2.2, min(ys) - r * 2.2
        RoundedRectangle(pos=(left, bottom), size=(max(xs) + r * 2.2 - left, max(ys) + r * 2.2 - bottom), radius=[r])

    def _games(self, track: int, r: float) -> None:
        """The games-won lights: lit in the track's colour for each game won."""
        won = self.games_won[track] if track < len(self.games_won) else 0
        colour = T.TRACKS[track % len(T.TRACKS)]
        for number, point in enumerate(self.shape.games[track]):
            x, y = self.mm_xy(*point)
            Color(*(colour if number < won else T.HOLE))
            size = r * (1.3 if number < won else 0.9)
            Ellipse(pos=(x - size, y - size), size=(size * 2, size * 2))

    def _lines(self, r) -> None:
        """A bar across the track between hole ``line`` and the next, wherever the track turns."""
        for line, colour in ((self.skunk_line, T.WARN), (self.double_skunk_line, T.DANGER)):
            if not line:
                continue
            Color(*colour)
            for track in range(self.tracks):
                (ax, ay), (bx, by) = self.hole_xy(track, line), self.hole_xy(track, line + 1)
                mx, my = (ax + bx) / 2, (ay + by) / 2
                dx, dy = bx - ax, by - ay
                norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
                px, py = -dy / norm * r * 1.8, dx / norm * r * 1.8
                Line(points=[mx - px, my - py, mx + px, my + py], width=max(1.0, r * 0.35))

    def _dealer(self, r) -> None:
        """The dealer's light, marked "D" (the side about to deal, before the deal)."""
        if self.dealer is None or not 0 <= self.dealer < min(self.tracks, len(self.shape.dealer)):
            return
        cx, cy = self.mm_xy(*self.shape.dealer[self.dealer])
        size = max(DEALER_MM * self._scale()[0], dp(20))
        label = CoreLabel(text="D", font_size=size * 0.85, bold=True)
        label.refresh()
        Color(*T.ACCENT)
        Ellipse(pos=(cx - size / 2, cy - size / 2), size=(size, size))
        Color(0, 0, 0, 1)
        w, h = label.texture.size
        Rectangle(texture=label.texture, pos=(cx - w / 2, cy - h / 2), size=(w, h))

    def _pegs(self, r) -> None:
        for track, peg in enumerate(self.pegs[: self.tracks]):
            front, back = peg
            colour = T.TRACKS[track % len(T.TRACKS)]
            for hole, big in ((back, False), (front, True)):
                x, y = self.hole_xy(track, hole)
                size = r * (4.0 if big else 3.0)
                Color(0, 0, 0, 0.5)
                Ellipse(pos=(x - size / 2 + r * 0.3, y - size / 2 - r * 0.3), size=(size, size))
                Color(*colour) if big else Color(colour[0] * 0.7, colour[1] * 0.7, colour[2] * 0.7, 1)
                Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
