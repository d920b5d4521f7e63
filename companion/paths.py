"""Where the product reads and writes, the same from a checkout and from an installed package.

data_dir()        games, settings, photos kept for a dispute, exports: the user's data folder
                  (``platformdirs``; ``$CRIB_DATA_DIR`` overrides it), never inside the package
writable_folder() a folder made (with its parents) and writable, or a DataFolderError saying why
checkout()        the repository folder when running from a source tree (a clone, an editable
                  install), else None: advice naming ``make`` or ``pip install -e`` is only for it
sample_images()   the sample photos: the checkout's sample_images/, else the copy in the package
sample_photo()    a sample photo by its file name (``hand_starter_spread``), from any folder
install_advice()  how to add an extra (``app``) in words for this kind of install
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

DATA_ENV = "CRIB_DATA_DIR"
APP_NAME = "crib-companion"
_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """Where everything the product writes lives: ``$CRIB_DATA_DIR`` or the platform's user data
    folder (``~/.local/share/crib-companion`` on Linux)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class DataFolderError(ValueError):
    """A folder the product writes to cannot be made or written: names the folder and why."""


def writable_folder(folder: Path | str, what: str = "the data folder") -> Path:
    """``folder``, made with its parents when missing, once it can be written to; else a
    DataFolderError in one line naming ``what``, the folder and the reason (a file where a folder
    should be, no permission, a read-only disk)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise DataFolderError(f"{what} {folder} is a file, not a folder")
    blocker = next((p for p in folder.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise DataFolderError(f"{what} {folder} cannot be made: {blocker} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataFolderError(f"{what} {folder} cannot be made: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DataFolderError(f"{what} {folder} cannot be written to (no permission)")
    return folder


def checkout() -> Path | None:
    """The repository root when companion/ is imported from a source tree (pyproject.toml and the
    Makefile beside it), else None (an installed wheel: site-packages has neither)."""
    if (_SOURCE_ROOT / "pyproject.toml").is_file() and (_SOURCE_ROOT / "Makefile").is_file():
        return _SOURCE_ROOT
    return None


def sample_images() -> Path:
    """The sample photos: a source tree's sample_images/ beside companion/, else the copy the wheel
    carries inside the package (companion/sample_images/)."""
    if (_SOURCE_ROOT / "sample_images").is_dir():
        return _SOURCE_ROOT / "sample_images"
    return Path(str(resources.files("companion") / "sample_images"))


SAMPLE_SUFFIXES = (".jpg", ".jpeg", ".png")


def sample_photo(name: str) -> Path | None:
    """The sample photo named ``name`` (its file name, with or without ``.jpg``), or None when no
    sample has that name; a name with a folder in it is a path, never a sample's name."""
    if not name or Path(name).name != name or name in (".", ".."):
        return None
    folder = sample_images()
    for candidate in (folder / name, *(folder / f"{name}{suffix}" for suffix in SAMPLE_SUFFIXES)):
        if candidate.suffix.lower() in SAMPLE_SUFFIXES and candidate.is_file():
            return candidate
    return None


def install_advice(extra: str) -> str:
    """How to install the optional ``extra`` (e.g. ``app``), in the words of this install: ``make``
    in a checkout; elsewhere the extra's own requirements added to the environment crib runs from
    (the package is not on an index, so ``pip install 'crib-companion[app]'`` would fail)."""
    if checkout() is not None:
        make_target = {"app": "make app"}.get(extra)
        pip = f"pip install -e '.[{extra}]'"
        return f"`{make_target}` installs it ({pip})" if make_target else pip
    wanted = " ".join(f"'{r}'" for r in _extra_requirements(extra))
    if not wanted:  # no package metadata to read them from
        return f"reinstall crib-companion with its [{extra}] extra"
    return f"pip install {wanted} in the environment crib runs from (with pipx: pipx inject {APP_NAME} {wanted})"


def _extra_requirements(extra: str) -> list[str]:
    """The requirements the installed package's metadata lists for ``extra``, e.g. ['kivy>=2.3']."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        listed = requires(APP_NAME) or []
    except PackageNotFoundError:
        return []
    marker = re.compile(rf"""\bextra\s*==\s*["']{re.escape(extra)}["']""")
    return [r.split(";", 1)[0].strip() for r in listed if ";" in r and marker.search(r.split(";", 1)[1])]
