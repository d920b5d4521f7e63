"""``crib recognize`` and ``crib show``: card recognition and the show counted from photos.

Thin over ``vision.Recognizer`` and ``companion.photo.count_show``: parse, call, format. Heavy
imports (numpy, OpenCV, onnxruntime) happen inside the handlers so ``crib --help`` is fast.
"""

from __future__ import annotations

import json
import sys

from companion.cli.common import CliError

NO_STARTER_WARNING = "no starter in the photo (no lone card apart from the hands): give --starter CARD to count"


def register(subparsers) -> None:
    recognize = subparsers.add_parser(
        "recognize", help="recognise the cards, hands and starter in photos",
        description="Recognise the cards in each photo and group them into hands, crib and starter.")
    recognize.add_argument("images", nargs="+", metavar="IMG", help="photo files (JPEG, PNG, ...)")
    _common_options(recognize)
    recognize.set_defaults(handler=run_recognize)

    show = subparsers.add_parser(
        "show", help="count every hand in a photo of the show",
        description="Recognise the photo, take the starter from it (a lone card apart) or --starter, "
                    "and count every hand and the crib with the full breakdown.")
    show.add_argument("image", metavar="IMG", help="photo file")
    show.add_argument("--starter", metavar="CARD", help="the starter (cut card), e.g. 5D, if not in the photo")
    show.add_argument("--crib", action="store_true", help="count every group as a crib")
    show.add_argument("--claim", type=int, nargs="+", metavar="N", default=None,
                      help="the counts the players announced, one per hand in order (then the crib): muggins check")
    show.add_argument("--rules", default="acc", help="rule set for --claim: acc (default), home, pub")
    show.add_argument("--annotate", metavar="OUT.png", help="write the photo with the cards and every scoring combination drawn")
    _common_options(show)
    show.set_defaults(handler=run_show)


def _common_options(parser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--conf", type=float, default=None, metavar="X",
                        help="cards read with less confidence than X are flagged for you to confirm (default 0.5)")
    parser.add_argument("--models", metavar="DIR", default=None, help="folder holding models.json (default: models/)")
    parser.add_argument("--backend", choices=("onnxruntime", "opencv"), default=None,
                        help="model runtime (default: onnxruntime when installed)")
    parser.add_argument("--no-zoom", action="store_true",
                        help="skip the closer second detector pass for small corner indices (faster, fewer cards found)")


def _recognizer(args):
    from vision import CONFIRM_BELOW, Recognizer, ThresholdError

    try:
        return Recognizer(args.models, backend=args.backend,
                          confirm_below=CONFIRM_BELOW if args.conf is None else args.conf,
                          zoom=False if args.no_zoom else None)
    except ThresholdError as exc:
        raise CliError(f"--conf must be between 0 and 1, got {exc.value}") from None


def run_recognize(args) -> int:
    from vision import ImageInputError

    recognizer = _recognizer(args)
    results, failed = [], False
    for path in args.images:
        try:
            result = recognizer.recognize(path)
        except ImageInputError as exc:
            print(f"crib recognize: error: {exc}", file=sys.stderr)
            failed = True
            continue
        results.append(result)
        if not args.json:
            print(format_recognition(result))
    if args.json:
        json.dump([r.as_json() for r in results], sys.stdout, indent=1)
        print()
    return 2 if failed else 0


def format_recognition(result) -> str:
    ms = result.ms
    lines = [f"{result.image} ({result.width}x{result.height}): {len(result.cards)} cards in {len(result.groups)} groups"
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

    rules = ruleset(args.rules)
    recognizer = _recognizer(args)
    try:
        shown = count_show(args.image, args.starter, args.claim, rules, all_crib=args.crib, recognizer=recognizer)
    except StarterError as exc:
        raise CliError(f"--starter: {exc.reason}") from None
    from companion.doubt import doubts

    found = doubts(shown)
    warnings = show_warnings(shown, found)
    if args.annotate:
        from companion.drawing import draw_show, write_png

        write_png(args.annotate, draw_show(shown, warnings))
    if args.json:
        json.dump({**shown.as_json(), "warnings": warnings, "doubts": [d.as_json() for d in found]},
                  sys.stdout, indent=1)
        print()
    else:
        print(format_show(shown, warnings))
        if args.annotate:
            print(f"annotated picture: {args.annotate}")
    return 0


def show_warnings(shown, found=()) -> list[str]:
    """The show's warnings, the starter's worded with the flag that supplies it, then the
    doubts ``found`` (``companion.doubt``): what to confirm before pegging, one line each."""
    from companion.photo import NO_STARTER

    if shown.starter_source == NO_STARTER:
        starter = [NO_STARTER_WARNING]
    elif shown.starter_warning is not None:
        starter = [f"starter {shown.starter} from --starter (the photo shows {shown.starter_in_photo} apart)"]
    else:
        starter = []
    return starter + [d.message for d in found] + list(shown.count_warnings)


def format_show(shown, warnings: list[str]) -> str:
    recognition = shown.recognition
    source = {"photo": "from the photo", "flag": "given", "none": "none in the photo"}[shown.starter_source]
    lines = [f"{recognition.image}: {len(recognition.cards)} cards; starter {shown.starter or '-'} ({source})"]
    for group in shown.groups:
        rules = "  (crib rules)" if group.crib else ""
        if group.show is None:
            lines.append(f"\n{group.label.capitalize()}: {' '.join(group.cards)}{rules}: not counted, {group.problem}")
            continue
        lines.append(f"\n{group.label.capitalize()}: {' '.join(group.cards)} + {shown.starter}"
                     f"{rules}  = {group.show.total}")
        for item in group.show.items:
            lines.append(f"  {item.kind:8s} {' '.join(str(c) for c in item.cards):18s} {item.points:2d}")
        lines.append(f"  \"{group.show.spoken}\"")
        if group.confirm:
            lines.append(f"  check: {' '.join(group.confirm)} (flagged by the recogniser: confirm before pegging)")
        if group.claim is not None:
            lines.append(f"  {group.claim.describe()}")
    all_warnings = list(warnings) + list(recognition.warnings)
    if all_warnings:
        lines.append("")
        lines.extend(f"warning: {w}" for w in all_warnings)
    return "\n".join(lines)
