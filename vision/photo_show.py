"""Scoring the show seen in a photo: each hand (and the crib) with the starter, plus muggins."""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.cards import Card, CardParseError
from companion.rules.muggins import ClaimResult, evaluate
from companion.rules.rulesets import DEFAULT, RuleSet
from companion.rules.show import Show, score

from vision.pipeline import Recognition


class StarterError(ValueError):
    """A --starter that is not a card."""


class NoCardsError(ValueError):
    """Nothing to count: the photo shows no readable card."""


class ClaimCountError(ValueError):
    """More claims than hands to count in the photo."""


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
    claim: ClaimResult | None = None

    def to_json(self) -> dict:
        data: dict = {"label": self.label, "role": self.role, "cards": list(self.cards), "crib": self.crib}
        if self.show is not None:
            data.update(self.show.as_json())  # the crib score --json shape
        else:
            data["problem"] = self.problem
        data["confirm"] = list(self.confirm)
        if self.claim is not None:
            data["claim"] = self.claim.as_json()
        return data


@dataclass(frozen=True)
class PhotoShow:
    recognition: Recognition
    starter: str | None
    starter_source: str  # "photo" | "flag" | "none"
    groups: tuple[GroupShow, ...]
    warnings: tuple[str, ...]

    def to_json(self) -> dict:
        return {"image": self.recognition.image, "starter": self.starter, "starter_source": self.starter_source,
                "hands": [g.to_json() for g in self.groups], "warnings": list(self.warnings),
                "recognition": self.recognition.to_json()}


def _starter(recognition: Recognition, flag: str | None) -> tuple[Card | None, str, list[str]]:
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
        return None, "none", ["no starter in the photo (no lone card apart from the hands): give --starter CARD to count"]
    return Card.parse(in_photo[0]), "photo", []


def score_photo(recognition: Recognition, starter: str | None = None, all_crib: bool = False,
                claims: list[int] | None = None, rules: RuleSet = DEFAULT) -> PhotoShow:
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
        elif len(cards) == 5:
            problem = "5 cards: a three-player deal, discard 1 to the crib before the show"
        elif len(cards) != 4:
            problem = f"{len(cards)} readable cards: a hand has 4"
        elif starter_card is None:
            problem = "no starter to count with"
        else:
            try:
                show = score([Card.parse(c) for c in cards], starter_card, crib=crib)
            except ValueError as exc:
                problem = str(exc)
        scored.append(GroupShow(label, group.role, tuple(group.cards), crib, show, problem, confirm))

    if claims:
        countable = [i for i, g in enumerate(scored) if g.show is not None]
        if len(claims) > len(countable):
            raise ClaimCountError(f"{len(claims)} claims but {len(countable)} hands to count in the photo")
        for claimed, i in zip(claims, countable):
            group = scored[i]
            claim = evaluate(claimed, group.show.total, rules, "crib" if group.role == "crib" else "hand")
            scored[i] = GroupShow(group.label, group.role, group.cards, group.crib, group.show, group.problem,
                                  group.confirm, claim)
    if not scored:
        warnings.append("no hand to count in the photo")
    return PhotoShow(recognition, str(starter_card) if starter_card else None, source, tuple(scored), tuple(warnings))
