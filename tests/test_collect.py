"""Collecting LMS downloads into nbgrader's submitted/ layout: folders and zips, odd names, duplicates."""
from __future__ import annotations

import os
import time
import zipfile

import nbformat
import pytest

from grader import course
from grader.collect import collect_downloads

LESSON = "01_naive_division"


def notebook(answers=None) -> str:
    return nbformat.writes(course.learner_notebook(LESSON, answers or {}))


@pytest.fixture
def course_dir(tmp_path):
    root = tmp_path / "course"
    source = course.source_notebook(LESSON, root)
    source.parent.mkdir(parents=True)
    source.write_bytes(course.source_notebook(LESSON).read_bytes())
    course.text_source(LESSON, root).write_text("# the text source marks the lesson\n")
    return root


def test_a_folder_per_student_is_placed_by_folder_name(course_dir, tmp_path):
    downloads = tmp_path / "downloads"
    for student in ("ana", "ben"):
        (downloads / student).mkdir(parents=True)
        (downloads / student / "my work.ipynb").write_text(notebook())
    log = collect_downloads(downloads, course_dir)
    assert sorted((s, lesson) for s, lesson, _ in log.placed) == [("ana", LESSON), ("ben", LESSON)]
    for student in ("ana", "ben"):
        folder = course_dir / ".grading" / "submitted" / student / LESSON
        assert (folder / f"{LESSON}.ipynb").is_file() and (folder / "timestamp.txt").is_file()


def test_the_latest_of_two_versions_wins_and_the_choice_is_logged(course_dir, tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    old, new = downloads / "cat_1_1_first.ipynb", downloads / "cat_1_2_second.ipynb"
    new.write_text(notebook(course.reference_answers(LESSON)))
    old.write_text(notebook())
    now = time.time()
    os.utime(old, (now - 3600, now - 3600))
    log = collect_downloads(downloads, course_dir)
    assert log.placed == [("cat", LESSON, "cat_1_2_second.ipynb")]
    assert log.superseded == [("cat", LESSON, "cat_1_1_first.ipynb", "cat_1_2_second.ipynb")]
    placed = nbformat.read(course_dir / ".grading" / "submitted" / "cat" / LESSON / f"{LESSON}.ipynb", as_version=4)
    assert "raise NotImplementedError" not in "".join(c.source for c in placed.cells)
    assert "kept cat_1_2_second.ipynb, not cat_1_1_first.ipynb" in log.render()


def test_files_that_cannot_be_placed_are_listed_with_reasons_and_kept(course_dir, tmp_path):
    archive = tmp_path / "downloads.zip"
    odd = {"../../evil_1_1.ipynb": notebook(),            # a path that climbs out: only its name counts
           "x" * 200 + "_1.ipynb": notebook(),            # an absurdly long student id
           "dan_1_1_empty.ipynb": "",
           "eli_1_1_broken.ipynb": "{not json",
           "fay_1_1_notes.txt": "hello",
           "nounderscore.ipynb": notebook(),
           "gus_1_1_other.ipynb": nbformat.writes(nbformat.v4.new_notebook())}
    with zipfile.ZipFile(archive, "w") as zf:
        for name, text in odd.items():
            zf.writestr(name, text)
    log = collect_downloads(archive, course_dir)
    reasons = dict(log.unplaced)
    assert log.placed == []
    assert "not a usable student id" in reasons["../../evil_1_1.ipynb"]
    assert "not a usable student id" in reasons["x" * 200 + "_1.ipynb"]
    assert reasons["dan_1_1_empty.ipynb"] == "an empty file, not a notebook"
    assert "not valid JSON" in reasons["eli_1_1_broken.ipynb"]
    assert reasons["fay_1_1_notes.txt"] == "not a notebook (.txt)"
    assert "no student id" in reasons["nounderscore.ipynb"]
    assert "not a notebook of a known lesson" in reasons["gus_1_1_other.ipynb"]
    kept = list((course_dir / ".grading" / "unplaced").iterdir())
    assert len(kept) == len(odd) and all(".." not in p.name and len(p.name) <= 120 for p in kept)
    assert not (course_dir.parent / "evil").exists() and not list(course_dir.parent.glob("*.ipynb"))


def test_an_unplaced_file_never_overwrites_another(course_dir, tmp_path):
    for text in ("first", "second"):
        downloads = tmp_path / text
        downloads.mkdir()
        (downloads / "notes.txt").write_text(text)
        collect_downloads(downloads, course_dir)
    kept = sorted(p.read_text() for p in (course_dir / ".grading" / "unplaced").iterdir())
    assert kept == ["first", "second"]
