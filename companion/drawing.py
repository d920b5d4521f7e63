"""Drawing what was recognised and counted on the photo: card boxes with codes, and each
scoring combination of the show as a numbered disc on every card in it (coloured by kind),
listed with its points in a side panel."""

from __future__ import annotations

import os
from typing import Sequence

import cv2
import numpy as np

from companion.counted import PhotoShow
from companion.rules.show import FIFTEEN, FLUSH, HEELS, NOBS, PAIR, RUN
from vision import Photo, Recognition, Role, percent_sure

ROLE_COLOURS = {Role.HAND: (80, 200, 60), Role.CRIB: (0, 160, 255), Role.STARTER: (255, 200, 0),
                Role.UNKNOWN: (170, 170, 170)}
CONFIRM_COLOUR = (40, 40, 230)
KIND_COLOURS = {FIFTEEN: (230, 80, 200), PAIR: (60, 220, 250), RUN: (250, 150, 40), FLUSH: (120, 90, 240),
                NOBS: (80, 240, 120), HEELS: (80, 240, 120)}
PANEL_WIDTH = 520
FONT = cv2.FONT_HERSHEY_SIMPLEX


def label_plates(labels: Sequence[tuple[str, tuple[int, int]]], scale: float, height: int) -> list[tuple[int, int, int, int]]:
    """Where each label's dark plate goes: at its origin (the baseline's left end, above its
    card), moved down in steps while it would cover an earlier plate, so the labels of cards lying
    on each other stay readable. Returns one (x1, y1, x2, y2) per label."""
    thickness = max(1, int(round(scale * 2)))
    plates: list[tuple[int, int, int, int]] = []
    for text, (x, y) in labels:
        (w, h), base = cv2.getTextSize(text, FONT, scale, thickness)
        y = max(y, h + base + 2)
        plate = (x, y - h - base - 2, x + w + 4, y + 2)
        step = plate[3] - plate[1] + 1
        while any(_overlap(plate, other) for other in plates) and plate[3] + step < height:
            plate = (plate[0], plate[1] + step, plate[2], plate[3] + step)
        plates.append(plate)
    return plates


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _label(image: np.ndarray, text: str, plate: tuple[int, int, int, int], colour, scale: float) -> None:
    thickness = max(1, int(round(scale * 2)))
    _, base = cv2.getTextSize(text, FONT, scale, thickness)
    cv2.rectangle(image, plate[:2], plate[2:], (0, 0, 0), -1)
    cv2.putText(image, text, (plate[0] + 2, plate[3] - 2 - base), FONT, scale, colour, thickness, cv2.LINE_AA)


def draw_show(photo_show: PhotoShow, warnings: Sequence[str] | None = None) -> np.ndarray:
    """The annotated picture of a show counted by ``count_show`` from a photo it decoded."""
    if photo_show.photo is None:
        raise ValueError("no photo to draw on: the show was counted from a recognition")
    return draw(photo_show.photo, photo_show.recognition, photo_show, warnings)


def draw(photo: Photo, recognition: Recognition, photo_show: PhotoShow | None = None,
         warnings: Sequence[str] | None = None) -> np.ndarray:
    """The annotated picture (BGR): the decoded photo (``vision.Photo``; the boxes, in photo
    pixels, go to its pixels by ``Photo.decoded_xyxy``) with boxes and combinations, plus a side
    panel. ``warnings``: the show's warnings as the caller words them (default ``photo_show.warnings``)."""
    image = photo.pixels.copy()
    text_scale = max(0.5, image.shape[1] / 1600)
    role_of = {code: g.role for g in recognition.groups for code in g.cards}
    boxes: dict[str, tuple[int, int, int, int]] = {}
    badges: dict[str, int] = {}  # how many badges each card carries so far
    labels = []  # (text, origin, colour): drawn after every box, on plates that do not cover each other
    for card in recognition.cards:
        x1, y1, x2, y2 = (int(round(v)) for v in photo.decoded_xyxy(card.box))
        colour = CONFIRM_COLOUR if card.confirm else ROLE_COLOURS.get(role_of.get(card.card, Role.UNKNOWN))
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, max(2, int(text_scale * 3)))
        labels.append((f"{card.card} {percent_sure(card.confidence)}" + (" ?" if card.confirm else ""), (x1, y1 - 4),
                       colour))
        boxes[card.card] = (x1, y1, x2, y2)
    for number, box in enumerate(recognition.unread_boxes, 1):
        x1, y1, x2, y2 = (int(round(v)) for v in photo.decoded_xyxy(box))
        cv2.rectangle(image, (x1, y1), (x2, y2), CONFIRM_COLOUR, 2)
        labels.append((f"unread {number}", (x1, y1 - 4), CONFIRM_COLOUR))
    plates = label_plates([(text, origin) for text, origin, _ in labels], text_scale, image.shape[0])
    for (text, _, colour), plate in zip(labels, plates):
        _label(image, text, plate, colour, text_scale)

    lines = [(f"{recognition.image}", (255, 255, 255))]
    if photo_show is not None:
        lines.append((f"starter {photo_show.starter or '-'} ({photo_show.starter_source})", ROLE_COLOURS[Role.STARTER]))
        number = 0
        for group in photo_show.groups:
            colour = ROLE_COLOURS.get(group.role, ROLE_COLOURS[Role.UNKNOWN])
            if group.show is None:
                lines.append((f"{group.label}: {' '.join(group.cards)}  ({group.problem})", colour))
                continue
            lines.append((f"{group.label}: {' '.join(group.cards)} = {group.show.total}", colour))
            for item in group.show.items:
                number += 1
                kind_colour = KIND_COLOURS.get(item.kind, (255, 255, 255))
                for card in item.cards:
                    if str(card) in boxes:
                        _badge(image, boxes[str(card)], badges, str(card), number, kind_colour, text_scale)
                lines.append((f"  {number:2d} {item.kind:8s} {' '.join(str(c) for c in item.cards)}  {item.points}",
                              kind_colour))
            if group.claim is not None:
                lines.append((f"  {group.claim.describe()}", (255, 255, 255)))
        for warning in photo_show.warnings if warnings is None else warnings:
            lines.append((f"! {warning}", CONFIRM_COLOUR))
    for warning in recognition.warnings:
        lines.append((f"! {warning}", CONFIRM_COLOUR))
    return np.hstack([image, _panel(lines, image.shape[0])])


def _badge(image, box, badges, code, number, colour, text_scale) -> None:
    """A numbered disc on a card for each combination it takes part in, in rows inside the box."""
    x1, y1, x2, y2 = box
    radius = max(9, int(11 * text_scale))
    per_row = max(1, (x2 - x1 - 4) // (2 * radius + 2))
    slot = badges.get(code, 0)
    badges[code] = slot + 1
    cx = x1 + 2 + radius + (slot % per_row) * (2 * radius + 2)
    cy = y1 + 2 + radius + (slot // per_row) * (2 * radius + 2)
    cv2.circle(image, (cx, cy), radius, colour, -1, cv2.LINE_AA)
    cv2.circle(image, (cx, cy), radius, (0, 0, 0), 1, cv2.LINE_AA)
    scale = 0.42 * radius / 9
    (w, h), _ = cv2.getTextSize(str(number), FONT, scale, 1)
    cv2.putText(image, str(number), (cx - w // 2, cy + h // 2), FONT, scale, (0, 0, 0), 1, cv2.LINE_AA)


PANEL_TEXT_SCALE = 0.5


def panel_lines(text: str, scale: float = PANEL_TEXT_SCALE) -> list[str]:
    """``text`` wrapped to the side panel's width between words (a word too long for a line alone
    is cut); the lines after the first are indented."""
    def fits(part: str) -> bool:
        return cv2.getTextSize(part, FONT, scale, 1)[0][0] <= PANEL_WIDTH - 16

    lines = []
    while text:
        indent = len(text) - len(text.lstrip(" "))
        cut = len(text)
        while cut > indent + 1 and not fits(text[:cut]):
            cut -= 1
        if cut < len(text):
            space = text.rfind(" ", indent, cut + 1)
            if space > indent:  # between words, never inside one ("--sta rter")
                cut = space
        lines.append(text[:cut].rstrip(" "))
        rest = text[cut:].lstrip(" ")
        text = "    " + rest if rest else ""
    return lines


def _panel(lines: list[tuple[str, tuple[int, int, int]]], height: int) -> np.ndarray:
    panel = np.full((height, PANEL_WIDTH, 3), 30, np.uint8)
    step = 20
    y = step
    for text, colour in lines:
        for line in panel_lines(text):
            if y > height - 4:
                return panel
            cv2.putText(panel, line, (8, y), FONT, PANEL_TEXT_SCALE, colour, 1, cv2.LINE_AA)
            y += step
    return panel


# The picture is written in the format its file name says (a .jpg holds JPEG data, not PNG).
PICTURE_FORMATS = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".webp": ".webp"}


class PictureFileError(ValueError):
    """An annotated picture's file name this module cannot write: no such folder, unknown format."""


def picture_format(path: str) -> str:
    """The encoder extension for ``path`` (PictureFileError for a suffix with no format here)."""
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix not in PICTURE_FORMATS:
        raise PictureFileError(f"{path}: name the picture .png, .jpg or .webp")
    return PICTURE_FORMATS[suffix]


def check_picture_target(path: str) -> None:
    """PictureFileError unless a picture can be written at ``path``: a name with a picture format,
    in a folder that is there and writable. Checked before the photo is read, so a mistyped path
    costs no work and never follows a printed result."""
    picture_format(path)
    folder = os.path.dirname(str(path)) or "."
    if os.path.isdir(path):
        raise PictureFileError(f"{path}: is a folder, not a picture's name")
    if not os.path.isdir(folder):
        raise PictureFileError(f"{path}: no folder {folder} to write the picture in")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PictureFileError(f"{path}: cannot write in {folder} (no permission)")


def write_picture(path: str, image_bgr: np.ndarray) -> None:
    """Write the annotated picture in the format its name says; a folder that is not there is a
    PictureFileError in words, not a raw [Errno 2]."""
    ok, encoded = cv2.imencode(picture_format(path), image_bgr)
    if not ok:
        raise PictureFileError(f"{path}: cannot encode the annotated picture")
    folder = os.path.dirname(str(path)) or "."
    if not os.path.isdir(folder):
        raise PictureFileError(f"{path}: no folder {folder} to write the picture in")
    try:
        with open(path, "wb") as handle:
            handle.write(encoded.tobytes())
    except OSError as exc:
        raise PictureFileError(f"{path}: cannot write the picture ({exc.strerror or exc})") from None


def write_png(path: str, image_bgr: np.ndarray) -> None:
    """The picture as PNG data, whatever the name (``write_picture`` follows the name)."""
    ok, encoded = cv2.imencode(".png", image_bgr)
    if not ok:
        raise ValueError(f"{path}: cannot encode the annotated picture as PNG")
    with open(path, "wb") as handle:
        handle.write(encoded.tobytes())
