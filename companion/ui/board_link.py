"""The app's LED board: which board a choice means (auto-detect, simulated, none, a port) and
the game's BoardSync to it, at the player's brightness. A board that is missing or fails never
stops the game: the driver keeps trying in the background and the status line says so."""

from __future__ import annotations

import dataclasses


class BrightnessDriver:
    """Adapter: a BoardDriver whose states go out at the player's brightness (BoardSync builds
    states without one)."""

    def __init__(self, driver, brightness: int) -> None:
        self.driver, self.brightness = driver, brightness

    def show(self, state) -> None:
        self.driver.show(dataclasses.replace(state, brightness=self.brightness))

    def __getattr__(self, name: str):
        return getattr(self.driver, name)


def board_url(choice: str, sides: int) -> str | None:
    """The board to open for a choice of the New game screen or Settings (None: no board)."""
    choice = (choice or "none").strip()
    if choice == "none":
        return None
    if choice == "sim":
        return "sim://2-track" if sides <= 2 else "sim://3-track"
    if choice == "auto":
        from hardware import find_ports

        likely = [p for p in find_ports() if p.likely]
        return likely[0].device if likely else None
    return choice


def waiting_line(choice: str) -> str:
    """The status line before a game opens the board ``choice`` names (a board follows a game).
    A board is only spoken of where the player asked for one (sim, a port) or one is found:
    "auto" (the default) and "none" say nothing, so a player without a board never reads of one."""
    choice = (choice or "none").strip()
    if choice in ("none", "auto"):
        return ""
    if choice == "sim":
        return "simulated board: starts with a game"
    return f"board {choice}: opens when a game starts"


def open_sync(session, choice: str, brightness: int):
    """(BoardSync or None, a status line) for ``session``'s game on the board ``choice`` names."""
    from companion.game.board import BoardSync
    from hardware import BoardDriver

    sides = len(session.view().sides)
    try:
        url = board_url(choice, sides)
    except Exception as exc:  # listing ports can fail on odd systems: play on without a board
        return None, f"no board: the ports could not be listed ({exc})"
    if url is None:  # auto found none, or none chosen: nothing to say (Settings lists the ports)
        return None, ""
    driver = BrightnessDriver(BoardDriver(url).start(), brightness)
    return BoardSync(session, driver), f"board {url}"
