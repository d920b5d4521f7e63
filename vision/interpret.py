"""Step 4, interpret: from read corner indices and card boxes to the cards on the table.

Named steps, in order: merge each card's indices (``identify``), give each card its outline
(``outlines``), leave reads too unsure to name unnamed, say disputed corners, drop weak
evidence, lay the cards out in groups (``layout``), flag cards to confirm, and list the cards
whose index could not be read. Every threshold a step uses is a named constant with its reason;
the three a caller may tune travel together as ``Thresholds``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES
from vision.decode import Photo
from vision.detections import UNREAD, Detections
from vision.ground import on_card_ground
from vision.identify import merge_indices
from vision.layout import Layout, arrange
from vision.outlines import Outlines, assign_outlines
from vision.notices import Code, Notice
from vision.results import CardGroup, RecognizedCard, Recognition, Role
from vision.sure_reads import LONE_SURE, frame_marks, lies_on_a_card, mid_face, reader_probability

# A card read with less confidence (detector score x classifier probability) is flagged for the
# player to confirm. 0.5, set with the first models: every card the bench's 300 scenes left
# unflagged at 0.5 was right (models v2: 1,314 cards, precision 100 %; models/MODEL.md).
CONFIRM_BELOW = 0.5
# An index with no card box around it whose detector score is under this is weak evidence (a
# letter on a keyboard, a pip): said, not counted as a card. 0.5 since the first models; not
# tuned apart from the confirm threshold (it shared one value with it until issue 8).
LONE_INDEX_SCORE = 0.5
# A card box on which no index was read is reported only when the detector is at least this
# sure it is a card. 0.5 since the first models, not tuned apart either (shared value, as above).
UNREAD_CARD_SCORE = 0.5
# A card read with less confidence than this is more often wrong than right: it is kept as a
# card whose index could not be read, its best guess in the warning, not reported as that card.
# Set with models v2 on 150 rendered scenes that neither training nor the bench use (seeds
# 8,500,000+): reads under 0.25 were wrong 37 times and right 19; 0.25-0.30: 13 right, 7 wrong;
# 0.30 and over: 986 right, 4 wrong.
READ_FLOOR = 0.25
# An unread card box this much inside read cards' boxes is a second box of that card, or one
# straddling two read cards (NMS keeps it when the IoU falls just under its threshold): sample
# deal6_overlap_pen read one phantom card (models v2); hand_starter_spread a box across 6D and 2S (v4).
DUPLICATE_INSIDE = 0.8
# A card read from one corner only (no second index read surely as the same card) needs this many
# times the confirm threshold not to be flagged (0.65 at the default 0.5): its misreads (6C read 9C,
# 2C read 2D) are the unflagged wrong cards. Tuning scenes (seeds 8,500,000+, 150 of mix v3 / 150 of
# v4), precision of unflagged cards: no such rule 99.08 / 98.94 %, 0.6 99.33 / 99.50 %, 0.65 99.82 /
# 99.47 %, 0.7 99.81 / 99.63 %, flagging 97 / 92 more cards at 0.65 (92 / 88 of them right).
ONE_CORNER_FACTOR = 1.3
MAX_CARDS = 20  # more than two hands, a crib and a starter (and some slack): not a cribbage layout


class ThresholdError(ValueError):
    """A threshold outside 0..1. ``name`` is the threshold's parameter name, ``value`` the value."""

    def __init__(self, name: str, value: float):
        super().__init__(f"{name} must be between 0 and 1, got {value}")
        self.name, self.value = name, value


@dataclass(frozen=True)
class Thresholds:
    """The thresholds a caller may tune (see the constants above for what each one means)."""

    confirm_below: float = CONFIRM_BELOW
    lone_index_score: float = LONE_INDEX_SCORE
    unread_card_score: float = UNREAD_CARD_SCORE

    def __post_init__(self) -> None:
        for name in ("confirm_below", "lone_index_score", "unread_card_score"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ThresholdError(name, value)


def interpret(indices: Detections, card_boxes: Detections, photo: Photo, name: str,
              thresholds: Thresholds = Thresholds()) -> Recognition:
    """Read indices + card boxes (decoded-pixel coordinates) -> cards, groups, notices."""
    outlines = assign_outlines(merge_indices(indices, card_boxes), card_boxes)
    reader = reader_probability(outlines.cards, outlines.index_score)
    cards, guessed, guess = unname_unsure_reads(outlines.cards)
    disputed, said_disputed = disputed_corners(cards, outlines.disputed, guessed)
    keep, said_ignored = evidence_to_keep(cards, outlines, guessed, guess, thresholds, reader, indices, photo)
    cards, disputed, guess = cards[keep], disputed[keep], guess[keep]
    one_corner = outlines.corners[keep] < 2
    layout = arrange(cards)
    counts, said_twice = cards_seen_twice(cards)
    named, said_unsure = name_cards(cards, disputed, counts, photo.scale, thresholds.confirm_below, one_corner)
    ordered, groups = in_groups(layout, named, cards.codes)
    unread, said_unread = unread_boxes(cards, guess, photo.scale)
    notices = (*overall(len(ordered)), *said_disputed, *said_ignored, *layout.warnings, *said_twice, *said_unsure,
               *said_unread)
    return Recognition(name, photo.width, photo.height, tuple(ordered), tuple(groups), notices, {}, unread)


def overall(found: int) -> tuple[Notice, ...]:
    """What is said first: no card at all, or more than a cribbage layout holds."""
    if not found:
        return (Notice(Code.NO_CARD),)
    if found > MAX_CARDS:
        return (Notice(Code.TOO_MANY_CARDS, (found, MAX_CARDS)),)
    return ()


def unname_unsure_reads(cards: Detections) -> tuple[Detections, np.ndarray, np.ndarray]:
    """Reads under READ_FLOOR become unread cards. Returns the cards, which rows were unnamed,
    and per row the guess to say (code, probability) or None."""
    guessed = (cards.card_id != UNREAD) & (cards.card_confidence < READ_FLOOR)
    guess = np.empty(len(cards), object)  # filled one by one: numpy would make rows of the pairs
    guess[:] = [(code, float(p)) if unsure else None
                for code, p, unsure in zip(cards.codes, cards.card_confidence, guessed)]
    if guessed.any():
        cards = cards.with_cards(np.where(guessed, UNREAD, cards.card_id), np.where(guessed, 0.0, cards.card_confidence),
                                 np.where(guessed, UNREAD, cards.runner_up_id),
                                 np.where(guessed, 0.0, cards.runner_up_confidence))
    return cards, guessed, guess


def disputed_corners(cards: Detections, disputed: dict, guessed: np.ndarray) -> tuple[np.ndarray, tuple[Notice, ...]]:
    """Mask of the named cards whose corners read two different codes, and the notices saying so."""
    mask = np.zeros(len(cards), bool)
    said = []
    for row, other in sorted(disputed.items()):
        if guessed[row]:
            continue  # said with the unread card
        mask[row] = True
        said.append(Notice(Code.DISPUTED_CORNERS, (cards.codes[row], other)))
    return mask, tuple(said)


def evidence_to_keep(cards: Detections, outlines: Outlines, guessed: np.ndarray, guess: np.ndarray,
                     thresholds: Thresholds, reader: np.ndarray,
                     indices: Detections, photo: Photo) -> tuple[np.ndarray, tuple[Notice, ...]]:
    """Mask of the rows that are cards: named cards unless only a weak lone index says so (a lone
    index the reader is sure of, on another card near its edge or printed on card-sized ground, is
    a half-hidden card or one cut by the photo's edge: issue 20),
    or they are a mark in the middle of another card's face or a court's frame marks on a
    coinciding card; unread card boxes the detector is sure of that are not a second box of a named
    card; unnamed reads unless only their index says a card is there or they lie on a named card (a
    pip, a court). Returns the mask and the notices of what was ignored."""
    said: list[Notice] = []
    read = cards.card_id != UNREAD
    lone = read & outlines.estimated & (outlines.index_score < thresholds.lone_index_score)
    half_hidden = (reader >= LONE_SURE) & lies_on_a_card(cards, outlines.estimated, outlines.index_centre)
    # one deck holds each card once: a lone read of a code another card shows is that card's other corner
    elsewhere = np.isin(cards.card_id, cards.card_id[read & ~lone])
    half_hidden |= printed_on_a_card(photo, cards, outlines, indices,
                                     lone & (reader >= LONE_SURE) & ~half_hidden & ~elsewhere)
    weak = lone & ~half_hidden
    marks = read & ~weak & mid_face(cards, outlines.index_centre)
    if marks.any():  # a court's picture or a large pip given a box of its own (issue 20)
        said.append(Notice(Code.MID_FACE_MARKS, (tuple(cards.codes[i] for i in np.flatnonzero(marks)),)))
    framed = read & ~weak & ~marks & frame_marks(cards, outlines.index_centre, indices)
    if framed.any():  # a court's frame marks read as a card, given a box of their own (sample hand_starter_spread)
        said.append(Notice(Code.FRAME_MARKS, (tuple(cards.codes[i] for i in np.flatnonzero(framed)),)))
    marks |= framed
    if weak.any():  # one notice for them all: a keyboard or a pattern can make many
        said.append(Notice(Code.LONE_INDICES, (tuple((cards.codes[i], float(outlines.index_score[i]))
                                                     for i in np.flatnonzero(weak)),)))
    inside_read = np.zeros(len(cards), bool)
    if read.any() and (~read).any():
        inside_read[~read] = boxes.covered_fraction(cards.xyxy[~read], cards.xyxy[read]) >= DUPLICATE_INSIDE
    stray = guessed & (outlines.estimated | inside_read)
    for lone, code in ((True, Code.UNSURE_LONE_READS), (False, Code.UNSURE_READS_ON_CARDS)):
        rows = [i for i in np.flatnonzero(stray) if bool(outlines.estimated[i]) == lone]
        if rows:  # one notice, not one per read: a patterned cloth reads as many unsure corners
            said.append(Notice(code, (tuple(guess[i] for i in rows),)))
    sure_box = cards.confidence >= thresholds.unread_card_score
    keep = (read & ~weak & ~marks) | (~read & ~guessed & sure_box & ~inside_read) | (guessed & ~stray)
    return keep, tuple(said)


def printed_on_a_card(photo: Photo, cards: Detections, outlines: Outlines, indices: Detections,
                      rows: np.ndarray) -> np.ndarray:
    """(N,) whether each of ``rows`` (a mask of cards without a box of their own) has its best index
    printed on ground the size of a card (``ground``), not on a chip's inlay or a key."""
    out = np.zeros(len(cards), bool)
    if not len(indices):
        return out
    for i in np.flatnonzero(rows):
        nearest = int(np.argmin(np.hypot(*(indices.centers - outlines.index_centre[i]).T)))
        short_side = float(boxes.sizes(cards.xyxy[i][None])[0].min())  # the estimated box: a typical card
        out[i] = on_card_ground(photo.pixels, indices.xyxy[nearest], short_side)
    return out


def cards_seen_twice(cards: Detections) -> tuple[Counter, tuple[Notice, ...]]:
    """How often each code was named; a code named twice is said (one deck has one of each)."""
    counts = Counter(c for c in cards.codes if c)
    return counts, tuple(Notice(Code.SEEN_TWICE, (code, count)) for code, count in sorted(counts.items()) if count > 1)


def name_cards(cards: Detections, disputed: np.ndarray, counts: Counter, scale: float, confirm_below: float,
               one_corner: np.ndarray | None = None) -> tuple[dict[int, RecognizedCard], tuple[Notice, ...]]:
    """The named rows as cards with boxes in photo pixels, flagged to confirm when read under
    ``confirm_below``, seen twice, or disputed, or read from one corner only (``one_corner``) under
    ONE_CORNER_FACTOR x ``confirm_below``; the notices asking to confirm them."""
    said: list[Notice] = []
    one_corner = np.zeros(len(cards), bool) if one_corner is None else one_corner
    named: dict[int, RecognizedCard] = {}
    codes = cards.codes
    for i in np.flatnonzero(cards.card_id != UNREAD):
        code, confidence = codes[i], float(cards.card_confidence[i])
        runner_up = CARD_CODES[cards.runner_up_id[i]] if cards.runner_up_id[i] >= 0 else None
        lone_corner = bool(one_corner[i]) and confidence < ONE_CORNER_FACTOR * confirm_below
        confirm = confidence < confirm_below or counts[code] > 1 or bool(disputed[i]) or lone_corner
        read = (code, confidence, runner_up, float(cards.runner_up_confidence[i]))
        if confidence < confirm_below:
            said.append(Notice(Code.LOW_CONFIDENCE, read))
        elif lone_corner and not disputed[i] and counts[code] == 1:
            said.append(Notice(Code.ONE_CORNER, read))
        box = tuple(float(v) * scale for v in cards.xyxy[i])
        named[int(i)] = RecognizedCard(code, confidence, box, confirm, runner_up, float(cards.runner_up_confidence[i]))
    return named, tuple(said)


def in_groups(layout: Layout, named: dict[int, RecognizedCard],
              codes: list[str | None]) -> tuple[list[RecognizedCard], list[CardGroup]]:
    """The named cards in group order, and the groups (unread members left out)."""
    ordered: list[RecognizedCard] = []
    groups: list[CardGroup] = []
    for group in layout.groups:
        members = [m for m in group.members if m in named]
        ordered.extend(named[m] for m in members)
        groups.append(CardGroup(Role(group.role), tuple(codes[m] for m in members)))
    return ordered, groups


def unread_boxes(cards: Detections, guess: np.ndarray, scale: float) -> tuple[tuple, tuple[Notice, ...]]:
    """Boxes (photo pixels) of the cards whose index could not be read, and a notice for each with
    its guess, numbered from 1: the player names it by its number (crib show --card 1 QH)."""
    rows = np.flatnonzero(cards.card_id == UNREAD)
    unread = tuple(tuple(float(v) * scale for v in cards.xyxy[i]) for i in rows)
    said = tuple(Notice(Code.UNREAD_CARD, (number, box, guess[row]))
                 for number, (row, box) in enumerate(zip(rows, unread), 1))
    return unread, said
