"""The layers stay apart: the rules core imports only the standard library; vision and hardware
are libraries that never import companion; recognising a photo at run time never loads the
training stack (torch, ultralytics, vision.train, vision.synth); the recogniser's card classes
are the rules core's deck; no import circle in companion, vision or hardware. Imports are
checked twice: statically over every source file (any import statement, function-level ones
included) and in a fresh interpreter's sys.modules."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "companion" / "rules"
SAMPLE = ROOT / "sample_images" / "hand_starter_papers.jpg"
TRAINING_STACK = ("torch", "torchvision", "ultralytics", "vision.train", "vision.synth")


def _imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every module named by an import statement in ``path`` (absolute names; ``root`` is the
    folder the package names start from)."""
    names: set[str] = set()
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _sources(*areas: str, skip: tuple[str, ...] = ()) -> list[Path]:
    files = [p for area in areas for p in sorted((ROOT / area).rglob("*.py"))]
    return [p for p in files if not any(p.relative_to(ROOT).as_posix().startswith(s) for s in skip)]


def _is_under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _loaded_modules(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_rules_core_imports_only_stdlib_and_itself():
    files = _sources("companion/rules")
    assert files, "the rules core is missing"
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    offenders = {p.name: sorted(n for n in _imports(p) if n.split(".")[0] not in allowed
                                and not _is_under(n, ["companion.rules"]))
                 for p in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rules_core_loads_nothing_outside_the_standard_library():
    loaded = _loaded_modules("import companion.rules") - _loaded_modules("")  # less interpreter start-up
    outside = {m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names
               and not _is_under(m, ["companion.rules"]) and m != "companion"}
    assert outside == set()


def test_vision_and_hardware_never_import_companion():
    offenders = {p.relative_to(ROOT).as_posix(): sorted(n for n in _imports(p) if _is_under(n, ["companion", "kivy"]))
                 for p in _sources("vision", "hardware")}
    assert {k: v for k, v in offenders.items() if v} == {}
    loaded = _loaded_modules("import vision, hardware, vision.results")
    assert not {m for m in loaded if _is_under(m, ["companion", "kivy"])}


def _module_name(path: Path, root: Path = ROOT) -> str:
    name = ".".join(path.relative_to(root).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in ``graph`` (module -> modules it imports), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for other in sorted(graph[module]):
            found = visit(other, path + [module])
            if found:
                return found
        done.add(module)
        return None
    return next((c for c in (visit(m, []) for m in sorted(graph)) if c), None)


def _import_graph(root: Path, *areas: str) -> dict[str, set[str]]:
    """Module -> the modules of ``areas`` it imports (under ``root``), function-level imports
    included; a package and its own modules are left out (importing a submodule runs its package)."""
    modules = {_module_name(p, root): p for area in areas for p in sorted((root / area).rglob("*.py"))}
    return {m: {n for n in _imports(p, root) if n in modules and n != m and not m.startswith(n + ".")
                and not n.startswith(m + ".")} for m, p in modules.items()}


def test_companion_modules_import_each_other_one_way():
    """No import cycle among companion's modules, function-level imports included (a package and
    its own modules aside): the doubts build on the counted show (companion.counted), and so
    does companion.photo, which works the doubts out; doubt never imports photo."""
    graph = _import_graph(ROOT, "companion")
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))
    assert "companion.photo" not in graph["companion.doubt"] and "companion.doubt" in graph["companion.photo"]
    assert not graph["companion.counted"] & {"companion.photo", "companion.doubt"}
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the check finds one


def test_vision_and_hardware_modules_import_each_other_one_way():
    """No import cycle in vision (recognition, the data engine, training) nor in hardware, imports
    inside functions included: the card-art builders share vision.synth.raster, the Lite0 backbone
    lives apart from its command line, the real sets' adapters meet in vision.train.real_sets."""
    for area in ("vision", "hardware"):
        graph = _import_graph(ROOT, area)
        assert graph, f"{area} has no modules"
        cycle = _cycle(graph)
        assert cycle is None, f"{area}: " + " -> ".join(cycle)


def test_experiment_only_code_stays_in_its_folder():
    """vision/train/experiments/ holds comparisons no recipe uses: nothing outside it imports it."""
    outside = _sources("vision", "companion", "hardware", skip=("vision/train/experiments/",))
    offenders = {p.relative_to(ROOT).as_posix() for p in outside
                 if any(_is_under(n, ["vision.train.experiments"]) for n in _imports(p))}
    assert offenders == set()


def test_the_cycle_check_catches_a_circle_hidden_in_a_function(tmp_path):
    """A tiny package where one module imports another at the top and the other imports it back
    inside a function (the way the circles in vision hid): the graph holds both edges and the
    check names the circle; without the function-level import there is none."""
    package = tmp_path / "vision" / "synth"
    package.mkdir(parents=True)
    (tmp_path / "vision" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "art.py").write_text("from vision.synth.kde_art import faces\n\n\ndef trim():\n    return 1\n")
    (package / "kde_art.py").write_text("def faces():\n    from vision.synth.art import trim\n\n    return trim()\n")
    graph = _import_graph(tmp_path, "vision")
    assert _cycle(graph) == ["vision.synth.art", "vision.synth.kde_art", "vision.synth.art"]
    (package / "kde_art.py").write_text("from . import raster\n\n\ndef faces():\n    return raster.trim()\n")
    (package / "raster.py").write_text("def trim():\n    return 1\n")
    (package / "art.py").write_text("from .kde_art import faces\nfrom .raster import trim\n")
    assert _cycle(_import_graph(tmp_path, "vision")) is None


def test_recognition_modules_never_import_the_training_stack():
    runtime = _sources("vision", skip=("vision/train/", "vision/synth/"))
    offenders = {p.relative_to(ROOT).as_posix(): sorted(n for n in _imports(p) if _is_under(n, TRAINING_STACK))
                 for p in runtime}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_recognising_and_counting_a_photo_never_loads_the_training_stack():
    loaded = _loaded_modules(
        "import vision\n"
        f"result = vision.recognize({str(SAMPLE)!r})\n"
        "assert result.cards, result.warnings\n"
        "from companion.photo import count_show\n"
        f"assert count_show({str(SAMPLE)!r}).groups\n")
    assert "vision.pipeline" in loaded and "companion.photo" in loaded  # the path really ran
    assert sorted(m for m in loaded if _is_under(m, TRAINING_STACK)) == []


def test_crib_show_never_loads_the_training_stack():
    loaded = _loaded_modules(
        "import contextlib, io\n"
        "from companion.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['show', {str(SAMPLE)!r}, '--json']) == 0\n")
    assert sorted(m for m in loaded if _is_under(m, TRAINING_STACK)) == []


def test_result_types_need_no_model_runtime():
    loaded = _loaded_modules("from vision.results import Recognition, Role\nassert Role('crib') is Role.CRIB")
    assert not {m for m in loaded if _is_under(m, ["onnxruntime", *TRAINING_STACK])}


def test_card_codes_are_the_rules_core_deck():
    from companion.rules.cards import DECK, RANK_CHARS, SUITS, Card
    from vision.classes import CARD_CODES, RANKS
    from vision.classes import SUITS as VISION_SUITS

    assert (RANKS, VISION_SUITS) == (RANK_CHARS, SUITS)
    assert len(set(CARD_CODES)) == 52
    assert sorted(CARD_CODES) == sorted(str(card) for card in DECK)
    assert all(str(Card.parse(code)) == code for code in CARD_CODES)


def test_no_module_imports_another_by_a_string():
    offenders = []
    for path in _sources("companion", "vision", "hardware"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in ("importlib.import_module", "import_module", "__import__"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


# What companion may import from vision (issue 49): the names of ``vision`` itself (the
# recogniser, its results and errors, the table with the player's answers, the photo's quality,
# the models' version and folder: vision/__init__.py's __all__), never one of its modules.
VISION_PUBLIC = {"vision"}
# The training commands (companion/cli/training_commands.py) drive vision's training and data
# engine, whose entry points are their own packages.
VISION_TRAINING = ("vision.train", "vision.synth")


def _public_names(module: str) -> set[str] | None:
    """A vision module's ``__all__`` read from its source (None: it has none)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    path = path if path.is_file() else ROOT / module.replace(".", "/") / "__init__.py"
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return None


def _vision_imports(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, module, name or None) for each import of vision in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, None) for a in node.names if _is_under(a.name, ["vision"])]
        elif isinstance(node, ast.ImportFrom) and node.module and _is_under(node.module, ["vision"]):
            found += [(node.lineno, node.module, a.name) for a in node.names]
    return found


def test_companion_uses_vision_public_names_only():
    """companion calls vision through its public names (``VISION_PUBLIC``; the training commands
    through vision.train and vision.synth): never one of the steps (vision.layout, vision.boxes,
    vision.detections, ...), and from a public module only the names of its ``__all__``."""
    offenders = []
    for path in _sources("companion"):
        where = path.relative_to(ROOT).as_posix()
        for line, module, name in _vision_imports(path):
            if _is_under(module, VISION_TRAINING) and where == "companion/cli/training_commands.py":
                continue
            if module not in VISION_PUBLIC:
                offenders.append(f"{where}:{line}: {module}")
            elif name is not None and (public := _public_names(module)) is not None and name not in public:
                offenders.append(f"{where}:{line}: {module}.{name}")
    assert offenders == []


def test_the_public_names_check_finds_a_step_imported(tmp_path):
    """The check above names a step imported either way, and a name outside a module's ``__all__``."""
    source = tmp_path / "m.py"
    source.write_text("from vision.layout import arrange\nimport vision.boxes\nfrom vision import Role, layout\n")
    assert _vision_imports(source) == [(1, "vision.layout", "arrange"), (2, "vision.boxes", None),
                                       (3, "vision", "Role"), (3, "vision", "layout")]
    assert "Role" in _public_names("vision") and "layout" not in _public_names("vision")
    assert {"as_the_player_says", "assess_photo", "models_version"} <= _public_names("vision")


_MUTATORS = ("append", "extend", "update", "pop", "remove", "insert", "clear", "sort", "fill", "setdefault", "add")


def _mutated_arguments(path: Path) -> list[str]:
    """``file:line function: what`` for each statement changing one of its function's arguments in
    place (a mutating method called on it, or an item or attribute of it assigned)."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} - {"self", "cls"}
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in params):
                found.append(f"{path.name}:{node.lineno} {fn.name}: {node.func.value.id}.{node.func.attr}()")
            for target in node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AugAssign) else []:
                base = target
                while isinstance(base, (ast.Subscript, ast.Attribute)):
                    base = base.value
                if target is not base and isinstance(base, ast.Name) and base.id in params:
                    found.append(f"{path.name}:{node.lineno} {fn.name}: {ast.unparse(target)} = ...")
    return found


def test_recognition_steps_never_return_results_through_their_arguments(tmp_path):
    """No recognition step hands back what it made by changing what it was given (issue 49 s2: a
    timing list filled by detect_region, three arrays by _merge_misreads, a warnings list by the
    layout's roles): each returns its results. (A step that needs a changed copy names it anew.)"""
    steps = [p for p in _sources("vision", skip=("vision/train/", "vision/synth/"))]
    assert [line for p in steps for line in _mutated_arguments(p)] == []
    sample = tmp_path / "m.py"
    sample.write_text("def f(times, rows):\n    times[0] += 1\n    rows.append(2)\n    x = list(rows)\n    x.append(1)\n")
    assert _mutated_arguments(sample) == ["m.py:2 f: times[0] = ...", "m.py:3 f: rows.append()"]


# Where a box's frame is converted (issue 49 s2): decoded pixels to the photo's in
# ``Detections.in_photo_pixels``, back in ``Photo.decoded_xyxy``.
_FRAME_CONVERSIONS = {"vision/detections.py", "vision/decode.py"}


def _scaled_by_hand(path: Path) -> list[str]:
    """``file:line expression`` for each product or quotient with a frame's ``.scale``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)) and any(
                isinstance(side, ast.Attribute) and side.attr == "scale" for side in (node.left, node.right)):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_boxes_change_frame_in_one_place_each_way(tmp_path):
    """No recognition step multiplies or divides by a frame's ``scale`` by hand: boxes go to photo
    pixels through ``Detections`` and back through ``Photo``."""
    steps = [p for p in _sources("vision") if p.relative_to(ROOT).parts[1] not in ("train", "synth")]
    assert [line for p in steps if p.relative_to(ROOT).as_posix() not in _FRAME_CONVERSIONS
            for line in _scaled_by_hand(p)] == []
    sample = tmp_path / "m.py"
    sample.write_text("def f(box, photo):\n    return box / photo.scale, box * 2, photo.scale * box\n")
    assert _scaled_by_hand(sample) == ["m.py:2 box / photo.scale", "m.py:2 photo.scale * box"]


def _frame_scale_read(path: Path) -> list[str]:
    """``file:line expression`` for each read of an attribute named ``scale`` (a photo's frame)."""
    return [f"{path.name}:{node.lineno} {ast.unparse(node)}"
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
            if isinstance(node, ast.Attribute) and node.attr == "scale"]


def test_the_product_leaves_a_photos_frame_to_vision(tmp_path):
    """Companion draws boxes (photo pixels) on decoded pixels through ``Photo.decoded_xyxy``
    (companion/drawing.py, the photo view): it never reads a frame's ``scale`` to convert by hand."""
    assert [line for p in _sources("companion") for line in _frame_scale_read(p)] == []
    sample = tmp_path / "m.py"
    sample.write_text("def f(photo, box, scale):\n    draw(photo.pixels, box, photo.scale)\n    return box * scale\n")
    assert _frame_scale_read(sample) == ["m.py:2 photo.scale"]


def _config_defaults(path: Path) -> list[str]:
    """``file:line function(parameter=default)`` for each parameter whose default names the
    standard settings, ``DEFAULTS``."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        positional = fn.args.posonlyargs + fn.args.args
        defaults = list(zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults))
        defaults += [(arg, d) for arg, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None]
        for arg, default in defaults:
            if any(isinstance(node, ast.Name) and node.id == "DEFAULTS" or
                   isinstance(node, ast.Attribute) and node.attr == "DEFAULTS" for node in ast.walk(default)):
                found.append(f"{path.name}:{fn.lineno} {getattr(fn, 'name', 'lambda')}({arg.arg}="
                             f"{ast.unparse(default)})")
    return found


def test_recognition_steps_take_their_settings_from_the_caller(tmp_path):
    """No step's parameter defaults to the standard settings (issue 55 item 1): such a default won
    over the models' calibration wherever a caller left the argument out. The recogniser passes its
    ``settings`` (the models' calibration over ``DEFAULTS``); code without models passes ``DEFAULTS``
    itself, a choice made where it is called (as ``vision.table.layout_of`` does, in its body)."""
    steps = [p for p in _sources("vision") if p.relative_to(ROOT).parts[1] not in ("train", "synth", "config.py")]
    assert [line for p in steps for line in _config_defaults(p)] == []
    sample = tmp_path / "m.py"
    sample.write_text("def f(a, b=DEFAULTS.detect, *, c=config.DEFAULTS.read.x, d=None):\n    return DEFAULTS\n"
                      "g = lambda x=(DEFAULTS,): x\ndef h(settings=SETTINGS, layout=None):\n"
                      "    return layout or DEFAULTS.layout\n")
    assert _config_defaults(sample) == ["m.py:1 f(b=DEFAULTS.detect)", "m.py:1 f(c=config.DEFAULTS.read.x)",
                                        "m.py:3 lambda(x=(DEFAULTS,))"]
