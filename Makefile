# Softmax, step by step: the two commands a newcomer needs are `make lab` and `make test`.
SHELL := /bin/bash
# The interpreter .venv is made from: the distribution's /usr/bin/python3 where it is 3.10 or newer and can make a
# venv, else python3 on PATH; PYTHON=... picks another (remove .venv first: `make clean` would also remove .grading,
# the class's gradebook). The distribution's comes first because the suite is CPU-bound and that build (profile-guided,
# link-time optimised) runs it in less CPU than a default one.
SYSTEM_PYTHON := /usr/bin/python3
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip; ensurepip.version(); sys.exit(sys.version_info < (3, 10))' \
	>/dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
endif
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
# nbgrader shells out to alembic, so the venv's bin/ must come first on PATH.
export PATH := $(BIN):$(PATH)

PORT ?= 8888
HEADLESS ?=
TOKEN ?=
TORCH ?=
# pytest-xdist workers: one more than the cores. Many tests wait (on kernels, time limits, a browser) rather than
# compute, so one worker per core would leave cores idle; past that, every worker more costs more in contention than
# it gains.
JOBS ?= $(shell echo $$(($$(nproc) + 1)))
WORK ?= work
FIRST_LESSON := 01_naive_division/01_naive_division.ipynb
LEARNER_LAB_CONFIG := .grading/learner-lab
# The hub's proxy (npm's configurable-http-proxy, jupyterhub-setup/package-lock.json); set before the rules that need it.
PROXY := jupyterhub-setup/node_modules/.bin/configurable-http-proxy
LAB_OPTIONS = --ServerApp.port=$(PORT) --ServerApp.port_retries=0 $(if $(HEADLESS),--no-browser) \
	$(if $(TOKEN),--IdentityProvider.token=$(TOKEN)) $(if $(filter 0,$(shell id -u)),--allow-root)
# One line, before Jupyter starts, when PORT is no port number or is taken (Jupyter would say it at the end of its
# start-up log); bound as Jupyter binds it, so a port a stopped server has just left counts as free.
PORT_FREE = @$(BIN)/python -c 'import socket, sys; s = socket.socket(); \
	s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' "$(PORT)" \
	2>/dev/null || { echo "make $@: port $(PORT) is taken or no port number: stop what serves it, or pick another with PORT=..." >&2; exit 2; }

.PHONY: lab test test-proof test-hub test-cluster test-journey hub test-fast lint check release fingerprints prove demo benchmark benchmark-hostile profile venv clean docs

venv: $(STAMP)

# A fresh environment whenever it is missing or requirements.txt / pyproject.toml changed.
$(STAMP): requirements.txt pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
	for extension in formgrader validate_assignment assignment_list course_list; do \
		$(BIN)/jupyter server extension enable --sys-prefix nbgrader.server_extensions.$$extension >/dev/null 2>&1 || exit 1; done
	$(BIN)/jupyter labextension enable @jupyter/nbgrader >/dev/null
	mkdir -p .grading/exchange
	touch $@

# JupyterLab for the learner, opened at lesson 01, in the git-ignored working folder WORK (default work/): the
# release is copied there on first use, and a notebook the learner started is never overwritten (a newer release
# of it goes beside it, and this says so). nbgrader's instructor tools are hidden in this lab, and its Assignments
# tab fetches into and submits from WORK (settings written per launch into $(LEARNER_LAB_CONFIG)).
# PORT=8888 picks the port; HEADLESS=1 starts no browser; TOKEN=... fixes the login token; TORCH=1 installs the
# optional extra `torch` first (the lessons' PyTorch cells; requirements.txt pins it, so .venv mostly has it already).
lab: $(STAMP)
	$(PORT_FREE)
	$(if $(filter-out 0,$(TORCH)),$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.txt -e '.[torch]')
	mkdir -p .grading/exchange
	$(BIN)/python -m grader workspace --into "$(WORK)" --lab-config $(LEARNER_LAB_CONFIG)
	JUPYTER_CONFIG_PATH="$(CURDIR)/$(LEARNER_LAB_CONFIG)$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH))" \
		$(BIN)/jupyter lab --ServerApp.root_dir="$(WORK)" --LabApp.default_url=/lab/tree/$(FIRST_LESSON) $(LAB_OPTIONS)

# JupyterLab for the instructor on the whole course directory, with nbgrader's Formgrader, Create Assignment
# sidebar and course list.
.PHONY: lab-instructor
lab-instructor: $(STAMP)
	$(PORT_FREE)
	mkdir -p .grading/exchange
	$(BIN)/jupyter lab --ServerApp.root_dir=. $(LAB_OPTIONS)

# The suite but the proof of the tests against the catalogue and the mutants (test-proof), the hub's tests
# (test-hub), the cluster's (test-cluster) and the docs' journeys (test-journey); the 25 slowest tests are
# listed at the end.
# The suite starts many Python processes from the same sources: they keep compiled bytecode (and pytest its
# rewritten test modules) in the git-ignored __pycache__ folders, even where the environment says not to write it.
test test-fast test-proof test-hub test-cluster test-journey: export PYTHONDONTWRITEBYTECODE :=

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup -m "not proof and not hub and not cluster and not journey" --durations=25

# The tests that read one `grader prove --mutate` run (every misconception, alternative and mutant graded;
# the run itself uses every core, so pytest needs no workers here).
test-proof: $(STAMP)
	$(BIN)/python -m pytest -m proof --durations=10

# The course's JupyterHub for real (as root: Unix accounts of their own prefix, a folder of its own under /srv,
# all removed at the end, pass or fail), one hub shared by the tests, so no xdist workers.
test-hub: $(STAMP) $(PROXY)
	$(BIN)/python -m pytest -m hub tests/hub --durations=10

# The course's JupyterHub on http://127.0.0.1:$(HUB_PORT), as root: accounts (an instructor, the course's grader
# account, STUDENTS students, names starting with HUB_PREFIX), the hub's folder HUB_ROOT (the course
# directory, the exchange, the student and instructor environments), then JupyterHub in the foreground.
# The generated passwords are in $(HUB_ROOT)/passwords.json (root only).
HUB_PORT ?= 8000
HUB_PREFIX ?= sm-
HUB_ROOT ?= /srv/softmax-hub
STUDENTS ?= 2
hub: $(STAMP) $(PROXY)
	$(BIN)/python -m grader.hub --port $(HUB_PORT) --prefix $(HUB_PREFIX) --root $(HUB_ROOT) --students $(STUDENTS)

# The hub's proxy, npm's configurable-http-proxy at the version jupyterhub-setup/package-lock.json pins, installed in
# that folder's node_modules (the folder holds what JupyterHub itself runs with: its settings file and its proxy).
$(PROXY): jupyterhub-setup/package.json jupyterhub-setup/package-lock.json
	npm ci --prefix jupyterhub-setup --no-audit --no-fund --silent
	touch $@

# The tests of grading on a cluster: a Dask scheduler and workers, and a PostgreSQL gradebook, each started by the
# test as processes of this machine (docs/howto/cluster.md); one at a time, since each uses every core.
test-cluster: $(STAMP)
	$(BIN)/python -m pytest -m cluster --durations=10

# The docs' journeys as a newcomer walks them (tests/journey): each test clones this checkout's HEAD into a
# temporary folder, with this venv in it (bind-mounted read-only as root, never built again), types the tutorials'
# and how-to pages' commands there as written and looks at what they print and serve, in Chromium too
# (artifacts/journey/). Two workers: the three journeys mostly wait on kernels and servers.
test-journey: $(STAMP)
	rm -rf artifacts/journey
	$(BIN)/python -m pytest -n 2 -m journey tests/journey --durations=10

# The day-to-day loop (under a minute): the tests marked `fast` (`pytestmark = pytest.mark.fast` in their module),
# which start no kernel and run no nbgrader.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) -m fast

# The documentation site in docs/_build/html (open index.html there; Sphinx with MyST-NB, docs/conf.py): the pages of
# docs/, each lesson's release executed into the course's pages (docs/course_pages.py), the command line's reference
# from its parsers. Nothing is fetched; a warning, a broken link between pages included, fails the build.
docs: $(STAMP)
	$(BIN)/sphinx-build -q -W --keep-going -b html docs docs/_build/html

# ruff (lint and format) over the package, the tests, the testbed, the benchmarks and the site's scripts, and mypy
# over the package (all configured in pyproject.toml): no findings.
lint: $(STAMP)
	$(BIN)/ruff check grader tests testbed benchmarks jupyterhub-setup docs
	$(BIN)/ruff format --check grader tests testbed benchmarks jupyterhub-setup docs
	$(BIN)/mypy

# The browser tests (JupyterLab under Debian's chromium): a screenshot of every step in artifacts/browser/,
# and the docs' pictures of the temperature slider and the class report (docs/images/) taken again.
.PHONY: screenshots
screenshots: $(STAMP)
	rm -rf artifacts/browser
	$(BIN)/python -m pytest -n $(JOBS) tests/browser
	mkdir -p docs/images
	cp artifacts/browser/04_temperature-slider-cold.png docs/images/temperature-slider.png
	cp artifacts/browser/class-report-first-screen.png docs/images/class-report.png

# Grade one notebook with the lesson's full tests: make check NB=notebooks/01_naive_division/01_naive_division.ipynb
check: $(STAMP)
	@test -n "$(NB)" || { echo "usage: make check NB=path/to/lesson.ipynb" >&2; exit 2; }
	$(BIN)/python -m grader check "$(NB)"

# Rebuild solutions/*/*.ipynb from their text sources and regenerate notebooks/ with nbgrader.
release: $(STAMP)
	$(BIN)/python -m grader release

# What each catalogued misconception does on its function's probes, computed from its code (grader/proof/catalogue/)
# and written as data into the learner room (grader/learner/hints/fingerprints/): run it after changing a misconception,
# a probe or a reference; tests/unit/proof/test_fingerprints.py fails until then.
fingerprints: $(STAMP)
	$(BIN)/python -m grader.proof.fingerprints

# Grade every catalogued misconception, correct alternative and mechanical mutant with nbgrader; rewrite the tables of
# docs/reference/proof.md.
prove: $(STAMP)
	$(BIN)/python -m grader prove --mutate --page

# A simulated class of 30 through release, submit, collect, grade, feedback, export and report (.grading/demo/),
# a course directory of its own; it ends with the command that opens the class in formgrader.
demo: $(STAMP)
	$(BIN)/python -m grader.proof.demo

# Formgrader on a course directory, e.g. the demo class: make formgrader COURSE=.grading/demo (default: this course).
# Jupyter starts inside COURSE, whose nbgrader_config.py formgrader reads, and lands on formgrader's Manage
# Assignments; JupyterLab, with nbgrader's tools, is at /lab. PORT, HEADLESS and TOKEN as for make lab.
COURSE ?= .
.PHONY: formgrader
formgrader: $(STAMP)
	@test -f "$(COURSE)/nbgrader_config.py" || \
		{ echo "make formgrader: $(COURSE) holds no nbgrader_config.py (make demo builds .grading/demo)" >&2; exit 2; }
	$(PORT_FREE)
	mkdir -p "$(COURSE)/.grading/exchange"
	cd "$(COURSE)" && $(BIN)/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/formgrader \
		--ServerApp.jpserver_extensions=nbgrader.server_extensions.formgrader=True $(LAB_OPTIONS)

# Plain `nbgrader autograde` against `grader grade` on the same classes of 48, 240 and 480 submissions, three runs
# each (about 2 h on 2 cores): identical scores, time, CPU and peak memory; figures in .grading/benchmark.json and
# docs/reference/performance.md.
benchmark: $(STAMP)
	$(BIN)/python benchmarks/autograde.py --json .grading/benchmark.json --page

# Where one grading's wall time goes (kernel ready, learner cells, test cells, nbgrader steps, writing).
LESSON ?= 06_masking
ANSWERS ?= reference
profile: $(STAMP)
	$(BIN)/python benchmarks/profile.py --lesson $(LESSON) --answers $(ANSWERS)

# Every hostile submission graded by plain `nbgrader autograde` and by `grader grade`, side by side (~5 min);
# the table in docs/reference/hostile.md, its figures in .grading/hostile.json.
benchmark-hostile: $(STAMP)
	$(BIN)/python benchmarks/hostile.py --json .grading/hostile.json --page

clean:
	rm -rf $(VENV) .grading .pytest_cache
