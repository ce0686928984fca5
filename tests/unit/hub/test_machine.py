"""The hub's nbgrader settings select the strict exchange through nbgrader's own ExchangeFactory, and the
set-up's check of who can read a folder (no root needed)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from nbgrader.exchange import ExchangeFactory
from traitlets.config import Config

from grader.exchange import instructor, layout, student
from grader.hub.machine import exchange_settings, readable_by_others


def test_the_hub_s_settings_make_nbgrader_use_the_strict_exchange(tmp_path):
    config = Config()
    exec(exchange_settings("softmax", tmp_path), {"c": config})  # as nbgrader loads nbgrader_config.py
    factory = ExchangeFactory(config=config)
    assert (factory.submit, factory.fetch_assignment, factory.fetch_feedback, factory.list) == (
        student.Submit,
        student.FetchAssignment,
        student.FetchFeedback,
        student.List,
    )
    assert (factory.release_assignment, factory.collect, factory.release_feedback, factory.exchange) == (
        instructor.ReleaseAssignment,
        instructor.Collect,
        instructor.ReleaseFeedback,
        layout.StrictExchange,
    )
    assert config.Exchange.root == str(tmp_path) and config.CourseDirectory.course_id == "softmax"
    assert config.Authenticator.plugin_class == "nbgrader.auth.JupyterHubAuthPlugin"


def test_a_folder_is_readable_by_others_only_when_every_folder_above_lets_them_pass(tmp_path):
    assert not readable_by_others(tmp_path)  # pytest's own folder above it is its user's alone
    with tempfile.TemporaryDirectory(dir="/tmp") as top:
        check_below(Path(top))


def check_below(top: Path) -> None:
    inner = top / "outer" / "inner"
    inner.mkdir(parents=True)
    for folder in (top, inner.parent, inner):
        os.chmod(folder, 0o755)
    assert readable_by_others(inner)
    os.chmod(inner.parent, 0o750)
    assert not readable_by_others(inner)
    os.chmod(inner.parent, 0o755)
    os.chmod(inner, 0o751)
    assert not readable_by_others(inner)
