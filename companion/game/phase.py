"""``Phase``: where a game stands. The value is the word the players read ("game over"), and the
one journals' summaries, exports and JSON output hold: a stored game of any age reads the same."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    DISCARD = "discard"         # a deal is about to start: cards dealt and discarded
    CUT = "cut"                 # the starter is cut
    PLAY = "play"               # the cards are laid (or the points pegged)
    SHOW = "show"               # the hands and the crib are counted
    GAME_OVER = "game over"     # a side has pegged out; the match goes on
    MATCH_OVER = "match over"   # the last game of the match is over

    @property
    def over(self) -> bool:
        """The game has ended (the match may go on)."""
        return self in (Phase.GAME_OVER, Phase.MATCH_OVER)
