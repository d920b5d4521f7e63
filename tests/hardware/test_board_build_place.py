"""Where the simulated board's firmware and harness are built: beside the sources in a checkout,
the user's cache folder from an installed package (never inside site-packages)."""

from pathlib import Path

from hardware import simulator


def test_a_checkout_builds_beside_the_sources():
    assert simulator.build_root() == simulator.ROOT / "hardware"
    assert simulator.firmware_elf("2-track").is_relative_to(simulator.FIRMWARE_DIR / "build")


def test_an_installed_package_builds_in_the_user_cache(tmp_path, monkeypatch):
    installed = tmp_path / "site-packages"
    (installed / "hardware" / "firmware").mkdir(parents=True)   # no pyproject.toml beside it
    monkeypatch.setattr(simulator, "ROOT", installed)
    monkeypatch.setattr(simulator, "FIRMWARE_DIR", installed / "hardware" / "firmware")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    elf = simulator.firmware_elf("3-track", 115200, 1000)
    assert elf == tmp_path / "cache" / "crib-companion" / "board" / "firmware" / "build" / "3-track-115200-1000mA" / "crib-board.elf"
    assert not simulator.harness().is_relative_to(installed)


def test_the_simulator_runs_from_a_build_outside_the_sources(tmp_path, monkeypatch):
    """make honours the BUILD= it is given: the firmware and harness land where build_root says."""
    monkeypatch.setattr(simulator, "build_root", lambda: Path(tmp_path))
    elf = simulator.build("2-track")
    assert elf.is_file() and elf.is_relative_to(tmp_path)
    assert simulator.harness().is_file()
