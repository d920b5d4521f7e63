"""The one console command, ``crib``, with subcommands.

Each area registers its own subcommands (``register(subparsers)``) so this module stays a
dispatcher. Handlers return an exit status. Bad input anywhere becomes one line on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that provide ``register(subparsers)``; imported lazily-cheap (heavy imports live in handlers).
COMMAND_MODULES = (
    "companion.cli.rules_commands",
    "vision.cli",
    "hardware.cli",
)


class CliError(ValueError):
    """Bad input detected by a command handler: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), not usage + error."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="crib", description="Cribbage companion: score, peg, recognise, board.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # An area not installed (or not written yet) simply offers no subcommands.
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.handler(args)
    except KeyboardInterrupt:
        print("crib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        # ValueError covers every precise parse/rule error; OSError covers unreadable files.
        message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        print(f"crib {args.command}: error: {message}", file=sys.stderr)
        return 2
    return int(status or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
