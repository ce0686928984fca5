"""What a learner does in JupyterLab, as browser actions: open a notebook, run it, save it."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import nbformat
from playwright.sync_api import expect

from tests.support import COURSE

RUN_ALL_SECONDS = 300  # a lesson's kernel work, on two cores shared with other test workers (a quarter of a core)
KERNEL_IDLE = re.compile(r"Python 3 \(ipykernel\) \| Idle")
ERROR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'  # errors and warnings


def solved_lesson(lab, lesson: str) -> str:
    """Write the release with every exercise filled in with the reference code, as `<lesson>/solved.ipynb`
    in the server's copy of notebooks/; return that path."""
    path = f"{lesson}/solved.ipynb"
    nbformat.write(COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson)), lab.root / path)
    return path


def open_notebook(page, lab, path: str):
    """Open `path` with File > Open from Path… in the loaded JupyterLab and wait until its kernel is idle and every
    cell is in the page; return the notebook panel.

    The status bar names the kernel only once it is connected; the toolbar's indicator says
    "idle" even before the kernel starts, and cells run then are silently skipped. JupyterLab
    puts a long notebook's cells into the page a few at a time, and on busy cores the last come
    seconds later: a cell not there yet shows no prompt, so a run seemed over before it was (the
    slider's test failed so in a full run, 20 of lesson 04's 44 code cells still to come).
    """
    assert (lab.root / path).is_file(), path
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Open from Path…", exact=True).click()
    dialog = page.locator(".jp-Dialog")
    dialog.get_by_role("textbox").fill(path)
    dialog.get_by_role("button", name="Open", exact=True).click()
    current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    expect(current).to_contain_text(Path(path).name)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=120_000)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    # JupyterLab adds the cells while the page is idle, which a busy machine seldom lets it be: as long as a run
    expect(panel.locator(".jp-Cell")).to_have_count(
        len(nbformat.read(lab.root / path, as_version=4).cells), timeout=RUN_ALL_SECONDS * 1000
    )
    return panel


class KernelInfoWatch:
    """What the page hears from kernels on its websockets, from now on: whether its own kernel_info request has
    been answered, reply and idle status both. JupyterLab updates a notebook's metadata from that answer only then
    (which marks the notebook changed when the answer differs), and the status bar may say Idle before it, from a
    status the server's own requests caused."""

    def __init__(self, page):
        self.page, self.sockets = page, []
        self.replied, self.idle = set(), set()  # the msg_id of each kernel_info request: answered, then idle
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        if "/api/kernels/" in socket.url:
            self.sockets.append(socket)
            socket.on("framereceived", self._note)

    def _note(self, payload) -> None:
        channel, header, parent, content = kernel_message(payload)
        if parent.get("msg_type") != "kernel_info_request":
            return
        if channel == "shell" and header["msg_type"] == "kernel_info_reply":
            self.replied.add(parent["msg_id"])
        elif channel == "iopub" and header["msg_type"] == "status" and content["execution_state"] == "idle":
            self.idle.add(parent["msg_id"])

    def wait(self, seconds: float = 120) -> None:
        """Wait until a kernel_info request of the page has its reply and its idle status, then for JupyterLab to
        have drawn what it did with them."""
        deadline = time.monotonic() + seconds
        while not self.replied & self.idle:
            left = deadline - time.monotonic()
            assert left > 0, "the page heard no answer to its kernel_info request"
            listening = [socket for socket in self.sockets if not socket.is_closed()]
            if listening:  # the next message on the kernel's socket: it may be the answer
                listening[-1].wait_for_event("framereceived", timeout=left * 1000)
            else:
                self.page.wait_for_event("websocket", timeout=left * 1000)
        self.page.remove_listener("websocket", self._watch)
        self.page.evaluate("() => new Promise(drawn => requestAnimationFrame(() => requestAnimationFrame(drawn)))")


def kernel_message(payload: str | bytes) -> tuple[str, dict, dict, dict]:
    """A kernel message on a websocket of jupyter_server's: channel, header, parent header, content. JSON, or the
    binary v1 protocol: the number of offsets, the offsets, then channel, header, parent header, metadata, content."""
    if isinstance(payload, str):
        message = json.loads(payload)
        return message["channel"], message["header"], message["parent_header"], message["content"]
    count = int.from_bytes(payload[:8], "little")
    offsets = [int.from_bytes(payload[8 * i : 8 * i + 8], "little") for i in range(1, count + 1)]
    channel, header, parent, _, content = (payload[a:b] for a, b in zip(offsets, offsets[1:6], strict=False))
    return channel.decode(), json.loads(header), json.loads(parent), json.loads(content)


def run_all(page, panel, code_cells: int) -> None:
    """Run > Run All Cells in a notebook that has not run; wait until all `code_cells` cells show an execution count,
    or the run stopped at an error.

    Run All queues every code cell at once, so each shows [*] until its turn is over; after an
    error JupyterLab drops the cells still queued (their prompts go from [*] back to [ ]). So the
    run is over once every cell has a count, or once an error is shown and no cell shows [*]:
    waiting for all of them would only time out, and the caller's checks then report the error
    itself. No [*] on screen alone does not end the wait: on busy cores the page can show none for
    a moment between two cells. A run that stops short with no error shown fails here, at the
    time limit: its kernel, or the page's connection to it, was lost.
    """
    prompts = panel.locator(".jp-CodeCell .jp-InputPrompt")
    assert not prompts.filter(has_text=re.compile(r"\[\d+\]")).count(), "run_all wants a notebook that has not run"
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    counted = page.wait_for_function(
        """([panel, wanted, error]) => {
        const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
        const counted = prompts.filter(prompt => /^\\[\\d+\\]:$/.test(prompt)).length;
        const stopped = panel.querySelector(error) !== null && !prompts.includes('[*]:');
        return (counted === wanted || (counted > 0 && stopped)) && counted;
    }""",
        arg=[panel.element_handle(), code_cells, ERROR_OUTPUT],
        polling=200,
        timeout=RUN_ALL_SECONDS * 1000,
    ).json_value()
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE)
    # a run that stopped short shows why (a cell's error); else the kernel or its connection was lost
    assert counted == code_cells or panel.locator(ERROR_OUTPUT).count(), (
        f"Run All stopped at cell {counted + 1} of {code_cells}, no error shown"
    )


def save(page, panel) -> None:
    """Ctrl+S, then wait until the notebook's tab no longer marks unsaved changes and JupyterLab has written the
    checkpoint it makes after each save (.ipynb_checkpoints/): it asks for it once the save is done, so on busy
    cores a test that read the files as soon as the tab was clean saw the checkpoint change afterwards."""
    tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
    dirty = re.compile(r"\bjp-mod-dirty\b")
    expect(tab).to_have_class(dirty)  # it ran, so there is something to save
    panel.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
    saved = []

    def checkpointed(response) -> bool:  # the checkpoint made after the save (opening a notebook may make one too)
        if response.request.method == "PUT" and "/api/contents/" in response.url:
            saved.append(response.url)
        return bool(saved) and response.request.method == "POST" and response.url.split("?")[0].endswith("/checkpoints")

    with page.expect_response(checkpointed):
        page.keyboard.press("Control+s")
    expect(tab).not_to_have_class(dirty)


def code_cell_count(path: Path) -> int:
    """The code cells JupyterLab will number when run: those with some code in them."""
    nb = nbformat.read(path, as_version=4)
    return sum(1 for cell in nb.cells if cell.cell_type == "code" and cell.source.strip())
