"""Choosing the rules and the seats: a preset, a preset with fields changed, or a short game."""

from __future__ import annotations

from typing import Any, Sequence

from companion.rules import PRESETS, Card, RuleSet
from companion.rules.rulesets import GamePoints, MugginsMode, RuleSetError

from companion.game.errors import EntryError

SHORT_TARGET = 61
RULE_FIELDS = ("target", "muggins", "skunk_line", "double_skunk_line", "game_points", "match_games", "lowball")


# --- type checks: every field read from a script or an export is checked before it is used ---
def whole(value: Any, field: str, minimum: int = 0) -> int:
    """A whole number >= ``minimum`` (a JSON true/false is not a number here)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise EntryError(f"{field}: expected a whole number >= {minimum}, got {value!r}")
    return value


def text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EntryError(f"{field}: expected text, got {value!r}")
    return value


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise EntryError(f"{field}: expected true or false, got {value!r}")
    return value


def player_names(players: Any, field: str = "players") -> tuple[str, ...]:
    """2, 3 or 4 distinct non-empty names (the count is checked with the game)."""
    if not isinstance(players, (list, tuple)):
        raise EntryError(f"{field}: expected a list of 2, 3 or 4 names, got {players!r}")
    for seat, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise EntryError(f"{field}[{seat}]: a player's name is text, got {name!r}")
    return tuple(players)


def _game_points(points: Any) -> GamePoints:
    if isinstance(points, GamePoints):
        return points
    if not isinstance(points, (list, tuple)) or len(points) not in (2, 3):
        raise EntryError(f"rules.game_points: expected [win, skunk] or [win, skunk, double skunk], got {points!r}")
    win, skunk = (whole(p, f"rules.game_points[{i}]", 1) for i, p in enumerate(points[:2]))
    double = points[2] if len(points) == 3 else None
    return GamePoints(win, skunk, None if double is None else whole(double, "rules.game_points[2]", 1))


def _rule_change(key: str, value: Any) -> Any:
    """One RuleSet field from a script or the app, its type checked."""
    if key == "muggins":
        if isinstance(value, MugginsMode):
            return value
        choices = ", ".join(m.value for m in MugginsMode)
        if not isinstance(value, str) or value not in {m.value for m in MugginsMode}:
            raise EntryError(f"rules.muggins: expected one of {choices}, got {value!r}")
        return MugginsMode(value)
    if key == "game_points":
        return _game_points(value)
    if key == "lowball":
        return flag(value, "rules.lowball")
    if key == "double_skunk_line" and value is None:
        return None
    return whole(value, f"rules.{key}", 1 if key in ("target", "match_games") else 0)


def make_rules(spec: RuleSet | str | dict | None = None, short: bool = False) -> RuleSet:
    """``spec``: a RuleSet, a preset name, or ``{"preset": "acc", <RuleSet field>: value, ...}``.

    A target other than 121 without explicit lines keeps the skunk margins of RULES.md: a skunk
    is a win by 31 or more (loser <= target - 31), a double skunk by 61 or more (loser <=
    target - 61, where the preset has one). ``short`` is the short game to 61.
    """
    if isinstance(spec, RuleSet):
        base, changes = spec, {}
    else:
        if spec is None or isinstance(spec, str):
            spec = {"preset": spec or "acc"}
        if not isinstance(spec, dict):
            raise EntryError(f"rules: expected a preset name or an object, got {spec!r}")
        name = spec.get("preset", "acc")
        if not isinstance(name, str) or name not in PRESETS:
            raise EntryError(f"rules.preset: unknown rule set {name!r} (choose from {', '.join(PRESETS)})")
        base = PRESETS[name]
        unknown = set(spec) - {"preset", *RULE_FIELDS}
        if unknown:
            raise EntryError(f"rules: unknown field {sorted(unknown)[0]!r} (fields: preset, {', '.join(RULE_FIELDS)})")
        changes = {k: _rule_change(k, v) for k, v in spec.items() if k != "preset"}
    if short:
        changes.setdefault("target", SHORT_TARGET)
    try:
        if "muggins" in changes:
            changes["muggins"] = MugginsMode(changes["muggins"])
        if "game_points" in changes:
            points = changes["game_points"]
            changes["game_points"] = points if isinstance(points, GamePoints) else GamePoints(*points)
        target = changes.get("target", base.target)
        if target != base.target:
            changes.setdefault("skunk_line", max(base.skunk_line - (base.target - target), 0))
            if base.double_skunk_line is not None:
                line = base.double_skunk_line - (base.target - target)
                changes.setdefault("double_skunk_line", line if 0 <= line < changes["skunk_line"] else None)
        for key in ("target", "skunk_line", "match_games"):
            if key in changes and (not isinstance(changes[key], int) or isinstance(changes[key], bool)):
                raise EntryError(f"rules.{key}: expected a whole number, got {changes[key]!r}")
        # A field set to the preset's own value is no change: the game keeps the preset's name.
        changes = {key: value for key, value in changes.items() if getattr(base, key) != value}
        if changes:
            plain_short = short and set(changes) <= {"target", "skunk_line", "double_skunk_line"}
            return base.with_changes(name=f"{base.name}-{'short' if plain_short else 'custom'}", **changes)
        return base
    except (RuleSetError, TypeError, ValueError) as exc:
        if isinstance(exc, EntryError):
            raise
        raise EntryError(f"rules: {exc}") from None


def seat_of(players: Sequence[str], who: int | str, field: str = "player") -> int:
    """A seat from its number or its player's name (case-insensitive)."""
    if isinstance(who, bool):
        raise EntryError(f"{field}: expected a player name or seat number, got {who!r}")
    if isinstance(who, int):
        if 0 <= who < len(players):
            return who
        raise EntryError(f"{field}: seat {who} is not one of the {len(players)} seats (0..{len(players) - 1})")
    if isinstance(who, str):
        for seat, name in enumerate(players):
            if name.strip().lower() == who.strip().lower():
                return seat
        raise EntryError(f"{field}: no player named {who!r} (players: {', '.join(players)})")
    raise EntryError(f"{field}: expected a player name or seat number, got {who!r}")


def card(value: Card | str, field: str = "card") -> Card:
    if isinstance(value, Card):
        return value
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise EntryError(f"{field}: {exc}") from None


def cards(values: Any, field: str = "cards") -> tuple[Card, ...]:
    if isinstance(values, str):
        values = values.split()
    if not isinstance(values, (list, tuple)):
        raise EntryError(f"{field}: expected a list of cards, got {values!r}")
    return tuple(card(v, f"{field}[{i}]") for i, v in enumerate(values))


def dealer_by_cut(cut: Sequence[Card]) -> int:
    """The seat that deals first: the lowest card cut (ace low). A tie is an error: cut again."""
    low = min(c.rank for c in cut)
    lowest = [seat for seat, c in enumerate(cut) if c.rank == low]
    if len(lowest) > 1:
        raise EntryError("dealer_cut: a tie for the lowest card: cut again")
    return lowest[0]


def check_new_game(new) -> None:
    """The players, first dealer, rules and cut for deal of a NewGame make sense together."""
    player_names(new.players)
    n = len(new.players)
    if n not in (2, 3, 4):
        raise EntryError(f"players: cribbage here is for 2, 3 or 4 players, got {n}")
    if len({p.strip().lower() for p in new.players}) != n:
        raise EntryError("players: each player needs a different name")
    if not 0 <= new.first_dealer < n:
        raise EntryError(f"first_dealer: seat {new.first_dealer} is not one of the {n} seats")
    if new.rules.lowball and n == 3:
        raise EntryError("rules: lowball is a game between two sides (2 players or 2 partnerships)")
    if new.dealer_cut is not None:
        cut = new.dealer_cut
        if len(cut) != n or len(set(cut)) != n:
            raise EntryError(f"dealer_cut: one distinct card per player ({n}), got {len(cut)}")
        dealer = dealer_by_cut(cut)
        if dealer != new.first_dealer:
            raise EntryError(f"first_dealer: the lowest card cut ({cut[dealer]}) deals: seat {dealer}")


def rules_as_json(rules: RuleSet) -> dict:
    gp = rules.game_points
    return {"name": rules.name, "target": rules.target, "muggins": rules.muggins.value,
            "skunk_line": rules.skunk_line, "double_skunk_line": rules.double_skunk_line,
            "game_points": [gp.win, gp.skunk, gp.double_skunk], "match_games": rules.match_games,
            "lowball": rules.lowball}


def rules_from_json(data: Any) -> RuleSet:
    if not isinstance(data, dict):
        raise EntryError(f"rules: expected an object, got {data!r}")
    missing = [key for key in ("name", *RULE_FIELDS) if key not in data]
    if missing:
        raise EntryError(f"rules: missing field {missing[0]}")
    try:
        return RuleSet(text(data["name"], "rules.name"),
                       **{key: _rule_change(key, data[key]) for key in RULE_FIELDS})
    except (TypeError, RuleSetError, ValueError) as exc:
        if isinstance(exc, EntryError):
            raise
        raise EntryError(f"rules: {exc}") from None
