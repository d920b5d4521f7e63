"""Scoring the show seen in a photo: each hand (and the crib) with the starter, plus muggins."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.cards import Card, CardParseError
from companion.rules.show import Show, score

from vision.pipeline import Recognition


class StarterError(ValueError):
    """No starter to score with (none apart in the photo and none given)."""


class NoCardsError(ValueError):
    """Nothing to count: the photo shows no readable card."""


class ClaimError(ValueError):
    """More claims than groups to score, or a claim that is not a count."""


@dataclass(frozen=True)
class Claim:
    """A player's announced count against what the show entitles them to (muggins rules:
    missed points may be taken by an opponent; over-claimed points are simply taken back)."""

    claimed: int
    entitled: int

    @property
    def muggins(self) -> int:
        return max(self.entitled - self.claimed, 0)

    @property
    def overclaim(self) -> int:
        return max(self.claimed - self.entitled, 0)

    def to_json(self) -> dict:
        return {"claimed": self.claimed, "entitled": self.entitled, "muggins": self.muggins,
                "overclaim": self.overclaim}

    def describe(self) -> str:
        if self.muggins:
            return f"claimed {self.claimed}, entitled to {self.entitled}: muggins! {self.muggins} for the opponent"
        if self.overclaim:
            return f"claimed {self.claimed}, entitled to {self.entitled}: over by {self.overclaim}, peg back"
        return f"claimed {self.claimed}: correct"


@dataclass(frozen=True)
class GroupShow:
    """One group of the photo and its count (``show`` is None when it cannot be scored)."""

    label: str  # "hand 1", "hand 2", "crib"
    role: str
    cards: tuple[str, ...]
    crib: bool
    show: Show | None
    problem: str | None = None
    confirm: tuple[str, ...] = ()  # cards the player should check (low confidence / duplicates)
    claim: Claim | None = None

    def to_json(self) -> dict:
        data: dict = {"label": self.label, "role": self.role, "cards": list(self.cards), "crib": self.crib}
        if self.show is not None:
            data.update(show_to_json(self.show))
        else:
            data["problem"] = self.problem
        data["confirm"] = list(self.confirm)
        if self.claim is not None:
            data["claim"] = self.claim.to_json()
        return data


def show_to_json(show: Show) -> dict:
    """The same shape as ``crib score --json``."""
    return {"hand": [str(c) for c in show.hand], "starter": str(show.starter), "crib": show.crib,
            "items": [{"kind": i.kind, "cards": [str(c) for c in i.cards], "points": i.points} for i in show.items],
            "total": show.total, "spoken": show.spoken}


@dataclass(frozen=True)
class PhotoShow:
    recognition: Recognition
    starter: str | None
    starter_source: str  # "photo" | "flag"
    groups: tuple[GroupShow, ...]
    warnings: tuple[str, ...]

    def to_json(self) -> dict:
        return {"image": self.recognition.image, "starter": self.starter, "starter_source": self.starter_source,
                "hands": [g.to_json() for g in self.groups], "warnings": list(self.warnings),
                "recognition": self.recognition.to_json()}


def _starter(recognition: Recognition, flag: str | None) -> tuple[Card, str, list[str]]:
    in_photo = [g.cards[0] for g in recognition.groups if g.role == "starter" and g.cards]
    if flag is not None:
        try:
            card = Card.parse(flag)
        except CardParseError as exc:
            raise StarterError(f"--starter: {exc}") from exc
        notes = []
        if in_photo and in_photo[0] != str(card):
            notes.append(f"starter {card} from --starter (the photo shows {in_photo[0]} apart)")
        return card, "flag", notes
    if not in_photo:
        raise StarterError("no starter: no lone card apart from the hands in the photo; give --starter CARD")
    return Card.parse(in_photo[0]), "photo", []


def score_photo(recognition: Recognition, starter: str | None = None, all_crib: bool = False,
                claims: list[int] | None = None) -> PhotoShow:
    """Score every hand group (and the crib group with crib rules; every group as a crib with
    ``all_crib``). ``claims`` are the announced counts, one per scored group in order."""
    if not recognition.cards:
        raise NoCardsError(f"{recognition.image}: no card found in the photo")
    starter_card, source, warnings = _starter(recognition, starter)
    confirm_cards = {c.card for c in recognition.cards if c.confirm}
    scored: list[GroupShow] = []
    hand_number = 0
    for group in recognition.groups:
        if group.role not in ("hand", "crib"):
            continue
        crib = all_crib or group.role == "crib"
        if group.role == "hand":
            hand_number += 1
            label = f"hand {hand_number}"
        else:
            label = "crib"
        confirm = tuple(c for c in group.cards if c in confirm_cards)
        cards = [c for c in group.cards if c != str(starter_card)] if source == "flag" else list(group.cards)
        show, problem = None, None
        if len(cards) == 6:
            problem = "6 cards: a deal, discard 2 to the crib before the show"
        elif len(cards) != 4:
            problem = f"{len(cards)} readable cards: a hand has 4"
        else:
            try:
                show = score([Card.parse(c) for c in cards], starter_card, crib=crib)
            except ValueError as exc:
                problem = str(exc)
        scored.append(GroupShow(label, group.role, tuple(group.cards), crib, show, problem, confirm))

    if claims:
        countable = [i for i, g in enumerate(scored) if g.show is not None]
        if len(claims) > len(countable):
            raise ClaimError(f"{len(claims)} claims but {len(countable)} hands to count in the photo")
        for claimed, i in zip(claims, countable):
            if claimed < 0:
                raise ClaimError(f"a claim is a count of points, got {claimed}")
            group = scored[i]
            scored[i] = GroupShow(group.label, group.role, group.cards, group.crib, group.show, group.problem,
                                  group.confirm, Claim(claimed, group.show.total))
    if not scored:
        warnings.append("no hand to count in the photo")
    return PhotoShow(recognition, str(starter_card), source, tuple(scored), tuple(warnings))
