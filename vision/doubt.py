"""The last step: how likely each named card is right, and which the player should confirm.

One calibrated probability per card, from the evidence the pipeline gathered on it
(``vision.evidence``): a logistic regression over a few features of that evidence, fitted on real
train photos and rendered scenes (``vision.train.doubt``), shipped with its threshold in models.json
(``"doubt"``). A card is flagged when that probability is under the threshold, or when its code is
named twice (one deck holds each card once: ``vision.one_deck``, which also keeps each card's other
readings to those not elsewhere in the photo). Each flag says why in a player's words: the feature
that pulls the card's probability down the most (``Code.DOUBTFUL``). Models without a ``"doubt"``
block keep the flags interpret's rules gave.

Standard library only at run time: the model is a dot product.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from vision import one_deck
from vision.evidence import Evidence
from vision.notices import DOUBT_WHY, Code, Notice
from vision.results import Recognition, RecognizedCard

_EPS = 1e-4


def _logit(p: float) -> float:
    p = min(max(p, _EPS), 1.0 - _EPS)
    return math.log(p / (1.0 - p))


# Each feature: how it is computed from a card's evidence (None: not measured, as for a card the
# second reading could not crop; it then pulls neither way). The order is the model's.
FEATURES = {
    "reader_logit": lambda e: _logit(e.reader),
    "runner_up_logit": lambda e: _logit(e.runner_up),
    "index_score_logit": lambda e: _logit(e.index_score),
    "card_score": lambda e: e.card_score,
    "no_card_box": lambda e: float(e.card_score <= 0.0),
    "one_corner": lambda e: float(e.corners < 2),
    "disputed": lambda e: float(e.disputed),
    "second_look": lambda e: float(e.second_look),
    "column": lambda e: float(e.column),
    "log_index_px": lambda e: math.log(max(e.index_px, 1.0)),
    "again_logit": lambda e: _logit(e.again) if e.again >= 0 else None,
    "red_ink_on_black": lambda e: e.ink_red if e.ink_red >= 0 and not e.red_suit else 0.0,  # -1: no colour
    "black_ink_on_red": lambda e: 1.0 - e.ink_red if e.ink_red >= 0 and e.red_suit else 0.0,
    "log_sharpness": lambda e: math.log(max(e.sharpness, 1e-3)) if e.sharpness >= 0 else None,
    # what the photo says about itself (issue 54): dark, faint, tinted, grainy, blurred, hard all over
    "log_ground": lambda e: math.log(max(e.ground, 1.0) / 255.0) if e.ground >= 0 else None,
    "log_contrast": lambda e: math.log(max(e.contrast, 1.0) / 255.0) if e.contrast >= 0 else None,
    "cast": lambda e: e.cast if e.cast >= 0 else None,
    "log_noise": lambda e: math.log(max(e.noise, 1e-4)) if e.noise >= 0 else None,
    "photo_log_ground": lambda e: math.log(max(e.photo_ground, 1.0) / 255.0) if e.photo_ground >= 0 else None,
    "photo_log_sharpness": lambda e: math.log(max(e.photo_sharpness, 1e-3)) if e.photo_sharpness >= 0 else None,
    "others_logit": lambda e: _logit(e.others) if e.others >= 0 else None,
}

# Why a card is doubtful in a photo past its limits (a ``DOUBT_WHY`` key per ``PHOTO_ADVICE`` key).
PHOTO_WHY = {"dark": "photo_log_ground"}


@dataclass(frozen=True)
class PhotoLimits:
    """How bad a photo may look before the player is told (``Code.PHOTO_ADVICE``): measured on the
    tuning photos as taken (the 5th percentile of the medians of their cards' paper brightness;
    ``vision.train.doubt``). A photo past it, with a card flagged, is too dark to trust, whatever
    the reader says: every card of it is flagged. Sharpness, tint and grain are not limits: the
    index sharpness of crisp rendered samples (0.037) lies under the blurred looks' median (0.063),
    a black deck's gold ink reads as tinted paper and its sparkle as grain."""

    dark_below: float  # the median paper brightness of the photo's card indices (0-255)

    @classmethod
    def from_json(cls, block: dict) -> "PhotoLimits":
        try:
            return cls(float(block["dark_below"]))
        except KeyError as exc:
            raise DoubtModelError(f"doubt: limits: missing {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise DoubtModelError(f"doubt: limits: {exc}") from None

    def as_json(self) -> dict:
        return {"dark_below": self.dark_below}

    def what_is_wrong(self, evidence: list[Evidence]) -> str | None:
        """A ``PHOTO_ADVICE`` key for a photo whose cards have this ``evidence``, or None."""
        ground = photo_median(evidence, "ground")
        return "dark" if ground is not None and ground < self.dark_below else None


def photo_median(evidence: list[Evidence], name: str) -> float | None:
    """The median (the upper one of an even count) of a photo's cards' ``name`` where measured
    (not -1): what ``PhotoLimits`` judges a photo by, and what they are measured on."""
    values = sorted(v for e in evidence if (v := getattr(e, name)) >= 0)
    return values[len(values) // 2] if values else None


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


class DoubtModelError(ValueError):
    """models.json's ``"doubt"`` block cannot be read (one line, names what is wrong)."""


def features_of(evidence: Evidence) -> list[float]:
    """The features of ``evidence`` in FEATURES' order (NaN where not measured)."""
    return [math.nan if (v := f(evidence)) is None else v for f in FEATURES.values()]


@dataclass(frozen=True)
class DoubtModel:
    """A logistic regression on standardised features: P(right) = sigmoid(intercept +
    sum(coefficient * (feature - mean) / scale)). ``flag_below``: the threshold chosen for
    ``risk``; ``provenance``: how and on what it was fitted."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coefficients: tuple[float, ...]
    intercept: float
    flag_below: float
    risk: str = ""
    provenance: dict = field(default_factory=dict, compare=False)
    # A card is read a second time only when its chance, that reading assumed to agree with the
    # first, is under this (1.0: every card): the sure ones cost the photo nothing more.
    reread_below: float = 1.0
    # Each standardised feature is held within +-clip (0: not held): a photo far outside what the
    # model was fitted on (a dark look's paper, a grainy one's sharpness) pulls no further than that.
    clip: float = 0.0
    # When a photo with a card flagged is worse than the photos the model was tuned on, as taken
    # (``PhotoLimits``), the player is told what to do about it (``Code.PHOTO_ADVICE``).
    limits: "PhotoLimits | None" = None
    # (a, b): the chance is sigmoid(a * z + b) of the regression's log-odds z (a fit that weighs
    # wrong cards more is recalibrated so; (1, 0): as fitted)
    calibration: tuple[float, float] = (1.0, 0.0)

    def __post_init__(self) -> None:
        n = len(self.features)
        if not n or any(len(v) != n for v in (self.mean, self.scale, self.coefficients)):
            raise DoubtModelError("doubt: features, mean, scale and coefficients must be lists of one length")
        unknown = [name for name in self.features if name not in FEATURES or name not in DOUBT_WHY]
        if unknown:
            raise DoubtModelError(f"doubt: unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})")
        if not 0.0 <= self.flag_below <= 1.0:
            raise DoubtModelError(f"doubt: flag_below must be between 0 and 1, got {self.flag_below}")
        if any(s <= 0 for s in self.scale):
            raise DoubtModelError("doubt: every scale must be positive")
        if len(self.calibration) != 2 or self.calibration[0] <= 0:
            raise DoubtModelError(f"doubt: calibration must be [a, b] with a > 0, got {list(self.calibration)}")
        if self.clip < 0:
            raise DoubtModelError(f"doubt: clip must be 0 (none) or positive, got {self.clip}")
        if not self.flag_below <= self.reread_below <= 1.0:
            raise DoubtModelError(f"doubt: reread_below must be between flag_below and 1, got {self.reread_below}")

    @classmethod
    def from_json(cls, block: dict) -> "DoubtModel":
        try:
            return cls(tuple(block["features"]), tuple(map(float, block["mean"])), tuple(map(float, block["scale"])),
                       tuple(map(float, block["coefficients"])), float(block["intercept"]),
                       float(block["flag_below"]), str(block.get("risk", "")), dict(block.get("provenance", {})),
                       float(block.get("reread_below", 1.0)), float(block.get("clip", 0.0)),
                       PhotoLimits.from_json(block["limits"]) if "limits" in block else None,
                       tuple(map(float, block.get("calibration", (1.0, 0.0)))))
        except KeyError as exc:
            raise DoubtModelError(f"doubt: missing {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, DoubtModelError):
                raise
            raise DoubtModelError(f"doubt: {exc}") from None

    def as_json(self) -> dict:
        return {"model": "logistic", "features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "coefficients": list(self.coefficients), "intercept": self.intercept,
                "clip": self.clip, "flag_below": self.flag_below, "reread_below": self.reread_below, "risk": self.risk,
                "calibration": list(self.calibration), "provenance": self.provenance,
                **({"limits": self.limits.as_json()} if self.limits else {})}

    def terms(self, evidence: Evidence) -> list[float]:
        """Each feature's pull on the log-odds, against a typical card (the fitting data's mean)."""
        values = [FEATURES[name](evidence) for name in self.features]
        return [0.0 if v is None else c * self._held((v - m) / s)
                for v, m, s, c in zip(values, self.mean, self.scale, self.coefficients)]

    def _held(self, z: float) -> float:
        return min(max(z, -self.clip), self.clip) if self.clip else z

    def probability(self, evidence: Evidence) -> float:
        a, b = self.calibration
        return _sigmoid(a * (self.intercept + sum(self.terms(evidence))) + b)

    def needs_reading(self, evidence: Evidence) -> bool:
        """Whether a card whose second reading is assumed to agree with its first (``again`` equal
        to ``reader``) is still unsure enough to be read again."""
        return self.reread_below >= 1.0 or self.probability(replace(evidence, again=evidence.reader)) < self.reread_below

    def why(self, evidence: Evidence) -> str:
        """The feature that pulls the probability down the most (a ``notices.DOUBT_WHY`` key)."""
        terms = self.terms(evidence)
        return self.features[min(range(len(terms)), key=terms.__getitem__)]


def doubt_model_of(models_config: dict) -> DoubtModel | None:
    """The doubt model models.json ships (None: the models have none)."""
    block = models_config.get("doubt")
    return None if block is None else DoubtModel.from_json(block)


# Notices about one card's reading that the doubt model's own notice replaces.
_READING_NOTICES = frozenset({Code.LOW_CONFIDENCE, Code.ONE_CORNER, Code.DISPUTED_CORNERS, Code.COLUMN_CARD})


def weigh(recognition: Recognition, model: DoubtModel, flag_below: float | None = None) -> Recognition:
    """``recognition`` with each card's confidence the model's probability that it is right, and
    flagged when under ``flag_below`` (default: the model's) or named twice; the reading notices of
    the cards weighed replaced by one ``Code.DOUBTFUL`` per flagged card.

    One deck (``vision.one_deck``): each card's other readings (its ``alternatives``, the best its
    ``runner_up``) leave out the cards read elsewhere in the photo; a code read twice is weighed
    against its other read (both cannot be right), the likelier wrong read stays flagged and
    ``Code.READ_TWICE`` says which."""
    threshold = model.flag_below if flag_below is None else flag_below
    counts = Counter(c.card for c in recognition.cards)
    chances = [None if c.evidence is None else model.probability(c.evidence) for c in recognition.cards]
    wrong_read = _read_twice(recognition.cards, chances, counts)
    taken = set(counts)
    cards: list[RecognizedCard] = []
    said: list[Notice] = []
    weighed: set[str] = set()
    for i, card in enumerate(recognition.cards):
        if card.evidence is None:
            cards.append(card)
            continue
        weighed.add(card.card)
        p = chances[i]
        others = one_deck.alternatives(card.card, card.runner_up, card.evidence, card.alternatives, p, taken)
        runner_up, runner_p = others[0] if others else (None, 0.0)
        twice = counts[card.card] > 1
        confirm = p < threshold or (twice and wrong_read.get(card.card, i) == i)
        cards.append(replace(card, confidence=p, confirm=confirm, runner_up=runner_up,
                             runner_up_confidence=runner_p, alternatives=others))
        if p < threshold and not twice:
            said.append(Notice(Code.DOUBTFUL, (card.card, p, runner_up, model.why(card.evidence))))
        elif wrong_read.get(card.card) == i:
            other = next(j for j, c in enumerate(recognition.cards) if c.card == card.card and j != i)
            said.append(Notice(Code.READ_TWICE, (card.card, one_deck.where(card.box, recognition.cards[other].box), p,
                                                 tuple(code for code, _ in others))))
    evidence = [c.evidence for c in cards if c.evidence is not None]
    doubtful = sum(c.confirm for c in cards if c.evidence is not None)
    if model.limits is not None and doubtful and (what := model.limits.what_is_wrong(evidence)) is not None:
        # a photo too dark to trust, with a card doubtful in it: no card of it is sure because the
        # reader says so; each is asked, and another photo is asked for first
        for k, card in enumerate(cards):
            if card.evidence is not None and not card.confirm:
                cards[k] = replace(card, confirm=True)
                said.append(Notice(Code.DOUBTFUL, (card.card, card.confidence, card.runner_up, PHOTO_WHY[what])))
        said.insert(0, Notice(Code.PHOTO_ADVICE, (what, doubtful, len(evidence))))
    kept = tuple(n for n in recognition.warnings
                 if not (n.code in _READING_NOTICES and n.args and n.args[0] in weighed)
                 and not (n.code == Code.SEEN_TWICE and n.args and n.args[0] in wrong_read))
    return replace(recognition, cards=tuple(cards), warnings=kept + tuple(said))


def _read_twice(cards, chances: list, counts: Counter) -> dict[str, int]:
    """The codes read exactly twice, both weighed, whose reads' chances differ: each read's chance
    weighed against the other's (``chances`` updated in place), and code -> the likelier wrong read's row."""
    wrong: dict[str, int] = {}
    for code, n in counts.items():
        rows = [i for i, c in enumerate(cards) if c.card == code]
        if n != 2 or any(chances[i] is None for i in rows):
            continue
        a, b = rows
        chances[a], chances[b] = one_deck.read_twice(chances[a], chances[b])
        if chances[a] != chances[b]:
            wrong[code] = a if chances[a] < chances[b] else b
    return wrong
