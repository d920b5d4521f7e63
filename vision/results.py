"""What recognition returns: cards, groups with roles, warnings (plain data, standard library
only: a caller can use, store and serialise results without numpy or a model runtime)."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.config import LayoutConfig
from vision.evidence import Evidence
from vision.notices import Notice, text_of
from vision.roles import Role


ROLE_ORDER = (Role.HAND, Role.CRIB, Role.STARTER, Role.UNKNOWN)  # how groups are listed

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in photo pixels


@dataclass(frozen=True)
class RecognizedCard:
    """One card read from the photo. ``confidence``: the chance that the card is right (the doubt
    model's calibrated probability, ``vision.doubt``, where the models have one); ``confirm``: the
    player should check it (less likely right than the models' threshold, or seen twice);
    ``alternatives``: the other cards it may be, each with its chance, best first, leaving out the
    cards already elsewhere in the photo (one deck: ``vision.one_deck``; before the doubt model
    weighs the card, each with the reader's probability from its second reading); ``runner_up`` is
    the best of them (its chance ``runner_up_confidence``); ``evidence`` what the chance was weighed from
    (None: a card the player named)."""

    card: str
    confidence: float
    box: Box
    confirm: bool = False
    runner_up: str | None = None
    runner_up_confidence: float = 0.0
    evidence: Evidence | None = field(default=None, compare=False, repr=False)
    alternatives: tuple[tuple[str, float], ...] = ()

    def as_json(self) -> dict:
        data = {"card": self.card, "confidence": round(self.confidence, 4),
                "box": [round(v, 1) for v in self.box], "confirm": self.confirm}
        if self.confirm and self.runner_up:
            data["runner_up"] = self.runner_up
            data["runner_up_confidence"] = round(self.runner_up_confidence, 4)
        if self.confirm and self.alternatives:
            data["alternatives"] = [[code, round(p, 4)] for code, p in self.alternatives]
        return data


@dataclass(frozen=True)
class CardGroup:
    role: Role
    cards: tuple[str, ...]

    def as_json(self) -> dict:
        return {"role": str(self.role), "cards": list(self.cards)}


@dataclass(frozen=True)
class Recognition:
    """A recognised photo: ``cards`` in group order, ``groups`` (hands in reading order, then
    the crib, the starter, unknown groups), ``warnings`` for the player (``Notice`` codes with
    arguments; ``str()`` or ``Notice.text`` words them; the JSON holds the words), ``ms`` per stage
    (decode, infer, second_look, post), ``unread_boxes``: cards whose index could not be read,
    ``looked_again``: how many card boxes the second look read again, and ``layout``: the layout
    settings its table was laid out with (the models', so the player's answers lay it out again
    the same way; None: made without models, ``vision.table`` then takes the standard ones)."""

    image: str
    width: int
    height: int
    cards: tuple[RecognizedCard, ...]
    groups: tuple[CardGroup, ...]
    warnings: tuple[Notice, ...]
    ms: dict = field(default_factory=dict)
    unread_boxes: tuple[Box, ...] = ()
    looked_again: int = 0
    layout: LayoutConfig | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict:
        return {"image": self.image, "width": self.width, "height": self.height,
                "cards": [c.as_json() for c in self.cards],
                "groups": [g.as_json() for g in self.groups],
                "warnings": self.warning_texts(),
                "ms": {k: round(v, 1) for k, v in self.ms.items()}}

    def warning_texts(self) -> list[str]:
        """The warnings in words, as the player reads them."""
        return [text_of(w) for w in self.warnings]

    def card(self, code: str) -> RecognizedCard | None:
        return next((c for c in self.cards if c.card == code), None)

    def groups_of(self, role: Role) -> tuple[CardGroup, ...]:
        return tuple(g for g in self.groups if g.role == role)
