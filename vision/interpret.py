"""Step 4, interpret: from read corner indices and card boxes to the cards on the table.

Named steps, in order: merge each card's indices (``identify``), give each card its outline
(``outlines``), leave reads too unsure to name unnamed, say disputed corners, drop weak
evidence, lay the cards out in groups (``layout``), flag cards to confirm, and list the cards
whose index could not be read. Every threshold a step uses is a field of ``InterpretConfig``
(vision/config.py); the three a caller may tune are ``Recognizer``'s keywords of the same names.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from vision import boxes
from vision.classes import CARD_CODES
from vision.config import InterpretConfig, LayoutConfig
from vision.decode import Photo
from vision.detections import UNREAD, Detections, Origin
from vision.evidence import Evidence
from vision.ground import GroundCheck
from vision.identify import merge_indices
from vision.layout import arrange
from vision.outlines import CORNERS, DISPUTED, ESTIMATED, INDEX_BOX, INDEX_CENTRE, INDEX_SCORE, Outlines, assign_outlines
from vision.notices import Code, Notice
from vision.results import RecognizedCard, Recognition
from vision.sure_reads import frame_marks, lies_on_a_card, mid_face
from vision.table import table_of

# Every threshold is ``InterpretConfig`` (vision/config.py), measured in docs/TUNING.md, "interpret".


def cards_of(indices: Detections, card_boxes: Detections, config: InterpretConfig) -> Outlines:
    """The cards: each card read from its indices (``identify``), given its outline (``outlines``),
    then the card boxes no index was read on."""
    return assign_outlines(merge_indices(indices, card_boxes, config.same_card_diagonals), card_boxes, config)


def read_table(outlines: Outlines, indices: Detections, photo: Photo, name: str,
               config: InterpretConfig, layout_config: LayoutConfig,
               ground: GroundCheck | None = None) -> Recognition:
    """The table from the cards (``cards_of``) and the read ``indices``: reads too unsure to name
    left unnamed, disputed corners said, weak evidence dropped, the cards laid out in groups
    (``layout``), flagged to confirm, and the cards whose index could not be read listed.
    ``photo``: its size (the boxes carry their frame); ``ground``: whether an index is printed on card ground
    (``vision.ground.ground_check`` of the photo, as the pipeline passes it; None: no lone index
    counts for its ground)."""
    reader = outlines.cards.reader
    cards, guessed, guess = unname_unsure_reads(outlines.cards, config.read_floor, config.floor_reader)
    disputed, said_disputed = disputed_corners(cards, guessed)
    keep, said_ignored = evidence_to_keep(cards, guessed, guess, config, reader, indices, ground)
    cards, disputed, guess = cards[keep], disputed[keep], guess[keep]  # the outlines' columns go with the rows
    one_corner = cards.data[CORNERS] < 2
    evidence = evidence_of(cards, disputed, cards.data[INDEX_SCORE], cards.data[ESTIMATED], cards.data[CORNERS],
                           cards.in_photo_pixels(cards.data[INDEX_BOX]))
    layout = arrange(cards, config=layout_config)
    counts, said_twice = cards_seen_twice(cards)
    named, said_unsure = name_cards(cards, disputed, counts, config.confirm_below, config.one_corner_factor,
                                    one_corner, evidence)
    table = table_of(layout, [named.get(row) for row in range(len(cards))])
    unread, said_unread = unread_boxes(cards, guess)
    notices = (*overall(len(table["cards"]), config.max_cards), *said_disputed, *said_ignored, *layout.warnings, *said_twice, *said_unsure,
               *said_unread)
    return Recognition(name, photo.width, photo.height, table["cards"], table["groups"], notices, {}, unread,
                       layout=layout_config)


def overall(found: int, max_cards: int) -> tuple[Notice, ...]:
    """What is said first: no card at all, or more than a cribbage layout holds."""
    if not found:
        return (Notice(Code.NO_CARD),)
    if found > max_cards:
        return (Notice(Code.TOO_MANY_CARDS, (found, max_cards)),)
    return ()


def unname_unsure_reads(cards: Detections, read_floor: float,
                        floor_reader: float) -> tuple[Detections, np.ndarray, np.ndarray]:
    """Reads under ``read_floor`` become unread cards, but for those the reader itself reads at
    ``floor_reader`` or more. Returns the cards, which rows were unnamed, and per row the guess to
    say (code, probability) or None."""
    guessed = (cards.card_id != UNREAD) & (cards.card_confidence < read_floor) & (cards.reader < floor_reader)
    guess = np.empty(len(cards), object)  # filled one by one: numpy would make rows of the pairs
    guess[:] = [(code, float(p)) if unsure else None
                for code, p, unsure in zip(cards.codes, cards.card_confidence, guessed)]
    if guessed.any():
        cards = cards.with_cards(np.where(guessed, UNREAD, cards.card_id), np.where(guessed, 0.0, cards.card_confidence),
                                 np.where(guessed, UNREAD, cards.runner_up_id),
                                 np.where(guessed, 0.0, cards.runner_up_confidence), np.where(guessed, 0.0, cards.reader))
    return cards, guessed, guess


def disputed_corners(cards: Detections, guessed: np.ndarray) -> tuple[np.ndarray, tuple[Notice, ...]]:
    """Mask of the named cards whose corners read two different codes (``cards.data[DISPUTED]``),
    and the notices saying so."""
    mask = np.zeros(len(cards), bool)
    said = []
    other = cards.data[DISPUTED]
    for row in np.flatnonzero(other != UNREAD):
        if guessed[row]:
            continue  # said with the unread card
        mask[row] = True
        said.append(Notice(Code.DISPUTED_CORNERS, (cards.codes[row], CARD_CODES[other[row]])))
    return mask, tuple(said)


def evidence_to_keep(cards: Detections, guessed: np.ndarray, guess: np.ndarray,
                     config: InterpretConfig, reader: np.ndarray, indices: Detections,
                     ground: GroundCheck | None = None) -> tuple[np.ndarray, tuple[Notice, ...]]:
    """Mask of the rows that are cards: named cards unless only a weak lone index says so (a lone
    index the reader is sure of, on another card near its edge or printed on card-sized ground, is
    a half-hidden card or one cut by the photo's edge: issue 20),
    or they are a mark in the middle of another card's face or a court's frame marks on a
    coinciding card; unread card boxes the detector is sure of that are not a second box of a named
    card; unnamed reads unless only their index says a card is there or they lie on a named card (a
    pip, a court). ``cards``: the outlines' cards (their ``data`` columns). Returns the mask and
    the notices of what was ignored."""
    said: list[Notice] = []
    read = cards.card_id != UNREAD
    estimated, index_score, index_centre = cards.data[ESTIMATED], cards.data[INDEX_SCORE], cards.data[INDEX_CENTRE]
    lone = read & estimated & (index_score < config.lone_index_score)
    half_hidden = (reader >= config.lone_sure_reader) & lies_on_a_card(cards, estimated, index_centre, config)
    # one deck holds each card once: a lone read of a code another card shows is that card's other corner
    elsewhere = np.isin(cards.card_id, cards.card_id[read & ~lone])
    half_hidden |= printed_on_a_card(cards, indices, lone & (reader >= config.lone_sure_reader) & ~half_hidden
                                     & ~elsewhere, ground)
    weak = lone & ~half_hidden
    marks = read & ~weak & mid_face(cards, index_centre, config)
    if marks.any():  # a court's picture or a large pip given a box of its own (issue 20)
        said.append(Notice(Code.MID_FACE_MARKS, (tuple(cards.codes[i] for i in np.flatnonzero(marks)),)))
    framed = read & ~weak & ~marks & frame_marks(cards, index_centre, indices, config)
    if framed.any():  # a court's frame marks read as a card, given a box of their own (sample hand_starter_spread)
        said.append(Notice(Code.FRAME_MARKS, (tuple(cards.codes[i] for i in np.flatnonzero(framed)),)))
    marks |= framed
    if weak.any():  # one notice for them all: a keyboard or a pattern can make many
        said.append(Notice(Code.LONE_INDICES, (tuple((cards.codes[i], float(index_score[i]))
                                                     for i in np.flatnonzero(weak)),)))
    inside_read = np.zeros(len(cards), bool)
    if read.any() and (~read).any():
        inside_read[~read] = boxes.covered_fraction(cards.xyxy[~read], cards.xyxy[read]) >= config.inside_share
    stray = guessed & (estimated | inside_read)
    for lone, code in ((True, Code.UNSURE_LONE_READS), (False, Code.UNSURE_READS_ON_CARDS)):
        rows = [i for i in np.flatnonzero(stray) if bool(estimated[i]) == lone]
        if rows:  # one notice, not one per read: a patterned cloth reads as many unsure corners
            said.append(Notice(code, (tuple(guess[i] for i in rows),)))
    sure_box = cards.confidence >= config.unread_card_score
    keep = (read & ~weak & ~marks) | (~read & ~guessed & sure_box & ~inside_read) | (guessed & ~stray)
    return keep, tuple(said)


def printed_on_a_card(cards: Detections, indices: Detections, rows: np.ndarray,
                      ground: GroundCheck | None) -> np.ndarray:
    """(N,) whether each of ``rows`` (a mask of cards without a box of their own) has its best index
    printed on ground the size of a card (``ground``), not on a chip's inlay or a key."""
    out = np.zeros(len(cards), bool)
    if not len(indices) or ground is None:
        return out
    for i in np.flatnonzero(rows):
        nearest = int(np.argmin(np.hypot(*(indices.centers - cards.data[INDEX_CENTRE][i]).T)))
        short_side = float(boxes.sizes(cards.xyxy[i][None])[0].min())  # the estimated box: a typical card
        out[i] = ground(indices.xyxy[nearest], short_side)
    return out


def cards_seen_twice(cards: Detections) -> tuple[Counter, tuple[Notice, ...]]:
    """How often each code was named; a code named twice is said (one deck has one of each)."""
    counts = Counter(c for c in cards.codes if c)
    return counts, tuple(Notice(Code.SEEN_TWICE, (code, count)) for code, count in sorted(counts.items()) if count > 1)


def evidence_of(cards: Detections, disputed: np.ndarray, index_score: np.ndarray, estimated: np.ndarray,
                corners: np.ndarray, index_box: np.ndarray) -> list[Evidence | None]:
    """Per row, what the doubt model weighs (``vision.evidence``; None for an unread box)."""
    out: list[Evidence | None] = []
    for i in range(len(cards)):
        if cards.card_id[i] == UNREAD:
            out.append(None)
            continue
        score = float(index_score[i])
        # a card's runner-up confidence is its best index's score x the reader's probability of it
        runner_up = min(1.0, float(cards.runner_up_confidence[i]) / score) if score > 0 and \
            cards.runner_up_id[i] >= 0 else 0.0
        out.append(Evidence(float(cards.reader[i]), runner_up, score, 0.0 if estimated[i] else float(cards.confidence[i]),
                            int(corners[i]), bool(disputed[i]), int(cards.origin[i]) == Origin.SECOND_LOOK, False,
                            float(boxes.sizes(index_box[i:i + 1]).max()), index_box=tuple(float(v) for v in index_box[i])))
    return out


def name_cards(cards: Detections, disputed: np.ndarray, counts: Counter, confirm_below: float,
               one_corner_factor: float, one_corner: np.ndarray | None = None,
               evidence: list[Evidence | None] | None = None
               ) -> tuple[dict[int, RecognizedCard], tuple[Notice, ...]]:
    """The named rows as cards with boxes in photo pixels, flagged to confirm when read under
    ``confirm_below``, seen twice, or disputed, or read from one corner only (``one_corner``) under
    ``one_corner_factor`` x ``confirm_below``; the notices asking to confirm them."""
    said: list[Notice] = []
    one_corner = np.zeros(len(cards), bool) if one_corner is None else one_corner
    named: dict[int, RecognizedCard] = {}
    codes = cards.codes
    for i in np.flatnonzero(cards.card_id != UNREAD):
        code, confidence = codes[i], float(cards.card_confidence[i])
        runner_up = CARD_CODES[cards.runner_up_id[i]] if cards.runner_up_id[i] >= 0 else None
        lone_corner = bool(one_corner[i]) and confidence < one_corner_factor * confirm_below
        confirm = confidence < confirm_below or counts[code] > 1 or bool(disputed[i]) or lone_corner
        read = (code, confidence, runner_up, float(cards.runner_up_confidence[i]))
        if confidence < confirm_below:
            said.append(Notice(Code.LOW_CONFIDENCE, read))
        elif lone_corner and not disputed[i] and counts[code] == 1:
            said.append(Notice(Code.ONE_CORNER, read))
        box = tuple(float(v) for v in cards.photo_xyxy[i])
        named[int(i)] = RecognizedCard(code, confidence, box, confirm, runner_up, float(cards.runner_up_confidence[i]),
                                       None if evidence is None else evidence[i])
    return named, tuple(said)


def unread_boxes(cards: Detections, guess: np.ndarray) -> tuple[tuple, tuple[Notice, ...]]:
    """Boxes (photo pixels) of the cards whose index could not be read, and a notice for each with
    its guess, numbered from 1: the player names it by its number (crib show --card 1 QH)."""
    rows = np.flatnonzero(cards.card_id == UNREAD)
    unread = tuple(tuple(float(v) for v in cards.photo_xyxy[i]) for i in rows)
    said = tuple(Notice(Code.UNREAD_CARD, (number, box, guess[row]))
                 for number, (row, box) in enumerate(zip(rows, unread), 1))
    return unread, said
