"""Drawn widgets: the 121-hole board, the photo with boxes, the card picker, the keypad, charts."""
