"""The hub itself (issue 18, point 1): real Unix accounts, PAM logins with the generated passwords, nbgrader's
hub groups, formgrader as a service of the grader account, and students' servers whose kernels hold the
learner part of the package only."""

from __future__ import annotations

import grp
import json
import os
import pwd
import re
import stat
import sys

import pytest
import requests

from grader.hub.__main__ import main
from tests.hub.hubclient import run_in_kernel

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub, one worker


def test_without_root_the_hub_says_in_one_line_what_is_missing(hub):
    """Run for real as a student (a forked child that drops root), so nothing is pretended."""
    student = pwd.getpwnam(hub.people.student_names[0])
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        sys.stderr = os.fdopen(write, "w")
        os.setgid(student.pw_gid)
        os.setuid(student.pw_uid)
        code = main(["--root", "/nonexistent", "--prefix", "nobody-"])
        sys.stderr.flush()
        os._exit(code)
    os.close(write)
    _, status = os.waitpid(child, 0)
    said = os.read(read, 4096).decode()
    assert os.waitstatus_to_exitcode(status) == 2
    assert said.count("\n") == 1 and said.startswith("make hub needs root"), said


def test_the_accounts_are_real_unix_users_with_private_homes(hub):
    for name in hub.people.everyone:
        home = pwd.getpwnam(name).pw_dir
        assert stat.S_IMODE(os.stat(home).st_mode) == 0o700 and os.stat(home).st_uid == pwd.getpwnam(name).pw_uid
    assert set(grp.getgrnam(hub.people.group).gr_mem) == {hub.people.instructor, hub.people.grader}
    assert len(hub.people.student_names) == 30


def test_the_hub_groups_are_nbgrader_s(hub):
    def members(group: str) -> set[str]:
        found = hub.api("GET", f"/groups/{group}")
        assert found.status_code == 200, found.text
        return set(found.json()["users"])

    assert members(f"nbgrader-{hub.course}") == set(hub.people.student_names)
    assert members(f"formgrade-{hub.course}") == {hub.people.instructor, hub.people.grader}


def login(hub, user: str, password: str) -> requests.Response:
    """The hub's login form, as a browser posts it (with the form's xsrf token)."""
    session = requests.Session()
    page = session.get(f"{hub.url}/hub/login", timeout=30)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
    data = {"username": user, "password": password, **({"_xsrf": xsrf[1]} if xsrf else {})}
    return session.post(f"{hub.url}/hub/login", data=data, allow_redirects=False, timeout=60)


def test_a_person_logs_in_with_their_own_generated_password_only(hub):
    first, second = hub.people.student_names[:2]
    assert login(hub, first, hub.passwords[first]).status_code == 302
    assert login(hub, first, hub.passwords[second]).status_code == 403  # another's password
    assert login(hub, first, "").status_code == 403
    assert login(hub, hub.people.grader, "anything").status_code == 403  # the grader account never logs in


def test_formgrader_runs_as_the_grader_account_and_opens_for_the_instructor_only(hub):
    grader = pwd.getpwnam(hub.people.grader).pw_uid
    service = [pid for pid in os.listdir("/proc") if pid.isdigit() and owned_by(pid, grader)]
    commands = [open(f"/proc/{pid}/cmdline", "rb").read().decode() for pid in service]
    assert any(f"{hub.settings['instructor_env']}/bin/jupyterhub-singleuser" in c for c in commands), commands
    address = f"{hub.url}/services/{hub.course}/formgrader/api/assignments"
    instructor = {"Authorization": f"token {hub.token_of(hub.people.instructor)}"}
    student = {"Authorization": f"token {hub.token_of(hub.people.student_names[0])}"}
    seen = requests.get(address, headers=instructor, timeout=60)
    assert seen.status_code == 200, seen.text
    assert "01_naive_division" in [assignment["name"] for assignment in seen.json()], seen.text
    refused = requests.get(address, headers=student, timeout=60, allow_redirects=False)
    assert refused.status_code in (302, 403) and "01_naive_division" not in refused.text, refused.text


def owned_by(pid: str, uid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid == uid
    except FileNotFoundError:
        return False


KERNEL_PROBE = """
import json, sys, grader
rooms = {}
for name in ("grader.learner.checks", "grader.exchange.student", "grader.engine", "grader.course", "grader.proof",
             "grader.instructor", "grader.cli"):
    try:
        __import__(name)
        rooms[name] = "imported"
    except ImportError as error:
        rooms[name] = type(error).__name__
print(json.dumps({"prefix": sys.prefix, "package": grader.__path__[0], "rooms": rooms}))
"""


def test_a_students_kernel_on_the_hub_imports_the_learner_part_only(hub):
    student = hub.people.student_names[0]
    token = hub.token_of(student)
    hub.start_server(student)
    printed = run_in_kernel(hub, student, token, KERNEL_PROBE)
    seen = json.loads(printed.strip().splitlines()[-1])
    assert seen["prefix"] == hub.settings["student_env"]
    assert seen["package"].startswith(hub.settings["student_env"])
    assert seen["rooms"] == {
        "grader.learner.checks": "imported",
        "grader.exchange.student": "imported",
        "grader.engine": "ModuleNotFoundError",
        "grader.course": "ModuleNotFoundError",
        "grader.proof": "ModuleNotFoundError",
        "grader.instructor": "ModuleNotFoundError",
        "grader.cli": "ModuleNotFoundError",
    }


def test_a_students_server_hides_nbgrader_s_instructor_tools(hub):
    student = hub.people.student_names[0]
    token = hub.token_of(student)
    hub.start_server(student)
    assert hub.server(student, token, "GET", "/formgrader", allow_redirects=False).status_code == 404
    listed = hub.server(student, token, "GET", "/assignments", params={"course_id": hub.course})
    assert listed.status_code == 200 and listed.json()["success"], listed.text
