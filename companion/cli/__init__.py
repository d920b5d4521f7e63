"""The one console command, ``crib``, with subcommands.

Each subcommand module (listed in ``commands``) registers its subcommands with
``register(subparsers)`` and is thin over a library call: parse, call, format. Heavy imports
(numpy, OpenCV, a model runtime) happen inside handlers so ``crib --help`` stays fast. Handlers
return an exit status. Bad input anywhere becomes one line on stderr and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from companion.cli import commands
from companion.cli.common import CliError

COMMAND_MODULES: tuple[ModuleType, ...] = tuple(
    module for module in vars(commands).values() if isinstance(module, ModuleType) and hasattr(module, "register"))

__all__ = ["CliError", "COMMAND_MODULES", "build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), not usage + error."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="crib", description="Cribbage companion: score, peg, recognise, board.",
                     epilog="crib COMMAND --help says more about each command; crib --version prints the version.")
    parser.add_argument("--version", action="store_true", help="print the package's and the models' versions")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("crib-companion")
    except PackageNotFoundError:  # run from a source tree that was never installed
        from companion import __version__

        return __version__


def version_line() -> str:
    """``crib --version``: one line, the package's version and the version of the models it reads."""
    from vision import models_dir, models_version

    try:
        models = f"models v{models_version()} ({models_dir()})"
    except ValueError as exc:  # ModelConfigError, CalibrationError, DoubtModelError: one line each
        models = f"models not found ({exc})"
    return f"crib (Crib Companion) {version()}, {models}"


def overview(parser: argparse.ArgumentParser) -> str:
    """What ``crib`` alone prints: the version and every command."""
    return f"crib (Crib Companion) {version()}\n\n{parser.format_help()}"


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    except BrokenPipeError:  # the reader went away (``crib ... --help | head``): stop quietly
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's flush at exit does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        print(overview(parser), end="")
        return 0
    if argv == ["--version"]:
        print(version_line())
        return 0
    args = parser.parse_args(argv)
    try:
        status = args.handler(args)
    except KeyboardInterrupt:
        print("crib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # an OSError, but no error of the input: main stops quietly
        raise
    except (ValueError, OSError) as exc:
        # ValueError covers CliError and every precise parse/rule error; OSError unreadable files.
        message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        print(f"crib {args.command}: error: {message}", file=sys.stderr)
        return 2
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
