"""Fitting the doubt model (``vision.doubt``): the evidence of every card the shipped pipeline names
on real photos and rendered scenes, each marked right or wrong, then a logistic regression and
the threshold for a stated risk.

    python -m vision.train.doubt collect-halves --out vision/train/frozen/doubt_evidence_halves.csv
                                 --photos-out vision/train/frozen/doubt_photos_halves.csv [--scenes 400]
    python bench/doubt_halves.py [--write-shipped]    # fitted on half a, judged on b, and swapped

The shipped design (session 25, issue 54, ``fit_on_half``): evidence from both halves of the real
validation photos (``doubt_halves``; the models never trained on them) as taken and under every
look of ``doubt_looks``, with rendered tuning scenes; the model fitted on half a, wrong cards
weighing ``WRONG_WEIGHT`` right ones, features held within ``CLIP`` and kept to their ``SENSE``,
recalibrated (``calibrate``); the threshold holding the risk on every look apart; the bar for a
second reading (``choose_reread_below``) and the photo limits (``photo_limits``) measured there.
Session 23's design (``collect``/``fit``: the real train photos as taken) is kept for its recipe:

    python -m vision.train.doubt collect --out EVIDENCE.csv [--models DIR] [--scenes 600] [--seed 8600000]
    python -m vision.train.doubt fit --evidence EVIDENCE.csv [--write DIR]

Why logistic regression: the wrong cards are few (tens among thousands), so the model must have
few parameters; it is monotone in each feature by construction (a surer reader never lowers the
chance), its terms say why a card is doubted in a player's words, it is calibrated by its loss
(log-loss), and at run time it is a dot product with no library. scikit-learn fits it
(``[train]`` extra); the fit is deterministic (lbfgs on fixed data).

The threshold: 5-fold cross-validation grouped by photo gives every card a probability from a
model that never saw its photo; the threshold is the lowest one (fewest flags) whose unflagged
cards hold at most ``RISK`` wrong cards per card reported, on the real photos' out-of-fold
probabilities (the renders help the fit; the product reads real photos). The real labels leave out
some cards that show (a card cut by the photo's edge, an unlabelled card on a poker table): those,
checked by eye, are listed in ``UNLABELLED`` and counted right.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from dataclasses import asdict, fields
from pathlib import Path

from vision.doubt import FEATURES, DoubtModel, features_of
from vision.evidence import Evidence

# The stated risk: wrong cards left unflagged, per card reported, on the real train photos'
# out-of-fold chances. The product's target is 1 in 1,000 on the real validation split; the
# threshold aims at half that.
RISK = 0.0005
FOLDS = 5
C = 1.0  # scikit-learn's default inverse L2 strength: the features are standardised first
# Standardised features are held within +-CLIP (``DoubtModel.clip``): without it a dark or grainy
# look's features, far outside the fitting data, made a wrong read 99.99 % sure out of fold.
CLIP = 2.0
# Each wrong card weighs this many right ones in the fit: the threshold lives in the tail where the
# few wrong cards read surely are, and an unweighted fit spends itself on the bulk of sure right
# cards (out of fold on the tuning halves, right cards flagged as taken: 7.8 % unweighted, 5.2 %
# at 30; 10: 5.5 %, 100: 5.4 %). The chance shown is recalibrated after (``calibrate``).
WRONG_WEIGHT = 30.0
FIRST_FIT_SEED = 8_600_000  # tuning seeds (8,500,000-8,999,999), clear of the 150 used since session 12
# Cards that show in a real train photo its labels leave out (checked by eye): read, they are right.
UNLABELLED = Path(__file__).resolve().parent / "frozen" / "real_train_unlabelled_cards.txt"
UNLABELLED_VAL = UNLABELLED.with_name("real_val_unlabelled_cards.txt")  # the same for the validation photos
# The evidence's numbers (the suit is the card's; boxes and alternatives are not features).
_EVIDENCE = [f.name for f in fields(Evidence) if f.type in ("float", "int", "bool") and f.name != "red_suit"]
# ``look``: how the photo was made worse (``doubt_looks``); ``half``: the real validation photo's half
# (``doubt_halves``; "" for the rest).
COLUMNS = ["source", "family", "photo", "look", "half", "card", "right", *_EVIDENCE]
# One row per photo recognised: what the cards' rows cannot say (cards missed, boxes left unread).
PHOTO_COLUMNS = ["source", "family", "photo", "look", "half", "closeup", "truth", "missed", "unread"]


def rows_of(recognition, truth: frozenset, source: str, family: str, photo: str, look: str = "as_taken",
            half: str = "") -> list[dict]:
    """One row per card named with evidence: the evidence and whether the card is right."""
    return [{"source": source, "family": family, "photo": photo, "look": look, "half": half, "card": c.card,
             "right": int(c.card in truth), **{k: v for k, v in asdict(c.evidence).items() if k in _EVIDENCE}}
            for c in recognition.cards if c.evidence is not None]


def photo_row(recognition, truth: frozenset, source: str, family: str, photo: str, look: str, half: str,
              closeup: bool = False) -> dict:
    return {"source": source, "family": family, "photo": photo, "look": look, "half": half, "closeup": int(closeup),
            "truth": len(truth), "missed": len(truth - {c.card for c in recognition.cards}),
            "unread": len(recognition.unread_boxes)}


LOOK_SEEDS = {"tune": 54_000, "judge": 54_001}  # the looks' strengths: tuning rows, the degradation check


def collect_halves(recognizer, looks, seed: int = LOOK_SEEDS["tune"], log=print) -> tuple[list[dict], list[dict]]:
    """Card rows and photo rows of every real validation photo (both halves, the half in each row)
    under each of ``looks``."""
    import cv2

    from vision.train.doubt_halves import read_halves
    from vision.train.doubt_looks import looked
    from vision.train.real_cards import is_closeup_photo
    from vision.train.real_sets import real_photos_of

    halves = read_halves()
    also = unlabelled_cards(UNLABELLED_VAL)
    photos = [p for p in real_photos_of("val") if p.family != "crops" and p.cards]
    missing = [p.name for p in photos if p.name not in halves]
    if missing:
        raise ValueError(f"{len(missing)} validation photos are in no half (first: {missing[0]})")
    cards, shots = [], []
    for n, photo in enumerate(photos, 1):
        pixels = cv2.imread(str(photo.image))
        truth = frozenset(photo.cards) | also.get(photo.name, frozenset())
        for look in looks:
            result = recognizer.recognize(looked(pixels, look, photo.name, seed), photo.name)
            cards += rows_of(result, truth, "real", photo.family, photo.name, look, halves[photo.name])
            shots.append(photo_row(result, truth, "real", photo.family, photo.name, look, halves[photo.name],
                                   is_closeup_photo(photo)))
        if n % 50 == 0:
            log(f"  real validation: {n}/{len(photos)} photos x {len(looks)} looks")
    return cards, shots


def unlabelled_cards(path: Path = UNLABELLED) -> dict[str, frozenset[str]]:
    """Photo name -> the cards that show in it beyond its labels (``UNLABELLED``)."""
    found: dict[str, set[str]] = {}
    for line in Path(path).read_text().splitlines():
        words = line.split("#")[0].split()
        if words:
            found.setdefault(words[0], set()).add(words[1])
    return {name: frozenset(cards) for name, cards in found.items()}


def collect_real(recognizer, side: str = "train", every: int = 1, limit: int | None = None, log=print) -> list[dict]:
    """The cards named on the real photos of one side of the split (every ``every``-th; the first
    ``limit`` of each family)."""
    import cv2

    from vision.train.real_sets import real_photos_of

    photos = [p for p in real_photos_of(side) if p.family != "crops" and p.cards][::every]
    if limit is not None:
        families = sorted({p.family for p in photos})
        photos = [p for family in families for p in [q for q in photos if q.family == family][:limit]]
    also = unlabelled_cards()
    rows: list[dict] = []
    for n, photo in enumerate(photos, 1):
        result = recognizer.recognize(cv2.imread(str(photo.image)), photo.name)
        truth = frozenset(photo.cards) | also.get(photo.name, frozenset())
        rows += rows_of(result, truth, "real", photo.family, photo.name)
        if n % 200 == 0:
            log(f"  real {side}: {n}/{len(photos)} photos")
    return rows


def scene_plan(n: int, first_seed: int, show_share: float = 0.4) -> list[dict]:
    """The scenes rendered for fitting, as the bench plans its own: a share of show photos laid out
    as the capture guide asks, the rest hard scenes cycling through every layout."""
    from vision.synth.layouts import LAYOUTS

    plan, shows, hards = [], 0, 0
    for i in range(n):
        if shows < show_share * (i + 1) - 1e-9:
            layout = ("hand_starter", "two_hands_crib_starter")[shows % 2]
            plan.append({"seed": first_seed + i, "layout": layout, "table_conventions": True})
            shows += 1
        else:
            plan.append({"seed": first_seed + i, "layout": LAYOUTS[hards % len(LAYOUTS)], "table_conventions": False})
            hards += 1
    return plan


def look_of_scene(seed: int, looks) -> str:
    """The look a rendered tuning scene is made worse by: as taken for 2 in 5, else one of ``looks``."""
    import zlib

    worse = [look for look in looks if look != "as_taken"]
    k = zlib.crc32(f"look{seed}".encode()) % (5 * max(len(worse), 1))
    return "as_taken" if not worse or k < 2 * len(worse) else worse[k % len(worse)]


def collect_rendered(recognizer, n: int, first_seed: int = FIRST_FIT_SEED, mix: str = "v4",
                     size: tuple[int, int] = (1280, 960), part: slice = slice(None), log=print,
                     looks=("as_taken",), look_seed: int = LOOK_SEEDS["tune"]) -> list[dict]:
    """The cards named on ``n`` rendered scenes (JPEG quality 90, as the bench encodes them), each
    made worse by its look (``look_of_scene``); ``part`` of the plan only (the parts of one plan,
    run apart, make the same rows)."""
    import cv2

    from vision.synth import render_scene
    from vision.train.doubt_looks import looked

    rows: list[dict] = []
    for k, spec in enumerate(scene_plan(n, first_seed)[part], 1):
        image, annotation = render_scene(spec["seed"], size=size, layout=spec["layout"],
                                         table_conventions=spec["table_conventions"], mix=mix)
        name = f"seed{spec['seed']}"
        look = look_of_scene(spec["seed"], looks)
        ok, jpeg = cv2.imencode(".jpg", looked(image, look, name, look_seed), [cv2.IMWRITE_JPEG_QUALITY, 90])
        result = recognizer.recognize(jpeg.tobytes(), name)
        truth = frozenset(c["card"] for c in annotation["cards"])
        rows += rows_of(result, truth, "rendered", annotation["layout"], name, look)
        if k % 100 == 0:
            log(f"  rendered: {k}/{n} scenes")
    return rows


def write_evidence(rows: list[dict], path: Path, columns=COLUMNS) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        out = csv.DictWriter(f, columns, lineterminator="\n")
        out.writeheader()
        for row in rows:
            out.writerow({k: (round(v, 5) if isinstance(v, float) else int(v) if isinstance(v, bool) else v)
                          for k, v in row.items()})


def read_evidence(path: Path, columns=COLUMNS) -> list[dict]:
    """The rows ``write_evidence`` wrote (a missing file or column: a ValueError naming it)."""
    if not Path(path).is_file():
        raise ValueError(f"no evidence table at {path}")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and set(columns) - set(rows[0]):
        raise ValueError(f"{path}: missing columns {', '.join(sorted(set(columns) - set(rows[0])))}")
    return rows


def evidence_of_row(row: dict) -> Evidence:
    kinds = {f.name: f.type for f in fields(Evidence)}
    values = {"red_suit": row["card"][-1] in "HD"}
    for name in _EVIDENCE:
        kind = kinds[name]
        raw = row[name]
        values[name] = (raw in ("1", "True", True, 1)) if kind == "bool" else int(float(raw)) if kind == "int" \
            else float(raw)
    return Evidence(**values)


def _matrix(rows: list[dict]):
    import numpy as np

    x = np.array([features_of(evidence_of_row(r)) for r in rows], np.float64)
    if np.isnan(x[:, list(FEATURES).index("again_logit")]).any():  # every card collected is read a second time
        raise ValueError("the evidence holds cards without a second reading: collect it again")
    y = np.array([int(r["right"]) for r in rows], np.int64)
    return x, y


def _standardised(x, mean, scale, clip: float):
    import numpy as np

    z = (np.where(np.isnan(x), mean, x) - mean) / scale
    return np.clip(z, -clip, clip) if clip else z


# The way a feature must pull to make sense (+1: more of it, surer; -1: less sure). A fit that gives
# one the other sign is refitted without it (coefficient 0): a brighter photo never makes a card
# less sure, so the photo's advice can name what is wrong with it.
SENSE = {"reader_logit": 1, "again_logit": 1, "index_score_logit": 1, "runner_up_logit": -1,
         "log_ground": 1, "log_contrast": 1, "photo_log_ground": 1, "log_sharpness": 1, "photo_log_sharpness": 1,
         "cast": -1, "log_noise": -1, "others_logit": 1}


def _fit_arrays(x, y, clip: float = 0.0, keep=None, wrong_weight: float = 1.0):
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    # a feature not measured (a photo of one card has no others; a grey photo no cast) sits at the
    # mean: at run time it pulls neither way
    mean = np.nanmean(x, axis=0)
    x = np.where(np.isnan(x), mean, x)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    keep = np.ones(x.shape[1], bool) if keep is None else np.asarray(keep, bool)
    model = LogisticRegression(C=C, max_iter=2000, class_weight=None if wrong_weight == 1.0 else {0: wrong_weight, 1: 1.0})
    model.fit(_standardised(x, mean, scale, clip)[:, keep], y)
    coef = np.zeros(x.shape[1])
    coef[keep] = model.coef_[0]
    return mean, scale, coef, float(model.intercept_[0]), np


def sensible_features(x, y, clip: float = 0.0, wrong_weight: float = 1.0):
    """Which features the fit keeps: refitted without the feature pulling most against its
    ``SENSE`` until none does."""
    import numpy as np

    names = list(FEATURES)
    keep = np.ones(x.shape[1], bool)
    while True:
        coef = _fit_arrays(x, y, clip, keep, wrong_weight)[2]
        against = [(coef[k] * SENSE[n], k) for k, n in enumerate(names) if n in SENSE and keep[k] and coef[k] * SENSE[n] < 0]
        if not against:
            return keep
        keep[min(against)[1]] = False


def out_of_fold(rows: list[dict], folds: int = FOLDS, assumed: bool = False, clip: float = 0.0, keep=None,
                wrong_weight: float = 1.0):
    """Each card's probability from a model fitted without its photo (folds by photo, fixed);
    ``assumed``: also each card's probability with its second reading assumed to agree with its
    first (``DoubtModel.needs_reading``), returned third."""
    import numpy as np

    x, y = _matrix(rows)
    agreeing = x.copy()
    agreeing[:, list(FEATURES).index("again_logit")] = x[:, list(FEATURES).index("reader_logit")]
    fold = np.array([int(hashlib.sha1(f"{r['source']}/{r['photo']}".encode()).hexdigest(), 16) % folds for r in rows])
    p, q = np.zeros(len(rows)), np.zeros(len(rows))
    for k in range(folds):
        mean, scale, coef, intercept, _ = _fit_arrays(x[fold != k], y[fold != k], clip, keep, wrong_weight)
        for into, held in ((p, x[fold == k]), (q, agreeing[fold == k])):
            z = intercept + _standardised(held, mean, scale, clip) @ coef
            into[fold == k] = 1.0 / (1.0 + np.exp(-z))
    return (p, y, q) if assumed else (p, y)


# How far (log-odds) over the surest wrong card that only its second reading caught the bar for
# reading a card again lies: chosen at the tuned bar itself, the judging half lost 4 wrong cards
# (a table KS read 98.6 % sure, 57 % read again) that the second reading flags.
REREAD_MARGIN = 2.0


def choose_reread_below(p, y, q, threshold: float) -> float:
    """The bar under which cards are read a second time (``q``: their chance with that reading
    assumed to agree): ``REREAD_MARGIN`` over the highest assumed chance of a wrong card the second
    reading flags (``p`` under ``threshold``), never under ``threshold``."""
    import math

    import numpy as np

    caught = (y == 0) & (p < threshold)
    highest = float(np.max(q[caught])) if caught.any() else threshold
    highest = min(max(highest, threshold), 1 - 1e-9)
    bar = 1.0 / (1.0 + math.exp(-(math.log(highest / (1 - highest)) + REREAD_MARGIN)))
    return float(min(1.0, round(bar, 6)))


def choose_threshold(p, y, risk: float = RISK) -> float:
    """The lowest threshold (fewest flags) at which the cards left unflagged (probability >= it)
    hold at most ``risk`` wrong cards per card: a midpoint between two cards' probabilities."""
    import numpy as np

    order = np.argsort(p)  # flagging the lowest first
    p, y = p[order], y[order]
    wrong_above = np.cumsum((1 - y)[::-1])[::-1]  # wrong cards at or above each position
    n = len(p)
    for i in range(n):
        if wrong_above[i] <= risk * n:
            below = p[i - 1] if i else 0.0
            return float(round((below + p[i]) / 2, 6))
    return 1.0


def threshold_for_every_look(p, y, looks, risk: float = RISK) -> float:
    """The lowest threshold that holds ``risk`` on the cards of each look apart (a dark photo's cards
    may not hide behind the many cards of photos as taken)."""
    import numpy as np

    looks = np.asarray(looks)
    return max(choose_threshold(p[looks == look], y[looks == look], risk) for look in sorted(set(looks.tolist())))


def tuning_rows(rows: list[dict], half: str) -> list[dict]:
    """The rows a doubt model tuned on ``half`` learns from: that half's real validation cards
    (every look) and the rendered tuning scenes."""
    return [r for r in rows if r["source"] == "rendered" or r["source"] == "real" and r["half"] == half]


LIMIT_PERCENTILE = 5  # the photo limits: the 5th percentile of the tuning photos as taken


def photo_limits(rows: list[dict]):
    """``DoubtModel.limits`` measured on ``rows``' photos as taken: per photo the medians
    ``PhotoLimits.what_is_wrong`` takes, then their 5th percentile, the real photos' and the
    rendered ones' apart, the more lenient of the two (neither kind, as taken, is told off more
    than 1 in 20)."""
    from vision.doubt import PhotoLimits

    kinds = [_photo_limits_of([r for r in rows if r["source"] == source]) for source in ("real", "rendered")]
    kinds = [k for k in kinds if k is not None]
    if not kinds:
        raise ValueError("no photo as taken to measure the photo limits on")
    return PhotoLimits(min(k.dark_below for k in kinds))


def _photo_limits_of(rows: list[dict]):
    import numpy as np

    from vision.doubt import PhotoLimits, photo_median

    photos: dict[str, list] = {}
    for row in rows:
        if row["look"] == "as_taken":
            photos.setdefault(row["photo"], []).append(evidence_of_row(row))
    if not photos:
        return None

    grounds = [m for evidence in photos.values() if (m := photo_median(evidence, "ground")) is not None]
    return PhotoLimits(round(float(np.percentile(grounds, LIMIT_PERCENTILE)), 2))


def calibrate(p, y) -> tuple[float, float]:
    """Platt's recalibration of a weighted fit's chances: (a, b) with sigmoid(a * logit(p) + b)
    the chance a card is right, fitted on out-of-fold chances (monotone: the same cards flagged)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    z = np.log(np.clip(p, 1e-12, 1 - 1e-12) / np.clip(1 - p, 1e-12, 1)).reshape(-1, 1)
    model = LogisticRegression(C=1e6, max_iter=2000).fit(z, y)
    return round(float(model.coef_[0][0]), 6), round(float(model.intercept_[0]), 6)


def _calibrated(p, calibration: tuple[float, float]):
    import numpy as np

    a, b = calibration
    z = np.log(np.clip(p, 1e-12, 1 - 1e-12) / np.clip(1 - p, 1e-12, 1))
    return 1.0 / (1.0 + np.exp(-(a * z + b)))


def fit_on_half(rows: list[dict], half: str, risk: float = RISK, provenance: dict | None = None) -> DoubtModel:
    """The doubt model fitted on ``half`` of the real validation photos (with the rendered scenes),
    its threshold chosen on that half's out-of-fold chances so that every look holds ``risk``."""
    import numpy as np

    tune = tuning_rows(rows, half)
    x, y = _matrix(tune)
    if len(set(y.tolist())) < 2:
        raise ValueError(f"half {half} holds no wrong card (or no right one): nothing to fit")
    keep = sensible_features(x, y, CLIP, WRONG_WEIGHT)
    mean, scale, coef, intercept, _ = _fit_arrays(x, y, CLIP, keep, WRONG_WEIGHT)
    p, _, q = out_of_fold(tune, assumed=True, clip=CLIP, keep=keep, wrong_weight=WRONG_WEIGHT)
    real = np.array([r["source"] == "real" for r in tune])
    calibration = calibrate(p[real], y[real])
    p, q = _calibrated(p, calibration), _calibrated(q, calibration)
    threshold = threshold_for_every_look(p[real], y[real], [r["look"] for r, k in zip(tune, real) if k], risk)
    reread_below = choose_reread_below(p, y, q, threshold)  # every tuning card, rendered ones too
    return DoubtModel(tuple(FEATURES), tuple(round(float(v), 6) for v in mean), tuple(round(float(v), 6) for v in scale),
                      tuple(round(float(v), 6) for v in coef), round(intercept, 6), threshold,
                      f"at most {risk:.2%} of the cards wrong and left unflagged on every look of the real "
                      f"validation photos' half {half} ({FOLDS}-fold out-of-fold chances, folds by photo)",
                      {"half": half, "wrong_weight": WRONG_WEIGHT, **(provenance or {})}, reread_below, CLIP,
                      photo_limits(tune), calibration)


def fit(rows: list[dict], risk: float = RISK, provenance: dict | None = None) -> DoubtModel:
    """The doubt model fitted on every row, with the threshold chosen on the real rows' out-of-fold
    probabilities (every row's where none is real)."""
    import numpy as np

    x, y = _matrix(rows)
    if len(set(y.tolist())) < 2:
        raise ValueError("the evidence holds no wrong card (or no right one): nothing to fit")
    mean, scale, coef, intercept, _ = _fit_arrays(x, y)
    p, _ = out_of_fold(rows)
    real = np.array([r["source"] == "real" for r in rows])
    threshold = choose_threshold(p[real], y[real], risk) if real.any() else choose_threshold(p, y, risk)
    return DoubtModel(tuple(FEATURES), tuple(round(float(v), 6) for v in mean), tuple(round(float(v), 6) for v in scale),
                      tuple(round(float(v), 6) for v in coef), round(intercept, 6), threshold,
                      f"at most {risk:.2%} of the real train photos' cards wrong and left unflagged "
                      f"({FOLDS}-fold out-of-fold chances, folds by photo)",
                      provenance or {})


def summary(rows: list[dict], model: DoubtModel) -> str:
    """Flags and wrong cards left unflagged on the out-of-fold probabilities, per source."""
    import numpy as np

    p, y = out_of_fold(rows)
    lines = [f"doubt model: {len(rows)} cards ({int((1 - y).sum())} wrong), threshold {model.flag_below:.4f}"]
    for source in sorted({r["source"] for r in rows}):
        mask = np.array([r["source"] == source for r in rows])
        flag = p[mask] < model.flag_below
        right = y[mask] == 1
        lines.append(f"  {source}: {mask.sum()} cards, right flagged {int((flag & right).sum())} "
                     f"({(flag & right).sum() / max(right.sum(), 1):.2%}), wrong flagged {int((flag & ~right).sum())}, "
                     f"wrong unflagged {int((~flag & ~right).sum())}")
    for name, c in zip(model.features, model.coefficients):
        lines.append(f"  {name:>18}: {c:+.3f}")
    return "\n".join(lines)


def write_into(models: Path, model: DoubtModel) -> None:
    """models.json in ``models`` with its ``"doubt"`` block set to ``model``."""
    import json

    path = Path(models) / "models.json"
    config = json.loads(path.read_text())
    config["doubt"] = model.as_json()
    path.write_text(json.dumps(config, indent=2) + "\n")


def evidence_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.doubt", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    collect = sub.add_parser("collect", help="run the models on real train photos and rendered scenes")
    collect.add_argument("--out", type=Path, required=True)
    collect.add_argument("--models", default=None)
    collect.add_argument("--scenes", type=int, default=600)
    collect.add_argument("--seed", type=int, default=FIRST_FIT_SEED)
    collect.add_argument("--mix", default="v4")
    collect.add_argument("--real-every", type=int, default=1)
    halves = sub.add_parser("collect-halves", help="run the models on both halves of the real validation photos "
                                                   "under every look, and on rendered tuning scenes")
    halves.add_argument("--out", type=Path, required=True, help="the cards' evidence (CSV)")
    halves.add_argument("--photos-out", type=Path, required=True, help="one row per photo recognised (CSV)")
    halves.add_argument("--models", default=None)
    halves.add_argument("--scenes", type=int, default=400)
    halves.add_argument("--seed", type=int, default=FIRST_FIT_SEED)
    halves.add_argument("--mix", default="v4")
    fitting = sub.add_parser("fit", help="fit the model and choose its threshold")
    fitting.add_argument("--evidence", type=Path, required=True)
    fitting.add_argument("--write", type=Path, default=None, help="a models folder whose models.json takes it")
    fitting.add_argument("--risk", type=float, default=RISK)
    args = parser.parse_args(argv)
    if args.command == "collect-halves":
        from vision.pipeline import Recognizer
        from vision.train.doubt_looks import LOOKS

        recognizer = Recognizer(args.models, backend="onnxruntime")
        log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
        rows, shots = collect_halves(recognizer, tuple(LOOKS), log=log)
        write_evidence(shots, args.photos_out, PHOTO_COLUMNS)
        rows += collect_rendered(recognizer, args.scenes, args.seed, args.mix, log=log, looks=tuple(LOOKS))
        write_evidence(rows, args.out)
        print(f"{len(rows)} cards ({sum(1 - r['right'] for r in rows)} wrong) -> {args.out}; "
              f"{len(shots)} photos -> {args.photos_out}")
        return 0
    if args.command == "collect":
        from vision.pipeline import Recognizer

        recognizer = Recognizer(args.models, backend="onnxruntime")
        rows = collect_real(recognizer, "train", args.real_every, log=lambda m: print(m, file=sys.stderr))
        rows += collect_rendered(recognizer, args.scenes, args.seed, args.mix, log=lambda m: print(m, file=sys.stderr))
        write_evidence(rows, args.out)
        print(f"{len(rows)} cards ({sum(1 - r['right'] for r in rows)} wrong) -> {args.out}")
        return 0
    try:
        rows = read_evidence(args.evidence)
    except ValueError as exc:
        parser.exit(2, f"error: {exc}\n")
    model = fit(rows, args.risk, {"evidence": str(args.evidence), "evidence_sha256": evidence_digest(args.evidence),
                                  "cards": len(rows), "folds": FOLDS, "C": C})
    print(summary(rows, model))
    if args.write:
        write_into(args.write, model)
        print(f"written into {args.write / 'models.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
