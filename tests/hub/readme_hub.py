"""The hub as docs/howto/hub.md starts it: its own `make hub` command line (the block `<!-- journey: hub -->`), run in a
fresh copy of the checkout, in a session of its own as a terminal runs it, its output in a log; Ctrl-C as a
terminal sends it; the page's other commands with this hub's names in place of the page's."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.hub import accounts, machine
from tests.hub.hubclient import Hub
from tests.support import COURSE, journey_commands

README_LESSON = "01_naive_division"  # the lesson the hub page's steps name
README_ROOT = "/srv/softmax-hub"
READY = "JupyterHub is now running at "  # what the hub prints once it answers (docs/howto/hub.md)
# Targets a test never builds: the venv it runs in, and the proxy npm installed (jupyterhub-setup/package-lock.json).
BUILT = ("-o", ".venv/.installed", "-o", str(machine.PROXY))


def fresh_copy(into: Path) -> Path:
    """The checkout as a fresh clone of it has it (what git tracks, and new files it does not ignore), readable by
    everyone as a clone usually is; the venv and the hub's proxy linked from the checkout, not built again."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=COURSE.root,
        capture_output=True,
        check=True,
    )
    for name in filter(None, listed.stdout.decode().split("\0")):
        source, copy = COURSE.root / name, into / name
        if source.is_symlink() or source.is_file():  # a file deleted but not staged is listed too
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy, follow_symlinks=False)
    (into / ".venv").symlink_to(COURSE.root / ".venv")
    node_modules = machine.JUPYTERHUB_FILES / "node_modules"
    (into / node_modules).symlink_to(COURSE.root / node_modules)
    os.chmod(into, 0o755)
    return into


def process_tree(top: int) -> list[int]:
    """`top` and every process below it, now."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
    tree = [top]
    for pid in tree:
        tree += [child for child, parent in parents.items() if parent == pid]
    return tree


def waited_for_a_cpu(pids: list[int]) -> float:
    """Seconds these processes were ready to run but waited for a CPU that others held (the kernel's schedstat run
    delay): the part of a start that another load on the machine adds. 0 where the kernel does not say."""
    waited = 0
    for pid in pids:
        try:
            waited += int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return waited / 1e9


@dataclass
class ReadmeHub:
    """A hub started by the hub page's `make hub` line in `checkout`, with this run's names, port and folder."""

    checkout: Path
    people: accounts.Accounts
    root: Path
    port: int
    logs: Path
    process: subprocess.Popen | None = None
    log_files: list[Path] = field(default_factory=list)

    def on_this_hub(self, command: str, lesson: str = README_LESSON) -> str:
        """A command of the hub page with this hub's names: its accounts' prefix, its folder, the lesson. The page's
        `sudo` is left out: the tests run as root."""
        command = re.sub(r"^sudo ", "", command).replace(README_ROOT, str(self.root))
        return re.sub(r"\bsm-", self.people.prefix, command).replace(README_LESSON, lesson)

    def readme_command(self, pattern: str) -> str:
        """The one line of the hub page's `hub` block that matches `pattern`, as the page prints it."""
        [line] = [line for line in journey_commands("hub") if re.search(pattern, line)]
        return line

    def make_hub(self) -> list[str]:
        """The hub page's `make hub` line that names every setting, each given this run's value."""
        line = self.readme_command(r"^sudo make hub \w")
        ours = {"STUDENTS": len(self.people.student_names), "HUB_PORT": self.port}
        ours |= {"HUB_PREFIX": self.people.prefix, "HUB_ROOT": self.root}
        for name, value in ours.items():
            line, found = re.subn(rf"\b{name}=\S+", f"{name}={value}", line)
            assert found == 1, f"the hub page's `make hub` line does not set {name}: {line}"
        make, *rest = shlex.split(re.sub(r"^sudo ", "", line))
        return [make, *BUILT, *rest]

    def start(self, timeout: float = 900) -> tuple[float, float]:
        """The hub page's `make hub`, until it prints that JupyterHub runs (the set-up's first run builds the
        environments: minutes). Returns the seconds it took, and how many of them its processes waited for a CPU."""
        log = self.logs / f"make-hub-{len(self.log_files) + 1}.log"
        self.log_files.append(log)
        started = time.monotonic()
        with open(log, "wb") as output:
            self.process = subprocess.Popen(
                self.make_hub(),
                cwd=self.checkout,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a terminal's job: Ctrl-C reaches make and all it started, as a group
            )
        while READY not in log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() - started > timeout:
                raise AssertionError(f"`make hub` did not start the hub:\n{log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.05)
        took = time.monotonic() - started
        return took, waited_for_a_cpu(process_tree(self.process.pid))

    def stop(self, timeout: float = 60) -> float:
        """Ctrl-C, as a terminal sends it (SIGINT to the job's process group); the seconds until make has ended
        (killed after `timeout`)."""
        if self.process is None or self.process.poll() is not None:
            return 0.0
        started = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        return time.monotonic() - started

    def end_proxy(self) -> None:
        """The hub's proxy, if a hub that did not stop cleanly left it running (it outlives a killed JupyterHub)."""
        try:
            pid = int((self.root / "state" / "proxy.pid").read_text())  # JupyterHub's clean stop removes the file
            if b"configurable-http-proxy" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError):
            pass  # no file, or no such process: nothing left

    def log(self) -> str:
        return "".join(log.read_text(errors="replace") for log in self.log_files)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def hub(self, checkout_mode: int) -> Hub:
        """What tests/hub/hubclient acts on: this hub's settings, and its passwords read as the hub page says."""
        settings = json.loads((self.root / "hub.json").read_text())
        shown = subprocess.run(
            shlex.split(self.on_this_hub(self.readme_command(r"passwords\.json"))), capture_output=True, check=True
        )
        return Hub(self.process, settings, self.people, json.loads(shown.stdout), checkout_mode)
