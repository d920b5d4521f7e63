"""The one detections type that flows through the recognition stages (numpy arrays, one row each)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES

UNREAD = -1  # card_id of a detection the classifier has not (yet) read


class Origin(IntEnum):
    """Where a box came from: the detector's pass on the whole photo, its closer pass on a tile,
    the second look (an index read on a card box turned upright), or a card box that NMS suppressed
    and that is kept aside until the corners are read (``vision.kept_apart``)."""

    FIRST_PASS = 0
    CLOSER = 1
    SECOND_LOOK = 2
    SUPPRESSED = 3


def _column(values, dtype, n: int, fill) -> np.ndarray:
    if values is None:
        return np.full(n, fill, dtype=dtype)
    array = np.asarray(values, dtype=dtype).reshape(-1)
    if len(array) != n:
        raise ValueError(f"detections column has {len(array)} rows, expected {n}")
    return array


@dataclass(frozen=True, eq=False)
class Detections:
    """Boxes with detector scores and, once classified, the card read from them.

    ``scale``: the frame the boxes are in, as photo pixels per unit of ``xyxy`` (1.0: photo pixels;
    a photo of 3,200 px and more is decoded smaller, and the boxes found on it are in its decoded
    pixels, ``Photo.scale`` photo pixels each). ``photo_xyxy`` gives them in photo pixels (and
    ``in_photo_pixels`` a box column of ``data``): the one conversion, so no step multiplies by a
    scale it was handed (or defaulted to 1.0).

    ``confidence`` is the detector's score of the box. ``card_id``/``card_confidence`` are the
    card read and how sure it is: on an index row the reader's probability, on a card merged from
    its indices (``identify``) that times its best index's score; ``runner_up_id``/
    ``runner_up_confidence`` the second best (for "did you mean" prompts). ``reader`` is the
    reader's own probability of ``card_id`` (unless given: ``card_confidence``, as on an index
    row). ``origin`` says where the box came from (``Origin``). Unclassified rows have
    ``card_id == UNREAD``. ``data``: a step's own columns by name (one entry per row, any shape
    after the first axis, as supervision's ``Detections.data``), filtered and merged with the rows.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    card_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    card_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]
    runner_up_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    runner_up_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]
    reader: np.ndarray = field(default=None)  # type: ignore[assignment]
    origin: np.ndarray = field(default=None)  # type: ignore[assignment]
    data: dict = field(default=None)  # type: ignore[assignment]
    scale: float = 1.0

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        n = len(xyxy)
        object.__setattr__(self, "xyxy", xyxy)
        object.__setattr__(self, "confidence", _column(self.confidence, np.float32, n, 0.0))
        object.__setattr__(self, "class_id", _column(self.class_id, np.int64, n, 0))
        object.__setattr__(self, "card_id", _column(self.card_id, np.int64, n, UNREAD))
        object.__setattr__(self, "card_confidence", _column(self.card_confidence, np.float32, n, 0.0))
        object.__setattr__(self, "runner_up_id", _column(self.runner_up_id, np.int64, n, UNREAD))
        object.__setattr__(self, "runner_up_confidence", _column(self.runner_up_confidence, np.float32, n, 0.0))
        reader = self.card_confidence if self.reader is None else _column(self.reader, np.float32, n, 0.0)
        object.__setattr__(self, "reader", reader)
        object.__setattr__(self, "origin", _column(self.origin, np.int8, n, Origin.FIRST_PASS))
        data = {name: np.asarray(values) for name, values in (self.data or {}).items()}
        for name, values in data.items():
            if len(values) != n:
                raise ValueError(f"detections data column {name!r} has {len(values)} rows, expected {n}")
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "scale", float(self.scale))

    @classmethod
    def empty(cls, scale: float = 1.0) -> "Detections":
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64), scale=scale)

    @property
    def photo_xyxy(self) -> np.ndarray:
        """(N, 4) the boxes in photo pixels (float64), whatever frame they are held in."""
        return self.in_photo_pixels(self.xyxy)

    def in_photo_pixels(self, boxes) -> np.ndarray:
        """Boxes held in this frame (``xyxy``, or a box column of ``data``) in photo pixels
        (float64): the one conversion from decoded pixels to the photo's, as
        ``Photo.decoded_xyxy`` is the one back."""
        return np.asarray(boxes, np.float64) * self.scale

    def at_scale(self, scale: float) -> "Detections":
        """The same rows, their boxes said to be in pixels of ``scale`` photo pixels each (the
        decoded photo's frame: ``Photo.scale``)."""
        return Detections(**{f.name: getattr(self, f.name) for f in fields(self) if f.name != "scale"}, scale=scale)

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, selector) -> "Detections":
        """Rows by boolean mask, index array or slice (always returns Detections)."""
        if isinstance(selector, (int, np.integer)):
            selector = [int(selector)]
        return Detections(**{f.name: getattr(self, f.name)[selector] for f in fields(self)
                             if f.name not in ("data", "scale")},
                          data={name: values[selector] for name, values in self.data.items()}, scale=self.scale)

    def of_class(self, class_id: int) -> "Detections":
        """Rows of this detector class, whatever their origin (``kept`` leaves suppressed boxes out)."""
        return self[self.class_id == class_id]

    def of_origin(self, origin: Origin) -> "Detections":
        return self[self.origin == origin]

    def kept(self) -> "Detections":
        """The rows NMS kept: every origin but ``Origin.SUPPRESSED``."""
        return self[self.origin != Origin.SUPPRESSED]

    def with_cards(self, card_id, card_confidence, runner_up_id, runner_up_confidence, reader=None) -> "Detections":
        """A copy carrying a reading of every row (``reader``: the reader's probability, unless
        given ``card_confidence``, as the reader's own reading of index rows)."""
        return Detections(self.xyxy, self.confidence, self.class_id, card_id, card_confidence,
                          runner_up_id, runner_up_confidence, reader, self.origin, self.data, self.scale)

    def with_origin(self, origin: Origin) -> "Detections":
        """A copy whose rows all came from ``origin``."""
        return Detections(self.xyxy, self.confidence, self.class_id, self.card_id, self.card_confidence,
                          self.runner_up_id, self.runner_up_confidence, self.reader,
                          np.full(len(self), origin, np.int8), self.data, self.scale)

    def with_data(self, **columns) -> "Detections":
        """A copy with these ``data`` columns added (or replaced)."""
        return Detections(**{f.name: getattr(self, f.name) for f in fields(self) if f.name != "data"},
                          data={**self.data, **columns})

    @staticmethod
    def concatenate(parts: list["Detections"]) -> "Detections":
        """The rows of ``parts`` in order, in their frame (every part with rows must be in the same
        one); their ``data`` columns merged (every part must carry the same ones)."""
        given = parts
        parts = [p for p in parts if len(p)]
        if not parts:
            return Detections.empty(given[0].scale if given else 1.0)
        if any(p.scale != parts[0].scale for p in parts):
            raise ValueError(f"detections to join are in other frames: scales {[p.scale for p in parts]}")
        names = set(parts[0].data)
        if any(set(p.data) != names for p in parts):
            raise ValueError(f"detections to join carry other data columns: {[sorted(p.data) for p in parts]}")
        return Detections(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                             for f in fields(Detections) if f.name not in ("data", "scale")},
                          data={name: np.concatenate([p.data[name] for p in parts]) for name in parts[0].data},
                          scale=parts[0].scale)

    @property
    def centers(self) -> np.ndarray:
        return boxes.centres(self.xyxy)

    @property
    def sizes(self) -> np.ndarray:
        """(N, 2) widths and heights."""
        return boxes.sizes(self.xyxy)

    @property
    def codes(self) -> list[str | None]:
        """Card code per row (``None`` where unread)."""
        return [CARD_CODES[i] if i >= 0 else None for i in self.card_id.tolist()]
