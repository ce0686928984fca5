"""Nobody reads what is not theirs (issue 18, point 2), each shown as the real Unix users of the hub: a student
cannot list, read, overwrite, rename or delete another's submission, cannot hand one in under another's name,
cannot read another's feedback, and cannot reach the course (solutions, gradebook, hidden tests), the
instructors' environment or anyone's home by any path. Each refusal has its control: the owner, or the
instructors' group, can."""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import pytest
import requests

from tests.hub.hubclient import ATTEMPTS, LESSON, entries_of, write_marker
from tests.support import COURSE

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub, one worker


@pytest.fixture(scope="module")
def pair(hub, released):
    """Students 1 and 2, each with lesson 01 fetched and submitted through their own server; s1's submission."""
    first, second = hub.people.student_names[:2]
    for student in (first, second):
        token = hub.token_of(student)
        hub.start_server(student)
        hub.assignment(student, token, "fetch")
        write_marker(hub, student, token, f"# handed in by {student}")
        hub.assignment(student, token, "submit")
    [entry] = entries_of(hub, first)[-1:]
    return first, second, entry


def attempts(hub, user: str, tries: dict[str, str], kind: str = "student") -> dict[str, str]:
    """{label: outcome} of each expression in `tries`, evaluated as `user`."""
    code = ATTEMPTS + f"tries = {tries!r}\nseen = {{label: attempt(lambda e=e: eval(e)) for label, e in tries.items()}}"
    return hub.probe_as(user, code, kind)


def test_a_student_cannot_list_inbound_or_feedback_but_reads_the_releases(hub, pair):
    _, second, _ = pair
    exchange = hub.exchange
    seen = attempts(
        hub,
        second,
        {
            "inbound": f"listing({str(exchange / 'inbound')!r})",
            "feedback": f"listing({str(exchange / 'feedback')!r})",
            "outbound": f"listing({str(exchange / 'outbound' / LESSON)!r})",
        },
    )
    assert seen == {"inbound": "PermissionError", "feedback": "PermissionError", "outbound": "listed 1"}


def test_a_student_cannot_read_anothers_submission_which_its_owner_and_the_instructors_can(hub, pair):
    first, second, entry = pair
    tries = {
        "notebook": f"read({str(entry / (LESSON + '.ipynb'))!r})",
        "secret": f"read({str(entry / 'submission_secret.txt')!r})",
        "folder": f"listing({str(entry)!r})",
    }
    assert set(attempts(hub, second, tries).values()) == {"PermissionError"}
    for reader, kind in ((first, "student"), (hub.people.grader, "instructor"), (hub.people.instructor, "instructor")):
        seen = attempts(hub, reader, tries, kind)
        assert seen["notebook"].startswith("read ") and seen["secret"] == "read 128 bytes", (reader, seen)
        assert seen["folder"] == "listed 3", (reader, seen)


def test_a_student_cannot_overwrite_rename_or_delete_anothers_submission(hub, pair):
    _, second, entry = pair
    notebook = entry / f"{LESSON}.ipynb"
    before = notebook.read_bytes()
    seen = attempts(
        hub,
        second,
        {
            "overwrite": f"open({str(notebook)!r}, 'wb').close()",
            "add a file": f"open({str(entry / 'extra.ipynb')!r}, 'wb').close()",
            "rename": f"os.rename({str(entry)!r}, {str(entry.parent / 'taken')!r})",
            "delete the file": f"os.unlink({str(notebook)!r})",
            "delete the folder": f"os.rmdir({str(entry)!r})",
        },
    )
    assert set(seen.values()) == {"PermissionError"}, seen
    assert notebook.read_bytes() == before and sorted(p.name for p in entry.iterdir()) == sorted(
        [f"{LESSON}.ipynb", "submission_secret.txt", "timestamp.txt"]
    )


FORGE = """
import os, shutil
folder = os.path.join({inbound!r}, {name!r})
os.mkdir(folder)
with open(os.path.join(folder, {notebook!r}), "w") as f:
    f.write(open({source!r}).read().replace("handed in by", "FORGED by"))
with open(os.path.join(folder, "timestamp.txt"), "w") as f:
    f.write("2099-01-01 00:00:00.000000 UTC")
seen = sorted(os.listdir(folder))
"""


def test_a_submission_under_another_students_name_is_never_collected(hub, pair):
    first, second, _ = pair
    name = f"{first}+{LESSON}+2099-01-01 00:00:00.000000 UTC+forged"
    own_copy = f"{os.path.expanduser('~' + second)}/{hub.course}/{LESSON}/{LESSON}.ipynb"
    forged = hub.probe_as(
        second,
        FORGE.format(inbound=str(hub.exchange / "inbound"), name=name, notebook=f"{LESSON}.ipynb", source=own_copy),
    )
    assert forged == [f"{LESSON}.ipynb", "timestamp.txt"]  # made: anyone may create a folder in inbound
    try:
        done = hub.nbgrader_as_grader("collect", LESSON, "--update")
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"handed in under the name {first} by {second}" in done.stdout + done.stderr
        collected = collected_notebook(hub, first).read_text()
        assert f"handed in by {first}" in collected and "FORGED" not in collected
    finally:
        hub.probe_as(second, f"import shutil\nshutil.rmtree({str(hub.exchange / 'inbound' / name)!r})\nseen = 0")


def collected_notebook(hub, student: str) -> Path:
    return Path(hub.settings["course_dir"]) / ".grading" / "submitted" / student / LESSON / f"{LESSON}.ipynb"


WRITE_FEEDBACK = """
import os, shutil
submitted = {submitted!r}
folder = {feedback!r}
os.makedirs(folder, exist_ok=True)
for name in ("timestamp.txt", "submission_secret.txt"):
    shutil.copy(os.path.join(submitted, name), folder)
with open(os.path.join(folder, {page!r}), "w") as f:
    f.write("<html>feedback for {student}</html>")
seen = sorted(os.listdir(folder))
"""


def test_feedback_reaches_its_own_student_only(hub, pair):
    first, second, _ = pair
    done = hub.nbgrader_as_grader("collect", LESSON, "--update")
    assert done.returncode == 0, done.stderr
    course = hub.settings["course_dir"]
    submitted = collected_notebook(hub, first).parent
    feedback = f"{course}/.grading/feedback/{first}/{LESSON}"
    hub.probe_as(
        hub.people.grader,
        WRITE_FEEDBACK.format(submitted=str(submitted), feedback=feedback, page=f"{LESSON}.html", student=first),
        kind="instructor",
    )
    released = hub.nbgrader_as_grader("release_feedback", LESSON, "--student", first)
    assert released.returncode == 0, released.stdout + released.stderr
    [page] = list((hub.exchange / "feedback").glob("*.html"))
    acl = subprocess.run(["getfacl", "--omit-header", page], capture_output=True, text=True, check=True).stdout
    assert f"user:{first}:r--" in acl and "other::---" in acl, acl
    assert attempts(hub, second, {"page": f"read({str(page)!r})"}) == {"page": "PermissionError"}
    token = hub.token_of(first)
    hub.assignment(first, token, "fetch_feedback")
    fetched = list((pwd_home(first) / hub.course / LESSON / "feedback").glob(f"*/{LESSON}.html"))
    assert [p.read_text() for p in fetched] == [f"<html>feedback for {first}</html>"]


def pwd_home(user: str) -> Path:
    return Path(pwd.getpwnam(user).pw_dir)


def test_a_student_cannot_reach_the_course_the_instructors_tools_or_any_home(hub, pair):
    first, second, _ = pair
    course = hub.settings["course_dir"]
    lesson_source = f"solutions/{LESSON}/{LESSON}.ipynb"
    package = hub.settings["instructor_env"] + "/lib/python3.11/site-packages/grader"
    paths = {
        "course": f"listing({course!r})",
        "solutions": f"listing({course + '/solutions'!r})",
        "a solution by its path": f"read({course + '/' + lesson_source!r})",
        "the gradebook": f"read({course + '/.grading/gradebook.db'!r})",
        "the hidden tests' cache": f"listing({course + '/.grading/cache'!r})",
        "the instructors' package": f"listing({package!r})",
        "the proof room": f"listing({package + '/proof'!r})",
        "the hub's settings": f"read({str(hub.root / 'hub.json')!r})",
        "the passwords": f"read({str(hub.root / 'passwords.json')!r})",
        "the hub's state": f"listing({str(hub.root / 'state')!r})",
        "the instructor's home": f"listing({str(pwd_home(hub.people.instructor))!r})",
        "the grader's home": f"listing({str(pwd_home(hub.people.grader))!r})",
        "another student's home": f"listing({str(pwd_home(first))!r})",
        "the checkout": f"listing({str(COURSE.root)!r})",
        "the checkout's solutions": f"read({str(COURSE.root / lesson_source)!r})",
    }
    seen = attempts(hub, second, paths)
    assert seen == dict.fromkeys(paths, "PermissionError")
    control = attempts(hub, hub.people.instructor, {"solutions": f"listing({course + '/solutions'!r})"}, "instructor")
    assert control["solutions"].startswith("listed ")


def test_the_set_up_closed_the_checkout_and_said_so(hub):
    """The checkout holds the solutions and is often readable by all: the hub keeps its own copy and closes it."""
    said = hub.settings["said"]
    assert COURSE.root.stat().st_mode & 0o007 == 0
    if hub.checkout_mode & 0o007:
        closed = f"closed the checkout to other users (chmod o= {COURSE.root}): the hub uses its own copy"
        assert closed in said, said  # among what the set-up said (the lessons it generated come first)


def test_formgrader_releases_and_collects_through_the_strict_exchange(hub, pair):
    """The instructor's buttons in formgrader (its REST API, as the instructor): the release and the collect run
    in the grader account's service, with the hub's exchange classes."""
    _, second, _ = pair
    lesson = "02_exp_evidence"
    instructor = {"Authorization": f"token {hub.token_of(hub.people.instructor)}"}
    api = f"{hub.url}/services/{hub.course}/formgrader/api/assignment/{lesson}"
    released = requests.post(f"{api}/release", headers=instructor, timeout=300)
    assert released.status_code == 200 and released.json()["success"], released.text
    release = hub.exchange / "outbound" / lesson
    assert pwd.getpwuid(release.stat().st_uid).pw_name == hub.people.grader
    token = hub.token_of(second)
    hub.assignment(second, token, "fetch", lesson)
    hub.assignment(second, token, "submit", lesson)
    [entry] = entries_of(hub, second, lesson)
    assert {mode_of(p) for p in entry.iterdir()} == {0o640} and mode_of(entry) == 0o750
    collected = requests.post(f"{api}/collect", headers=instructor, timeout=300)
    assert collected.status_code == 200 and collected.json()["success"], collected.text
    submitted = Path(hub.settings["course_dir"]) / ".grading" / "submitted" / second / lesson
    assert (submitted / f"{lesson}.ipynb").read_bytes() == (entry / f"{lesson}.ipynb").read_bytes()


def mode_of(path: Path) -> int:
    return path.stat().st_mode & 0o7777
