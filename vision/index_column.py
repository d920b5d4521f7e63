"""The index column of a fan or an overlapping row (issue 39 item 2).

In a fan or a row of overlapping cards the corner indices lie along a line or a gentle arc at a
steady spacing, and often little else of a card shows: the detector may draw no card box for it,
and interpret may drop a read of its index (merged into a neighbour as its other corner, or a weak
lone index). A read on that column, at the
column's step from two cards already read, in line with them, that no card claims (its code not
reported, its box not over a reported card's index) is a card: it is added, flagged for the player
to confirm (``Code.COLUMN_CARD``), with the outline of its neighbour moved along the column.

A gap in the column (a step of two, no read card between, a card under it) is a place to look again:
``column_gaps`` gives the index boxes to read there, and ``look_in_gaps`` reads them with a reader
the caller passes in (the runtime's classifier), so this module needs no model. Values:
``IndexColumnConfig`` (vision/config.py), measured in docs/TUNING.md.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES
from vision.config import IndexColumnConfig, PhantomConfig
from vision.detections import Detections, Origin
from vision.evidence import Evidence
from vision.notices import Code, Notice
from vision.phantoms import readings, same_index_share
from vision.results import RecognizedCard

# reads index boxes (photo pixels, (N, 4)) -> per box (code, probability, runner-up, its probability)
Reader = Callable[[np.ndarray], list[tuple[str, float, str | None, float]]]


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.hypot(*v)), 1e-9)


def on_the_column(point: np.ndarray, side: float, centres: np.ndarray, sides: np.ndarray,
                  config: IndexColumnConfig) -> int | None:
    """The column neighbour of an index at ``point`` (long side ``side``) among the read cards'
    index ``centres`` (long sides ``sides``): the row of the read card next to it when it lies on
    their column, in line with two of them at their step (continuing it, or between them), else
    None. Steps run from ``min_step_of_index`` to ``max_step_of_index`` index long sides, differ
    by at most ``spacing_spread`` and turn by at most ``max_turn_deg`` (an arc)."""
    if len(centres) < 2:
        return None
    alike = (sides >= side / config.size_ratio) & (sides <= side * config.size_ratio)
    gaps = np.hypot(*(centres - point).T)
    order = [int(i) for i in np.argsort(gaps) if alike[i]]
    turn = np.cos(np.radians(config.max_turn_deg))
    for a in order[:4]:
        step = gaps[a]
        if not config.min_step_of_index * side <= step <= config.max_step_of_index * side:
            continue
        out = _unit(centres[a] - point)
        for b in order:
            if b == a:
                continue
            # continuing: point, a, b in a row at one step
            ab = centres[b] - centres[a]
            if abs(np.hypot(*ab) - step) <= config.spacing_spread * step and float(_unit(ab) @ out) >= turn:
                return a
            # between: a, point, b
            pb = centres[b] - point
            if abs(np.hypot(*pb) - step) <= config.spacing_spread * step and float(_unit(pb) @ -out) >= turn:
                return a
    return None


def cards_on_index_columns(cards: Sequence[RecognizedCard], indices: Detections, card_boxes: Detections,
                           config: IndexColumnConfig, phantoms: PhantomConfig
                           ) -> tuple[tuple[RecognizedCard, ...], tuple[Notice, ...]]:
    """The cards with the sure reads on a fan's or row's index column that no card claims added
    (see the module docstring), and a notice for each card added."""
    cards = tuple(cards)
    read = readings(cards, indices, card_boxes, phantoms)
    on = [i for i, r in enumerate(read) if len(r.index_boxes)]
    if len(on) < 2 or not len(indices):
        return cards, ()
    centres = np.array([read[i].index_centre for i in on])
    sides = np.array([float(boxes.sizes(read[i].index_boxes[:1]).max()) for i in on])
    claimed = np.concatenate([read[i].index_boxes for i in on])
    reported = {c.card for c in cards}
    xyxy = indices.photo_xyxy
    sure = indices.confidence * indices.reader
    added: list[RecognizedCard] = []
    said = []
    for row in np.argsort(-sure):
        code = CARD_CODES[indices.card_id[row]] if indices.card_id[row] >= 0 else None
        if code is None or code in reported or sure[row] < config.sure or \
                indices.reader[row] < config.sure_reader:
            continue
        box = xyxy[row:row + 1]
        if same_index_share(box, claimed) >= phantoms.same_index_share:
            continue  # a reported card's index read again
        point, side = boxes.centres(box)[0], float(boxes.sizes(box).max())
        neighbour = on_the_column(point, side, centres, sides, config)
        if neighbour is None:
            continue
        shift = point - centres[neighbour]
        outline = tuple(float(v) for v in np.asarray(cards[on[neighbour]].box) + np.tile(shift, 2))
        runner = CARD_CODES[indices.runner_up_id[row]] if indices.runner_up_id[row] >= 0 else None
        evidence = Evidence(float(indices.reader[row]), float(indices.runner_up_confidence[row]) if runner else 0.0,
                            float(indices.confidence[row]), 0.0, 1, column=True, index_px=side,
                            second_look=int(indices.origin[row]) == Origin.SECOND_LOOK,
                            index_box=tuple(float(v) for v in box[0]))
        card = RecognizedCard(code, float(sure[row]), outline, True, runner,
                              float(indices.confidence[row] * indices.runner_up_confidence[row]), evidence)
        added.append(card)
        reported.add(code)
        claimed = np.concatenate([claimed, box])
        said.append(Notice(Code.COLUMN_CARD, (code, float(sure[row]))))
    return cards + tuple(added), tuple(said)


def column_gaps(cards: Sequence[RecognizedCard], indices: Detections, card_boxes: Detections,
                config: IndexColumnConfig, phantoms: PhantomConfig) -> tuple[np.ndarray, np.ndarray]:
    """Where a column of read cards skips a step: two read cards' indices two steps apart in line
    with a third at one step, no read card's index between them, and a card under the spot (the
    outline of a read card or a card box: a fan's cards overlap; bare table between two groups is
    no gap). Returns (G, 4) index boxes
    (photo pixels; the two indices' mean box, centred between them) and (G, 4) outlines (the
    first card's outline moved there)."""
    cards = tuple(cards)
    read = readings(cards, indices, card_boxes, phantoms)
    on = [i for i, r in enumerate(read) if len(r.index_boxes)]
    if len(on) < 3:
        return np.zeros((0, 4)), np.zeros((0, 4))
    own = np.array([read[i].index_boxes[0] for i in on])
    centres, sides = boxes.centres(own), boxes.sizes(own).max(axis=1)
    gaps = boxes.distances(centres, centres)
    np.fill_diagonal(gaps, np.inf)
    alike = np.maximum.outer(sides, sides) <= config.size_ratio * np.minimum.outer(sides, sides)
    step = np.where(alike, gaps, np.inf).min(axis=1)  # each index's step to its nearest alike neighbour
    turn = np.cos(np.radians(config.max_turn_deg))
    outlines_all = np.concatenate([np.array([c.box for c in cards], np.float64).reshape(-1, 4),
                                   card_boxes.photo_xyxy.reshape(-1, 4)])
    found, outlines = [], []
    for a in range(len(on)):
        for b in range(a + 1, len(on)):
            s = min(step[a], step[b])
            if not alike[a, b] or not np.isfinite(s) or abs(gaps[a, b] - 2 * s) > config.spacing_spread * 2 * s:
                continue
            if not config.min_step_of_index * sides[a] <= s <= config.max_step_of_index * sides[a]:
                continue
            middle = (centres[a] + centres[b]) / 2.0
            if (np.hypot(*(centres - middle).T) < config.gap_clear_of_step * s).any():
                continue  # a read card lies there
            if not boxes.points_in_boxes(middle[None], outlines_all, 0.0).any():
                continue  # bare table (between two groups): a fan's cards overlap, so its gaps lie on a card
            ab = _unit(centres[b] - centres[a])
            def in_line(c: int) -> bool:  # a third index one step before a or after b, in line
                before = abs(gaps[a, c] - s) <= config.spacing_spread * s and \
                    float(_unit(centres[a] - centres[c]) @ ab) >= turn
                after = abs(gaps[b, c] - s) <= config.spacing_spread * s and \
                    float(_unit(centres[c] - centres[b]) @ ab) >= turn
                return before or after

            third = [c for c in range(len(on)) if c not in (a, b) and alike[a, c] and in_line(c)]
            if third:
                half = (own[a, 2:] - own[a, :2] + own[b, 2:] - own[b, :2]) / 4.0
                found.append(np.concatenate([middle - half, middle + half]))
                outlines.append(np.asarray(cards[on[a]].box, np.float64) + np.tile(middle - centres[a], 2))
    return np.array(found).reshape(-1, 4), np.array(outlines).reshape(-1, 4)


def look_in_gaps(cards: Sequence[RecognizedCard], gaps: tuple[np.ndarray, np.ndarray], reader: Reader,
                 config: IndexColumnConfig
                 ) -> tuple[tuple[RecognizedCard, ...], tuple[Notice, ...]]:
    """The cards with what ``reader`` reads surely (``gap_reader``) in the column's gaps
    (``column_gaps``: index boxes and outlines) added, flagged, when no card shows that code."""
    cards = tuple(cards)
    index_boxes, outlines = gaps
    if not len(index_boxes):
        return cards, ()
    reported = {c.card for c in cards}
    added, said = [], []
    for box, index_box, (code, p, runner, q) in zip(outlines, index_boxes,
                                                    reader(np.asarray(index_boxes, np.float64))):
        if code in reported or p < config.gap_reader:
            continue
        confidence = p * config.gap_score
        evidence = Evidence(p, q if runner else 0.0, 0.0, 0.0, 1, column=True,
                            index_px=float(max(index_box[2] - index_box[0], index_box[3] - index_box[1])),
                            index_box=tuple(float(v) for v in index_box))
        added.append(RecognizedCard(code, confidence, tuple(float(v) for v in box), True, runner, q * config.gap_score,
                                    evidence))
        reported.add(code)
        said.append(Notice(Code.COLUMN_CARD, (code, confidence)))
    return cards + tuple(added), tuple(said)
