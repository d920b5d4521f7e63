"""Cards come from corners (issue 20): the reader's own certainty, apart from the detector's score,
and where an index lies on the cards around it.

A card's confidence is the detector's score times the reader's probability. Small and half-covered
indices get low detector scores (0.25-0.5) while the reader reads them surely: on 150 rendered
tuning scenes (seeds 8,500,000+, models v4, mix v3) index rows the reader read at 0.5 or more were
right 76-97 % of the time with a detector score under 0.5 and 89-100 % over it, against 27-56 %
under 0.4. So two different reads the reader is sure of (``SURE_READER``) are two cards, never one
card's disputed corners (``outlines``), and a lone index read surely (``LONE_SURE``) on another
card near its edge is a half-hidden card however weak its detector score (``interpret``).
"""

from __future__ import annotations

import numpy as np

from vision import boxes
from vision.detections import UNREAD, Detections

SURE_READER = 0.5
# A lone index (no card box of its own) with a weak detector score is a card when the reader is
# this sure of it and it lies on another card near its edge: a sure read is a card (issue 20, item 1).
# First set with models v4 (tuning scenes, 150 of mix v3 and 150 of mix v4, found / wrong against no
# such rule 883 / 47 and 883 / 109: 0.5 -> 906 / 59 and 912 / 121; 0.8 -> 899 / 48, 905 / 112), so 0.8
# then. Models v6 and v7 read half-hidden indices more surely and misread fewer: 120 mix v4 tuning
# scenes (seeds 8,500,000+, 30 each of whole shows, fans, hand + starter and scattered; 837 visible
# cards), found / wrong (all wrong ones flagged): v6 0.8 -> 778 / 33, 0.5 -> 781 / 36; v7 0.8 ->
# 792 / 22, 0.5 -> 792 / 23 (v7's first epoch: 777 / 22 -> 782 / 25). A lone read that clears
# READ_FLOOR under a weak detector score (< 0.5) is read at over 0.5 anyway: with 0.5 the edge decides.
LONE_SURE = 0.5
EDGE_TOLERANCE = 0.05  # an index at a card's edge still lies on it (of the box's short side)
# A corner index lies at most this deep in its card's box (of the box's short side: an upright
# card's index centre lies ~0.1 deep, a turned card's nearer its box's edge). A half-hidden card's
# lone index deeper in another card's box is a pip or a court's picture of that card: on the
# tuning scenes above, 0.15 / 0.2 / 0.25 / 0.3 / no limit gave 894 / 897 / 901 / 903 / 905 cards
# found and 56 / 57 / 58 / 58 / 60 wrong; 0.25 keeps most of the finds.
CORNER_DEPTH = 0.25
# A read whose box lies inside another read card's box is a mark on that card's face when its index
# lies this deep in it (0.5 is the centre). Tuning scenes: 0.25 / 0.3 / 0.35 / 0.4 found 906 / 910 /
# 913 / 919 cards (918 without the rule), wrong 73 / 73 / 73 / 75: on renders the deeper boxes are
# mostly lower cards of rows; the rule is for court pictures on blurred photos (issue 20).
MARK_DEPTH = 0.4
INSIDE_ANOTHER = 0.8  # a box this much inside another card's box is part of that card's face (interpret's DUPLICATE_INSIDE)
# A card lying square to the frame keeps its corner indices on one diagonal of its box: top left and
# bottom right when the box stands (it is upright or upside down), top right and bottom left when it
# lies. A court's frame carries marks in the other two corners of its face (sample
# hand_starter_spread: models v5 read the jack of spades' frame as QH three times, and the detector
# gave those marks a card box of their own coinciding with the jack's). Two or more marks in both
# other corners, inside the face, are that frame, not a card: a card's own box never puts its two
# indices there, and a card lying over another shows one index in the box, not two. Tuning scenes
# (seeds 8,500,000+: 150 of mix v3 and 150 of v4, 100 + 100 whole shows of v3 / v4 at 8,520,000+),
# the rule as set below fires on no card with models v5 or v4 (its geometry alone holds for one
# wrong AD on a JD with v4, read too unsurely to be named). Without the two opposite marks it also
# held for 2 right cards: the next card's index in an overlapping row, on the lower card's box.
COINCIDENT = 0.8  # IoU of two card boxes that lie in one place
SQUARE_ON = 0.8  # a box this elongated (short / long side) or more holds a card within ~10 degrees of square
CORNER_QUADRANT = 0.15  # an index at least this far (of the box's side) from its centre on both axes is in a corner
FACE_INSET = 0.15  # ... and a mark at least this far (of the short side) from both nearest edges is inside the face


def reader_probability(cards: Detections, index_score: np.ndarray) -> np.ndarray:
    """(N,) the reader's probability of each read row: its confidence over its index's detector
    score (``index_score``, per row); 0 for unread rows."""
    read = cards.card_id != UNREAD
    return np.where(read, cards.card_confidence / np.maximum(index_score, 1e-6), 0.0)


def edge_depth(points: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(P, B) how deep each point lies inside each box: its distance to the box's nearest edge over
    the box's short side (negative outside). A corner index lies near an edge of its card's box,
    whatever the card's turn; a pip or a court's picture lies deep in the face."""
    x1, y1, x2, y2 = (xyxy[None, :, k] for k in range(4))
    px, py = points[:, 0:1], points[:, 1:2]
    gap = np.minimum.reduce([px - x1, x2 - px, py - y1, y2 - py])
    return gap / np.maximum(np.minimum(x2 - x1, y2 - y1), 1.0)


def lies_on_a_card(cards: Detections, estimated: np.ndarray, index_centre: np.ndarray) -> np.ndarray:
    """(N,) whether each card without a box of its own (``estimated``) has its index where a
    corner index of a half-hidden card lies: on a card that has a box, near that box's edge (the
    lower card of an overlapping pair, a fan's hidden card). Not deep in another card's face (a pip,
    a court's picture), nor on bare table (a chip, a letter of a keyboard)."""
    on = np.zeros(len(cards), bool)
    boxed = ~estimated
    if not boxed.any() or not estimated.any():
        return on
    depth = edge_depth(index_centre[estimated], cards.xyxy[boxed])
    inside = depth >= -EDGE_TOLERANCE
    on[estimated] = (inside & (depth <= CORNER_DEPTH)).any(axis=1)
    return on


def _read_pairs(cards: Detections, measure, at_least: float) -> tuple[np.ndarray, np.ndarray]:
    """The read rows, and which ordered pairs of them ``measure`` (boxes x boxes -> matrix) puts at
    ``at_least`` or more, never a card with itself."""
    read = np.flatnonzero(cards.card_id != UNREAD)
    paired = measure(cards.xyxy[read], cards.xyxy[read]) >= at_least
    np.fill_diagonal(paired, False)
    return read, paired


def _diagonal(points: np.ndarray, box: np.ndarray) -> np.ndarray:
    """(P,) +1 / -1 for points in the top-left or bottom-right / the other two corner quadrants of
    ``box`` (``CORNER_QUADRANT`` out of its centre on both axes), 0 elsewhere."""
    x1, y1, x2, y2 = box
    u = (points[:, 0] - x1) / max(x2 - x1, 1.0) - 0.5
    v = (points[:, 1] - y1) / max(y2 - y1, 1.0) - 0.5
    in_corner = (np.abs(u) > CORNER_QUADRANT) & (np.abs(v) > CORNER_QUADRANT)
    return np.where(in_corner, np.sign(u * v), 0.0)


def frame_marks(cards: Detections, index_centre: np.ndarray, indices: Detections) -> np.ndarray:
    """(N,) whether each read card is a court's frame marks on another read card: the two cards'
    boxes coincide (``COINCIDENT``), that card lies square to the frame (``SQUARE_ON``) with its index
    in a corner on its box's index diagonal, and the indices read as this card in that box lie in
    both corners of the other diagonal (two or more), inside the face (``FACE_INSET``)."""
    out = np.zeros(len(cards), bool)
    read, coincide = _read_pairs(cards, boxes.box_iou, COINCIDENT)
    for a, b in zip(*np.nonzero(coincide)):
        mark, owner = read[a], read[b]
        box = cards.xyxy[owner]
        size = boxes.sizes(box[None])[0]
        if size.min() / max(size.max(), 1.0) > SQUARE_ON:
            continue  # a turned card: its indices may lie in any corner of its box
        index_diagonal = 1.0 if size[1] > size[0] else -1.0
        if _diagonal(index_centre[[owner]], box)[0] != index_diagonal:
            continue
        points = indices.centers[(indices.card_id == cards.card_id[mark]) &
                                 boxes.points_in_boxes(indices.centers, box[None])[:, 0]]
        side = _diagonal(points, box)
        points = points[side != 0]
        both_corners = len(np.unique(np.sign(points[:, 0] - (box[0] + box[2]) / 2))) == 2
        inside = edge_depth(points, box[None])[:, 0] >= FACE_INSET
        out[mark] |= bool(both_corners and np.all(side[side != 0] == -index_diagonal) and inside.all())
    return out


def mid_face(cards: Detections, index_centre: np.ndarray) -> np.ndarray:
    """(N,) whether each read card is a mark on another read card's face: its box lies inside
    that card's box (``INSIDE_ANOTHER`` of its area) and its index deep in that card's face (deeper
    than MARK_DEPTH): a court's picture or a large pip given a box of its own."""
    out = np.zeros(len(cards), bool)
    read, inside = _read_pairs(cards, boxes.box_containment, INSIDE_ANOTHER)
    if not inside.any():
        return out
    deep = edge_depth(index_centre[read], cards.xyxy[read]) > MARK_DEPTH
    bigger = boxes.sizes(cards.xyxy[read]).prod(axis=1)
    out[read] = (inside & deep & (bigger[None, :] > bigger[:, None])).any(axis=1)
    return out
