"""The text-source markers become nbgrader metadata, and malformed markers are refused."""
import pytest

from grader.course.authoring import AuthoringError, build_notebook

HEADER = "# %% [markdown]\n# Title\n\n"


def build(tmp_path, body):
    path = tmp_path / "lesson.py"
    path.write_text(HEADER + body)
    return build_notebook(path)


def test_markers_expand_to_nbgrader_metadata(tmp_path):
    nb = build(tmp_path, '# %% nbgrader="solution" grade_id="f"\ndef f():\n    return 1\n\n'
                         '# %% nbgrader="tests" grade_id="test_f" points=3\nassert f() == 1\n')
    solution, tests = nb.cells[1], nb.cells[2]
    assert solution.metadata.nbgrader == {"solution": True, "grade": False, "locked": False,
                                          "grade_id": "f", "schema_version": 3, "task": False}
    assert tests.metadata.nbgrader["points"] == 3 and tests.metadata.nbgrader["locked"]
    assert [c.id for c in nb.cells] == ["cell-00", "f", "test_f"]
    assert "jupytext" not in nb.metadata


@pytest.mark.parametrize("body, problem", [
    ('# %% nbgrader="answer" grade_id="a"\nx = 1\n', "unknown nbgrader kind"),
    ('# %% nbgrader="solution"\nx = 1\n', "grade_id missing"),
    ('# %% nbgrader="readonly" grade_id="a"\nx = 1\n\n# %% nbgrader="readonly" grade_id="a"\ny = 1\n', "repeated"),
    ('# %% nbgrader="tests" grade_id="t"\nassert True\n', "points go on tests cells"),
    ('# %% nbgrader="solution" grade_id="s" points=1\nx = 1\n', "points go on tests cells"),
    ('# %% grade_id="s"\nx = 1\n', "no nbgrader kind"),
])
def test_malformed_markers_are_refused(tmp_path, body, problem):
    with pytest.raises(AuthoringError, match=problem):
        build(tmp_path, body)
