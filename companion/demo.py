"""Judging recognition on photos that come with the truth: each sample photo's JSON sidecar (the
scene annotation the renderer wrote) says which cards lie on the table, which of them show an
index, and the groups and roles; ``make demo`` ends with the summary line of every sample.

    from companion.demo import judge_folder
    summary = judge_folder("sample_images")
    print(summary.line())
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from companion.words import plural
from vision import Recognition

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


class SidecarError(ValueError):
    """A photo's sidecar is missing or is not a scene annotation; ``path`` names the sidecar."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


@dataclass(frozen=True)
class Truth:
    """What a sidecar says: every card on the table, those showing an index (a reader can name only
    these), and the groups as (role, cards showing an index), sorted; ``groups`` is None when the
    sidecar names none (loose cards, one card close up: no show to lay out, groups not judged)."""

    present: frozenset[str]
    visible: frozenset[str]
    groups: tuple[tuple[str, tuple[str, ...]], ...] | None


@dataclass(frozen=True)
class PhotoJudgement:
    """One photo against its sidecar. ``exact``: every card showing an index found, nothing else
    reported, and the groups and roles as the sidecar has them (when it has any)."""

    name: str
    expected: int  # cards showing an index
    found: int  # of those, reported
    wrong: int  # reported cards not on the table
    groups_right: bool

    @property
    def exact(self) -> bool:
        return self.found == self.expected and self.wrong == 0 and self.groups_right

    def line(self) -> str:
        verdict = "exactly right" if self.exact else "groups differ" if self.found == self.expected and not self.wrong \
            else "cards differ"
        return (f"{self.name}: {self.found} of {plural(self.expected, 'card')} found, {self.wrong} wrong; "
                f"{verdict}")


@dataclass(frozen=True)
class DemoSummary:
    photos: tuple[PhotoJudgement, ...]

    @property
    def expected(self) -> int:
        return sum(p.expected for p in self.photos)

    @property
    def found(self) -> int:
        return sum(p.found for p in self.photos)

    @property
    def wrong(self) -> int:
        return sum(p.wrong for p in self.photos)

    @property
    def exact(self) -> int:
        return sum(p.exact for p in self.photos)

    def line(self) -> str:
        """The one summary line: photos, cards found / expected, photos exactly right."""
        return (f"{plural(len(self.photos), 'photo')}: {self.found} / {plural(self.expected, 'card')} found "
                f"({self.wrong} wrong), {self.exact} / {plural(len(self.photos), 'photo')} exactly right "
                f"(every card, group and role)")


def read_truth(sidecar: str | os.PathLike) -> Truth:
    """The truth in a sidecar (``SidecarError`` when it is missing or malformed)."""
    path = Path(sidecar)
    try:
        annotation = json.loads(path.read_text())
        cards = annotation["cards"]
        present = frozenset(c["card"] for c in cards)
        visible = frozenset(c["card"] for c in cards if any(i["visible"] for i in c["indices"]))
        groups = tuple(sorted((g["role"], tuple(sorted(c for c in g["cards"] if c in visible)))
                              for g in annotation["groups"]))
    except FileNotFoundError:
        raise SidecarError(path, "no sidecar: the truth to compare with is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SidecarError(path, f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SidecarError(path, f"not JSON (line {exc.lineno}: {exc.msg})") from None
    except (KeyError, TypeError, AttributeError) as exc:
        raise SidecarError(path, f"not a scene annotation (no {exc})") from None
    return Truth(present, visible, tuple(g for g in groups if g[1]) if annotation["groups"] else None)


def judge(result: Recognition, truth: Truth, name: str | None = None) -> PhotoJudgement:
    """One recognition against the truth; groups are compared over the cards showing an index."""
    reported = {c.card for c in result.cards}
    if truth.groups is None:
        return PhotoJudgement(name or result.image, len(truth.visible), len(reported & truth.visible),
                              len(reported - truth.present), True)
    got = tuple(sorted(g for g in ((str(g.role), tuple(sorted(c for c in g.cards if c in truth.visible)))
                                   for g in result.groups) if g[1]))
    return PhotoJudgement(name or result.image, len(truth.visible), len(reported & truth.visible),
                          len(reported - truth.present), got == truth.groups)


def sidecar_of(photo: str | os.PathLike) -> Path:
    return Path(photo).with_suffix(".json")


def photos_in(folder: str | os.PathLike) -> list[Path]:
    """The photos of a folder that have a sidecar, by name."""
    return sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and sidecar_of(p).exists())


def judge_photos(photos: Iterable[str | os.PathLike], recognize: Callable[[Path], Recognition]) -> DemoSummary:
    """Recognise every photo with ``recognize`` and judge it against its sidecar."""
    judged = []
    for photo in map(Path, photos):
        truth = read_truth(sidecar_of(photo))
        judged.append(judge(recognize(photo), truth, photo.name))
    return DemoSummary(tuple(judged))


def judge_folder(folder: str | os.PathLike, recognize: Callable[[Path], Recognition] | None = None) -> DemoSummary:
    """Every photo with a sidecar in ``folder``, recognised with the shared recogniser by default."""
    if recognize is None:
        from vision import recognize as shared

        recognize = shared
    return judge_photos(photos_in(folder), recognize)
