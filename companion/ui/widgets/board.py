"""The cribbage board, drawn: per track (side) 120 holes out and back in groups of five, the
start holes and the game hole, front and back pegs, the skunk lines and the dealer's mark.
Lies along the widget's long side (landscape or portrait alike)."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.ui import theme as T

HOLES = 120          # per track, before the game hole
GROUP_GAP = 0.7      # extra space between groups of five, in hole steps
FOLDS = (2, 4, 6)    # rows per track to choose from (a track snakes out and back)


class BoardWidget(Widget):
    pegs = ListProperty([])                    # per track: (front, back) holes 0..121
    dealer = ObjectProperty(None, allownone=True)
    skunk_line = ObjectProperty(None, allownone=True)
    double_skunk_line = ObjectProperty(None, allownone=True)
    tracks = NumericProperty(2)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, pegs=self.redraw, dealer=self.redraw,
                  skunk_line=self.redraw, double_skunk_line=self.redraw, tracks=self.redraw)

    def show_view(self, board_view) -> None:
        """Take a ``companion.game.BoardView``."""
        self.tracks = len(board_view.pegs)
        self.dealer = board_view.dealer
        self.skunk_line = board_view.skunk_line
        self.double_skunk_line = board_view.double_skunk_line
        self.pegs = [tuple(p) for p in board_view.pegs]

    # --- geometry in board units: u along the board (0..1), v across (0..1) ------------------------
    @property
    def landscape(self) -> bool:
        return self.width >= self.height

    def _sides(self) -> tuple[float, float]:
        return (self.width, self.height) if self.landscape else (self.height, self.width)

    def _layout(self) -> tuple[int, float, float]:
        """(rows per track, step along, step across) in pixels: the fold giving the biggest holes."""
        long_side, short_side = self._sides()
        best = None
        for rows in FOLDS:
            columns = HOLES // rows
            along = long_side / (columns + (columns // 5 - 1) * GROUP_GAP + 7)
            across = min(short_side / (rows * max(self.tracks, 1) + 1), along * 3.0)
            if best is None or min(along, across) > min(best[1], best[2]):
                best = (rows, along, across)
        return best

    def _xy(self, u: float, v: float) -> tuple[float, float]:
        """u: pixels along the board from its start end; v: pixels across from its top edge."""
        _long, short_side = self._sides()
        rows, _along, across = self._layout()
        offset = (short_side - across * (rows * max(self.tracks, 1) + 1)) / 2  # holes centred across
        if self.landscape:
            return self.x + u, self.top - offset - v
        return self.x + offset + v, self.top - u

    def hole_uv(self, track: int, hole: int) -> tuple[float, float]:
        rows, along, across = self._layout()
        columns = HOLES // rows
        if hole >= 121:
            return along * 1.5, across * (rows * max(self.tracks, 1) + 1) / 2
        row_top = across * (1 + rows * track)
        if hole <= 0:
            return along * 3.5, row_top + across * (rows - 1) / 2
        row, index = divmod(hole - 1, columns)
        column = index if row % 2 == 0 else columns - 1 - index
        u = along * (5.5 + column + (column // 5) * GROUP_GAP)
        return u, row_top + across * row

    def hole_xy(self, track: int, hole: int) -> tuple[float, float]:
        return self._xy(*self.hole_uv(track, hole))

    def _radius(self) -> float:
        _rows, along, across = self._layout()
        return max(1.5, min(along, across) * 0.3)

    # --- drawing ------------------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.width < 10 or self.height < 10:
            return
        r = self._radius()
        with self.canvas:
            Color(*T.WOOD)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[r * 3])
            for track in range(self.tracks):
                colour = T.TRACKS[track % len(T.TRACKS)]
                Color(colour[0], colour[1], colour[2], 0.22)
                self._band(track, r)
                Color(*T.HOLE)
                for hole in range(0, 121):
                    x, y = self.hole_xy(track, hole)
                    Ellipse(pos=(x - r * 0.55, y - r * 0.55), size=(r * 1.1, r * 1.1))
            x, y = self.hole_xy(0, 121)
            Color(*T.HOLE)
            Ellipse(pos=(x - r, y - r), size=(r * 2, r * 2))
            self._lines(r)
            self._dealer(r)
            self._pegs(r)

    def _band(self, track: int, r: float) -> None:
        rows, _along, _across = self._layout()
        columns = HOLES // rows
        points = [self.hole_xy(track, h) for h in (1, columns, HOLES - columns + 1, HOLES)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        left, bottom = min(xs) - r * 1.8, min(ys) - r * 1.8
        RoundedRectangle(pos=(left, bottom), size=(max(xs) + r * 1.8 - left, max(ys) + r * 1.8 - bottom),
                         radius=[r])

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
        if self.dealer is None or not 0 <= self.dealer < self.tracks:
            return
        x, y = self.hole_xy(self.dealer, 0)
        label = CoreLabel(text="D", font_size=r * 3.2, bold=True)
        label.refresh()
        Color(*T.ACCENT)
        size = r * 3.6
        cx, cy = (x - r * 4, y) if self.landscape else (x, y + r * 4)
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
                size = r * (2.4 if big else 1.8)
                Color(0, 0, 0, 0.5)
                Ellipse(pos=(x - size / 2 + r * 0.2, y - size / 2 - r * 0.2), size=(size, size))
                Color(*colour) if big else Color(colour[0] * 0.7, colour[1] * 0.7, colour[2] * 0.7, 1)
                Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
