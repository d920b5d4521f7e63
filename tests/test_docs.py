"""The README is a user's guide and models/MODEL.md a model card: each stays within its length, and
every relative link in them (and in the guides under docs/ they send a reader to) reaches a file
that exists, at a heading that exists when the link names one (issue 37 item 5)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MAX_LINES = {"README.md": 300, "models/MODEL.md": 250}

# The documents whose links are checked: the two above, the guides the README links to, the journal.
LINKED_DOCS = ["README.md", "models/MODEL.md", "docs/CLI.md", "docs/GAME.md", "docs/BOARD-USE.md",
               "docs/APP.md", "docs/RECOGNITION.md", "docs/CONTRIBUTING.md",
               *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "journal").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def relative_links(text: str) -> list[str]:
    """Targets of the markdown links in ``text`` that point inside the repository (code left out)."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return [t for t in LINK.findall(prose) if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I)]


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {anchor(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def broken_links(doc: Path) -> list[str]:
    broken = []
    for target in relative_links(doc.read_text(encoding="utf-8")):
        path, _, fragment = target.partition("#")
        where = (doc.parent / path).resolve() if path else doc
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif fragment and where.suffix == ".md" and fragment not in anchors_of(where):
            broken.append(f"{target}: no heading #{fragment} in {where.name}")
    return broken


@pytest.mark.parametrize("name", sorted(MAX_LINES))
def test_the_guide_and_the_model_card_stay_within_their_length(name):
    lines = (ROOT / name).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES[name], f"{name} has {lines} lines, more than {MAX_LINES[name]}"


@pytest.mark.parametrize("name", LINKED_DOCS)
def test_every_relative_link_reaches_a_file(name):
    assert broken_links(ROOT / name) == []


def test_the_link_check_finds_a_broken_link_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Real photos\n\n## Tests, markers and CI\n")
    doc = tmp_path / "doc.md"
    doc.write_text("See [a](other.md#real-photos), [b](other.md#tests-markers-and-ci), [c](gone.md),\n"
                   "[d](other.md#no-such), ![e](pic.png), [f](https://example.org/x.md), `[g](code.md)`\n"
                   "```\n[h](in-a-fence.md)\n```\n")
    assert broken_links(doc) == ["gone.md: no such file", "other.md#no-such: no heading #no-such in other.md",
                                 "pic.png: no such file"]


def test_the_readme_starts_with_the_two_make_commands_and_links_every_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```", 2)[1]
    assert "make demo" in first_block and "make test" in first_block
    assert readme.index("make demo") < readme.index("## ")
    for guide in ("docs/CLI.md", "docs/GAME.md", "docs/BOARD-USE.md", "docs/BOARD.md", "docs/APP.md",
                  "docs/RECOGNITION.md", "docs/CONTRIBUTING.md", "models/MODEL.md", "docs/RULES.md"):
        assert f"]({guide})" in readme, f"the README does not link {guide}"
    assert "<!-- begin figures (make figures) -->" in readme and "<!-- end figures -->" in readme


def test_the_install_section_leads_with_what_works_today():
    # the package is on no index yet: its commands install from a checkout or the wheel `make dist`
    # builds (.ci/wheel installs that wheel the same way); the index line is prose, for a release
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in section.split("```", 2)[1].strip().splitlines()]
    assert commands[0] == "pipx install '.[app]'"
    assert "make dist" in commands and re.search(r"^dist:", (ROOT / "Makefile").read_text(), re.M)
    assert not [c for c in commands if "crib-companion[" in c]
    prose = section.split("```", 2)[2]
    assert "pip install 'crib-companion[app]'" in prose and "release" in prose


@pytest.mark.parametrize("state", ["show-29", "show-crib-24", "pegging-points"])
def test_the_app_guide_shows_the_longest_show_and_pegging_by_points_at_the_three_sizes(state):
    """Issue 48 s4: the 29 hand, the 24 crib and pegging by points screenshotted at 1280x800,
    800x1280 and 720x1280 (make screenshots), and the app's guide showing them."""
    from PIL import Image

    sizes = {"": (1280, 800), "-portrait": (800, 1280), "-phone": (720, 1280)}
    for suffix, size in sizes.items():
        path = ROOT / "docs" / "screenshots" / f"{state}{suffix}.png"
        assert path.exists(), path
        with Image.open(path) as picture:
            assert picture.size == size, path
    assert f"{state}*.png" in (ROOT / "docs" / "APP.md").read_text()


def test_the_recognition_guide_names_the_steps_as_the_pipeline_declares_them():
    """docs/RECOGNITION.md lists the steps in the order ``vision.pipeline`` runs them (issue 55 s2:
    the order is declared once, the guide follows it)."""
    import re

    from vision.pipeline import PHOTO_STEPS, PREVIEW_STEPS

    text = " ".join((ROOT / "docs" / "RECOGNITION.md").read_text().split())
    photo = re.search(r"`PHOTO_STEPS`.*?\): ((?:\w+ -> )+\w+)\.", text)
    preview = re.search(r"`PREVIEW_STEPS`: ((?:\w+ -> )+\w+)\.", text)
    assert photo and preview
    assert photo.group(1).split(" -> ") == ["decode"] + [step.name for step in PHOTO_STEPS]
    assert preview.group(1).split(" -> ") == [step.name for step in PREVIEW_STEPS]
