"""What the public checks alone catch: an entry graded with the release's test cells, as nbgrader's Validate
runs them for a learner (the visible checks, hidden tests stripped).

`prove` grades each entry with the lesson's full tests. The learner's Validate button (and `nbgrader validate`)
runs the release instead, whose test cells hold the visible checks only. So a copy of the course is written under
.grading/public-checks/ whose source notebooks carry the release's test cells: the engine's lesson gradebook then
holds the visible checks alone, and its OverwriteCells puts back exactly what the learner's notebook runs. An entry
is caught by the public checks when a test cell of that grading scores below its points: the rule by which
Validate lists a failed cell (nbgrader's Validator._get_failed_cells), so the figure is what Validate would say.

A misconception that no public check can catch without giving the exercise away, or that only a hidden test's
generated or extreme inputs expose, is recorded in LEFT_TO_HIDDEN_TESTS with the reason.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat

from grader.course import Course, read_cached
from grader.course.directory import CONFIG, source_notebook_in, text_source_in
from grader.engine.scores import Report
from grader.engine.testrunner import is_test_cell

FOLDER = "public-checks"  # under the course's .grading/

SMALL_INTS = (
    "only integer arrays of 8 or 16 bits show it (NumPy gives them float16 or float32, or wraps them around), "
    "an input no beginner passes; the hidden tests' dtype checks catch it"
)
HUGE_INTS = (
    "only integers whose total passes 9.2e18 show it (NumPy's int64 sum wraps around), an input no beginner "
    "passes; the hidden tests' huge integers catch it"
)
# Misconception id -> why the visible checks leave it to the hidden tests (prove reports each with its reason).
LEFT_TO_HIDDEN_TESTS: dict[str, str] = {
    # 01_naive_division
    "naive_takes_abs": "a visible check of negative scores would give away the graded prediction of section 7 "
    "(the weight of the score -2), which comes after the exercise",
    "naive_guards_zero_sum": "a visible check of a zero sum would give away section 8's prediction (what dividing "
    "by 0 gives), which comes after the exercise",
    "naive_int_sum_wraps": HUGE_INTS,
    "dist_int_sum_wraps": HUGE_INTS,
    # 02_exp_evidence
    "evidence_exp_of_small_ints": SMALL_INTS,
    "evidence_flushes_tiny": "its evidence differs from exp's by less than 1e-300, which no value comparison sees; "
    "the hidden test requires every evidence to be positive",
    "ratio_int_difference": SMALL_INTS,
    # 03_shared_denominator
    "softmax_exp_of_small_ints": SMALL_INTS,
    # 04_temperature
    "swt_keeps_dtype": "only float16 scores show it, an input no beginner passes; the hidden tests' dtypes catch it",
    "snt_draws_first": "at T = 0 it returns the right index; only the generator's state, compared before and "
    "after the call by the hidden test, shows the draw",
    # 06_masking
    "causal_counts_down_in_place": "only an n given as a 0-d NumPy array shows it, an input no beginner passes",
    "causal_precomputed_512": "right for every n up to 512, so for any mask a learner can read; the hidden test "
    "asks for a longer one",
    "masked_finfo_min_fill": "right weights; it warns only when a row's largest score passes about 1e292, which "
    "the hidden test of quiet runs checks",
    # 07_attention
    "aw_power_of_weights": "it differs only for keys wider than about 700, where the weights it loses are below "
    "1e-13; the hidden test of wide keys catches it",
    # 08_log_softmax
    "logsumexp_no_cast": SMALL_INTS,
    "log_softmax_no_cast": SMALL_INTS,
    "cross_entropy_no_cast": SMALL_INTS,
    # 09_gradient
    "numgrad_int_nudge_vanishes": "only an integer x shows it, an input type the visible checks leave out so that "
    "they weigh the idea (a detail-only mistake loses at most a fifth); the hidden details cell catches it",
    "numgrad_result_like_x": "only an integer x shows it (a float x makes a float result), an input type the visible "
    "checks leave out so that they weigh the idea; the hidden details cell catches it",
    "vjp_float32_becomes_float64": "only float32 inputs show it, a dtype the visible checks leave out so that they "
    "weigh the idea (a detail-only mistake loses at most a fifth); the hidden details cell catches it",
    "cegrad_exp_minus_lse": "its error (in the fifth digit) shows only on rows near ±1e12, within the tolerance "
    "a check widens for inputs that large; the hidden test sets its own",
    "cegrad_integer_shift_wraps": SMALL_INTS,
    # 10_online_softmax
    "online_keeps_chunks": "only a stream that overwrites one buffer with each chunk shows it, which the hidden "
    "test builds; a visible one would add a class to the check",
    "online_list_of_views": "only a stream that overwrites one buffer with each chunk shows it, which the hidden "
    "test builds; a visible one would add a class to the check",
}


def public_course(course: Course, lessons: list[str]) -> Course:
    """A course directory of `lessons` whose source notebooks' test cells are the release's (hidden tests stripped),
    under the course's .grading/; a file already up to date is left alone, so its lesson gradebook stays cached."""
    root = course.grading / FOLDER
    _write(root / CONFIG, (course.root / CONFIG).read_bytes())
    for lesson in lessons:
        release = read_cached(course.release_notebook(lesson))
        _write(text_source_in(root, lesson), course.text_source(lesson).read_bytes())
        _write(source_notebook_in(root, lesson), nbformat.writes(with_release_tests(course, lesson)).encode())
        _write(root / course.release_notebook(lesson).relative_to(course.root), nbformat.writes(release).encode())
    return Course(root)


def with_release_tests(course: Course, lesson: str) -> nbformat.NotebookNode:
    """The lesson's source notebook with each test cell's code as the release has it."""
    released = {
        cell.metadata["nbgrader"]["grade_id"]: cell.source
        for cell in read_cached(course.release_notebook(lesson)).cells
        if is_test_cell(cell)
    }
    nb = copy.deepcopy(read_cached(course.source_notebook(lesson)))
    for cell in nb.cells:
        if is_test_cell(cell):
            cell.source = released[cell.metadata["nbgrader"]["grade_id"]]
    return nb


def _write(path: Path, data: bytes) -> None:
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_suffix(path.suffix + ".tmp")
    staged.write_bytes(data)
    staged.replace(path)


def caught(report: Report | BaseException) -> bool | None:
    """Whether a public check failed (Validate would list a failed cell); None when the grading failed."""
    if isinstance(report, BaseException):
        return None
    return any(not test.passed for test in report.tests)
