"""The grading service's exchange agent (grader.instructor.exchange_steps): a process forked by root that becomes
another account for good, holds nothing of root's, and answers one JSON line per step."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from grader.course import Course
from grader.instructor.exchange_steps import ExchangeAgent, ExchangeStepFailed

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="forking an agent of another account needs root (CI is)")
NOBODY = pwd.getpwnam("nobody")


def status_of(pid: int) -> dict[str, list[str]]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {key: value.split() for key, value in (line.split(":", 1) for line in lines)}


def bare_course(folder: Path) -> Course:
    """A course directory with nothing in it (in root's own temporary folder, which nobody cannot enter)."""
    (folder / "nbgrader_config.py").write_text("c = get_config()\n")
    (folder / "solutions").mkdir()
    return Course(folder)


@pytest.fixture
def agent(tmp_path):
    started = ExchangeAgent(bare_course(tmp_path), "nobody")
    assert started.receipts([]) == {}  # it answers: what it does before its first answer is done
    yield started
    started.close()


def test_the_agent_is_the_account_for_good_in_its_user_group_and_groups(agent):
    status = status_of(agent.pid)
    assert status["Uid"] == [str(NOBODY.pw_uid)] * 4  # real, effective, saved and file-system alike: no way back
    assert status["Gid"] == [str(NOBODY.pw_gid)] * 4
    assert status["Groups"] == [str(NOBODY.pw_gid)]  # none of root's


def test_the_agent_holds_no_file_descriptor_of_root_s_but_its_pipes(tmp_path):
    kept = open(tmp_path / "roots-file", "w")  # as the service holds its journal, a zygote's socket
    try:
        agent = ExchangeAgent(bare_course(tmp_path), "nobody")
        try:
            agent.receipts([])
            held = os.listdir(f"/proc/{agent.pid}/fd")
            assert sorted(map(int, held))[:3] == [0, 1, 2] and len(held) == 5, held  # and its two pipes
            targets = {os.readlink(f"/proc/{agent.pid}/fd/{number}") for number in held}
            assert str(tmp_path / "roots-file") not in targets
        finally:
            agent.close()
    finally:
        kept.close()


def test_a_step_that_fails_is_one_line_and_the_agent_answers_the_next(agent):
    with pytest.raises(ExchangeStepFailed, match="nbgrader_config.py"):
        agent.listing(["01_naive_division"])  # root's folder, closed to nobody: the error, one line
    with pytest.raises(ExchangeStepFailed, match="no such step"):
        agent.call("__init__", "elsewhere")  # only the steps are answered
    assert agent.receipts([]) == {}


def test_the_agent_ends_when_the_service_closes_its_pipe(tmp_path):
    agent = ExchangeAgent(bare_course(tmp_path), "nobody")
    agent.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(agent.pid, os.WNOHANG)  # reaped already
