"""The one detections type that flows through the recognition stages (numpy arrays, one row each)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES

UNREAD = -1  # card_id of a detection the classifier has not (yet) read


def _column(values, dtype, n: int, fill) -> np.ndarray:
    if values is None:
        return np.full(n, fill, dtype=dtype)
    array = np.asarray(values, dtype=dtype).reshape(-1)
    if len(array) != n:
        raise ValueError(f"detections column has {len(array)} rows, expected {n}")
    return array


@dataclass(frozen=True, eq=False)
class Detections:
    """Boxes in photo pixels with detector scores and, once classified, the card read from them.

    ``card_id``/``card_confidence`` are the classifier's top class and probability;
    ``runner_up_id``/``runner_up_confidence`` the second best (for "did you mean" prompts).
    Unclassified rows have ``card_id == UNREAD``.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    card_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    card_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]
    runner_up_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    runner_up_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]

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

    @classmethod
    def empty(cls) -> "Detections":
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, selector) -> "Detections":
        """Rows by boolean mask, index array or slice (always returns Detections)."""
        if isinstance(selector, (int, np.integer)):
            selector = [int(selector)]
        return Detections(**{f.name: getattr(self, f.name)[selector] for f in fields(self)})

    def of_class(self, class_id: int) -> "Detections":
        return self[self.class_id == class_id]

    def with_cards(self, card_id, card_confidence, runner_up_id, runner_up_confidence) -> "Detections":
        """A copy carrying the classifier's reading of every row."""
        return Detections(self.xyxy, self.confidence, self.class_id, card_id, card_confidence,
                          runner_up_id, runner_up_confidence)

    @staticmethod
    def concatenate(parts: list["Detections"]) -> "Detections":
        parts = [p for p in parts if len(p)]
        if not parts:
            return Detections.empty()
        return Detections(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                             for f in fields(Detections)})

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
