"""The hub as docs/howto/hub.md tells it (issue 41), in a fresh copy of the checkout, every command and button read
from the page's blocks (`<!-- journey: hub -->`, `hub-instructor`, `hub-student`; tests/support.journey_commands), never
copied here, so that the page and this test cannot disagree:

- `make hub` with the page's line, then Ctrl-C: once set up, it stops and starts again within 5 s;
- lesson 01 through formgrader's own buttons in Chromium (Release, Collect, each student's Autograde, Generate and
  Release Feedback), while the two students, real Unix users logged in through the hub's form, fetch, answer,
  validate and submit in JupyterLab's Assignment List (the second one the stubs first), then fetch their feedback
  and open it: full marks, and no line of a hidden test or of the solution;
- lesson 02 through the grader account's commands, typed into the shell the page opens (`su - sm-grader`): release,
  collect, grade, nbgrader's feedback; one student hands in the answer, one the stubs;
- Ctrl-C with everyone's server running: within 5 s, nothing of the hub's accounts left, and no error in the log;
- `python -m grader.hub --remove` says what it removed and gives the checkout its mode back.

A screenshot of the first screen of each page goes to the git-ignored artifacts/hub/ (01-formgrader.png, ...)."""

from __future__ import annotations

import html
import pwd
import re
import secrets
import shlex
import shutil
import subprocess
from itertools import count
from pathlib import Path

import pytest
import requests
from nbgrader.api import Gradebook
from playwright.sync_api import expect

from grader.hub import accounts
from tests.browser.conftest import screenshot
from tests.hub.autograding import until
from tests.hub.conftest import free_ports, lacking
from tests.hub.hubbrowser import log_in, open_assignment_list, panel
from tests.hub.hubclient import entries_of, notebook_path
from tests.hub.readme_hub import README_LESSON, ReadmeHub, fresh_copy
from tests.support import COURSE, journey_commands, marked_lines

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]  # one hub at a time, one worker
SHOTS = COURSE.root / "artifacts" / "hub"
SLOW = 300_000  # ms: a server's start, a validation or an autograde, on two loaded cores
WITHIN_S = 5  # the hub's start once set up, and its stop (issue 41)
COMMAND_LINE_LESSON = "02_exp_evidence"  # the page's commands, on a lesson the buttons did not touch
BUTTON = re.compile(r"(?P<page>Manage \w+), (?P<row>[^:]+): (?P<button>.+)")  # a formgrader step of the hub page
STEP = re.compile(r"(?P<panel>[^,]+), (?P<item>[^:]+): (?P<action>.+)")  # a student's step of the hub page
# What a hub's log holds when something went wrong; the critical lines of a stop (the hub's and each server's
# signal) excepted.
TROUBLE = re.compile(
    r"Traceback|\w+Error\b|Exception|^\[E |^\[C (?!.*(Received signal SIGINT|received signal 15, stopping))", re.M
)
SHOT = count(1)
HEADERS, ROWS = "table:has(#main-table) > thead th", "#main-table > tr"  # formgrader's table (#main-table: its body)


@pytest.fixture(scope="module")
def journey(tmp_path_factory):
    """A hub of two students started by the hub page's `make hub` in a fresh copy of the checkout; at the end stopped
    and removed, pass or fail (whatever the last test left)."""
    lacking()
    shutil.rmtree(SHOTS, ignore_errors=True)  # this run's screenshots and logs only
    SHOTS.mkdir(parents=True)
    people = accounts.Accounts(f"smj{secrets.token_hex(2)}-", 2)
    readme_hub = ReadmeHub(
        checkout=fresh_copy(tmp_path_factory.mktemp("clone") / "softmax"),
        people=people,
        root=Path(f"/srv/softmax-hub-test-{people.prefix.rstrip('-')}"),
        port=free_ports(4 + 2 + len(people.student_names)),
        logs=SHOTS,
    )
    try:
        readme_hub.start()
        yield readme_hub
    finally:
        readme_hub.stop()
        readme_hub.end_proxy()
        accounts.remove(people)
        shutil.rmtree(readme_hub.root, ignore_errors=True)
        print(f"make hub's output: {readme_hub.log_files}")


def hub_of(journey):
    return journey.hub(checkout_mode=0o755)


def nothing_left_running(journey) -> list[int]:
    """Processes of the hub's accounts (servers, kernels, formgrader, the autograder), and the proxy, still alive: a
    zombie has ended (one whose parent ended first waits for this machine's first process to collect it)."""
    left = [
        pid
        for pid in accounts.processes_of({pwd.getpwnam(name).pw_uid for name in journey.people.everyone})
        if not ended(pid)
    ]
    proxy = journey.root / "state" / "proxy.pid"
    if proxy.exists() and Path(f"/proc/{proxy.read_text().strip()}").exists():
        left.append(int(proxy.read_text()))
    return left


def nothing_left_within(journey, seconds: float) -> bool:
    """Whether nothing_left_running finds nothing within `seconds` (a process whose parent has ended may take a
    moment to see it: the autograder's forkserver and resource tracker end when their pipe closes); if something is
    still left then, an AssertionError naming each one's command line."""

    def left() -> str:
        return "left running: " + "; ".join(f"{pid} {command_line(pid)}" for pid in nothing_left_running(journey))

    return until(lambda: not nothing_left_running(journey), seconds, left)


def ended(pid: int) -> bool:
    """Whether the process has ended: gone, or a zombie (state Z in /proc/PID/stat)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "(ended meanwhile)"


def test_once_set_up_the_hub_stops_and_starts_again_within_5_s(journey):
    stopped = journey.stop()
    assert stopped < WITHIN_S, f"Ctrl-C took {stopped:.1f} s to stop the hub"
    assert nothing_left_within(journey, WITHIN_S - stopped)
    took, waited = journey.start()
    print(f"the hub started in {took:.1f} s, {waited:.1f} s of it waiting for a CPU that others held")
    assert took - waited < WITHIN_S, f"{took:.1f} s, of which {waited:.1f} s waiting for a CPU"
    assert requests.get(f"{journey.url}/hub/login", timeout=30).status_code == 200
    formgrader = requests.get(f"{journey.url}/services/{hub_of(journey).course}/formgrader", timeout=30)
    assert formgrader.status_code == 200 and "/hub/login" in formgrader.url  # up, and asks who it is


def scores(hub, lesson: str) -> tuple[float, dict[str, float]]:
    """The lesson's top score, and each student's score in the course's gradebook."""
    with Gradebook(f"sqlite:///{hub.settings['course_dir']}/.grading/gradebook.db") as gradebook:
        assignment = gradebook.find_assignment(lesson)
        return assignment.max_score, {s.student.id: s.score for s in assignment.submissions}


# Formgrader, in the instructor's browser.


def shot(page, step: str) -> None:
    screenshot(page, f"{next(SHOT):02d}-{step}", folder=SHOTS)


def role(user: str) -> str:
    """`user` without the run's random prefix: screenshots keep their names from run to run."""
    return user.rsplit("-", 1)[-1]


def cell(page, row, column: str):
    """The cell of `row` under the column headed `column`, in formgrader's table."""
    expect(page.locator(HEADERS).first).to_be_visible(timeout=SLOW)
    headers = [header.strip() for header in page.locator(HEADERS).all_inner_texts()]
    assert column in headers, f"formgrader has no column {column!r}: {headers}"
    return row.locator("td").nth(headers.index(column))


def lesson_row(page, lesson: str):
    row = page.locator(ROWS, has=page.locator("td", has_text=re.compile(f"^{lesson}$")))
    expect(row).to_have_count(1, timeout=SLOW)
    return row


def press(page, row, button: str, name: str) -> None:
    """The button in `row`'s column `button`; formgrader's window must say it succeeded. Its screenshot, then OK."""
    cell(page, row, button).locator("a").click()
    said = page.locator("#success-modal, #error-modal")
    expect(said).to_have_count(1, timeout=SLOW)
    assert said.get_attribute("id") == "success-modal", said.inner_text()
    expect(said).to_contain_text("Successfully")
    expect(said).to_have_css("opacity", "1")  # faded in: what the instructor reads
    shot(page, name)
    said.get_by_role("button", name="OK").click()
    expect(said).to_have_count(0)


def on_page(page, hub, wanted: str, lesson: str) -> None:
    """Formgrader at `wanted`: Manage Assignments from its menu, a lesson's Manage Submissions from the lesson's
    number of submissions, as the hub page says."""
    if wanted == "Manage Assignments":
        page.goto(f"{hub.url}/services/{hub.course}/formgrader/manage_assignments")
    else:
        page.goto(f"{hub.url}/services/{hub.course}/formgrader/manage_assignments")
        cell(page, lesson_row(page, lesson), "# Submissions").locator("a").click()
    expect(page.get_by_role("heading", name=wanted, exact=True)).to_be_visible(timeout=SLOW)


def press_in_formgrader(page, hub, steps: list[re.Match], lesson: str) -> None:
    """The hub page's formgrader steps: on each page, the button of the lesson's row, or of every student's."""
    for step in steps:
        on_page(page, hub, step["page"], lesson)
        name = f"{step['button'].lower().replace(' ', '-')}"
        if step["row"] == "every student":
            rows = page.locator(ROWS)
            expect(rows).to_have_count(len(hub.people.student_names), timeout=SLOW)
            for n in range(rows.count()):
                student = rows.nth(n).locator("td").nth(1).inner_text().strip()
                press(page, rows.nth(n), step["button"], f"{name}-{role(student)}")
        else:
            assert step["row"] == lesson, step.group(0)
            press(page, lesson_row(page, lesson), step["button"], name)


# The Assignment List, in each student's browser.


def assignment_list(browser, hub, student: str):
    """`student` logged in, their server started by the hub, and the Nbgrader menu's Assignment List open."""
    page = log_in(browser, hub, student, "/hub/")
    expect(page).to_have_url(re.compile(f"/user/{student}/lab"), timeout=SLOW)
    open_assignment_list(page)
    return page


def act(page, hub, student: str, step: re.Match, submitted: int = 0, answers: dict | None = None) -> None:
    """One of the hub page's student steps, as `student` does it; `submitted`: how many hand-ins the Submitted panel
    lists after a Submit; `answers`: what an answer step writes (the reference's, the lesson's answers)."""
    lesson, action, here = step["item"], step["action"], panel(page, step["panel"])
    name = f"{role(student)}-{action.split(',')[0].lower().replace(' ', '-')}"
    if step["panel"] == "File Browser":
        write_answers(page, hub, student, step["item"], answers or COURSE.reference_answers(README_LESSON))
    elif action == "Fetch":
        expect(here).to_contain_text(lesson, timeout=SLOW)
        here.get_by_role("button", name="Fetch").click()
        expect(panel(page, "Downloaded assignments")).to_contain_text(lesson, timeout=SLOW)
        shot(page, name)
    elif action == "Validate":
        notebooks = here.locator(".assignment-notebooks")
        if not notebooks.is_visible():
            here.locator("a.assignment-notebooks-link").click()
        notebooks.get_by_role("button", name="Validate").click()
        dialog = page.locator(".jp-Dialog")
        expect(dialog).to_contain_text("Success! Your notebook passes all the tests.", timeout=SLOW)
        shot(page, name)
        dialog.get_by_role("button", name="Ok").click()
        expect(dialog).to_have_count(0)
    elif action == "Submit":
        here.get_by_role("button", name="Submit").first.click()
        listed = panel(page, "Submitted assignments").locator(".nested_list_item")
        expect(listed).to_have_count(submitted, timeout=SLOW)
        shot(page, f"{name}-{submitted}")
    else:
        raise AssertionError(f"a step of the hub page this test does not know: {step.group(0)}")


def write_answers(page, hub, student: str, path: str, answers: dict[str, str]) -> None:
    """The notebook at `path` (in the student's home) replaced, through their own server's contents API with their
    session cookie, by the release with `answers` filled in: what typing them and saving leaves."""
    [xsrf] = [c["value"] for c in page.context.cookies() if c["name"] == "_xsrf" and c["path"] == f"/user/{student}/"]
    address = f"{hub.url}/user/{student}/api/contents/{path}"
    assert page.context.request.get(address).status == 200, f"the hub page's {path} is not where Fetch put it"
    saved = page.context.request.put(
        address,
        data={"type": "notebook", "format": "json", "content": COURSE.learner_notebook(README_LESSON, answers)},
        headers={"X-XSRFToken": xsrf},
    )
    assert saved.status == 200, saved.text()


def read_feedback(page, hub, student: str, step: re.Match, score: str, secret: list[str]) -> None:
    """The hub page's last step: Fetch Feedback, then (view feedback), which opens the feedback's folder in the file
    browser; its page, opened in a tab of its own as the file browser's Open in New Browser Tab does, shows the
    score and the checks' messages, and no line of a hidden test or of the solution."""
    # The list's own refresh button: a reload of the whole lab would drop its open connections, which the hub's proxy
    # logs as an uncaught ECONNRESET.
    page.get_by_title("Refresh assignments list").click()
    submitted = panel(page, step["panel"])
    expect(submitted).to_contain_text("feedback available to fetch", timeout=SLOW)
    submitted.get_by_role("button", name=step["action"]).click()
    view = submitted.get_by_text("(view feedback)")
    expect(view).to_have_count(1, timeout=SLOW)
    expect(submitted.locator(".nested_list_item").last).to_contain_text("(view feedback)")
    shot(page, f"{role(student)}-feedback-fetched")
    view.click()
    page_file = f"{step['item']}.html"
    expect(page.locator(".jp-DirListing-item", has_text=page_file)).to_have_count(1, timeout=SLOW)
    crumbs = page.locator(".jp-FileBrowser .jp-BreadCrumbs").inner_text()
    folder = f"{hub.course}/{step['item']}/feedback/" + crumbs.strip("/ \n").rsplit("/", 1)[-1].strip()
    tab = page.context.new_page()
    tab.goto(f"{hub.url}/user/{student}/files/{folder}/{page_file}")
    feedback = tab.locator("body")
    expect(feedback).to_contain_text(score, timeout=SLOW)
    expect(feedback).to_contain_text("the public checks passed")
    shot(tab, f"{role(student)}-feedback")
    text = html.unescape(feedback.inner_text())
    assert not [line for line in secret if line in text], student


def autograder_commands(journey) -> tuple[str, dict[str, str]]:
    """The hub page's autograder block with this hub's names: the grader account's shell, and each command by its
    option (--pause, --resume, --status)."""
    shell, *lines = [journey.on_this_hub(line) for line in journey_commands("hub-autograder")]
    return shell, {line.split()[-1]: line for line in lines}


def test_lesson_01_through_formgrader_s_buttons_and_the_students_assignment_list(browser, journey):
    hub, lesson = hub_of(journey), README_LESSON
    shell, autograder = autograder_commands(journey)  # grading by hand: the page says to pause the autograder first
    paused = typed(journey, shell, autograder["--pause"])
    assert paused.returncode == 0 and "Grading is paused since" in paused.stdout, paused.stdout + paused.stderr
    buttons = [step for line in journey_commands("hub-instructor") if (step := BUTTON.fullmatch(line))]
    steps = {step["action"].split(",")[0]: step for step in map(STEP.fullmatch, journey_commands("hub-student"))}
    assert list(steps) == ["Fetch", "answer", "Validate", "Submit", "Fetch Feedback"], list(steps)
    collect = next(n for n, step in enumerate(buttons) if step["button"] == "Collect")
    instructor = log_in(browser, hub, hub.people.instructor, f"/services/{hub.course}/formgrader")
    expect(instructor).to_have_url(re.compile(r"/formgrader/manage_assignments"), timeout=SLOW)
    expect(lesson_row(instructor, lesson)).to_contain_text("draft")
    shot(instructor, "formgrader")
    press_in_formgrader(instructor, hub, buttons[:collect], lesson)
    expect(cell(instructor, lesson_row(instructor, lesson), "Status")).to_have_text("released")

    first, second = hub.people.student_names
    pages = {first: assignment_list(browser, hub, first), second: assignment_list(browser, hub, second)}
    for name in ("Fetch", "answer", "Validate"):
        act(pages[first], hub, first, steps[name])
    act(pages[first], hub, first, steps["Submit"], submitted=1)
    act(pages[second], hub, second, steps["Fetch"])  # the second student hands in the stubs, then the answer
    act(pages[second], hub, second, steps["Submit"], submitted=1)
    for name in ("answer", "Validate"):
        act(pages[second], hub, second, steps[name])
    act(pages[second], hub, second, steps["Submit"], submitted=2)
    stubs, _ = entries_of(hub, second, lesson)
    assert "raise NotImplementedError" in (stubs / f"{lesson}.ipynb").read_text()

    press_in_formgrader(instructor, hub, buttons[collect:], lesson)
    on_page(instructor, hub, "Manage Assignments", lesson)
    expect(cell(instructor, lesson_row(instructor, lesson), "# Submissions")).to_have_text("2")
    on_page(instructor, hub, "Manage Submissions", lesson)
    top, _ = scores(hub, lesson)
    assert top > 0
    rows = instructor.locator(ROWS)
    expect(rows).to_have_count(2)
    for n in range(rows.count()):  # each student's latest hand-in (the answer) graded, and full marks
        expect(cell(instructor, rows.nth(n), "Status")).to_have_text("graded")
        expect(cell(instructor, rows.nth(n), "Score")).to_have_text(f"{top:g} / {top:g}")
    shot(instructor, "manage-submissions")

    for student, page in pages.items():
        score = f"{lesson} (Score: {top:.1f} / {top:.1f})"
        read_feedback(page, hub, student, steps["Fetch Feedback"], score, secret_lines(lesson))


def secret_lines(lesson: str) -> list[str]:
    """Every hidden test's and solution's line that a student handing in the reference's answers did not write."""
    answered = COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson))
    handed_in = "\n".join(notebook_cell.source for notebook_cell in answered.cells)
    # a hidden test's line that a visible check repeats word for word is in the release: no secret
    hidden = marked_lines("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS", [lesson])
    solution = marked_lines("### BEGIN SOLUTION", "### END SOLUTION", [lesson])
    secret = [line for line in hidden + solution if line not in handed_in]
    assert len(secret) > 10, secret
    return secret


# The command line, as the grader account.


def typed(journey, shell: str, command: str) -> subprocess.CompletedProcess:
    """`command` typed into the shell the page's first line opens (as a login shell, it reads the account's
    ~/.profile: the course directory, the instructors' environment)."""
    return subprocess.run(
        shlex.split(shell), input=f"{command}\n", capture_output=True, text=True, timeout=900, cwd=journey.checkout
    )


def hand_in(hub, student: str, lesson: str, answered: bool) -> str:
    """`student` fetches `lesson` in their own server and submits it, answered or as fetched; their token."""
    token = hub.token_of(student)
    hub.start_server(student)
    hub.assignment(student, token, "fetch", lesson)
    if answered:
        notebook = COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson))
        saved = hub.server(
            student,
            token,
            "PUT",
            notebook_path(hub, lesson),
            json={"type": "notebook", "format": "json", "content": notebook},
        )
        assert saved.status_code == 200, saved.text
    hub.assignment(student, token, "submit", lesson)
    return token


def test_lesson_02_through_the_grader_account_s_commands(journey):
    hub, lesson = hub_of(journey), COMMAND_LINE_LESSON
    commands = [line for line in journey_commands("hub-instructor") if not BUTTON.fullmatch(line)]
    shell, *lines = [journey.on_this_hub(line, lesson) for line in commands]
    assert shell == f"su - {hub.people.grader}", shell
    solver, idler = hub.people.student_names
    said = {}
    for line in lines:
        if " collect " in line:  # once the students have submitted (docs/howto/hub.md)
            token = hand_in(hub, solver, lesson, answered=True)
            hand_in(hub, idler, lesson, answered=False)
        done = typed(journey, shell, line)
        output = done.stdout + done.stderr
        assert done.returncode == 0 and not re.search(r"Traceback|ERROR|^error", output, re.M), f"{line}\n{output}"
        said[line.split()[-2]] = done.stdout  # by what it does: release, collect, grade, generate_feedback ...
    assert f"released {lesson} to the exchange" in said["release"], said["release"]
    assert re.search(r"^Collected 2 submission\(s\)\.$", said["collect"], re.M), said["collect"]
    assert re.search(r"^Graded 2 submission\(s\) in [\d.]+ s; 0 unchanged", said["grade"], re.M), said["grade"]
    top, got = scores(hub, lesson)
    assert top > 0 and got[solver] == top and got[idler] < top, (top, got)
    hub.assignment(solver, token, "fetch_feedback", lesson)
    [page] = (Path(f"~{solver}").expanduser() / hub.course / lesson / "feedback").glob(f"*/{lesson}.html")
    assert f"{lesson} (Score: {top:.1f} / {top:.1f})" in page.read_text()


def test_resumed_the_autograder_grades_what_came_while_it_was_paused(journey):
    """The hand-ins of lessons 01 and 02 waited while the instructor graded by hand; resumed, the autograder grades
    the newest of each student's (the second student's stubs of lesson 01 are superseded) and releases the pages."""
    hub = hub_of(journey)
    shell, autograder = autograder_commands(journey)
    status = typed(journey, shell, autograder["--status"]).stdout
    # the second student's stubs were superseded by their answer as soon as both were seen, paused or not
    assert "Grading is paused since" in status and re.search(r"^Hand-ins: 4 pending, 1 superseded$", status, re.M), (
        status
    )
    resumed = typed(journey, shell, autograder["--resume"])
    assert resumed.returncode == 0 and "Grading is on." in resumed.stdout, resumed.stdout + resumed.stderr

    def settled() -> str | None:
        status = typed(journey, shell, autograder["--status"]).stdout
        return None if re.search(r"\d+ (pending|grading)", status) else status

    status = until(settled, SLOW / 1000, "the autograder did not grade, once resumed, what waited")
    assert re.search(r"^Hand-ins: 4 done, 1 superseded$", status, re.M), status
    first = hub.people.student_names[0]
    hub.assignment(first, hub.token_of(first), "fetch_feedback")
    [page] = (Path(f"~{first}").expanduser() / hub.course / README_LESSON / "feedback").glob(f"*/{README_LESSON}.html")
    assert "Your lessons at a glance" in page.read_text()  # the autograder's page, in place of formgrader's


def test_ctrl_c_stops_the_hub_and_everything_it_started_within_5_s_and_nothing_went_wrong(journey):
    """With the students' servers running (the walks above started them), and kernels run by their validations."""
    running = journey.hub(checkout_mode=0o755).api("GET", "/users").json()
    assert {user["name"] for user in running if user["servers"]} >= set(journey.people.student_names)
    stopped = journey.stop()
    print(f"Ctrl-C stopped the hub and the students' servers in {stopped:.1f} s")
    assert stopped < WITHIN_S, f"Ctrl-C took {stopped:.1f} s to stop the hub"
    assert nothing_left_within(journey, WITHIN_S - stopped)
    log = journey.log()
    assert log.count("JupyterHub is now running at") == 2  # the set-up's start, then the one timed
    assert not TROUBLE.search(log), [line for line in log.splitlines() if TROUBLE.search(line)][:20]


def test_remove_says_what_it_removed_and_gives_the_checkout_its_mode_back(journey):
    assert journey.checkout.stat().st_mode & 0o007 == 0  # the set-up closed the copy to other users
    command = shlex.split(journey.on_this_hub(journey.readme_command(r"--remove")))
    command += ["--prefix", journey.people.prefix, "--root", str(journey.root)]  # make hub's HUB_PREFIX, HUB_ROOT
    # Deleting the environments' tens of thousands of links takes seconds, minutes when other work holds the disk.
    removed = subprocess.run(command, cwd=journey.checkout, capture_output=True, text=True, timeout=800)
    assert removed.returncode == 0 and removed.stderr == "", removed.stderr
    people = journey.people
    assert removed.stdout.splitlines() == [
        f"removed {', '.join(sorted(people.everyone))}, {people.group} (accounts with their homes and processes, "
        "and the group)",
        f"removed {journey.root} (the course directory, its gradebook, the exchange, the environments)",
        f"gave the checkout back its mode for other users (chmod 755 {journey.checkout})",
    ], removed.stdout
    assert not journey.root.exists() and not any(accounts.exists(name) for name in people.everyone)
    assert journey.checkout.stat().st_mode & 0o777 == 0o755
    again = subprocess.run(command, cwd=journey.checkout, capture_output=True, text=True, timeout=300)
    assert again.stdout.startswith("nothing to remove"), again.stdout
