"""Step 1, decode. Loading a photo: bytes -> upright BGR pixels (EXIF orientation applied), or one precise error."""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

# A photo Pillow cannot decode at a reduced scale (PNG, TIFF, WebP, BMP, GIF) is read whole:
# above this many pixels it is refused with one line, not read (a 12000x8000 PNG read whole took
# 1.2 GB). 50 MP holds a 48 MP phone photo (8000x6000); a JPEG of any size is read reduced (draft).
MAX_WHOLE_PIXELS = 50_000_000
# Phone photos are decoded at a reduced JPEG scale (exact DCT downscaling, much faster) as long
# as the long side stays at least this big: card indices stay far above the classifier's 64 px.
MIN_DECODED_LONG_SIDE = 1600
# Photo formats we accept, by their leading bytes (JPEG includes the multi-picture MPO some
# phones write). Recognising them ourselves keeps openers other packages patch into Pillow
# (ultralytics adds HEIF through a lazy import) out of the decode path.
EXIF_ORIENTATION = 0x0112
PHOTO_SIGNATURES = {
    "JPEG": (b"\xff\xd8\xff",), "PNG": (b"\x89PNG\r\n\x1a\n",), "GIF": (b"GIF87a", b"GIF89a"),
    "BMP": (b"BM",), "TIFF": (b"II*\x00", b"MM\x00*"), "WEBP": (b"RIFF",),
}


def sniff_format(data: bytes) -> str | None:
    for name, signatures in PHOTO_SIGNATURES.items():
        if data.startswith(signatures) and (name != "WEBP" or data[8:12] == b"WEBP"):
            return name
    return None


class ImageInputError(ValueError):
    """The input is not a usable photo."""


class ImageNotFoundError(ImageInputError):
    pass


class NotAFileError(ImageInputError):
    pass


class EmptyImageError(ImageInputError):
    pass


class NotAnImageError(ImageInputError):
    pass


class TruncatedImageError(ImageInputError):
    pass


class UnreadableImageError(ImageInputError):
    pass


class TooBigImageError(ImageInputError):
    """A photo with more pixels than can be read within memory (said with its size)."""


@dataclass(frozen=True, eq=False)
class Photo:
    """Upright pixels of a photo. ``scale`` = photo pixels per decoded pixel (1.0 unless a large
    JPEG was decoded at a reduced scale); ``width``/``height`` are the upright photo's size."""

    pixels: np.ndarray  # BGR uint8, H x W x 3
    width: int
    height: int
    scale: float = 1.0

    def decoded_xyxy(self, photo_xyxy) -> np.ndarray:
        """Boxes given in photo pixels (a result's, ``Evidence.index_box``), in the decoded pixels
        that are read: the one conversion that way, as ``Detections.photo_xyxy`` is the other. A
        float array keeps its precision; anything else is read as float64."""
        boxes = np.asarray(photo_xyxy)
        return (boxes if boxes.dtype.kind == "f" else boxes.astype(np.float64)) / self.scale


def read_photo(path: str | os.PathLike) -> Photo:
    """Read and decode the photo at ``path``."""
    path = Path(path)
    if not path.exists():
        raise ImageNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise NotAFileError(f"{path}: is a directory, not an image file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableImageError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    return decode_photo(data, name=str(path))


def decode_photo(data: bytes, name: str = "image") -> Photo:
    """Decode encoded image bytes (JPEG, PNG, WebP, ... anything Pillow reads)."""
    if not data:
        raise EmptyImageError(f"{name}: empty file (0 bytes)")
    kind = sniff_format(data)
    if kind is None:
        raise NotAnImageError(f"{name}: not an image (not JPEG, PNG, WebP, GIF, BMP or TIFF data)")
    with warnings.catch_warnings():  # the size is checked below, said in our words: no warning on screen
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=(kind,))
        except Image.DecompressionBombError:
            raise TooBigImageError(f"{name}: too big a photo to read (over {2 * Image.MAX_IMAGE_PIXELS / 1e6:.0f} "
                                   f"million pixels): save it smaller, e.g. 4000 pixels on its long side") from None
        except Exception as exc:
            raise UnreadableImageError(f"{name}: cannot read image header ({_first_line(exc)})") from exc
    if image.width <= 0 or image.height <= 0:
        raise EmptyImageError(f"{name}: empty image ({image.width}x{image.height} pixels)")
    full_w, full_h = image.width, image.height
    if image.format not in ("JPEG", "MPO") and full_w * full_h > MAX_WHOLE_PIXELS:
        raise TooBigImageError(f"{name}: {full_w}x{full_h} pixels ({full_w * full_h / 1e6:.0f} million) is too big "
                               f"to read: a {image.format} is read whole, at most {MAX_WHOLE_PIXELS / 1e6:.0f} million "
                               f"pixels (a JPEG of any size is read reduced); save it smaller, e.g. 4000 pixels "
                               f"on its long side")
    if image.format in ("JPEG", "MPO") and max(full_w, full_h) >= 2 * MIN_DECODED_LONG_SIDE:
        ratio = MIN_DECODED_LONG_SIDE / max(full_w, full_h)
        image.draft("RGB", (int(full_w * ratio), int(full_h * ratio)))
    try:
        image.load()
    except Exception as exc:
        message = _first_line(exc)
        if "truncated" in message.lower() or "broken data stream" in message.lower():
            raise TruncatedImageError(f"{name}: truncated image data ({message})") from exc
        raise UnreadableImageError(f"{name}: cannot decode image ({message})") from exc
    scale = full_w / image.width
    try:
        if image.getexif().get(EXIF_ORIENTATION, 1) != 1:
            image = ImageOps.exif_transpose(image)
    except Exception:  # a malformed EXIF block must not lose a readable photo
        pass
    if image.mode == "P":  # palette transparency must go through RGBA (Pillow warns otherwise)
        image = image.convert("RGBA")
    if image.mode != "RGB":
        image = image.convert("RGB")
    pixels = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    height, width = pixels.shape[:2]
    return Photo(pixels, int(round(width * scale)), int(round(height * scale)), scale)


def photo_from_array(pixels_bgr: np.ndarray) -> Photo:
    """Wrap already-decoded BGR pixels (tests, bench, a camera frame)."""
    pixels = np.asarray(pixels_bgr)
    if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8 or 0 in pixels.shape:
        raise EmptyImageError(f"expected a non-empty HxWx3 uint8 BGR array, got {pixels.dtype} {pixels.shape}")
    return Photo(pixels, pixels.shape[1], pixels.shape[0], 1.0)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
