"""The shape of a game script, checked before any of it is played: every field's type (and every
card's spelling) in every deal, the deals after the game's end included. A wrong field is named
by its deal and path ("deal 4, play[2].claim: ..."); whether the moves make sense is the game's
job as the script is played (``companion.game.script``)."""

from __future__ import annotations

from typing import Any

from companion.game.errors import EntryError, ScriptError
from companion.game.setup import card, flag, player_names, text

TOP_FIELDS = {"players", "rules", "short", "first_dealer", "dealer_cut", "deals", "title", "comment"}
DEAL_FIELDS = {"discards", "blind", "cut", "heels", "play", "show", "penalties", "comment"}
PLAY_FIELDS = {"card", "go", "claim", "muggins"}
SHOW_FIELDS = {"cards", "claim", "photo", "muggins"}
PENALTY_FIELDS = {"key", "offender", "opponent", "cards", "overclaim", "after"}
STAGES = ("discards", "cut", "play", "show")


def check_script(data: Any) -> None:
    """ScriptError naming the first field (in reading order) whose type is wrong."""
    if not isinstance(data, dict):
        raise ScriptError("script: expected a JSON object with players, rules and deals")
    _known(data, TOP_FIELDS, "")
    players = _checked(player_names, data.get("players"))
    for key in ("title", "comment"):
        if key in data:
            _checked(text, data[key], key)
    if "short" in data:
        _checked(flag, data["short"], "short")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, (str, dict)):
        raise ScriptError(f"rules: expected a preset name or an object, got {rules!r}")
    _who(data.get("first_dealer"), "first_dealer", optional=True)
    cut = data.get("dealer_cut")
    if isinstance(cut, dict):
        stranger = next((name for name in cut if name not in players), None)
        if stranger is not None:
            raise ScriptError(f"dealer_cut: no player named {stranger!r} (players: {', '.join(players)})")
        for name, value in cut.items():
            _card(value, f"dealer_cut.{name}")
    elif cut is not None:
        _cards(cut, "dealer_cut")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise ScriptError(f"deals: expected a list of deals, got {deals!r}")
    for number, deal in enumerate(deals, start=1):
        _check_deal(deal, f"deal {number}", players)


def _check_deal(deal: Any, where: str, players: tuple[str, ...]) -> None:
    if not isinstance(deal, dict):
        raise ScriptError(f"{where}: expected an object with discards, cut, play and show")
    _known(deal, DEAL_FIELDS, f"{where}, ")
    if "comment" in deal:
        _checked(text, deal["comment"], f"{where}, comment")
    discards = deal.get("discards")
    if isinstance(discards, dict):
        for name, cards in discards.items():
            _named(name, players, f"{where}, discards")
            _cards(cards, f"{where}, discards.{name}")
    elif isinstance(discards, list):
        for seat, cards in enumerate(discards):
            _cards(cards, f"{where}, discards[{seat}]")
    elif discards is not None:
        raise ScriptError(f"{where}, discards: expected discards by player name, got {discards!r}")
    if deal.get("blind") is not None:
        _card(deal["blind"], f"{where}, blind")
    if "cut" in deal:
        _card(deal["cut"], f"{where}, cut")
    _claim(deal.get("heels"), f"{where}, heels")
    play = deal.get("play", [])
    if not isinstance(play, list):
        raise ScriptError(f"{where}, play: expected the cards laid and \"go\" in order, got {play!r}")
    for index, token in enumerate(play):
        _check_play(token, f"{where}, play[{index}]")
    show = deal.get("show", [])
    if isinstance(show, dict):
        for key in show:
            if key != "crib":
                _named(key, players, f"{where}, show")
        items = [(f"{where}, show.{key}", item) for key, item in show.items()]
    elif isinstance(show, list):
        items = [(f"{where}, show[{index}]", item) for index, item in enumerate(show)]
    else:
        raise ScriptError(f"{where}, show: expected the counts in show order, got {show!r}")
    for name, item in items:
        _check_show(item, name)
    penalties = deal.get("penalties", [])
    if not isinstance(penalties, list):
        raise ScriptError(f"{where}, penalties: expected a list of penalties, got {penalties!r}")
    for index, item in enumerate(penalties):
        _check_penalty(item, f"{where}, penalties[{index}]")


def _check_play(token: Any, name: str) -> None:
    if isinstance(token, str):
        if token.strip().lower() != "go":
            _card(token, name)
        return
    if not isinstance(token, dict):
        raise ScriptError(f"{name}: expected a card, \"go\" or an object, got {token!r}")
    _known(token, PLAY_FIELDS, f"{name}: ", "the fields are card or go, claim, muggins")
    if "go" in token and token["go"] is not True:
        raise ScriptError(f"{name}.go: expected true, got {token['go']!r}")
    if "card" in token:
        _card(token["card"], f"{name}.card")
    _claim(token.get("claim"), f"{name}.claim")
    _who(token.get("muggins"), f"{name}.muggins", optional=True)


def _check_show(item: Any, name: str) -> None:
    if item is None or isinstance(item, int) and not isinstance(item, bool):
        _claim(item, name)
    elif isinstance(item, list):
        _cards(item, name)
    elif isinstance(item, dict):
        _known(item, SHOW_FIELDS, f"{name}: ", "the fields are cards, claim, photo, muggins")
        if item.get("cards") is not None:
            _cards(item["cards"], f"{name}.cards")
        _claim(item.get("claim"), f"{name}.claim")
        if item.get("photo") is not None:
            _checked(text, item["photo"], f"{name}.photo")
        _who(item.get("muggins"), f"{name}.muggins", optional=True)
    else:
        raise ScriptError(f"{name}: expected cards, a claimed total, or an object, got {item!r}")


def _check_penalty(item: Any, name: str) -> None:
    if not isinstance(item, dict) or "key" not in item or "offender" not in item:
        raise ScriptError(f"{name}: expected {{\"key\": ..., \"offender\": ..., \"after\": ...}}")
    _known(item, PENALTY_FIELDS, f"{name}: ", f"the fields are {', '.join(sorted(PENALTY_FIELDS))}")
    _checked(text, item["key"], f"{name}.key")
    _who(item["offender"], f"{name}.offender")
    _who(item.get("opponent"), f"{name}.opponent", optional=True)
    for key, minimum in (("cards", 1), ("overclaim", 0)):
        value = item.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < minimum):
            raise ScriptError(f"{name}.{key}: expected a whole number >= {minimum}, got {value!r}")
    after = item.get("after", "show")
    if not isinstance(after, str) or after not in STAGES:
        raise ScriptError(f"{name}.after: expected one of {', '.join(STAGES)}, got {after!r}")


# --- one field ---------------------------------------------------------------------------------------
def _checked(check, value: Any, *args) -> Any:
    try:
        return check(value, *args)
    except EntryError as exc:
        raise ScriptError(str(exc)) from None


def _known(data: dict, fields: set[str], where: str, listed: str = "") -> None:
    """Refuse a field the schema does not have: "deal 2, shwo: unknown field (fields: ...)", or for
    an item, "deal 2, play[0]: unknown field 'crad' (fields: ...)"."""
    unknown = set(data) - fields
    if not unknown:
        return
    first, listed = sorted(unknown)[0], listed or f"fields: {', '.join(sorted(fields))}"
    if listed.startswith("fields"):
        raise ScriptError(f"{where}{first}: unknown field ({listed})")
    raise ScriptError(f"{where}unknown field {first!r} ({listed})")


def _card(value: Any, name: str) -> None:
    _checked(card, value, name)


def _cards(values: Any, name: str) -> None:
    if not isinstance(values, list):
        raise ScriptError(f"{name}: expected a list of cards, got {values!r}")
    for index, value in enumerate(values):
        _card(value, f"{name}[{index}]")


def _named(key: str, players: tuple[str, ...], name: str) -> None:
    """An object's key that names a player (as the game matches names: case and spaces aside)."""
    if key.strip().lower() not in {p.strip().lower() for p in players}:
        raise ScriptError(f"{name}: no player named {key!r} (players: {', '.join(players)})")


def _claim(claim: Any, name: str) -> None:
    if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool) or claim < 0):
        raise ScriptError(f"{name}: a claim is a whole number of points >= 0, got {claim!r}")


def _who(who: Any, name: str, optional: bool = False) -> None:
    if who is None and optional:
        return
    if isinstance(who, bool) or not isinstance(who, (int, str)) or isinstance(who, str) and not who.strip():
        raise ScriptError(f"{name}: expected a player name or seat number, got {who!r}")
