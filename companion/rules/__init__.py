"""The cribbage rules core (standard library only)."""
