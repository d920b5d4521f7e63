"""The table (issue 48 s4): the drawn board is the LED board it stands for (4 rows of 30 per
track, two laps out and back, the start hole before the rows, the game hole past their far end,
the dealer's light), lying held wide and standing held tall; held tall nothing stands empty
(the board the whole height, the scores, words and log beside it); the dealer is shown before
Deal, on the score and on the board."""

from collections import Counter

from companion.game import GameSession
from companion.ui import fit
from companion.ui.present import board_shape
from companion.ui.walk import SIZES


def table_of(h, names=("Ann", "Ben")):
    h.companion.new_game(list(names), {"preset": "acc", "muggins": "off"}, first_dealer=0, board="none")
    h.wait(lambda: h.companion.view is not None)
    h.app.go("table")
    h.wait()
    return h.screen("table")


def rows_of(board, track: int, across: int) -> Counter:
    """How many of the track's holes 1..120 lie on each line along the board (``across``: 1 held
    wide, the y of each hole; 0 held tall, its x)."""
    return Counter(round(board.hole_xy(track, hole)[across]) for hole in range(1, 121))


def test_the_drawn_board_is_the_led_board_lying_and_standing(start_app):
    h = start_app()
    table = table_of(h)
    board = table.ids.board
    shape = board_shape(2)
    for label in ("landscape", "portrait", "phone"):
        h.resize(SIZES[label])
        h.pump(frames=3)
        wide = label == "landscape"
        along, across = (0, 1) if wide else (1, 0)
        for track in range(2):
            rows = rows_of(board, track, across)
            assert sorted(rows.values()) == [30, 30, 30, 30], (label, track, rows)  # 4 rows of 30
            holes = [board.hole_xy(track, hole)[along] for hole in range(1, 121)]
            start, game = board.hole_xy(track, 0)[along], board.hole_xy(track, 121)[along]
            assert start < min(holes) and game > max(holes), label  # start before the rows, game past them
            out, back = board.hole_xy(track, 30), board.hole_xy(track, 31)  # the row ends, the lap turns back
            assert abs(out[along] - back[along]) < 1 and out[across] != back[across]
        # the LED board's proportions: the holes where its geometry has them, scaled alike
        (x1, y1), (x2, y2) = shape.holes[0][1], shape.holes[1][90]
        (a1, b1), (a2, b2) = board.hole_xy(0, 1), board.hole_xy(1, 90)
        long, short = (abs(a2 - a1), abs(b2 - b1)) if wide else (abs(b2 - b1), abs(a2 - a1))
        assert abs(short / long - abs(y2 - y1) / abs(x2 - x1)) < 0.01
        left, bottom, right, top = board.outline()
        length, width = (right - left, top - bottom) if wide else (top - bottom, right - left)
        assert abs(length / width - board.aspect) < 0.02
    h.resize(SIZES["landscape"])


def test_three_players_have_the_three_track_board(start_app):
    h = start_app()
    board = table_of(h, ("Ann", "Ben", "Cal")).ids.board
    assert board.tracks == 3
    for track in range(3):
        assert sorted(rows_of(board, track, 1).values()) == [30, 30, 30, 30]


def test_held_tall_the_table_leaves_no_band_empty(start_app):
    """The board stands the whole height beside the scores, the words and the log; the log
    reaches the bottom and shows as many of the newest lines as fit, whole."""
    h = start_app()
    table = table_of(h)
    h.companion.act(GameSession.discard)
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: ["2C", "3D", "4S", "7H"], 1: ["8S", "6D", "TC", "JS"]})
    for label in ("portrait", "phone"):
        size = SIZES[label]
        h.resize(size)
        h.pump(frames=4)
        board, log, scores = table.ids.board, table.ids.log, table.ids.scores
        left, bottom, right, top = board.outline()
        room = size[1] - h.app.root.ids.bar.height
        assert top - bottom > 0.85 * room, label            # the board stands the whole height
        ann, ben = reversed(scores.children)
        assert scores.x > right and ann.y >= ben.top      # the scores beside it, one above the other
        assert log.x > right and log.y < 0.03 * size[1]     # the log beside it, down to the bottom
        assert log.height > 0.2 * size[1]
        shown = log.text.splitlines()
        assert len(shown) >= min(len(h.companion.view.log), 8) and shown[0] == h.companion.view.log[-1].text
        assert fit.check([h.app.root], size, [table.ids.photograph]) == []
    h.resize(SIZES["landscape"])
    h.pump(frames=4)
    board = table.ids.board
    left, bottom, right, top = board.outline()
    assert right - left > 0.5 * SIZES["landscape"][0] and table.ids.scores.top > top  # lying, under the scores
    assert fit.check([h.app.root], SIZES["landscape"], [table.ids.photograph]) == []


def test_who_deals_is_shown_before_deal_on_the_score_and_the_board(start_app):
    h = start_app()
    table = table_of(h)
    names = [c.name for c in reversed(table.ids.scores.children)]
    assert names == ["Ann  (deals)", "Ben"] and table.ids.turn.text == "Ann deals first"
    assert table.ids.board.dealer == 0
    h.tap(table.ids.deal)
    h.wait()
    assert [c.name for c in reversed(table.ids.scores.children)] == ["Ann  (dealer)", "Ben"]
    h.companion.act(GameSession.cut, "AD")
    h.play_out({0: ["2C", "3D", "4S", "7H"], 1: ["8S", "6D", "TC", "JS"]})
    h.companion.act(GameSession.show)
    h.companion.act(GameSession.show)
    h.companion.act(GameSession.show, ["9H", "9C", "KH", "QS"])  # the crib
    h.wait()
    assert h.companion.view.phase == "discard"  # the deal done: Ben deals the next
    assert [c.name for c in reversed(table.ids.scores.children)] == ["Ann", "Ben  (deals)"]
    assert table.ids.turn.text == "Ben deals next" and table.ids.board.dealer == 1

