"""nbgrader's calls as the engine and collect make them: its failure said in its most telling line, the
instructor's Ctrl-C given back as one, and its chatter on stderr shown only when the step fails."""

from __future__ import annotations

import os

import pytest

from grader.course.nbgrader_calls import GradingFailed, quiet_stderr, require_success

LOG = """[CollectApp | ERROR] Traceback (most recent call last):
  File "nbgrader/apps/baseapp.py", line 1, in start
OSError: [Errno 28] No space left on device
nbgrader.apps.baseapp.NbGraderException: nbgrader step failed"""


def test_a_failed_step_names_its_cause_and_a_ctrl_c_stays_one():
    require_success({"success": True}, "collect")
    with pytest.raises(GradingFailed, match=r"^nbgrader collect failed: OSError: \[Errno 28\] No space left"):
        require_success({"success": False, "log": LOG}, "collect")
    with pytest.raises(GradingFailed, match="nbgrader collect failed: no details$"):
        require_success({"success": False}, "collect")
    with pytest.raises(KeyboardInterrupt):
        require_success({"success": False, "error": "Traceback ...\nKeyboardInterrupt"}, "collect")


def test_chatter_is_kept_off_stderr_unless_the_step_fails(capfd):
    with quiet_stderr():
        os.write(2, b"kept off\n")
    with pytest.raises(ValueError), quiet_stderr():
        os.write(2, b"shown when it fails\n")
        raise ValueError
    assert capfd.readouterr().err == "shown when it fails\n"
