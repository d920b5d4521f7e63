"""Recognition on the real validation photos (``vision/train/real_split.txt``, never trained or
tuned on), per file family and at 0.5x, 1x and 2x the photo's size. Used by ``bench/vision.py
--real`` (full tables) and by its default run (one summary line).

Both real sets: cardcounterml's families and rf100-poker (family ``poker``) when it is here. The
``closeup`` line is the desk photos whose labelled indices are largest (a phone held close to the
cards; counted once in ``all``, under desk).

Truth per photo: the cards whose corners are labelled (backs and jokers are not cards; rf100-poker:
its labelled whole cards). A
reported card is right when it is among them; a photo is exactly right when the reported set is
the labelled set. The index-crop family (single corner crops, no scene) is judged by the reader
alone: its crop read right or not.
"""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

SCALES = (1.0, 0.5, 2.0)


def validation_scenes() -> list:
    """The real validation photos that show cards (vision.train.real_cards.RealDataError when the
    real sets are not here)."""
    from vision.train.real_sets import real_photos_of

    return [p for p in real_photos_of("val") if p.family != "crops" and p.cards]


def is_closeup(photo) -> bool:
    from vision.train.real_cards import is_closeup_photo

    return is_closeup_photo(photo)
TARGET_PRECISION, TARGET_UNREAD = 0.995, 0.01


def scaled(pixels: np.ndarray, factor: float) -> np.ndarray:
    if factor == 1.0:
        return pixels
    h, w = pixels.shape[:2]
    size = (max(1, int(round(w * factor))), max(1, int(round(h * factor))))
    return cv2.resize(pixels, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)


def taps(flagged: int, wrong_unflagged: int, missed: int, unread: int) -> int:
    """What a photo costs the player: a tap for each flagged card, each wrong card left unflagged,
    and each missed card or unread box (whichever is more: an unread box is named in one tap)."""
    return flagged + wrong_unflagged + max(missed, unread)


def judge(result, photo) -> dict:
    truth = set(photo.cards)
    reported = [c.card for c in result.cards]
    flagged = [c for c in result.cards if c.confirm]
    wrong = sum(c not in truth for c in reported)
    flagged_wrong = sum(c.card not in truth for c in flagged)
    missed = len(truth - set(reported))
    return {"taps": taps(len(flagged), wrong - flagged_wrong, missed, len(result.unread_boxes)), "family": photo.family, "name": photo.name, "truth": len(truth), "reported": len(reported),
            "correct": sum(c in truth for c in reported), "found": len(truth & set(reported)),
            "flagged": len(flagged), "flagged_wrong": sum(c.card not in truth for c in flagged),
            "unread": len(result.unread_boxes), "exact": set(reported) == truth and len(reported) == len(truth),
            "false": sorted(set(reported) - truth), "missed": sorted(truth - set(reported)),
            "second_look": result.looked_again, "second_look_ms": result.ms.get("second_look", 0.0),
            "ms": sum(v for k, v in result.ms.items() if k in ("decode", "infer", "post", "second_look"))}


# The webcam families were 16:9 frames before the dataset's exporter stretched them to 640x640.
WEBCAM_ASPECT = 16 / 9


def run(recognizer, photos, factor: float = 1.0, aspect: float = 1.0) -> list[dict]:
    """Recognise each photo at ``factor`` times its size, widened ``aspect`` times (un-stretched)."""
    scores = []
    for photo in photos:
        pixels = scaled(cv2.imread(str(photo.image)), factor)
        if aspect != 1.0:
            pixels = cv2.resize(pixels, (round(pixels.shape[1] * aspect), pixels.shape[0]), interpolation=cv2.INTER_CUBIC)
        scores.append(judge(recognizer.recognize(pixels, photo.name), photo))
    return scores


def totals(scores: list[dict]) -> dict:
    keys = ("truth", "reported", "correct", "found", "flagged", "flagged_wrong", "unread", "exact", "taps")
    t = {k: sum(s[k] for s in scores) for k in keys}
    t["photos"] = len(scores)
    t["right_flagged"] = t["flagged"] - t["flagged_wrong"]
    t["right_flagged_share"] = t["right_flagged"] / t["correct"] if t["correct"] else 0.0
    t["wrong_unflagged"] = t["reported"] - t["correct"] - t["flagged_wrong"]
    t["taps_per_photo"] = t["taps"] / t["photos"] if t["photos"] else 0.0
    t["no_tap"] = sum(s["taps"] == 0 for s in scores)
    t["precision"] = t["correct"] / t["reported"] if t["reported"] else 1.0
    unflagged = t["reported"] - t["flagged"]
    t["precision_unflagged"] = ((t["correct"] - (t["flagged"] - t["flagged_wrong"])) / unflagged) if unflagged else 1.0
    t["recall"] = t["found"] / t["truth"] if t["truth"] else 1.0
    t["unread_share"] = t["unread"] / t["truth"] if t["truth"] else 0.0
    return t


def summary_line(scores: list[dict], label: str) -> str:
    t = totals(scores)
    return (f"{label}: {t['photos']} photos, precision {t['precision']:.2%} (unflagged {t['precision_unflagged']:.2%}), "
            f"recall {t['recall']:.2%}, exactly right {t['exact']}/{t['photos']}, unread boxes {t['unread']} "
            f"({t['unread_share']:.1%} of {t['truth']} cards); right cards flagged {t['right_flagged']} "
            f"({t['right_flagged_share']:.1%}), wrong unflagged {t['wrong_unflagged']}, taps per photo "
            f"{t['taps_per_photo']:.2f}, photos with no tap {t['no_tap']}/{t['photos']}")


def family_table(scores: list[dict], title: str, closeups: frozenset[str] = frozenset()) -> None:
    print(f"\n{title}\n\n| family | photos | precision | unflagged precision | recall | exactly right | "
          f"unread boxes / photo | reported (wrong) | cards (missed) | second look: cards, ms / photo | "
          f"right cards flagged | wrong unflagged | taps per photo | photos with no tap |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    families = sorted({s["family"] for s in scores})
    for family in families + ["closeup", "all"]:
        group = [s for s in scores if family in ("all", s["family"]) or family == "closeup" and s["name"] in closeups]
        if not group:
            continue
        t = totals(group)
        looks = sum(s["second_look"] for s in group)
        look_ms = statistics.mean(s["second_look_ms"] for s in group) if group else 0.0
        print(f"| {family} | {t['photos']} | {t['precision']:.2%} | {t['precision_unflagged']:.2%} | {t['recall']:.2%} | "
              f"{t['exact']} ({t['exact'] / max(t['photos'], 1):.0%}) | {t['unread'] / max(t['photos'], 1):.2f} | "
              f"{t['reported']} ({t['reported'] - t['correct']}) | {t['truth']} ({t['truth'] - t['found']}) | "
              f"{looks}, {look_ms:.1f} | {t['right_flagged']} ({t['right_flagged_share']:.1%}) | {t['wrong_unflagged']} | "
              f"{t['taps_per_photo']:.2f} | {t['no_tap']} / {t['photos']} |")


def reader_on_crops(recognizer, photos) -> tuple[int, int]:
    """The index-crop family: each photo is one corner index filling the frame."""
    from vision.classes import CARD_CODES
    from vision.crops import crop_square, crops_to_tensor

    right = 0
    for photo in photos:
        image = cv2.imread(str(photo.image))
        h, w = image.shape[:2]
        corner = photo.corners[0]
        box = (corner.box[0] * w, corner.box[1] * h, corner.box[2] * w, corner.box[3] * h)
        crop = crop_square(image, box, recognizer.crop_size, recognizer.crop_margin)
        logits = recognizer.classifier.run(crops_to_tensor([crop]))
        right += CARD_CODES[int(np.argmax(logits[0]))] == corner.code
    return right, len(photos)


def real_bench(recognizer, verbose: bool = False, scales=SCALES, half: str | None = None) -> list[dict]:
    """The full tables (``half``: only that half of the validation photos' scenes); returns the scores at 1x."""
    from vision.train.doubt_halves import read_halves
    from vision.train.real_sets import real_photos_of

    photos = real_photos_of("val")
    scenes = [p for p in photos if p.family != "crops" and p.cards]
    if half is not None:
        halves = read_halves()
        scenes = [p for p in scenes if halves.get(p.name) == half]
        print(f"half {half} of the validation photos (vision/train/real_val_halves.txt): {len(scenes)} scenes")
    crops = [p for p in photos if p.family == "crops" and p.corners and p.corners[0].code]
    print(f"real validation photos: {len(scenes)} scenes ({len(photos) - len(scenes) - len(crops)} showing no card "
          f"left out), {len(crops)} index crops; models v{recognizer.models.version}, "
          f"backend {recognizer.backend}")
    closeups = frozenset(p.name for p in scenes if is_closeup(p))
    at_1x = []
    for factor in scales:
        t = time.perf_counter()
        scores = run(recognizer, scenes, factor)
        if factor == 1.0:
            at_1x = scores
        family_table(scores, f"### Real validation photos at {factor:g}x their size (640x640 -> "
                             f"{int(640 * factor)}x{int(640 * factor)}, poker 960x720 -> {int(960 * factor)}x"
                             f"{int(720 * factor)}; {time.perf_counter() - t:.0f} s)", closeups)
        print("\n" + summary_line(scores, f"{factor:g}x"))
        tt = totals(scores)
        print(f"targets: precision of unflagged cards >= {TARGET_PRECISION:.1%} "
              f"{'PASS' if tt['precision_unflagged'] >= TARGET_PRECISION else 'FAIL'}; unread boxes <= "
              f"{TARGET_UNREAD:.0%} of cards {'PASS' if tt['unread_share'] <= TARGET_UNREAD else 'FAIL'}; "
              f"median {statistics.median(s['ms'] for s in scores):.1f} ms per photo")
    webcam = [p for p in scenes if p.family in ("table", "held")]
    as_is = [s for s in at_1x if s["family"] in ("table", "held")]
    print("\nstretch: the webcam families (table, held) as stored (stretched to 640x640) and un-stretched to 16:9\n"
          f"  {summary_line(as_is, 'as stored')}\n  {summary_line(run(recognizer, webcam, 1.0, WEBCAM_ASPECT), 'un-stretched')}")
    right, total = reader_on_crops(recognizer, crops)
    print(f"\nindex crops family (reader alone): {right}/{total} read right ({right / max(total, 1):.1%})")
    wrong = [s for s in at_1x if s["false"] or s["missed"]]
    print(f"\nphotos with a card error at 1x: {len(wrong)} of {len(at_1x)}")
    for s in wrong[: None if verbose else 15]:
        print(f"  {s['name']} ({s['family']}): false {s['false']}, missed {s['missed']}, unread {s['unread']}")
    return at_1x


def real_summary(recognizer) -> str | None:
    """One line for the default bench run; None when the real photos are not here."""
    from vision.train.real_cards import RealDataError
    from vision.train.real_sets import real_photos_of

    try:
        photos = [p for p in real_photos_of("val") if p.family != "crops" and p.cards]
    except RealDataError:
        return None
    return summary_line(run(recognizer, photos), "real validation photos (1x)")
