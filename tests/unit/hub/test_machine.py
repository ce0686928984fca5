"""The hub's nbgrader settings select the strict exchange through nbgrader's own ExchangeFactory, the course
directory's let nbgrader's API start in a shell of the grader account, and the set-up's check of who can read a
folder (no root needed); and where the checkout keeps what JupyterHub itself runs with."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from nbgrader.exchange import ExchangeFactory
from traitlets.config import Config

from grader.exchange import instructor, layout, student
from grader.hub import machine
from grader.hub.machine import course_settings, exchange_settings, readable_by_others
from tests.support import COURSE


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


def test_the_course_directory_s_settings_let_nbgrader_s_api_start_outside_a_hub_server(tmp_path, monkeypatch):
    """`grader release` and `grade` make nbgrader's API, which lists the exchange and asks the authenticator for the
    user's courses: with the people's settings that needs a server's JUPYTERHUB_USER, which a shell has not."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.auth.jupyterhub import JupyterhubEnvironmentError

    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    (tmp_path / "softmax" / "outbound").mkdir(parents=True)
    people, course = Config(), Config()
    exec(exchange_settings("softmax", tmp_path), {"c": people})
    exec(course_settings("softmax", tmp_path), {"c": course})
    with pytest.raises(JupyterhubEnvironmentError):
        NbGraderAPI(config=people)
    api = NbGraderAPI(config=course)
    assert api.course_id == "softmax" and not api.exchange_missing
    assert ExchangeFactory(config=course).release_assignment is instructor.ReleaseAssignment


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


def test_jupyterhub_s_own_files_sit_in_a_folder_named_apart_from_the_package_s_rooms():
    """jupyterhub_config.py and the proxy's npm package live in a top-level folder whose name is no room's
    (grader/hub/ is the set-up), where the set-up and the Makefile look for them."""
    root = COURSE.root
    assert (root / machine.CONFIG).is_file()
    assert (root / machine.JUPYTERHUB_FILES / "package-lock.json").is_file()
    rooms = {folder.name for folder in (root / "grader").iterdir() if (folder / "__init__.py").is_file()}
    assert "hub" in rooms and not rooms & {folder.name for folder in root.iterdir() if folder.is_dir()}
    assert re.search(r"^PROXY := (.*)$", (root / "Makefile").read_text(), re.M)[1] == str(machine.PROXY)
