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
    """Read indices + card boxes (decoded-pixel coordinates) -> cards, groups, warnings."""
    warnings: list[str] = []
    outlines = assign_outlines(merge_indices(indices, card_boxes), card_boxes)
    reader = reader_probability(outlines.cards, outlines.index_score)
    cards, guessed, guess = unname_unsure_reads(outlines.cards)
    disputed = disputed_corners(cards, outlines.disputed, guessed, warnings)
    keep = evidence_to_keep(cards, outlines, guessed, guess, thresholds, warnings, reader, indices, photo)
    cards, disputed, guess = cards[keep], disputed[keep], guess[keep]
    one_corner = outlines.corners[keep] < 2
    layout = arrange(cards)
    warnings.extend(layout.warnings)
    counts = cards_seen_twice(cards, warnings)
    named = name_cards(cards, disputed, counts, photo.scale, thresholds.confirm_below, warnings, one_corner)
    ordered, groups = in_groups(layout, named, cards.codes)
    unread = unread_boxes(cards, guess, photo.scale, warnings)
    if not ordered:
        warnings.insert(0, "no card found in the photo")
    elif len(ordered) > MAX_CARDS:
        warnings.insert(0, f"{len(ordered)} cards found: more than {MAX_CARDS}, this does not look like a cribbage layout")
    return Recognition(name, photo.width, photo.height, tuple(ordered), tuple(groups), tuple(warnings), {}, unread)


def unname_unsure_reads(cards: Detections) -> tuple[Detections, np.ndarray, np.ndarray]:
    """Reads under READ_FLOOR become unread cards. Returns the cards, which rows were unnamed,
    and per row the guess to say ("7S, 0.12") or None."""
    guessed = (cards.card_id != UNREAD) & (cards.card_confidence < READ_FLOOR)
    guess = np.array([f"{code}, {p:.2f}" if unsure else None
                      for code, p, unsure in zip(cards.codes, cards.card_confidence, guessed)], object)
    if guessed.any():
        cards = cards.with_cards(np.where(guessed, UNREAD, cards.card_id), np.where(guessed, 0.0, cards.card_confidence),
                                 np.where(guessed, UNREAD, cards.runner_up_id),
                                 np.where(guessed, 0.0, cards.runner_up_confidence))
    return cards, guessed, guess


def disputed_corners(cards: Detections, disputed: dict, guessed: np.ndarray, warnings: list[str]) -> np.ndarray:
    """Mask of the named cards whose corners read two different codes (said in ``warnings``)."""
    mask = np.zeros(len(cards), bool)
    for row, other in sorted(disputed.items()):
        if guessed[row]:
            continue  # said with the unread card
        mask[row] = True
        warnings.append(f"the corners of one card read {cards.codes[row]} and {other}: confirm this card")
    return mask


def evidence_to_keep(cards: Detections, outlines: Outlines, guessed: np.ndarray, guess: np.ndarray,
                     thresholds: Thresholds, warnings: list[str], reader: np.ndarray,
                     indices: Detections, photo: Photo) -> np.ndarray:
    """Mask of the rows that are cards: named cards unless only a weak lone index says so (a lone
    index the reader is sure of, on another card near its edge or printed on card-sized ground, is
    a half-hidden card or one cut by the photo's edge: issue 20),
    or they are a mark in the middle of another card's face or a court's frame marks on a
    coinciding card; unread card boxes the detector is sure of that are not a second box of a named
    card; unnamed reads unless only their index says a card is there or they lie on a named card (a
    pip, a court)."""
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
        said = ", ".join(cards.codes[i] for i in np.flatnonzero(marks))
        warnings.append(f"ignored {said}: read in the middle of another card's face, not in a corner")
    framed = read & ~weak & ~marks & frame_marks(cards, outlines.index_centre, indices)
    if framed.any():  # a court's frame marks read as a card, given a box of their own (sample hand_starter_spread)
        said = ", ".join(cards.codes[i] for i in np.flatnonzero(framed))
        warnings.append(f"ignored {said}: read on another card's face, where no corner index lies")
    marks |= framed
    weak_rows = np.flatnonzero(weak)
    if len(weak_rows) == 1:
        i = weak_rows[0]
        warnings.append(f"ignored a corner index read as {cards.codes[i]} with no card around it "
                        f"(detector score {outlines.index_score[i]:.2f})")
    elif len(weak_rows):  # one line for them all: a keyboard or a pattern can make many
        scores = ", ".join(f"{cards.codes[i]} {outlines.index_score[i]:.2f}" for i in weak_rows)
        warnings.append(f"ignored {len(weak_rows)} corner indices with no card around them (detector scores: {scores})")
    inside_read = np.zeros(len(cards), bool)
    if read.any() and (~read).any():
        inside_read[~read] = boxes.covered_fraction(cards.xyxy[~read], cards.xyxy[read]) >= DUPLICATE_INSIDE
    stray = guessed & (outlines.estimated | inside_read)
    for lone, where, many in ((True, "with no card around it", "with no card around them"),
                              (False, "on a card read otherwise", "on cards read otherwise")):
        rows = [i for i in np.flatnonzero(stray) if bool(outlines.estimated[i]) == lone]
        if len(rows) == 1:
            warnings.append(f"ignored an unsure corner read ({guess[rows[0]]}) {where}")
        elif rows:  # one line, not one per read: a patterned cloth reads as many unsure corners
            reads = "; ".join(guess[i] for i in rows)
            warnings.append(f"ignored {len(rows)} unsure corner reads {many} ({reads})")
    sure_box = cards.confidence >= thresholds.unread_card_score
    return (read & ~weak & ~marks) | (~read & ~guessed & sure_box & ~inside_read) | (guessed & ~stray)


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


def cards_seen_twice(cards: Detections, warnings: list[str]) -> Counter:
    """How often each code was named; a code named twice is said (one deck has one of each)."""
    counts = Counter(c for c in cards.codes if c)
    for code, count in sorted(counts.items()):
        if count > 1:
            warnings.append(f"{code} seen {count} times far apart: one deck has one {code}; check the photo")
    return counts


def name_cards(cards: Detections, disputed: np.ndarray, counts: Counter, scale: float, confirm_below: float,
               warnings: list[str], one_corner: np.ndarray | None = None) -> dict[int, RecognizedCard]:
    """The named rows as cards with boxes in photo pixels, flagged to confirm when read under
    ``confirm_below``, seen twice, or disputed, or read from one corner only (``one_corner``) under
    ONE_CORNER_FACTOR x ``confirm_below``."""
    one_corner = np.zeros(len(cards), bool) if one_corner is None else one_corner
    named: dict[int, RecognizedCard] = {}
    codes = cards.codes
    for i in np.flatnonzero(cards.card_id != UNREAD):
        code, confidence = codes[i], float(cards.card_confidence[i])
        runner_up = CARD_CODES[cards.runner_up_id[i]] if cards.runner_up_id[i] >= 0 else None
        lone_corner = bool(one_corner[i]) and confidence < ONE_CORNER_FACTOR * confirm_below
        confirm = confidence < confirm_below or counts[code] > 1 or bool(disputed[i]) or lone_corner
        alternative = f" (or {runner_up}, {cards.runner_up_confidence[i]:.2f})" if runner_up else ""
        if confidence < confirm_below:
            warnings.append(f"{code} read with low confidence {confidence:.2f}{alternative}: confirm this card")
        elif lone_corner and not disputed[i] and counts[code] == 1:
            warnings.append(f"{code} read from one corner only at {confidence:.2f}{alternative}: confirm this card")
        box = tuple(float(v) * scale for v in cards.xyxy[i])
        named[int(i)] = RecognizedCard(code, confidence, box, confirm, runner_up, float(cards.runner_up_confidence[i]))
    return named


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


def unread_boxes(cards: Detections, guess: np.ndarray, scale: float, warnings: list[str]) -> tuple:
    """Boxes (photo pixels) of the cards whose index could not be read, each said with its guess."""
    rows = np.flatnonzero(cards.card_id == UNREAD)
    unread = tuple(tuple(float(v) * scale for v in cards.xyxy[i]) for i in rows)
    for number, (row, box) in enumerate(zip(rows, unread), 1):
        best = f" (best guess {guess[row]})" if guess[row] else ""
        # numbered: the player names it by its number (crib show --card 1 QH)
        warnings.append(f"unread card {number} at [{', '.join(f'{v:.0f}' for v in box)}] has no readable "
                        f"index{best}: check it")
    return unread
