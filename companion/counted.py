"""A photo's show counted, as data: each group with its count and the claim judged (``GroupShow``),
and the whole photo (``PhotoShow``). ``companion.photo`` makes them; ``companion.doubt`` reads
them to say what could change a count, so both build on this module and neither on the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.muggins import ClaimResult
from companion.rules.show import Show
from vision import Photo, PhotoQuality, Recognition, Role

# Where the starter came from (the JSON contract's ``starter_source`` values).
STARTER_FROM_PHOTO = "photo"  # a lone card apart from the hands
STARTER_GIVEN = "flag"  # given by the caller (the CLI's --starter)
NO_STARTER = "none"


@dataclass(frozen=True)
class GroupShow:
    """One group of the photo and its count (``show`` is None when it cannot be scored)."""

    label: str  # "hand 1", "hand 2", "crib"
    role: Role
    cards: tuple[str, ...]
    crib: bool  # counted with crib rules
    show: Show | None
    problem: str | None = None
    confirm: tuple[str, ...] = ()  # cards the player should check (low confidence / duplicates)
    claim: ClaimResult | None = None
    # The chance that it is counted right (``companion.doubt.chance_right``; None: not counted)
    chance: float | None = None

    def as_json(self) -> dict:
        data: dict = {"label": self.label, "role": str(self.role), "cards": list(self.cards), "crib": self.crib}
        if self.show is not None:
            data.update(self.show.as_json())  # the crib score --json shape
            if self.chance is not None:
                data["chance"] = round(self.chance, 4)
        else:
            data["problem"] = self.problem
        data["confirm"] = list(self.confirm)
        if self.claim is not None:
            data["claim"] = self.claim.as_json()
        return data


@dataclass(frozen=True)
class PhotoShow:
    """The show counted from a photo: ``groups`` (hands in reading order, then the crib), the
    starter and where it came from, and what the player should hear: ``warnings`` (the
    recognition's own are in ``recognition.warnings``). ``photo`` is the decoded photo (to draw
    on), when ``count_show`` decoded it."""

    recognition: Recognition
    starter: str | None
    starter_source: str  # STARTER_FROM_PHOTO | STARTER_GIVEN | NO_STARTER
    groups: tuple[GroupShow, ...]
    count_warnings: tuple[str, ...] = ()  # about the count, the starter's apart
    starter_in_photo: str | None = None  # the lone card apart, when there is one
    # What the player should confirm before pegging (``companion.doubt.Doubt``, worked out by
    # ``companion.photo`` from this show): the starter read unsure or taken while cards were
    # unread, a count that changes with an unsure card (``asked``); an unsure card that counts the
    # same either way is marked, not asked.
    doubts: tuple = ()
    photo: Photo | None = field(default=None, repr=False, compare=False)
    # How sharp and bright the photo is (``vision.photo_quality``), when ``count_show`` decoded it;
    # its advice (too blurred or too dark: take another photo) is the first of ``warnings``.
    quality: PhotoQuality | None = None

    @property
    def cards(self):
        return self.recognition.cards

    @property
    def starter_warning(self) -> str | None:
        if self.starter_source == NO_STARTER:
            return "no starter in the photo (no lone card apart from the hands): give the starter to count"
        if self.starter_source == STARTER_GIVEN and self.starter_in_photo not in (None, self.starter):
            return f"starter {self.starter} given (the photo shows {self.starter_in_photo} apart)"
        return None

    @property
    def advice(self) -> str | None:
        """Another photo asked for: this one is too blurred or too dark to read surely (or None)."""
        return self.quality.advice if self.quality is not None else None

    @property
    def warnings(self) -> tuple[str, ...]:
        return ((self.advice,) * (self.advice is not None)
                + (self.starter_warning,) * (self.starter_warning is not None)
                + tuple(d.message for d in self.asked) + self.count_warnings)

    @property
    def asked(self) -> tuple:
        """The doubts the player is asked about (a count changes with them), the most first."""
        return tuple(d for d in self.doubts if d.asked)

    @property
    def marked(self) -> tuple:
        """The doubtful cards that count the same either way: marked, kept as read, not asked."""
        return tuple(d for d in self.doubts if not d.asked)

    def unconfirmed(self, codes) -> tuple[str, ...]:
        """Of ``codes``, the cards recognition flagged that the player has not confirmed: kept as read."""
        flagged = {c.card for c in self.recognition.cards if c.confirm}
        return tuple(c for c in codes if c in flagged)

    def as_json(self) -> dict:
        return {"image": self.recognition.image, "starter": self.starter, "starter_source": self.starter_source,
                "hands": [g.as_json() for g in self.groups], "warnings": list(self.warnings),
                "doubts": [d.as_json() for d in self.doubts], "recognition": self.recognition.as_json(),
                **({"photo_quality": self.quality.as_json()} if self.quality is not None else {})}
