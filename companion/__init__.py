"""Crib Companion, the product: ``photo`` (count the show in a photo) and ``drawing`` (the
annotated picture) over the ``vision`` library, ``game`` (the game session and its storage),
``cli`` (the ``crib`` command), all on the rules core ``rules`` (standard library only)."""

__version__ = "0.1.0"
