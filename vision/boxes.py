"""Box geometry in one place: axis-aligned boxes are (N, 4) float arrays ``x1, y1, x2, y2`` in
photo pixels. Overlaps (IoU, containment), centres, sizes, unions, points in boxes, and the
connected components of linked items (union-find) used to merge indices and to group cards."""

from __future__ import annotations

from typing import Hashable, Iterable, Sequence

import numpy as np


def as_boxes(xyxy) -> np.ndarray:
    """Any box-like input as an (N, 4) float32 array."""
    return np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)


def centres(xyxy: np.ndarray) -> np.ndarray:
    """(N, 2) centre of each box."""
    return (xyxy[:, :2] + xyxy[:, 2:]) / 2.0


def sizes(xyxy: np.ndarray) -> np.ndarray:
    """(N, 2) width and height of each box."""
    return xyxy[:, 2:] - xyxy[:, :2]


def union(xyxy: np.ndarray) -> np.ndarray:
    """The smallest box (4,) holding every box of a non-empty (N, 4) array."""
    return np.array([xyxy[:, 0].min(), xyxy[:, 1].min(), xyxy[:, 2].max(), xyxy[:, 3].max()], np.float32)


def _intersections(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intersection areas (N,M) of boxes ``a`` (N,4) and ``b`` (M,4), and both boxes' areas."""
    a, b = as_boxes(a), as_boxes(b)
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    return inter, np.prod(sizes(a), axis=1), np.prod(sizes(b), axis=1)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix between boxes ``a`` (N,4) and ``b`` (M,4)."""
    inter, area_a, area_b = _intersections(a, b)
    union_area = area_a[:, None] + area_b[None, :] - inter
    return np.where(union_area > 0, inter / np.maximum(union_area, 1e-9), 0.0)


def box_containment(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N,M): the fraction of each box of ``a`` that lies inside each box of ``b``."""
    inter, area_a, _ = _intersections(a, b)
    return np.where(area_a[:, None] > 0, inter / np.maximum(area_a[:, None], 1e-9), 0.0)


def covered_fraction(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N,): the share of each box of ``a`` covered by the boxes of ``b`` together (their overlaps
    counted once each, so at most 1; a box straddling two others is covered by both)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(len(a))
    return np.minimum(box_containment(a, b).sum(axis=1), 1.0)


def points_in_boxes(points: np.ndarray, xyxy: np.ndarray, tolerance: float = 0.05) -> np.ndarray:
    """(P, B) whether each point lies in each box grown by ``tolerance`` of its size."""
    size = sizes(xyxy)
    low = xyxy[:, :2] - size * tolerance
    high = xyxy[:, 2:] + size * tolerance
    p = points[:, None, :]
    return np.all((p >= low[None]) & (p <= high[None]), axis=2)


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) Euclidean distances between points ``a`` (N, 2) and ``b`` (M, 2)."""
    return np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))


def components(items: Sequence[Hashable], links: Iterable[tuple[Hashable, Hashable]]) -> list[list]:
    """Connected components of ``items`` joined by ``links`` (union-find with path halving).
    Components come in the order of their first item in ``items``, members in ``items`` order."""
    parent = {item: item for item in items}

    def root(item):
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for a, b in links:
        parent[root(a)] = root(b)
    parts: dict = {}
    for item in items:
        parts.setdefault(root(item), []).append(item)
    return list(parts.values())
