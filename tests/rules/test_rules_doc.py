"""docs/RULES.md is the rules the product follows, in the repository: the README points there
(not outside the repository), and its preset table is what the rules core holds."""

from pathlib import Path

from companion.rules.rulesets import PENALTIES, PRESETS

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def _preset_table() -> dict[str, list[str]]:
    """field -> [acc, home, pub] cells of the "## Presets" table."""
    section = RULES.split("## Presets", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("| `")]
    return {cells[0].split("`")[1]: [c.strip() for c in cells[1:]] for cells in rows}


def test_the_readme_points_to_the_rules_in_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/RULES.md" in readme and "../shared/rules" not in readme
    assert "source .venv/bin/activate" in readme
    assert "cadyzedevelopmenthub" in readme and "CC BY 4.0" in readme and "CRIB_REAL_CARDS" in readme


def test_the_preset_table_is_the_rules_cores():
    table = _preset_table()
    assert set(table) == {"target", "muggins", "skunk_line", "double_skunk_line", "game_points", "match_games",
                          "lowball"}
    for column, name in enumerate(("acc", "home", "pub")):
        rules = PRESETS[name]
        assert table["target"][column] == str(rules.target)
        assert table["muggins"][column] == rules.muggins.value
        assert table["skunk_line"][column] == str(rules.skunk_line)
        assert table["double_skunk_line"][column] == str(rules.double_skunk_line or "none")
        points = rules.game_points
        assert table["game_points"][column] == " / ".join(
            str(p) for p in (points.win, points.skunk, points.double_skunk if points.double_skunk else "-"))
        assert table["match_games"][column] == str(rules.match_games)
        assert table["lowball"][column] == ("yes" if rules.lowball else "no")


def test_every_penalty_key_is_described():
    for key in PENALTIES:
        assert f"| `{key}` |" in RULES
