"""Reading the table: cluster card boxes into groups and give each group a role.

Conventions (documented in the README):
- Cards whose boxes come within ``LINK_GAP`` card widths of each other belong to one group
  (single linkage), so a fanned or side-by-side hand is one group and groups lie apart.
- A lone card apart from the groups is the starter (the cut card turned up on the pack).
- A group of 4 is a hand; a group of 6 is a deal (role hand, to be discarded to 4).
- With a starter and three or more groups of 4, the crib is the group of 4 NEAREST THE STARTER
  (the crib is set aside by the dealer, next to the pack and its cut card). When the two
  nearest groups are almost equally near, the result says it is unsure.
- Hands are numbered in reading order: rows top to bottom, left to right within a row.
Card boxes on which no index was read still count for the group size (a hand with one hidden
index is still a hand), except where they lie under a read card (the pack under the starter).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.postprocess import box_iou

ROLES = ("starter", "hand", "crib", "unknown")
LINK_GAP = 0.5  # in typical card short sides
CRIB_UNSURE_RATIO = 1.25  # nearest group must be this much nearer the starter than the next


@dataclass(frozen=True)
class Group:
    role: str
    members: tuple[int, ...]  # rows of the card boxes, left to right


@dataclass(frozen=True)
class Layout:
    groups: tuple[Group, ...]
    warnings: tuple[str, ...]


def box_gaps(xyxy: np.ndarray) -> np.ndarray:
    """(N, N) Euclidean gap between axis-aligned boxes (0 when they touch or overlap)."""
    a = xyxy[:, None, :]
    b = xyxy[None, :, :]
    dx = np.maximum(0.0, np.maximum(b[..., 0] - a[..., 2], a[..., 0] - b[..., 2]))
    dy = np.maximum(0.0, np.maximum(b[..., 1] - a[..., 3], a[..., 1] - b[..., 3]))
    return np.hypot(dx, dy)


def cluster(xyxy: np.ndarray, link_gap: float = LINK_GAP) -> list[list[int]]:
    """Connected components of boxes closer than ``link_gap`` typical card short sides."""
    n = len(xyxy)
    if n == 0:
        return []
    short_side = float(np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
    linked = box_gaps(xyxy) <= link_gap * max(short_side, 1.0)
    label = np.full(n, -1)
    components = []
    for start in range(n):
        if label[start] >= 0:
            continue
        label[start] = len(components)
        stack, members = [start], []
        while stack:
            i = stack.pop()
            members.append(i)
            for j in np.flatnonzero(linked[i] & (label < 0)):
                label[j] = label[start]
                stack.append(int(j))
        components.append(sorted(members, key=lambda k: (xyxy[k, 0] + xyxy[k, 2], k)))
    return components


def _reading_order(groups: list[list[int]], xyxy: np.ndarray) -> list[list[int]]:
    centers = [(xyxy[g, 0].mean() + xyxy[g, 2].mean()) / 2 for g in groups], \
              [(xyxy[g, 1].mean() + xyxy[g, 3].mean()) / 2 for g in groups]
    heights = [float(np.median(xyxy[g, 3] - xyxy[g, 1])) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: centers[1][i])
    rows: list[list[int]] = []
    for i in order:
        if rows and abs(centers[1][i] - centers[1][rows[-1][0]]) < 0.5 * max(heights[i], heights[rows[-1][0]]):
            rows[-1].append(i)
        else:
            rows.append([i])
    return [groups[i] for row in rows for i in sorted(row, key=lambda i: centers[0][i])]


def _counted(members: list[int], read: np.ndarray, xyxy: np.ndarray) -> int:
    """Cards in a group, not counting unread boxes lying under a read card (a pack)."""
    read_rows = [m for m in members if read[m]]
    count = len(read_rows)
    for m in members:
        if read[m]:
            continue
        under = read_rows and box_iou(xyxy[[m]], xyxy[read_rows]).max() > 0.5
        count += 0 if under else 1
    return count


def arrange(xyxy: np.ndarray, read: np.ndarray | None = None, link_gap: float = LINK_GAP) -> Layout:
    """Groups and roles for card boxes ``xyxy`` (N,4); ``read[i]`` says whether card i's code
    was read (default: all). Groups of unread boxes only (card backs, a pack) get no role."""
    xyxy = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    read = np.ones(len(xyxy), bool) if read is None else np.asarray(read, bool)
    warnings: list[str] = []
    components = [g for g in cluster(xyxy, link_gap) if read[g].any()]
    components = _reading_order(components, xyxy)
    sizes = [_counted(g, read, xyxy) for g in components]

    roles = ["unknown"] * len(components)
    lone = [i for i, s in enumerate(sizes) if s == 1]
    others = [i for i, s in enumerate(sizes) if s != 1]
    if len(lone) == 1 and others:
        roles[lone[0]] = "starter"
    elif len(lone) > 1:
        warnings.append(f"{len(lone)} lone cards apart from the groups: cannot tell which is the starter")
    elif len(components) == 1 and sizes[0] == 1:
        warnings.append("a single card: no hand to read")

    fours = [i for i in others if sizes[i] == 4]
    for i in others:
        if sizes[i] in (4, 6):
            roles[i] = "hand"
        else:
            warnings.append(f"a group of {sizes[i]} cards is neither a hand (4) nor a deal (6)")
    if sizes.count(6):
        warnings.append("a group of 6 cards is a deal: discard 2 to the crib before the show")

    starter = lone[0] if lone and roles[lone[0]] == "starter" else None
    if len(fours) >= 3:
        if starter is None:
            warnings.append(f"{len(fours)} groups of 4 and no starter apart: cannot tell which is the crib")
        else:
            distance = [_group_gap(components[i], components[starter], xyxy) for i in fours]
            order = np.argsort(distance, kind="stable")
            roles[fours[order[0]]] = "crib"
            nearest, runner_up = distance[order[0]], distance[order[1]]
            if runner_up < CRIB_UNSURE_RATIO * nearest:
                warnings.append("unsure which group is the crib: two groups lie almost equally near the starter")

    groups = [Group(role, tuple(g)) for role, g in zip(roles, components)]
    rank = {"hand": 0, "crib": 1, "starter": 2, "unknown": 3}
    groups.sort(key=lambda g: rank[g.role])  # stable: reading order within a role
    return Layout(tuple(groups), tuple(warnings))


def _group_gap(a: list[int], b: list[int], xyxy: np.ndarray) -> float:
    """Distance between the centres of two groups' cards."""
    centre = lambda rows: (xyxy[rows, :2] + xyxy[rows, 2:]).mean(axis=0) / 2.0  # noqa: E731
    return float(np.hypot(*(centre(a) - centre(b))))
