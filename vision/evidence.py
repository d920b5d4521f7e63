"""What the pipeline knows about each card it names: the evidence ``vision.doubt`` weighs into the
chance that the card is right (standard library only, like ``vision.results``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Evidence:
    """One named card's evidence. Probabilities and scores are 0-1."""

    reader: float  # the reader's probability of the card
    runner_up: float  # the reader's probability of the next best card (0: none)
    index_score: float  # the detector's score of the card's best index (0: read in a column's gap)
    card_score: float  # the detector's score of the card's own box (0: the box is guessed from its indices)
    corners: int  # its indices the reader read surely as this card
    disputed: bool = False  # its corners read two different cards
    second_look: bool = False  # read on the second look (its card box turned upright)
    column: bool = False  # added on the index column of a fan or row, not from a box of its own
    index_px: float = 0.0  # its best index's long side in photo pixels
    again: float = -1.0  # the reader's probability of the card read again (``vision.second_reading``; -1: not read)
    ink_red: float = -1.0  # the share of its index's ink that is red (-1: not measured)
    red_suit: bool = False  # the card read is a heart or a diamond
    sharpness: float = -1.0  # how sharp its index is: the Laplacian's deviation over the ink's contrast (-1: not measured)
    index_box: tuple[float, float, float, float] | None = None  # its best index, photo pixels (not a feature)

    def as_json(self) -> dict:
        return {"reader": round(self.reader, 4), "runner_up": round(self.runner_up, 4),
                "index_score": round(self.index_score, 4), "card_score": round(self.card_score, 4),
                "corners": self.corners, "disputed": self.disputed, "second_look": self.second_look,
                "column": self.column, "index_px": round(self.index_px, 1), "again": round(self.again, 4),
                "ink_red": round(self.ink_red, 4), "red_suit": self.red_suit,
                "sharpness": round(self.sharpness, 4)}
