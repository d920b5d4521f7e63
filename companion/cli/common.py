"""What every subcommand module shares: the one error for bad command input."""

from __future__ import annotations


class CliError(ValueError):
    """Bad command input found by a handler: reported as one line, exit status 2. Handlers also
    let the libraries' own precise errors (ValueError, OSError) through: they are reported the
    same way."""
