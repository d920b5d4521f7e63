"""How a caller wants photos read, over what the models say: one frozen value that the CLI, the
app and the benches build once and hand to ``Recognizer`` (and ``shared_recognizer``, which keeps
one recogniser per value)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecognizeOptions:
    """Each None: the models' own (models.json and its calibration).

    ``confirm_below``: cards less likely right than this are flagged for the player to confirm
    (the models' own: their doubt model's threshold, ``vision.doubt``; models without one:
    interpret's ``confirm_below``); ``lone_index_score``: an index with no card box around it
    needs this detector score to count; ``unread_card_score``: a card box with no readable index
    needs this detector score to be reported (``vision.config.InterpretConfig``, measured in
    docs/TUNING.md; each checked to lie in 0..1 there); ``zoom``: the closer detector pass for
    small indices; ``look_again``: the second look at card boxes no index was read on."""

    confirm_below: float | None = None
    lone_index_score: float | None = None
    unread_card_score: float | None = None
    zoom: bool | None = None
    look_again: bool | None = None
