"""Cards come from corners (issue 20): the reader's own certainty, apart from the detector's score,
and where an index lies on the cards around it.

A card's confidence is the detector's score times the reader's probability (``Detections.reader``,
a column of its own). Small and half-covered
indices get low detector scores (0.25-0.5) while the reader reads them surely: on 150 rendered
tuning scenes (seeds 8,500,000+, models v4, mix v3) index rows the reader read at 0.5 or more were
right 76-97 % of the time with a detector score under 0.5 and 89-100 % over it, against 27-56 %
under 0.4. So two different reads the reader is sure of (``InterpretConfig.sure_reader``) are two cards, never one
card's disputed corners (``outlines``), and a lone index read surely (``lone_sure_reader``) on another
card near its edge is a half-hidden card however weak its detector score (``interpret``).
"""

from __future__ import annotations

import numpy as np

from vision import boxes
from vision.config import InterpretConfig
from vision.detections import UNREAD, Detections

# The reader probabilities (``sure_reader``, ``lone_sure_reader``) and the depths, overlaps and
# corner shares these rules use are ``InterpretConfig`` (vision/config.py), each measured in
# docs/TUNING.md, "interpret". A court's frame (``frame_marks``) carries marks in the two corners of
# its face where its own indices do not lie; a card lying square to the frame keeps its indices on
# one diagonal of its box (top left and bottom right when the box stands).


def edge_depth(points: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(P, B) how deep each point lies inside each box: its distance to the box's nearest edge over
    the box's short side (negative outside). A corner index lies near an edge of its card's box,
    whatever the card's turn; a pip or a court's picture lies deep in the face."""
    x1, y1, x2, y2 = (xyxy[None, :, k] for k in range(4))
    px, py = points[:, 0:1], points[:, 1:2]
    gap = np.minimum.reduce([px - x1, x2 - px, py - y1, y2 - py])
    return gap / np.maximum(np.minimum(x2 - x1, y2 - y1), 1.0)


def lies_on_a_card(cards: Detections, estimated: np.ndarray, index_centre: np.ndarray,
                   config: InterpretConfig) -> np.ndarray:
    """(N,) whether each card without a box of its own (``estimated``) has its index where a
    corner index of a half-hidden card lies: on a card that has a box, near that box's edge (the
    lower card of an overlapping pair, a fan's hidden card). Not deep in another card's face (a pip,
    a court's picture), nor on bare table (a chip, a letter of a keyboard)."""
    on = np.zeros(len(cards), bool)
    boxed = ~estimated
    if not boxed.any() or not estimated.any():
        return on
    depth = edge_depth(index_centre[estimated], cards.xyxy[boxed])
    inside = depth >= -config.edge_tolerance
    on[estimated] = (inside & (depth <= config.corner_depth)).any(axis=1)
    return on


def _read_pairs(cards: Detections, measure, at_least: float) -> tuple[np.ndarray, np.ndarray]:
    """The read rows, and which ordered pairs of them ``measure`` (boxes x boxes -> matrix) puts at
    ``at_least`` or more, never a card with itself."""
    read = np.flatnonzero(cards.card_id != UNREAD)
    paired = measure(cards.xyxy[read], cards.xyxy[read]) >= at_least
    np.fill_diagonal(paired, False)
    return read, paired


def _diagonal(points: np.ndarray, box: np.ndarray, quadrant: float) -> np.ndarray:
    """(P,) +1 / -1 for points in the top-left or bottom-right / the other two corner quadrants of
    ``box`` (``quadrant`` out of its centre on both axes), 0 elsewhere."""
    x1, y1, x2, y2 = box
    u = (points[:, 0] - x1) / max(x2 - x1, 1.0) - 0.5
    v = (points[:, 1] - y1) / max(y2 - y1, 1.0) - 0.5
    in_corner = (np.abs(u) > quadrant) & (np.abs(v) > quadrant)
    return np.where(in_corner, np.sign(u * v), 0.0)


def frame_marks(cards: Detections, index_centre: np.ndarray, indices: Detections,
                config: InterpretConfig) -> np.ndarray:
    """(N,) whether each read card is a court's frame marks on another read card: the two cards'
    boxes coincide (``coincident_iou``), that card lies square to the frame (``square_on``) with its index
    in a corner on its box's index diagonal, and the indices read as this card in that box lie in
    both corners of the other diagonal (two or more), inside the face (``face_inset``)."""
    out = np.zeros(len(cards), bool)
    read, coincide = _read_pairs(cards, boxes.box_iou, config.coincident_iou)
    for a, b in zip(*np.nonzero(coincide)):
        mark, owner = read[a], read[b]
        box = cards.xyxy[owner]
        size = boxes.sizes(box[None])[0]
        if size.min() / max(size.max(), 1.0) > config.square_on:
            continue  # a turned card: its indices may lie in any corner of its box
        index_diagonal = 1.0 if size[1] > size[0] else -1.0
        if _diagonal(index_centre[[owner]], box, config.corner_quadrant)[0] != index_diagonal:
            continue
        points = indices.centers[(indices.card_id == cards.card_id[mark]) &
                                 boxes.points_in_boxes(indices.centers, box[None])[:, 0]]
        side = _diagonal(points, box, config.corner_quadrant)
        points = points[side != 0]
        both_corners = len(np.unique(np.sign(points[:, 0] - (box[0] + box[2]) / 2))) == 2
        inside = edge_depth(points, box[None])[:, 0] >= config.face_inset
        out[mark] |= bool(both_corners and np.all(side[side != 0] == -index_diagonal) and inside.all())
    return out


def mid_face(cards: Detections, index_centre: np.ndarray, config: InterpretConfig) -> np.ndarray:
    """(N,) whether each read card is a mark on another read card's face: its box lies inside
    that card's box (``inside_share`` of its area) and its index deep in that card's face (deeper
    than ``mark_depth``), and that card larger (by more than ``mark_size_tie`` of its area): a
    court's picture or a large pip given a box of its own."""
    out = np.zeros(len(cards), bool)
    read, inside = _read_pairs(cards, boxes.box_containment, config.inside_share)
    if not inside.any():
        return out
    deep = edge_depth(index_centre[read], cards.xyxy[read]) > config.mark_depth
    bigger = boxes.sizes(cards.xyxy[read]).prod(axis=1)
    # Two cards estimated at one size (as a tight fan's are) differ by float rounding, which
    # onnxruntime's kernels change from CPU to CPU: such a pair is a tie, not a mark and its card.
    larger = bigger[None, :] > bigger[:, None] * (1.0 + config.mark_size_tie)
    out[read] = (inside & deep & larger).any(axis=1)
    return out
