"""A photo of the show against what the game already knows: the cut, the cards laid in the play,
the hands counted, the crib typed. Each disagreement is said, with the two ways to settle it:
the game's card stands (the photo is set aside or corrected), or the photo's card stands (the
game's card is corrected with ``GameSession.correct_card``). Nothing is overruled silently.
Plain data in (a ``GameView``, the photo's cards as text), plain data out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.game.phase import Phase
from companion.game.records import ShowKind


@dataclass(frozen=True)
class PhotoConflict:
    photo_card: str            # what the photo shows
    game_card: str | None      # the game's card in its place; None: the game has it elsewhere
    text: str                  # what disagrees, in words
    keep_game: str             # what choosing the game's card does
    keep_photo: str | None     # what choosing the photo's card does (None: the photo must be corrected)

    @property
    def key(self) -> tuple[str, str | None]:
        return self.photo_card, self.game_card


def photo_conflicts(view, photo_starter: str | None, cards: Sequence[str]) -> tuple[PhotoConflict, ...]:
    """Where the photo of the count that comes next disagrees with the game: its starter
    (``photo_starter``, the lone card apart) and its ``cards`` (the group counted now)."""
    if view is None or view.phase is not Phase.SHOW or not view.next_show:
        return ()
    out = []
    if photo_starter and view.starter and photo_starter != view.starter:
        out.append(PhotoConflict(
            photo_starter, view.starter, f"The photo's starter is {photo_starter}, but the cut was {view.starter}.",
            f"The cut {view.starter} stands: count with it ({photo_starter} set aside)",
            f"{photo_starter} is right: correct the cut and count with it"))
    nxt = view.next_show
    seat, kind, known = nxt.seat, nxt.kind, nxt.cards
    whose = "the crib" if kind is ShowKind.CRIB else f"{view.players[seat]}'s hand"
    if known:
        extra = [c for c in cards if c not in known]
        missing = [c for c in known if c not in cards]
        if len(extra) == 1 and len(missing) == 1:
            where = "in the play" if kind is ShowKind.HAND else "in the discards"
            out.append(PhotoConflict(
                extra[0], missing[0], f"The photo shows {extra[0]} in {whose}, but the game has {missing[0]} "
                f"({where}).", f"{missing[0]} stands: count the cards the game has",
                f"{extra[0]} is right: correct {missing[0]} to {extra[0]} and count with it"))
        return tuple(out)
    elsewhere = _known_elsewhere(view, seat, kind)
    for card in cards:
        if card in elsewhere:
            out.append(PhotoConflict(
                card, None, f"The photo shows {card} in {whose}, but {card} is {elsewhere[card]}.",
                f"{card} is {elsewhere[card]}: correct the card in the photo", None))
    return tuple(out)


def _known_elsewhere(view, seat: int, kind: ShowKind) -> dict[str, str]:
    """Cards the game places somewhere other than this count: the starter, the cards laid by
    another hand, the hands counted already."""
    places = {}
    if view.starter:
        places[view.starter] = "the starter (the cut)"
    for play in view.play:
        if play.card != "go" and (kind is ShowKind.CRIB or play.seat != seat):
            places[play.card] = f"laid by {view.players[play.seat]} in the play"
    for shown in view.shown:
        if (shown.kind, shown.seat) != (kind, seat):
            owner = "the crib" if shown.kind is ShowKind.CRIB else f"{view.players[shown.seat]}'s hand"
            for card in shown.cards:
                places.setdefault(card, f"in {owner}, counted already")
    return places
