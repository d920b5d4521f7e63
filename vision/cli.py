"""Registers the vision subcommands: data and training (synth, train), recognition (recognize, show)."""

from __future__ import annotations

import importlib

_MODULES = ("vision.train_commands", "vision.infer_commands")


def register(subparsers) -> None:
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(subparsers)
