"""``crib samples``: recognise photos that come with the truth (JSON sidecars) and say how many
cards and photos came out right; ``make demo`` ends with its summary line.

Thin over ``companion.demo``: parse, call, format.
"""

from __future__ import annotations

from pathlib import Path

from companion.cli.common import CliError

from companion.paths import sample_images
from companion.words import plural


def register(subparsers) -> None:
    samples = subparsers.add_parser(
        "samples", help="judge recognition on photos with JSON sidecars (the sample photos)",
        description="Recognise every photo in FOLDER that has a JSON sidecar (the scene's truth) and print one "
                    "summary line: photos, cards found / expected, photos exactly right. Without FOLDER it "
                    "judges the sample photos that come with crib and first says where they are; "
                    "crib show NAME and crib recognize NAME read a sample by its name from any folder.")
    samples.add_argument("folder", nargs="?", default=None, metavar="FOLDER",
                         help="folder of photos with sidecars (default: the sample photos that come with crib)")
    samples.add_argument("--each", action="store_true", help="also one line per photo")
    samples.add_argument("--list", action="store_true",
                         help="only say where the photos are and name each one (nothing is recognised)")
    samples.add_argument("--models", metavar="DIR", default=None, help="folder holding models.json (default: the models installed with crib)")
    samples.add_argument("--backend", choices=("onnxruntime", "opencv"), default=None,
                         help="model runtime (default: onnxruntime when installed)")
    samples.set_defaults(handler=run_samples)


def run_samples(args) -> int:
    from companion.demo import judge_photos, photos_in
    from vision import Recognizer

    folder = Path(args.folder) if args.folder else sample_images()
    if not folder.is_dir():
        raise CliError(f"{folder}: not a folder")
    photos = photos_in(folder)
    if not photos:
        raise CliError(f"{folder}: no photo with a JSON sidecar")
    if args.list:
        print(f"{plural(len(photos), 'photo')} in {folder}")
        for photo in photos:
            print(f"  {photo.name}")
        return 0
    if not args.folder:  # the samples live inside the package: say where, and how to read one
        print(f"sample photos: {folder} (crib show NAME reads one by its name from any folder, "
              f"e.g. crib show {photos[0].stem})")
    recognizer = Recognizer(args.models, backend=args.backend)
    summary = judge_photos(photos, recognizer.recognize)
    if args.each:
        for photo in summary.photos:
            print(photo.line())
    print(summary.line())
    return 0
