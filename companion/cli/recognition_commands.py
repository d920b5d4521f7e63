"""``crib recognize`` and ``crib show``: card recognition and the show counted from photos.

Thin over ``vision.Recognizer`` and ``companion.photo.count_show``: parse, call, format. Heavy
imports (numpy, OpenCV, onnxruntime) happen inside the handlers so ``crib --help`` is fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.cli.common import CliError
from companion.words import plural

SAMPLE_NAME_HELP = ("a sample photo's name from any folder, e.g. hand_starter_spread (crib samples --list names "
                    "them); a file of that name where you are always wins")
NO_STARTER_WARNING = "no starter in the photo (no lone card apart from the hands): give --starter CARD to count"


def register(subparsers) -> None:
    recognize = subparsers.add_parser(
        "recognize", help="recognise the cards, hands and starter in photos",
        description="Recognise the cards in each photo and group them into hands, crib and starter.")
    recognize.add_argument("images", nargs="+", metavar="IMG",
                           help=f"photo files (JPEG, PNG, ...), or {SAMPLE_NAME_HELP}")
    recognize.add_argument("--annotate", metavar="OUT.png",
                           help="write the photo with every card drawn (several photos: a folder, one picture each)")
    _common_options(recognize)
    recognize.set_defaults(handler=run_recognize)

    show = subparsers.add_parser(
        "show", help="count every hand in a photo of the show",
        description="Recognise the photo, take the starter from it (a lone card apart) or --starter, "
                    "and count every hand and the crib with the full breakdown.")
    show.add_argument("image", metavar="IMG",
                      help=f"photo file (one: crib recognize reads several), or {SAMPLE_NAME_HELP}")
    show.add_argument("more_images", nargs="*", help=argparse.SUPPRESS)  # said in one line, not "unrecognized"
    show.add_argument("--starter", metavar="CARD", help="the starter (cut card), e.g. 5D, if not in the photo")
    show.add_argument("--crib", action="store_true", help="count every group as a crib")
    show.add_argument("--claim", type=int, nargs="+", metavar="N", default=None,
                      help="the counts the players announced, one per hand in order (then the crib): muggins check")
    show.add_argument("--rules", default="acc", help="rule set for --claim: acc (default), home, pub")
    show.add_argument("--annotate", metavar="OUT.png", help="write the photo with the cards and every scoring combination drawn")
    show.add_argument("--card", nargs=2, action="append", metavar=("N", "CARD"), default=[],
                      help="name unread card N (numbered in the warnings), e.g. --card 1 QH; it joins the group "
                           "it lies in. For a box that is no card (a page, a coin): --card 1 none (or -, x, skip, "
                           "not): it is left out. Repeat for more")
    show.add_argument("--confirm", nargs="+", metavar="CARD", default=[],
                      help="flagged cards (shown with ?) you checked on the table, e.g. --confirm 3C: trusted "
                           "like the others (a flagged card lying on another card waits apart until confirmed)")
    _common_options(show)
    show.set_defaults(handler=run_show)


def _common_options(parser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--conf", type=float, default=None, metavar="X",
                        help="cards whose chance of being right is under X (e.g. 0.99) are flagged for you "
                             "to confirm (default: the models' own threshold, models.json)")
    parser.add_argument("--models", metavar="DIR", default=None,
                        help="folder holding models.json (default: the models installed with crib)")
    parser.add_argument("--backend", choices=("onnxruntime", "opencv"), default=None,
                        help="model runtime (default: onnxruntime when installed)")
    parser.add_argument("--no-zoom", action="store_true",
                        help="skip the closer second detector pass for small corner indices (faster, fewer cards found)")


def _recognizer(args):
    from vision import RecognizeOptions, Recognizer, ThresholdError

    try:
        return Recognizer(args.models, RecognizeOptions(confirm_below=args.conf, zoom=False if args.no_zoom else None),
                          backend=args.backend)
    except ThresholdError as exc:
        raise CliError(f"--conf must be between 0 and 1, got {exc.value}") from None


def _photo(given: str) -> str:
    """The photo ``given`` names: a path that exists always wins, else the sample photo of that
    name (so a sample reads from any folder); neither is one line before any work."""
    import os

    from companion.paths import sample_photo

    if os.path.lexists(given):
        return given
    sample = sample_photo(given)
    if sample is None:
        raise CliError(f"{given}: no such file (nor a sample photo's name: crib samples --list names them)")
    return str(sample)


def _annotation_targets(images: list, annotate: str | None) -> list[str | None]:
    """Where each photo's annotated picture goes: OUT for one photo, FOLDER/NAME.png for several;
    checked before any photo is read (a picture that cannot be written is refused, not found out
    after the result is printed)."""
    import os

    from companion.drawing import PictureFileError, check_picture_target

    if not annotate:
        return [None] * len(images)
    if len(images) == 1:
        targets = [annotate]
    elif not os.path.isdir(annotate):
        raise CliError(f"--annotate {annotate}: with {len(images)} photos, give a folder (one picture per photo)")
    else:
        targets = [os.path.join(annotate, os.path.splitext(os.path.basename(str(p)))[0] + ".png") for p in images]
    try:
        for target in targets:
            check_picture_target(target)
    except PictureFileError as exc:
        raise CliError(f"--annotate {exc}") from None
    return targets


def _write_annotation(target: str, picture, quiet: bool, command: str) -> bool:
    """Write the annotated picture after the result is printed; a picture that cannot be written
    is one clear line on stderr (the result stands). Returns whether it was written."""
    from companion.drawing import PictureFileError, write_picture

    try:
        write_picture(target, picture())
    except PictureFileError as exc:
        print(f"crib {command}: error: --annotate {exc}", file=sys.stderr)
        return False
    if not quiet:
        print(f"annotated picture: {target}")
    return True


def run_recognize(args) -> int:
    from vision import ImageInputError
    from vision import assess_photo

    from companion.drawing import draw

    targets = _annotation_targets(args.images, args.annotate)
    recognizer = _recognizer(args)
    results, failed = [], False
    for given, target in zip(args.images, targets):
        try:
            photo, result = recognizer.read_and_recognize(_photo(given))
        except (ImageInputError, CliError) as exc:
            print(f"crib recognize: error: {exc}", file=sys.stderr)
            failed = True
            continue
        quality = assess_photo(photo.pixels)
        results.append(result)
        if not args.json:
            print(format_recognition(result))
            if quality.advice:  # ask for another photo: too blurred or too dark to read
                print(f"  warning: {quality.advice}")
        if target is not None:
            picture = lambda: draw(photo, result)  # noqa: E731
            failed |= not _write_annotation(target, picture, args.json, "recognize")
    if args.json:
        json.dump([r.as_json() for r in results], sys.stdout, indent=1)
        print()
    return 2 if failed else 0


def format_recognition(result) -> str:
    ms = result.ms
    lines = [f"{result.image} ({result.width}x{result.height}): {plural(len(result.cards), 'card')} "
             f"in {plural(len(result.groups), 'group')}"
             f"  [decode {ms['decode']:.0f} ms, infer {ms['infer']:.0f} ms"
             + (f", second look at {result.looked_again} {ms.get('second_look', 0):.0f} ms" if result.looked_again else "")
             + f", post {ms['post']:.0f} ms]"]
    confirm = {c.card for c in result.cards if c.confirm}
    for group in result.groups:
        cards = " ".join(c + ("?" if c in confirm else "") for c in group.cards)
        lines.append(f"  {group.role:8s} {cards}")
    lines.extend(f"  warning: {w}" for w in result.warnings)
    return "\n".join(lines)


def run_show(args) -> int:
    from companion.photo import StarterError, count_show
    from companion.rules.rulesets import ruleset

    if args.more_images:
        images = [args.image, *args.more_images]
        raise CliError(f"crib show counts one photo at a time, got {len(images)} "
                       f"({' '.join(map(str, images))}); crib recognize reads several")
    image = _photo(args.image)
    named = _named_cards(args.card)
    _possible_claims(args.claim, "crib" if args.crib else "hand")
    rules = ruleset(args.rules)
    [target] = _annotation_targets([image], args.annotate)
    recognizer = _recognizer(args)
    try:
        shown = count_show(image, args.starter, args.claim, rules, all_crib=args.crib, recognizer=recognizer,
                           named=named, confirmed=args.confirm)
    except StarterError as exc:
        raise CliError(f"--starter: {exc.reason}") from None
    warnings = show_warnings(shown)
    if args.json:
        json.dump({**shown.as_json(), "warnings": warnings}, sys.stdout, indent=1)
        print()
    else:
        print(format_show(shown, warnings))
    if target is not None:
        from companion.drawing import draw_show

        # after the count is printed: a picture that cannot be written never loses the count
        if not _write_annotation(target, lambda: draw_show(shown, warnings), args.json, "show"):
            return 2
    return 0


def _possible_claims(claims: list[int] | None, kind: str) -> None:
    """A claim no hand could score (over 29, below 0) is a mistyped number: one line, before the photo is read."""
    from companion.claims import ImpossibleClaimError, check_claim

    for claimed in claims or ():
        try:
            check_claim(kind, claimed, "--claim")
        except ImpossibleClaimError as exc:
            raise CliError(str(exc)) from None


def _named_cards(pairs: list[list[str]]) -> dict[int, str]:
    """--card N CARD pairs -> {N: CARD}."""
    named: dict[int, str] = {}
    for number, card in pairs:
        if not number.isdigit() or int(number) < 1:
            raise CliError(f"--card {number} {card}: N is the unread card's number (1, 2, ...) in the warnings")
        if int(number) in named:
            raise CliError(f"--card {number} given twice")
        named[int(number)] = card
    return named


def show_warnings(shown) -> list[str]:
    """The show's warnings, the starter's worded with the flag that supplies it, then its
    doubts (``companion.doubt``): what to confirm before pegging, one line each, those that change a
    count the most first (a card that counts the same either way is marked under its group instead)."""
    from companion.photo import NO_STARTER

    if shown.starter_source == NO_STARTER:
        starter = [NO_STARTER_WARNING]
    elif shown.starter_warning is not None:
        starter = [f"starter {shown.starter} from --starter (the photo shows {shown.starter_in_photo} apart)"]
    else:
        starter = []
    advice = [shown.advice] if shown.advice else []  # another photo first: nothing else is sure
    return advice + starter + [d.message for d in shown.asked] + list(shown.count_warnings)


def _missing_card_hint(shown, group) -> str:
    """How to count a hand with a card missing: name an unread card, or count it by hand."""
    missing = " ".join(["CARD"] * (4 - len(group.cards)))
    by_hand = f"crib score {' '.join(group.cards)} {missing} --starter {shown.starter or 'CARD'}"
    unread = len(shown.recognition.unread_boxes)
    if unread:
        which = "1" if unread == 1 else "N"
        return (f"name the unread card: --card {which} CARD (see 'unread card {which}' below; --card {which} none "
                f"if it is no card), or count it yourself: {by_hand}")
    return f"count it yourself with the missing card: {by_hand}"


def format_show(shown, warnings: list[str]) -> str:
    from vision import Code, percent_sure

    recognition = shown.recognition
    source = {"photo": "from the photo", "flag": "given", "none": "none in the photo"}[shown.starter_source]
    lines = [f"{recognition.image}: {plural(len(recognition.cards), 'card')}; starter {shown.starter or '-'} ({source})"]
    for group in shown.groups:
        rules = "  (crib rules)" if group.crib else ""
        if group.show is None:
            lines.append(f"\n{group.label.capitalize()}: {' '.join(group.cards)}{rules}: not counted, {group.problem}")
            if len(group.cards) < 4:
                lines.append("  " + _missing_card_hint(shown, group))
            continue
        sure = f"  ({percent_sure(group.chance)} sure)" if group.chance is not None else ""
        lines.append(f"\n{group.label.capitalize()}: {' '.join(group.cards)} + {shown.starter}"
                     f"{rules}  = {group.show.total}{sure}")
        for item in group.show.items:
            lines.append(f"  {item.kind:8s} {' '.join(str(c) for c in item.cards):18s} {item.points:2d}")
        lines.append(f"  \"{group.show.spoken}\"")
        marked = [d for d in shown.marked if d.group == group.label]
        asked = {d.card for d in shown.asked if d.group == group.label}
        check = [c for c in group.confirm if c in asked or c not in {d.card for d in marked}]
        if check:
            lines.append(f"  check: {' '.join(check)} (flagged by the recogniser: confirm before pegging)")
        lines.extend(f"  marked: {d.message.split(': ', 1)[1]} (kept as read, not asked)" for d in marked)
        if group.claim is not None:
            lines.append(f"  {group.claim.describe()}")
    # a flagged card whose count is worked out above (asked, or marked) is said there, not twice
    doubted = {d.card for d in shown.doubts if d.group is not None}
    all_warnings = list(warnings) + [w for w in recognition.warnings
                                     if not (w.code == Code.DOUBTFUL and w.args and w.args[0] in doubted)]
    lines.extend(f"note: {d.message} (kept as read, not asked)" for d in shown.marked if d.group is None)
    if all_warnings:
        lines.append("")
        lines.extend(f"warning: {w}" for w in all_warnings)
    return "\n".join(lines)
