"""A course with a lesson being written (its text source alone, not built by `release` yet): every command works on
the built lessons, and one that names the new lesson says in one line to release it, never a traceback.

Before, collect took the new lesson for one whose hand-ins it must tell apart and failed every LMS file on its
missing notebook ("could not be read ... it may have been damaged on the way"), and `grade` ended in a
FileNotFoundError: the demo met it when its course held a lesson it borrowed reference code from.
"""

import shutil
import zipfile

import nbformat

from grader.course import text_source_in
from tests.results_by_hand import course_by_hand
from tests.support import COURSE, run_cli_here

BUILT, WRITTEN = "01_naive_division", "02_exp_evidence"


def test_a_lesson_not_built_yet_stops_nothing_and_is_named_in_one_line(tmp_path):
    course = course_by_hand(COURSE, tmp_path / "course", [BUILT], {})
    draft = text_source_in(course.root, WRITTEN)
    draft.parent.mkdir(parents=True)
    shutil.copy(COURSE.text_source(WRITTEN), draft)
    assert course.lesson_ids() == [BUILT, WRITTEN]
    handed_in = nbformat.writes(course.learner_notebook(BUILT, COURSE.reference_answers(BUILT)))
    with zipfile.ZipFile(tmp_path / "downloads.zip", "w") as archive:
        archive.writestr(f"ann_1_2_{BUILT}.ipynb", handed_in)
    (tmp_path / "ann.ipynb").write_text(handed_in)

    collected = run_cli_here("--course", course.root, "collect", "--from", tmp_path / "downloads.zip")
    assert collected.returncode == 0 and f"ann / {BUILT} <- ann_1_2_{BUILT}.ipynb" in collected.stdout
    assert "Could not place" not in collected.stdout, collected.stdout
    assert course.built_lessons() == [BUILT]
    graded = run_cli_here("--course", course.root, "grade", "--jobs", "1")
    assert graded.returncode == 0 and graded.stdout.startswith("Graded 1 submission(s)"), graded
    assert "1 lesson(s): 1 submission(s) expected, 1 handed in: 1 graded" in graded.stdout
    checked = run_cli_here("--course", course.root, "check", tmp_path / "ann.ipynb")
    assert checked.returncode == 0 and "Total: 15 / 15" in checked.stdout, checked
    for command in (["grade", WRITTEN], ["prove", "--lesson", WRITTEN], ["prove"]):
        ran = run_cli_here("--course", course.root, *command)
        assert ran.returncode == 2 and ran.stdout == "", (command, ran)
        assert ran.stderr == f"error: not built yet: {WRITTEN} (run `python -m grader release {WRITTEN}`)\n"
