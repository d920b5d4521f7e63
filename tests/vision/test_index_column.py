"""The index column of a tight fan (issue 39 item 2.1, vision.index_column): a sure read on the
column that no card claims is a card, and a gap in the column is read again."""

from __future__ import annotations

import numpy as np

from vision.classes import CARD_CLASS, CARD_INDEX, INDEX_CLASS
from vision.config import DEFAULTS
from vision.detections import Detections
from vision.index_column import cards_on_index_columns, column_gaps, look_in_gaps
from vision.notices import Code
from vision.results import RecognizedCard

# A tight fan of six cards (200 x 280 px) turned a little, each 36 px along the column from the
# last and 4 px down: only the index corners of the first five show. Their indices (24 x 48 px)
# lie on one line at a steady step.
STEP = np.array([36.0, 4.0])
CODES = ("3C", "7H", "QS", "9D", "2S", "KH")
COLUMN, PHANTOMS = DEFAULTS.index_column, DEFAULTS.phantoms  # the standard settings


def index_box(i: int) -> tuple[float, ...]:
    x, y = np.array([110.0, 110.0]) + i * STEP
    return (x, y, x + 24, y + 48)


def card_box(i: int) -> tuple[float, ...]:
    x, y = np.array([100.0, 100.0]) + i * STEP
    return (x, y, x + 200, y + 280)


def index_rows(rows) -> Detections:
    """(position in the fan, detector score, code, reader probability)."""
    return Detections(np.array([index_box(i) for i, *_ in rows], np.float32), [r[1] for r in rows],
                      np.full(len(rows), INDEX_CLASS), [CARD_INDEX[r[2]] for r in rows], [r[3] for r in rows],
                      [CARD_INDEX["AS"]] * len(rows), [0.01] * len(rows))


def fan(read: list[int]) -> tuple[RecognizedCard, ...]:
    """The cards at these positions as interpret reported them; only the top card has a card box."""
    return tuple(RecognizedCard(CODES[i], 0.8, card_box(i), i != 5) for i in read)


TOP_BOX = Detections(np.array([card_box(5)], np.float32), [0.9], [CARD_CLASS])


def test_a_sure_read_on_the_column_that_no_card_claims_is_a_card():
    # interpret dropped the 7H's sure read (merged into its neighbour as a disputed corner)
    indices = index_rows([(i, 0.8, CODES[i], 0.95) for i in range(6)])
    cards, said = cards_on_index_columns(fan([0, 2, 3, 4, 5]), indices, TOP_BOX, COLUMN, PHANTOMS)
    assert [c.card for c in cards] == ["3C", "QS", "9D", "2S", "KH", "7H"]
    added = cards[-1]
    assert added.confirm and abs(added.confidence - 0.76) < 1e-6
    assert np.allclose(added.box, card_box(1), atol=0.5)  # its neighbour's outline moved along the column
    assert [(n.code, n.args[0]) for n in said] == [(Code.COLUMN_CARD, "7H")]


def test_reads_off_the_column_or_unsure_or_claimed_are_not_cards():
    cards = fan([0, 2, 3, 4, 5])
    unsure = index_rows([(i, 0.8, CODES[i], 0.95) for i in (0, 2, 3, 4, 5)] + [(1, 0.6, "7H", 0.6)])
    assert len(cards_on_index_columns(cards, unsure, TOP_BOX, COLUMN, PHANTOMS)[0]) == 5  # 0.36 sure: not enough
    claimed = index_rows([(i, 0.8, CODES[i], 0.95) for i in range(6)])
    assert len(cards_on_index_columns(fan(range(6)), claimed, TOP_BOX, COLUMN, PHANTOMS)[0]) == 6  # 7H already a card
    far = Detections(np.array([(600, 500, 624, 548)], np.float32), [0.8], [INDEX_CLASS], [CARD_INDEX["7H"]], [0.95])
    off = Detections.concatenate([index_rows([(i, 0.8, CODES[i], 0.95) for i in (0, 2, 3, 4, 5)]), far])
    # away from the column: a chip, a label
    assert len(cards_on_index_columns(cards, off, TOP_BOX, COLUMN, PHANTOMS)[0]) == 5


def test_a_gap_in_the_column_is_read_again():
    # the detector found no index at position 1: the column skips a step there
    indices = index_rows([(i, 0.8, CODES[i], 0.95) for i in (0, 2, 3, 4, 5)])
    cards = fan([0, 2, 3, 4, 5])
    gaps = column_gaps(cards, indices, TOP_BOX, COLUMN, PHANTOMS)
    assert len(gaps[0]) == 1 and np.allclose(gaps[0][0], index_box(1), atol=1.0)
    looked_at = []

    def reader(index_boxes):
        looked_at.append(np.asarray(index_boxes))
        return [("7H", 0.93, "7D", 0.03)] * len(index_boxes)

    found, said = look_in_gaps(cards, gaps, reader, COLUMN)
    assert [c.card for c in found][-1] == "7H" and found[-1].confirm
    assert said[0].code == Code.COLUMN_CARD and len(looked_at) == 1
    unsure_reader = lambda index_boxes: [("7H", 0.5, "7D", 0.3)] * len(index_boxes)  # noqa: E731
    assert len(look_in_gaps(cards, gaps, unsure_reader, COLUMN)[0]) == 5
    # a column with no gap has nothing to look at
    whole = index_rows([(i, 0.8, CODES[i], 0.95) for i in range(6)])
    assert len(column_gaps(fan(range(6)), whole, TOP_BOX, COLUMN, PHANTOMS)[0]) == 0
