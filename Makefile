# Crib Companion — the two set-up commands are `make demo` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
CRIB := $(VENV)/bin/crib

# Debian packages the project needs: card art + SVG renderer and surfaces (vision),
# AVR toolchain + simavr (hardware), GL + virtual display (Kivy).
DEB_PACKAGES := librsvg2-bin gnome-cards-data kdegames-card-data-kf5 gimp-data gnome-backgrounds fonts-dejavu-core \
	gcc-avr avr-libc binutils-avr simavr libsimavr-dev libsimavrparts1 avrdude socat \
	libgl1 libegl1 libgles2 libgl1-mesa-dri libmtdev1 xvfb xauth

.PHONY: demo test deps venv venv-run firmware bench clean models app screenshots dist figures figures-all

# Install missing Debian packages only (apt-get needs root; the machines here run as root).
deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "apt-get install:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@# The card-art fetcher runs `npm pack`; any npm will do, Debian's only when there is none.
	@command -v npm >/dev/null 2>&1 || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends npm; }

$(VENV)/bin/activate:
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# The build requirements pyproject.toml declares ([build-system] requires: a setuptools new enough
# for `license = "MIT"`, and wheel), read from it, into the venv: `make dist` builds without build
# isolation, and Python's own venv brings an older setuptools (65.5 with 3.11). A venv made before
# this rule gets them too (it has no stamp yet), and again whenever pyproject.toml changes; the
# install stamps only need it made first (order-only: a new build stamp reinstalls nothing).
$(VENV)/.build-stamp: $(VENV)/bin/activate pyproject.toml
	$(PY) -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")' \
		| xargs -r -d '\n' $(PIP) install -q --upgrade
	touch $@

# Run-time install: no torch.
$(VENV)/.run-stamp: $(VENV)/bin/activate pyproject.toml setup.py | $(VENV)/.build-stamp
	$(PIP) install -q -e .
	touch $@

# Everything for the tests (torch + ultralytics for the smoke training, kivy for the UI).
$(VENV)/.test-stamp: $(VENV)/bin/activate pyproject.toml setup.py | $(VENV)/.build-stamp
	$(PIP) install -q -e '.[train,test,app]'
	touch $@ $(VENV)/.run-stamp

venv-run: $(VENV)/.run-stamp
venv: $(VENV)/.test-stamp

# The main job on the bundled model: count the show in every photo taken as the capture guide
# asks, recognise the hard ones (hard_*: tight fans, 13-card rows, one card close up) and the real
# photos (real_*: the real validation split, credited in sample_images/CREDITS.md), and end with
# one line judging every photo against its JSON sidecar.
demo: deps venv-run
	@for f in sample_images/*.jpg; do \
		case "$$(basename "$$f")" in hard_*|real_*) $(CRIB) recognize "$$f";; *) $(CRIB) show "$$f";; esac || exit $$?; echo; \
	done
	@$(CRIB) samples sample_images

test: deps venv firmware
	$(PY) -m pytest -q -n auto --dist loadgroup

# The LED board: firmware ELF/HEX for both geometries and the simavr harness, under
# hardware/*/build/ (gitignored).
firmware: deps
	$(MAKE) -s -C hardware/firmware GEOMETRY=3-track BAUD=115200
	$(MAKE) -s -C hardware/firmware GEOMETRY=2-track BAUD=115200
	$(MAKE) -s -C hardware/sim

# Rebuild the shipped models into models/ by replaying their recipe (vision/train/recipes/v10.toml:
# fixed seeds, no downloads, the real sets beside the checkout; about 10 h on 2 CPU cores, see
# models/MODEL.md "How to rebuild"). Data and runs go to build/recipes/v10/.
models: deps venv
	$(CRIB) train --out models

bench: venv
	$(PY) bench/rules.py

clean:
	rm -rf build .pytest_cache .hypothesis

# The tablet app: installs Kivy into the venv when it is missing, then starts it.
app: deps venv-run
	@$(PY) -c "import kivy" 2>/dev/null || $(PIP) install -q -e '.[app]'
	$(CRIB) app

# A PNG of every app screen (real rendering, headless) into docs/screenshots/.
screenshots: deps venv-run
	@$(PY) -c "import kivy" 2>/dev/null || $(PIP) install -q -e '.[app]'
	$(PY) -m companion.ui.screenshots docs/screenshots

# The package a player installs: the sdist and, built from it, the wheel (both carry the models
# and the sample photos) into build/dist/, from the committed tree (git archive HEAD). .ci/wheel
# installs the wheel a fresh clone's `make dist` builds in a fresh venv and runs it from another
# folder. Building needs only the build requirements (the version is read from the source).
dist: $(VENV)/.build-stamp
	rm -rf build/dist build/sdist-src && mkdir -p build/dist build/sdist-src
	git archive HEAD | tar -x -C build/sdist-src
	cd build/sdist-src && $(abspath $(PY)) -c 'import sys; from setuptools import build_meta as b; b.build_sdist(sys.argv[1])' ../dist
	$(PIP) wheel -q --no-deps --no-build-isolation -w build/dist build/dist/*.tar.gz
	rm -rf build/sdist-src
	@ls -l build/dist

# The README's figures block (between its figures markers), measured on this machine: the sample
# photos under crib's kernel and four others, the real validation photos under crib's (about a
# minute); figures-all runs the real photos under every kernel too (about 10 minutes on 2 cores).
figures: venv-run
	$(PY) bench/figures.py

figures-all: venv-run
	$(PY) bench/figures.py --real-kernels
