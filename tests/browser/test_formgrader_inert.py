"""An instructor opens a hostile submission in formgrader, and nothing it carries runs (grader/engine/inert.py).

The submission (testbed/hostile's scripts_everywhere) answers right and carries a script in every place a page
may show: HTML, JavaScript, Markdown, SVG, LaTeX and widget displays, image data and output metadata, a Markdown
cell of HTML, `javascript:` links, an iframe, a refresh and an attachment, cell tags, alt text and a title. It is
graded with `python -m grader grade` beside an ordinary student and one whose status (an invalid notebook) quotes
a tag of markup, and the course opened with `make formgrader`. Every payload, if it ran, would set a global, the
page's title and ask CANARY for a page.
"""

from __future__ import annotations

import pytest
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from grader.course import Course
from testbed.hostile.grading import grade
from testbed.hostile.lesson import LESSON, notebook, released_course, submit
from testbed.hostile.scripts import CANARY, MARKDOWN_HEADING, PWNED, SHOWN_HTML, scripts_everywhere
from tests.browser.conftest import screenshot, started_by_make
from tests.support import COURSE

pytestmark = pytest.mark.xdist_group("formgrader-inert")  # both tests open the one class in the one formgrader

HOSTILE = "scripts_everywhere"
SHOWN_TEST = "test_naive_normalize_public"  # a test cell formgrader shows with its score (2 points)
# A tag nbformat refuses (it holds a comma), quoted by the status "invalid notebook", which grading writes as the
# submission's comment; nbgrader's feedback renders the comment as Markdown. Written to run as quoted (no ' there).
FLAGGED = "invalid_tag"
REFUSED_TAG = f'<img src=x onerror="window.{PWNED}=1;fetch(this.dataset.u)" data-u="{CANARY}/comment">,'


def with_refused_tag(nb) -> None:
    nb.cells[0].metadata["tags"] = [REFUSED_TAG]


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory, chromium):
    """Lesson 01 released, the hostile submissions and an ordinary one graded, and formgrader started on them."""
    folder = tmp_path_factory.mktemp("hostile-formgrader")
    root = released_course(folder / "course")
    submit(root, HOSTILE, scripts_everywhere())
    submit(root, "ordinary", notebook())
    submit(root, FLAGGED, notebook(edit=with_refused_tag))
    grade(root, folder / "grade.txt")
    assert (folder / "grade.txt").read_text().startswith("0\n"), (folder / "grade.txt").read_text()
    with Gradebook(Course(root).nbgrader_settings().CourseDirectory.db_url) as gradebook:
        graded = gradebook.find_submission_notebook(LESSON, LESSON, HOSTILE)
        submission, score = graded.id, graded.score
    assert score == 12, "it answers right"
    command = ["make", "formgrader", f"COURSE={root}"]
    server = started_by_make(command, folder, root, folder / "formgrader.log", cwd=COURSE.root)
    yield server, root, submission
    server.stop()


def watched(tab) -> list[str]:
    """The addresses of CANARY the tab asks for from now on (a payload that ran asks for one)."""
    asked: list[str] = []
    tab.on("request", lambda request: asked.append(request.url) if request.url.startswith(CANARY) else None)
    return asked


def nothing_ran(tab, asked: list[str], title: str) -> None:
    """No payload ran in the tab: no global, its own title, no request to CANARY, no frame but its own."""
    tab.wait_for_load_state("networkidle")  # the payloads run on events of the load (error, toggle, refresh)
    assert not asked, f"payloads ran (each asks for its own address): {sorted(set(asked))}"
    assert tab.evaluate(f"() => window.{PWNED} === undefined"), tab.evaluate(f"() => window.{PWNED}")
    assert tab.title() == title
    assert [frame.url for frame in tab.frames] == [tab.url]


def test_the_grading_page_of_a_hostile_submission_runs_none_of_its_scripts(tab, hostile_class):
    server, _, submission = hostile_class
    tab.goto(server.url("formgrader/manage_assignments"))  # logged in, as formgrader's own requests need
    asked = watched(tab)
    address = f"{server.base}/formgrader/submissions/{submission}/"
    tab.goto(address)
    nothing_ran(tab, asked, LESSON)
    assert tab.url == address  # no refresh took the page elsewhere
    expect(tab.locator(f"input.score#{SHOWN_TEST}")).to_have_attribute("placeholder", "2")  # formgrader's own scripts
    notebook_area = tab.get_by_role("main")  # the notebook, inside formgrader's page
    expect(notebook_area.get_by_role("heading", name=MARKDOWN_HEADING)).to_be_visible()
    expect(notebook_area.locator("b", has_text=SHOWN_HTML)).to_be_visible()
    expect(notebook_area).to_contain_text("<script>")  # the learner's markup, shown as text
    assert notebook_area.locator("[href^='javascript:' i], [src^='javascript:' i]").count() == 0
    links = notebook_area.locator("a:not([href^='http'])")
    assert links.count() > 0, "the learner's links are shown"
    for index in range(links.count()):  # what an instructor may click
        links.nth(index).click()
    nothing_ran(tab, asked, LESSON)
    screenshot(tab, "formgrader-hostile-submission")


def test_nbgraders_feedback_generated_in_formgrader_runs_none_of_its_scripts(tab, hostile_class):
    """formgrader's Generate Feedback renders each autograded notebook into a page of its own, for its student,
    with the status of a flagged one as its first comment."""
    server, root, _ = hostile_class
    tab.goto(server.url("formgrader/manage_assignments"))
    row = tab.locator("#main-table tr", has=tab.locator("td.name", has_text=LESSON))
    row.locator("td.generate-feedback a").click()
    success = tab.locator("#success-modal")
    expect(success).to_contain_text("Successfully generated feedback")
    feedback = root / ".grading" / "feedback"
    asked = watched(tab)
    tab.goto((feedback / HOSTILE / LESSON / f"{LESSON}.html").as_uri())
    nothing_ran(tab, asked, LESSON)
    expect(tab.get_by_role("heading", name=MARKDOWN_HEADING)).to_be_visible()
    expect(tab.locator("b", has_text=SHOWN_HTML)).to_be_visible()
    expect(tab.locator("body")).to_contain_text(f"{LESSON} (Score: 12.0 / ")  # its functions' 12 points
    screenshot(tab, "formgrader-hostile-feedback")
    tab.goto((feedback / FLAGGED / LESSON / f"{LESSON}.html").as_uri())
    nothing_ran(tab, asked, LESSON)
    expect(tab.locator("body")).to_contain_text(f"invalid notebook: not a valid Jupyter notebook ('{REFUSED_TAG}'")
