"""`make lab` serves JupyterLab on the learner's working folder, at lesson 01, without the instructor's tools;
`make lab-instructor` serves the course directory with them."""

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from urllib.error import HTTPError, URLError

import pytest

from grader.course import workspace
from tests.support import COURSE

pytestmark = pytest.mark.xdist_group("learner-lab")  # its tests share a module-scoped fixture (tests/conftest.py)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:  # a loaded machine answers slowly
        return response.status, response.read()


# Never rebuild the venv from a test (`-o`): take it as it is.
MAKE = ["make", "--no-print-directory", "-o", ".venv/.installed"]
FIRST = f"{COURSE.lesson_ids()[0]}/{COURSE.lesson_ids()[0]}.ipynb"


class Lab:
    """`make <target> HEADLESS=1` on a free port with a fixed token, in the repository, until stopped."""

    def __init__(self, target, tmp_path, *options):
        self.port, self.token = free_port(), "softmax-test"
        self.log = tmp_path / f"{target}.log"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [*MAKE, target, "HEADLESS=1", f"PORT={self.port}", f"TOKEN={self.token}", *options],
                cwd=COURSE.root,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 120  # as long as the browser tests give it: a few seconds, more on busy cores
        while True:
            try:
                status, _ = get(self.url("lab"))
                assert status == 200
                return
            except (URLError, ConnectionError, TimeoutError):
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < deadline, "JupyterLab did not answer within 120 s"
                time.sleep(0.5)

    def url(self, path):
        return f"{self.base}/{path}{'&' if '?' in path else '?'}token={self.token}"

    def status(self, path) -> int:
        try:
            return get(self.url(path))[0]
        except HTTPError as error:
            return error.code

    def json(self, path):
        return json.loads(get(self.url(path))[1])

    def post(self, path):
        request = urllib.request.Request(self.url(path), data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=300) as response:  # a Validate runs the whole lesson
            return json.loads(response.read())

    def disabled_plugins(self) -> list[str]:
        """The JupyterLab plugins this lab's page turns off (its page config)."""
        page = get(self.url("lab"))[1].decode()
        config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
        assert config, page[:500]
        return json.loads(config[1])["disabledExtensions"]

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def redirect_of(url) -> str:
    """Where the server sends a browser that opens `url`."""
    try:
        urllib.request.build_opener(NoRedirect).open(url, timeout=30)
    except HTTPError as error:
        return error.headers["Location"]
    raise AssertionError(f"{url} does not redirect")


def snapshot(folder) -> dict:
    """Each file under `folder` (none when it does not exist) with its size and modification time."""
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()}


# What nbgrader logged, in the learner's lab, at each look at the Assignments tab: it found its settings nowhere.
NO_SETTINGS = "No nbgrader_config.py file found"
# A line Jupyter ("[W 2026-..."), nbgrader ("[NbGrader | WARNING]") or a kernel ("[IPKernelApp] WARNING") logs
WARNING_LINE = re.compile(
    r"^\[(?:[WEC] |[^\]\n]*\b(?:WARNING|ERROR|CRITICAL)\b|[^\]\n]*\] (?:WARNING|ERROR|CRITICAL)\b)", re.M
)


@pytest.fixture(scope="module")
def learner_lab(tmp_path_factory):
    """`make lab` with its working folder in a temporary place (WORK=...), so the repository gets none."""
    tmp = tmp_path_factory.mktemp("learner-lab")
    repository_work = snapshot(COURSE.root / workspace.DEFAULT_FOLDER)  # the user's own, after a `make lab`
    lab = Lab("lab", tmp, f"WORK={tmp / 'work'}")
    lab.work = tmp / "work"
    lab.repository_work_before = repository_work
    yield lab
    lab.stop()


def test_make_lab_serves_the_working_folder_and_opens_lesson_01(learner_lab):
    _, listing = get(learner_lab.url("api/contents"))
    assert COURSE.lesson_ids()[0] in {item["name"] for item in json.loads(listing)["content"]}
    assert (learner_lab.work / FIRST).is_file() and (learner_lab.work / workspace.RECORD).is_file()
    assert snapshot(COURSE.root / workspace.DEFAULT_FOLDER) == learner_lab.repository_work_before  # untouched
    # The root URL, and the one printed for a headless start, go to lesson 01, not to the Launcher.
    assert redirect_of(learner_lab.url("")) == f"/lab/tree/{FIRST}?token={learner_lab.token}"
    printed = learner_lab.log.read_text()
    assert f"http://127.0.0.1:{learner_lab.port}/lab/tree/{FIRST}?token=" in printed
    assert "lesson file(s) into" in printed  # the workspace step ran and said what it did
    assert learner_lab.status(f"lab/tree/{FIRST}") == 200


def test_the_learners_lab_hides_the_instructor_tools(learner_lab):
    assert set(learner_lab.disabled_plugins()) >= set(workspace.INSTRUCTOR_PLUGINS)
    assert learner_lab.status("formgrader/api/assignments") == 404
    assert learner_lab.status("formgrader") == 404
    # What the learner needs stays: the nbgrader Validate button's and the Assignments tab's server parts.
    assert learner_lab.status("assignments") == 400  # the assignment list answers (it wants its arguments)
    assert "@jupyter/nbgrader:validate-assignment" not in learner_lab.disabled_plugins()


def test_the_learners_lab_logs_no_warning_through_the_assignments_tab_and_a_validate(learner_lab):
    """nbgrader in the lab reads the course's settings with the working folder as where lessons are, so it neither
    warns nor fetches outside it; Validate's kernel runs encrypted, so ipykernel does not warn either."""
    course = COURSE.nbgrader_settings().CourseDirectory.course_id
    start = learner_lab.log.read_text()
    started = len(start)  # what the module's other tests asked (a 404 for formgrader, say) is logged before
    assert NO_SETTINGS not in start and not WARNING_LINE.findall(start[: start.index("is running at:")]), start
    listed = learner_lab.json(f"assignments?course_id={course}")
    assert listed["success"], listed
    validated = learner_lab.post(f"assignments/validate?path={FIRST}")
    assert validated["success"] and "failed" in validated["value"], validated  # the release's stubs fail
    log = learner_lab.log.read_text()[started:]
    assert NO_SETTINGS not in log
    assert not WARNING_LINE.findall(log), log


def test_make_lab_instructor_shows_formgrader_and_every_lesson(tmp_path):
    lab = Lab("lab-instructor", tmp_path)
    try:
        assert not set(lab.disabled_plugins()) & set(workspace.INSTRUCTOR_PLUGINS)
        # nbgrader's server extensions are on: formgrader sees every lesson as an assignment.
        assert {a["name"] for a in lab.json("formgrader/api/assignments")} >= set(COURSE.lesson_ids())
        names = {item["name"] for item in lab.json("api/contents")["content"]}
        assert {"solutions", "notebooks", "nbgrader_config.py"} <= names
    finally:
        lab.stop()


def make_plan(*args):
    """The commands `make` would run (dry run), as one string."""
    run = subprocess.run(
        ["make", "--no-print-directory", "-n", *args], capture_output=True, text=True, cwd=COURSE.root, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_venv_is_rebuilt_only_when_requirements_change():
    assert "-m venv" not in make_plan("lab")
    for changed in ("requirements.txt", "pyproject.toml"):
        plan = make_plan("-W", changed, "lab")
        assert "rm -rf .venv" in plan and "-m venv .venv" in plan and "-r requirements.txt" in plan
        assert "jupyter server extension enable" in plan and "jupyter lab" in plan
