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
    # What the photo says about itself (``vision.second_reading``; -1: not measured): a read in a dark,
    # tinted, noisy or blurred photo is less sure than the reader says.
    ground: float = -1.0  # its index's paper: the 90th percentile of the crop's grey (0-255)
    contrast: float = -1.0  # its index's ink against the paper: grey's 95th - 5th percentile (0-255)
    cast: float = -1.0  # how tinted its paper is: (max - min) / mean of the paper's B, G, R (-1: no colour)
    noise: float = -1.0  # the paper's grain: deviation of grey from its 3x3 median on the paper, over contrast
    photo_ground: float = -1.0  # the median ``ground`` of the photo's cards
    photo_sharpness: float = -1.0  # the median ``sharpness`` of the photo's cards
    others: float = -1.0  # the mean reader probability of the photo's other cards (-1: none)
    index_box: tuple[float, float, float, float] | None = None  # its best index, photo pixels (not a feature)

    def as_json(self) -> dict:
        return {"reader": round(self.reader, 4), "runner_up": round(self.runner_up, 4),
                "index_score": round(self.index_score, 4), "card_score": round(self.card_score, 4),
                "corners": self.corners, "disputed": self.disputed, "second_look": self.second_look,
                "column": self.column, "index_px": round(self.index_px, 1), "again": round(self.again, 4),
                "ink_red": round(self.ink_red, 4), "red_suit": self.red_suit,
                "sharpness": round(self.sharpness, 4), "ground": round(self.ground, 1),
                "contrast": round(self.contrast, 1), "cast": round(self.cast, 4), "noise": round(self.noise, 4),
                "photo_ground": round(self.photo_ground, 1), "photo_sharpness": round(self.photo_sharpness, 4),
                "others": round(self.others, 4)}
