"""Crib Companion: the rules core, the game session, storage, the CLI and the Kivy UI."""

__version__ = "0.1.0"
