"""The rules core imports only the standard library."""

import ast
import sys
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent.parent / "companion" / "rules"


def _imported_top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_rules_core_imports_only_stdlib_and_itself():
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files, "the rules core is missing"
    allowed = set(sys.stdlib_module_names) | {"companion", "__future__"}
    offenders = {}
    for path in files:
        bad = {n for n in _imported_top_level_names(path) if n not in allowed}
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}


def test_rules_core_does_not_import_other_companion_layers():
    for path in RULES_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.startswith("companion."):
                    assert node.module.startswith("companion.rules"), (path.name, node.module)


def test_vision_and_hardware_never_import_the_ui():
    root = RULES_DIR.parent.parent
    for area in ("vision", "hardware"):
        for path in (root / area).rglob("*.py"):
            names = set()
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module:
                    names.add(node.module)
                elif isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
            assert not any(n.startswith(("companion.ui", "kivy")) for n in names), path
