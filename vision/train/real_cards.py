"""The real labelled photos (cardcounterml, CC BY 4.0: "Card Detection dataset by cadyzedevelopmenthub
on Roboflow Universe"), read as data: each photo's family, its labelled corner indices as card
codes, and the committed train / validation split.

No torch here: the bench and the tests read the same photos. The photos are not in the repo: they
are looked for under $CRIB_REAL_CARDS, else data/real-cards/ in the repository (git-ignored), else
../shared/data/real-cards/ beside the checkout (README "Real photos"); where they are not, a clear
error names the folder to put them in.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from vision.classes import CARD_CODES

REPO = Path(__file__).resolve().parents[2]
# Where the labelled real photos live (README "Real photos"): $CRIB_REAL_CARDS, else the git-ignored
# data/real-cards/ inside the repository, else (fallback only) the shared folder beside the checkout.
# Each holds one folder per dataset (cardcounterml/, rf100-poker/).
IN_REPO_REAL_ROOT = REPO / "data" / "real-cards"
FALLBACK_REAL_ROOT = REPO.parent / "shared" / "data" / "real-cards"
CARDCOUNTERML = "cardcounterml"
DEFAULT_REAL_DIR = FALLBACK_REAL_ROOT / CARDCOUNTERML
SPLIT_FILE = Path(__file__).resolve().parent / "real_split.txt"

# The dataset's classes in data.yaml order; BACK and the jokers are not cribbage cards.
DATASET_NAMES = (
    "10C 10D 10H 10S 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S "
    "8C 8D 8H 8S 9C 9D 9H 9S AC AD AH AS BACK BLACK_JOKER JC JD JH JS KC KD KH KS QC QD QH QS RED_JOKER"
).split()
DATASET_TO_CODE: dict[int, str | None] = {
    i: (name.replace("10", "T") if name.replace("10", "T") in CARD_CODES else None)
    for i, name in enumerate(DATASET_NAMES)
}

# File-name families (the dataset README's table) and what each shows.
FAMILIES = {
    "desk": "phone photos, 1-6 cards flat on a desk, wood or marble (IMG_2022...)",
    "black": "iPhone photos of a black-faced deck with gold pips (IMG_77xx, IMG_78xx)",
    "table": "webcam photos, several cards scattered or overlapping, fingers (WIN_2024...)",
    "held": "webcam frames of one card held up in front of a person (10c-..., Qh-...)",
    "crops": "crops of single corner indices (N_N_png, A_N_png)",
}
VALIDATION_SHARE = 0.2


class RealDataError(ValueError):
    """The real photos are missing or malformed."""


@dataclass(frozen=True)
class Corner:
    """One labelled corner index: its card code (None for a back or joker) and its box in
    normalised xyxy (0..1 of the stretched 640x640 image)."""

    code: str | None
    box: tuple[float, float, float, float]

    @property
    def trusted(self) -> bool:
        """A named corner whose box is not too large to be a corner (MAX_CORNER_AREA)."""
        x1, y1, x2, y2 = self.box
        return self.code is not None and (x2 - x1) * (y2 - y1) <= MAX_CORNER_AREA


# A card's corner box larger than this share of the photo is taken for a label error, not trusted.
# (The large boxes seen by eye are all BACK labels, drawn loosely over several backs and the desk.)
MAX_CORNER_AREA = 0.2


@dataclass(frozen=True)
class RealPhoto:
    name: str  # file stem, e.g. "IMG_20220921_200128_jpg"
    family: str
    image: Path
    corners: tuple[Corner, ...]
    # Whole-card labels (rf100-poker: code, normalised xyxy); its corners are derived from them.
    card_boxes: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()

    @property
    def cards(self) -> frozenset[str]:
        """The cribbage cards that show: the labelled whole cards where the set labels cards,
        else the labelled corners (a card's two corners name it once)."""
        if self.card_boxes:
            return frozenset(code for code, _ in self.card_boxes)
        return frozenset(c.code for c in self.corners if c.code is not None)

    @property
    def readable_corners(self) -> tuple[Corner, ...]:
        """The named corners a reader learns from: the trusted ones, and every named corner of a
        close-up (a crop fills its photo, so its corner box is larger than a corner's)."""
        return tuple(c for c in self.corners if c.code is not None and (c.trusted or self.family == "crops"))

    @property
    def label_errors(self) -> int:
        """Corner boxes too large to be a corner (see MAX_CORNER_AREA)."""
        return sum(not c.trusted for c in self.corners if c.code is not None)

    @property
    def others(self) -> int:
        """Corners of backs and jokers (not cards the app should report)."""
        return sum(c.code is None for c in self.corners)


def family_of(name: str) -> str:
    if name.startswith("IMG_2022"):
        return "desk"
    if name.startswith("IMG_") and name[4:8].isdigit() and name[8] == "_":
        return "black"  # IMG_7702 ... IMG_78xx
    if name.startswith("WIN_"):
        return "table"
    if name.endswith("_png"):
        return "crops"
    return "held"


def real_root() -> Path | None:
    """The folder holding the real datasets: $CRIB_REAL_CARDS when set (set empty: none, no
    fallback), else data/real-cards/ in the repository, else ../shared/data/real-cards/."""
    if "CRIB_REAL_CARDS" in os.environ:
        value = os.environ["CRIB_REAL_CARDS"]
        return Path(value) if value else None
    return IN_REPO_REAL_ROOT if IN_REPO_REAL_ROOT.is_dir() else FALLBACK_REAL_ROOT


def dataset_dir(dataset: str = CARDCOUNTERML, path: str | os.PathLike | None = None) -> Path:
    """One dataset's folder (with images/ and labels/): ``path``, else ``dataset`` under
    ``real_root()``. A root that is itself a dataset folder is taken for cardcounterml (as
    $CRIB_REAL_CARDS was used before there were two datasets)."""
    if path is not None:
        folder = Path(path)
    else:
        root = real_root()
        if root is None:
            raise RealDataError(f"{dataset}: $CRIB_REAL_CARDS is empty, so the real labelled photos are hidden "
                                "(see README 'Real photos')")
        legacy = dataset == CARDCOUNTERML and (root / "images").is_dir() and not (root / dataset).is_dir()
        folder = root if legacy else root / dataset
    if not (folder / "images").is_dir() or not (folder / "labels").is_dir():
        raise RealDataError(f"{folder}: no images/ and labels/ here; the real labelled photos "
                            "(CC BY 4.0, see README 'Real photos') go in this folder or $CRIB_REAL_CARDS")
    return folder


def real_dir(path: str | os.PathLike | None = None) -> Path:
    """The cardcounterml photos' folder (see ``dataset_dir``)."""
    return dataset_dir(CARDCOUNTERML, path)


def yolo_boxes(text: str, name: str, classes: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """YOLO txt (class cx cy w h, normalised) -> (class, normalised xyxy) rows; a bad line is one
    clear error naming the file and line."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError) as exc:
            raise RealDataError(f"{name}:{number}: not 'class cx cy w h': {line!r}") from exc
        if not 0 <= cls < classes:
            raise RealDataError(f"{name}:{number}: class {cls} is not one of the dataset's {classes}")
        rows.append((cls, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)))
    return rows


def parse_label(text: str, name: str = "label") -> tuple[Corner, ...]:
    """cardcounterml's YOLO txt -> corners."""
    return tuple(Corner(DATASET_TO_CODE[cls], box) for cls, box in yolo_boxes(text, name, len(DATASET_NAMES)))


def load_photos(folder: str | os.PathLike | None = None) -> list[RealPhoto]:
    """Every labelled photo, sorted by name."""
    folder = real_dir(folder)
    photos = []
    for image in sorted((folder / "images").iterdir()):
        name = image.stem
        label = folder / "labels" / f"{name}.txt"
        if not label.is_file():
            continue
        photos.append(RealPhoto(name, family_of(name), image, parse_label(label.read_text(), label.name)))
    if not photos:
        raise RealDataError(f"{folder}: no labelled photos")
    return photos


def scene_groups(photos: list[RealPhoto]) -> dict[str, str]:
    """Photo name -> group: a run of consecutive photos (by name) of one family showing the same
    cards is one scene shot several times (bursts 2-3 s apart), so it goes to one side whole."""
    groups, previous, current = {}, None, None
    for photo in sorted(photos, key=lambda p: (p.family, p.name)):
        key = (photo.family, photo.cards if photo.family != "held" else _held_card(photo.name))
        if key != previous:
            current, previous = photo.name, key
        groups[photo.name] = current
    return groups


def _held_card(name: str) -> str:
    # "10c-fd3b..." frames of one card held up: the card (prefix) is the scene.
    return name.split("-")[0].lower()


def make_split(photos: list[RealPhoto], share: float = VALIDATION_SHARE) -> dict[str, str]:
    """Photo name -> "train" | "val": per family, whole groups in the order of a hash of their
    first photo's name go to validation until it holds ``share`` of the family's photos."""
    groups = scene_groups(photos)
    split = {}
    for family in FAMILIES:
        members: dict[str, list[str]] = {}
        for photo in photos:
            if photo.family == family:
                members.setdefault(groups[photo.name], []).append(photo.name)
        total = sum(len(v) for v in members.values())
        order = sorted(members, key=lambda g: hashlib.sha256(g.encode()).hexdigest())
        in_val = 0
        for group in order:
            side = "val" if in_val < share * total else "train"
            in_val += len(members[group]) if side == "val" else 0
            for name in members[group]:
                split[name] = side
    return split


def write_split(split: dict[str, str], path: Path = SPLIT_FILE) -> Path:
    lines = [f"{side} {name}" for name, side in sorted(split.items())]
    header = ("# Real photos split by scene (vision/train/real_cards.py: make_split); fixed once, never "
              "regenerated.\n# val photos are never trained or tuned on.\n")
    path.write_text(header + "\n".join(lines) + "\n")
    return path


def read_split(path: Path = SPLIT_FILE) -> dict[str, str]:
    split = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            side, name = line.split()
            split[name] = side
    return split


def photos_of(side: str, folder: str | os.PathLike | None = None) -> list[RealPhoto]:
    """The photos of one side of the committed split ("train" or "val")."""
    if side not in ("train", "val"):
        raise RealDataError(f"unknown split side {side!r}; choose train or val")
    split = read_split()
    return [p for p in load_photos(folder) if split.get(p.name) == side]


# A desk photo whose labelled corners' median long side is this share of the photo or more is a
# close-up (the desk validation photos: 0.05-0.27, median 0.17; 22 of 89 at 0.2 or more).
CLOSEUP_INDEX = 0.2


def is_closeup_photo(photo: RealPhoto) -> bool:
    """A desk photo taken with the phone held close (the bench's ``closeup`` line, the halves' strata)."""
    sides = sorted(max(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in photo.corners if c.code)
    if photo.family != "desk" or not sides:
        return False
    n = len(sides)
    median = sides[n // 2] if n % 2 else (sides[n // 2 - 1] + sides[n // 2]) / 2
    return median >= CLOSEUP_INDEX

