"""Giving each card read from its indices the detector's whole-card box (its outline)."""

from __future__ import annotations

import numpy as np

from vision import boxes
from vision.classes import CARD_CLASS
from vision.config import InterpretConfig
from vision.detections import UNREAD, Detections
from vision.geometry import CARD_ASPECT
from vision.identify import Identities, typical_card_diagonal
from vision.stages import Outlines

# How far a card's indices may lie from each other and from its box, and what a read card left
# without a box costs: ``InterpretConfig`` (own_corner_reach, own_card_reach, other_corner_reach,
# unassigned_cost; docs/TUNING.md, "interpret").


def _fit_cost(points: np.ndarray, index_boxes: np.ndarray, box: np.ndarray) -> float:
    """How badly ``box`` fits a card's indices (0 = perfect).

    Two or more indices sit in opposite corners of their card, so their union spans the card's
    box: cost 1 - IoU(union, box). A single index sits next to its own card's edge, while an
    index that merely lies over another card's box is usually deep inside it: cost = distance to
    the nearest edge relative to the box's short side (plus 1, so spanned fits come first)."""
    if len(index_boxes) >= 2:
        return 1.0 - float(boxes.box_iou(boxes.union(index_boxes)[None], box[None])[0, 0])
    x1, y1, x2, y2 = box
    d = np.minimum.reduce([points[:, 0] - x1, x2 - points[:, 0], points[:, 1] - y1, y2 - points[:, 1]])
    return 1.0 + float(np.mean(np.abs(d))) / max(min(x2 - x1, y2 - y1), 1.0)


def _estimated_box(index_boxes: np.ndarray, diagonal: float) -> np.ndarray:
    """A card box around indices whose card box the detector missed: their union, grown to at
    least a typical card's size about their centre."""
    x1, y1, x2, y2 = boxes.union(index_boxes)
    width = max(x2 - x1, diagonal / np.hypot(1.0, CARD_ASPECT))
    height = max(y2 - y1, width * CARD_ASPECT if (x2 - x1) < (y2 - y1) else width / CARD_ASPECT)
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    return np.array([cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2], np.float32)


def _min_cost_assignment(cost: np.ndarray, unassigned: float) -> np.ndarray:
    """Hungarian algorithm (Kuhn-Munkres, O(n^3)) on ``cost`` (rows x columns, inf = not
    allowed), where leaving a row unassigned costs ``unassigned``. Returns each row's column or -1."""
    n_rows, n_cols = cost.shape
    big = unassigned * 4 + 1.0
    # Columns: the real ones, then one "no box" column per row.
    full = np.full((n_rows, n_cols + n_rows), big)
    full[:, :n_cols] = np.where(np.isfinite(cost), cost, big)
    full[np.arange(n_rows), n_cols + np.arange(n_rows)] = unassigned
    n, m = n_rows, n_cols + n_rows
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    match = np.zeros(m + 1, dtype=np.int64)  # match[column] = row (1-based), 0 = free
    way = np.zeros(m + 1, dtype=np.int64)
    for row in range(1, n + 1):
        match[0] = row
        column = 0
        min_slack = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[column] = True
            i = match[column]
            slack = full[i - 1] - u[i] - v[1:]
            free = ~used[1:]
            better = free & (slack < min_slack[1:])
            min_slack[1:][better] = slack[better]
            way[1:][better] = column
            candidates = np.where(free, min_slack[1:], np.inf)
            nxt = int(np.argmin(candidates)) + 1
            delta = candidates[nxt - 1]
            u[match[used]] += delta
            v[used] -= delta
            min_slack[1:][free] -= delta
            column = nxt
            if match[column] == 0:
                break
        while column:
            previous = way[column]
            match[column] = match[previous]
            column = previous
    box_of = np.full(n_rows, -1, dtype=np.int64)
    for column in range(1, n_cols + 1):
        row = match[column]
        if row and np.isfinite(cost[row - 1, column - 1]):
            box_of[row - 1] = column - 1
    return box_of


def _own_corners(rows: np.ndarray, indices: Detections, diagonal: float, reach: float) -> np.ndarray:
    """The indices of one reading that can lie on one card: those within ``reach``
    diagonals of its most confident index. A farther one is another card's corner misread as this
    card (a box shared with it joined them); kept, it would stretch the outline over both cards."""
    if len(rows) < 2:
        return rows
    best = rows[int(np.argmax(indices.confidence[rows] * indices.reader[rows]))]
    near = boxes.distances(indices.centers[rows], indices.centers[[best]])[:, 0] <= reach * diagonal
    return rows[near]


def _holding(points: np.ndarray, card_xyxy: np.ndarray) -> np.ndarray:
    """(B,) which card boxes hold every one of ``points``."""
    return np.all(boxes.points_in_boxes(points, card_xyxy), axis=0)


def _fitting_corners(rows: np.ndarray, indices: Detections, card_xyxy: np.ndarray, sure_reader: float) -> np.ndarray:
    """The indices of one reading that a card box can hold: all of them, or else only those the
    reader is sure of, when a box holds those. An unsure read of a neighbouring card's corner as
    this code (a 5D index read 6D at 0.47 beside a real 6D) would otherwise leave the card
    without its box and stretch its guessed outline over both cards."""
    if len(rows) < 2 or not len(card_xyxy):
        return rows
    if _holding(indices.centers[rows], card_xyxy).any():
        return rows
    sure = rows[indices.reader[rows] >= sure_reader]
    if 0 < len(sure) < len(rows) and _holding(indices.centers[sure], card_xyxy).any():
        return sure
    return rows


# The columns each card of ``Outlines.cards`` carries in its ``data`` (filtered with the rows):
ESTIMATED = "estimated"  # no card box was found: the box is guessed from the indices
INDEX_SCORE = "index_score"  # the detector's score of the card's best index (0 if unread)
DISPUTED = "disputed"  # the other card (id) its corners read, two corners that disagree; UNREAD if none
INDEX_CENTRE = "index_centre"  # (N, 2) where the card's most confident index lies (an unread box's centre)
CORNERS = "corners"  # how many of its indices the reader read surely as its code (0 if unread)
INDEX_BOX = "index_box"  # (N, 4) its best index's box (decoded pixels; zeros if unread)


def assign_outlines(identities: Identities, card_boxes: Detections, config: InterpretConfig) -> Outlines:
    """Give each card read from its indices the card box that fits them best: the one-to-one
    assignment of least total ``_fit_cost`` among the boxes holding all of a card's indices
    (a card left without a box costs ``unassigned_cost``). A reading left without a box whose
    indices sit in another corner of a box already taken is that card read differently."""
    cards = identities.cards
    indices = identities.indices
    n_cards, n_boxes = len(cards), len(card_boxes)
    diagonal = typical_card_diagonal(card_boxes, indices)
    own = [_fitting_corners(_own_corners(rows, indices, diagonal, config.own_card_reach), indices, card_boxes.xyxy,
                            config.sure_reader) for rows in identities.members]
    cost = np.full((n_cards, n_boxes), np.inf)
    for i, rows in enumerate(own):
        if n_boxes == 0:
            break
        holds = _holding(indices.centers[rows], card_boxes.xyxy)
        for b in np.flatnonzero(holds):
            cost[i, b] = _fit_cost(indices.centers[rows], indices.xyxy[rows], card_boxes.xyxy[b])
    box_of = _min_cost_assignment(cost, config.unassigned_cost)
    taken = np.zeros(n_boxes, dtype=bool)
    taken[box_of[box_of >= 0]] = True
    reads, members, alive = _merge_misreads(indices, card_boxes, box_of, cards, own, config)

    xyxy = np.zeros((n_cards, 4), np.float32)
    box_score = np.zeros(n_cards, np.float32)
    index_centre = np.zeros((n_cards, 2), np.float32)
    corners = np.zeros(n_cards, np.int64)
    index_box = np.zeros((n_cards, 4), np.float32)
    origin = np.zeros(n_cards, np.int8)
    for i, rows in enumerate(members):
        agree = indices.card_id[rows] == reads.card_id[i]
        corners[i] = int(np.count_nonzero(agree & (indices.reader[rows] >= config.sure_reader)))
        best = rows[int(np.argmax(indices.confidence[rows] * indices.reader[rows]))]
        index_centre[i] = indices.centers[best]
        index_box[i] = indices.xyxy[best]
        if box_of[i] >= 0:
            xyxy[i] = card_boxes.xyxy[box_of[i]]
            box_score[i] = card_boxes.confidence[box_of[i]]
            origin[i] = card_boxes.origin[box_of[i]]
        else:
            xyxy[i] = _estimated_box(indices.xyxy[rows], diagonal)
            origin[i] = indices.origin[best]  # the box is guessed from its indices
    read = Detections(xyxy, box_score, np.full(n_cards, CARD_CLASS), reads.card_id, reads.card_conf,
                      reads.runner_id, reads.runner_conf, reads.reader, origin, scale=cards.scale)[alive]
    unread = card_boxes[~taken]
    unread = Detections(unread.xyxy, unread.confidence, np.full(len(unread), CARD_CLASS), origin=unread.origin,
                        scale=unread.scale)
    disputed = np.full(n_cards, UNREAD, np.int64)
    for j, code in reads.disputed.items():
        disputed[j] = code
    return Outlines(Detections.concatenate([read, unread]).with_data(**{
        ESTIMATED: np.concatenate([(box_of < 0)[alive], np.zeros(len(unread), bool)]),
        INDEX_SCORE: np.concatenate([reads.index_score[alive], np.zeros(len(unread), np.float32)]),
        DISPUTED: np.concatenate([disputed[alive], np.full(len(unread), UNREAD, np.int64)]),
        INDEX_CENTRE: np.concatenate([index_centre[alive], boxes.centres(unread.xyxy)]).reshape(-1, 2),
        CORNERS: np.concatenate([corners[alive], np.zeros(len(unread), np.int64)]),
        INDEX_BOX: np.concatenate([index_box[alive], np.zeros((len(unread), 4), np.float32)]).reshape(-1, 4),
    }))


def _at_other_corner(points: np.ndarray, own: np.ndarray, box: np.ndarray, reach: float) -> bool:
    """Whether indices ``points`` all lie where the box's card has its other corner index: opposite
    its own indices ``own`` through the box's centre (within ``reach`` of its short
    side). A reading with an index elsewhere in the box too is another card lying over it."""
    centre = boxes.centres(box[None])[0]
    mirrored = 2 * centre - own
    reach = reach * min(box[2] - box[0], box[3] - box[1])
    return bool(boxes.distances(points, mirrored).min(axis=1).max() <= reach)


def _both_sure(cards: Detections, i: int, j: int, sure: float) -> bool:
    """Whether the reader is sure of both readings (``sure``), whatever the detector's scores."""
    return bool(cards.reader[i] >= sure and cards.reader[j] >= sure)


class _Readings:
    """Each card's reading, as merging misreads changes it (copies of the identities' columns)."""

    def __init__(self, cards: Detections):
        self.original = cards
        self.card_id, self.card_conf = cards.card_id.copy(), cards.card_confidence.copy()
        self.runner_id, self.runner_conf = cards.runner_up_id.copy(), cards.runner_up_confidence.copy()
        self.index_score = cards.confidence.copy()
        self.reader = cards.reader.copy()
        self.disputed: dict[int, int] = {}  # card row -> the other code its corners read


def _merge_misreads(indices: Detections, card_boxes: Detections, box_of: np.ndarray, cards: Detections,
                    own: list[np.ndarray], config: InterpretConfig) -> tuple[_Readings, list[list[int]], np.ndarray]:
    """Each card's reading, its index rows and whether it stands (not merged into another), from
    the ``cards`` read with their ``own`` index rows and the card box each was given (``box_of``).
    A reading i left without a box whose indices lie in a far corner of the box of card j is card j
    read differently: the more confident reading stays, the other becomes the runner-up, and i
    merges into j."""
    reads = _Readings(cards)
    members = [list(m) for m in own]
    alive = np.ones(len(cards), bool)
    original = reads.original
    owner_of_box = {int(b): i for i, b in enumerate(box_of) if b >= 0}
    for i in np.flatnonzero(box_of < 0):
        points = indices.centers[members[i]]
        for b, j in owner_of_box.items():
            box = card_boxes.xyxy[b]
            if not _holding(points, box[None])[0]:
                continue
            gap = boxes.distances(points, indices.centers[members[j]]).min()
            if gap < config.own_corner_reach * np.hypot(box[2] - box[0], box[3] - box[1]):
                continue  # next to the owner's own index: another card's corner over this box
            if _both_sure(original, i, j, config.sure_reader) and not _at_other_corner(
                    points, indices.centers[members[j]], box, config.other_corner_reach):
                break  # two different sure reads in one box are two cards (one deck holds each once)
            loser = i if reads.card_conf[j] >= reads.card_conf[i] else j
            if loser == j:
                reads.card_id[j], reads.card_conf[j] = reads.card_id[i], reads.card_conf[i]
                reads.index_score[j], reads.reader[j] = reads.index_score[i], reads.reader[i]
            reads.runner_id[j], reads.runner_conf[j] = original.card_id[loser], original.card_confidence[loser]
            reads.disputed[j] = int(original.card_id[loser])
            members[j] += members[i]
            alive[i] = False
            break
    return reads, members, alive
