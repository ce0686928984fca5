"""The hostile corpus graded as an instructor grades a class: built, collected, graded, written out.

Used by tests/integration/test_hostile.py, `python -m testbed.hostile` and benchmarks/hostile.py.
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import socketserver
import struct
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

from grader.course import Course
from grader.engine import isolation
from grader.instructor.grading import statuses
from grader.instructor.results import class_results
from testbed.hostile.kinds import KINDS, NOT_COLLECTED, Zeros
from testbed.hostile.lesson import ENV, LESSON, MEMORY_MB, TIMEOUT, notebook, reference, released_course, submit
from testbed.hostile.payloads import MUTE_SHELL, SHM_KEY, SURVIVOR

# `python -m grader ...` that reports its own peak memory (resident set, KB) on its last line of stderr
MEASURED = (
    "import resource, sys\nfrom grader.cli import main\ntry:\n    sys.exit(main(sys.argv[1:]))\n"
    "finally:\n    print('peak KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
)


class AnswerService(socketserver.ThreadingTCPServer):
    """A service on 127.0.0.1 that hands the reference naive_normalize to whoever connects, and counts them."""

    daemon_threads = True

    def __init__(self):
        self.connections = 0
        service = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                service.connections += 1
                self.request.settimeout(5)
                try:
                    self.request.recv(1024)  # the question, read so that closing does not reset the answer
                    self.request.sendall(reference()["naive_normalize"].encode())
                except OSError:
                    pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


def write_zip(path: Path, uploads: list) -> None:
    """An LMS zip of (name, data, time[, damage]) entries; data may be Zeros (streamed), damage "bad crc"."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, when, *_ in uploads:
            info = zipfile.ZipInfo(name, date_time=when)
            if isinstance(data, Zeros):
                info.compress_type = zipfile.ZIP_DEFLATED
                with archive.open(info, "w", force_zip64=True) as entry:
                    for _ in range(data.size // 2**20):
                        entry.write(bytes(2**20))
            else:
                archive.writestr(info, data)
    for name, _, _, *damage in uploads:
        if damage == ["bad crc"]:
            flip_a_byte(path, name)


def flip_a_byte(path: Path, name: str) -> None:
    """Change one byte in the middle of a stored entry's data, so its CRC no longer matches."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
    with open(path, "r+b") as file:
        file.seek(info.header_offset + 26)
        name_length, extra_length = struct.unpack("<HH", file.read(4))
        file.seek(info.header_offset + 30 + name_length + extra_length + info.compress_size // 2)
        byte = file.read(1)
        file.seek(-1, os.SEEK_CUR)
        file.write(bytes([byte[0] ^ 0x20]))


def collect(root: Path, archive: Path, log: Path) -> None:
    """`collect --from` the zip, its exit status, output and peak memory written to `log`."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, "--course", str(root), "collect", "--from", str(archive)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    log.write_text(f"{done.returncode}\n{done.stdout}\n{done.stderr}")


def build_corpus(folder, service_port: int = 0, skip=()):
    """A course with lesson 01, every kind (but `skip`) and two ordinary students submitted, the LMS
    kinds through `collect --from` a zip (collect.txt), or a zip of their own (collect-<kind>.txt); return its root."""
    root = folder / "course"
    released_course(root)
    skip = set(skip) | {kind.id for kind in KINDS if kind.needs_isolation and not isolation.available()}
    for kind in KINDS:
        if kind.make and kind.id not in skip:
            submit(root, kind.id, kind.made(root, service_port), kind.beside)
    submit(root, "ordinary_full", notebook())
    submit(root, "ordinary_stub", (root / "notebooks" / LESSON / f"{LESSON}.ipynb").read_bytes())
    shared = [upload for kind in KINDS if kind.uploads and not kind.own_zip for upload in kind.uploads()]
    write_zip(folder / "lms.zip", shared)
    collect(root, folder / "lms.zip", folder / "collect.txt")
    for kind in KINDS:
        if kind.uploads and kind.own_zip:
            write_zip(folder / f"{kind.id}.zip", kind.uploads())
            collect(root, folder / f"{kind.id}.zip", folder / f"collect-{kind.id}.txt")
            (folder / f"{kind.id}.zip").unlink()
    return root


def grade(root: Path, log: Path) -> None:
    """`grade` of the course at `root`: its exit status, output and errors in `log`, its output alone beside it
    (grade-stdout.txt for grade.txt)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            "--course",
            str(root),
            "grade",
            "--timeout",
            str(TIMEOUT),
            "--memory",
            str(MEMORY_MB),
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    log.write_text(f"{done.returncode}\n{done.stdout}\n{done.stderr}")
    log.with_name(f"{log.stem}-stdout.txt").write_text(done.stdout)


OUTPUTS = {"feedback": "feedback", "export": "exports", "report": "report.html"}  # command -> what it writes


def write_outputs(root: Path, folder: Path, commands=tuple(OUTPUTS)) -> None:
    """feedback, export and report (or those of `commands`), as the instructor runs them after grading; their exit
    statuses in outputs.txt."""
    codes = []
    for command in commands:
        done = subprocess.run(
            [sys.executable, "-m", "grader", "--course", str(root), command, "--out", str(folder / OUTPUTS[command])],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=600,
        )
        codes.append(f"{command} {done.returncode} {done.stderr.strip()[-2000:]!r}")
    (folder / "outputs.txt").write_text("\n".join(codes))


class TerminalCount:
    """The terminals (ptys) taken on this machine, every devpts together: before, at most while it runs, after."""

    def __init__(self):
        self.before = self.peak = self.count()
        self.running = True
        self.watch = threading.Thread(target=self._watch, daemon=True)
        self.watch.start()

    @staticmethod
    def count() -> int:
        return int(Path("/proc/sys/kernel/pty/nr").read_text())

    def _watch(self) -> None:
        while self.running:
            self.peak = max(self.peak, self.count())
            time.sleep(0.05)

    def stop(self) -> str:
        """'before peak after', once the count is watched no more."""
        self.running = False
        self.watch.join()
        return f"{self.before} {self.peak} {self.count()}"


def grade_corpus(folder):
    """The corpus course, graded by the CLI (`grade --timeout 8 --memory 512`) while the answer service
    runs, then its feedback, exports and report; what survived the batch is recorded, then removed."""
    with AnswerService() as service:
        terminals = TerminalCount()
        root = build_corpus(folder, service.port)
        grade(root, folder / "grade.txt")
        (folder / "terminals.txt").write_text(terminals.stop())
        service.shutdown()
    (folder / "service.txt").write_text(str(service.connections))
    found = leftovers()
    (folder / "leftovers.txt").write_text("\n".join(description for description, _ in found))
    remove(found)
    write_outputs(root, folder)


def leftovers() -> list[tuple[str, tuple]]:
    """(description, what to remove) of each process or System V segment that a kernel of the corpus left."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            uid = int(re.search(r"^Uid:\s+(\d+)", (entry / "status").read_text(), re.M).group(1))
        except (OSError, AttributeError, ValueError):
            continue
        if (
            command[0] == SURVIVOR.encode()
            or command[:3] == [b"sh", b"-c", MUTE_SHELL.encode()]
            or (uid >= isolation.UID_BASE and command[:2] == [b"sleep", b"1000"])
        ):
            found.append(
                (
                    f"process {entry.name} (uid {uid}): {b' '.join(command).decode(errors='replace')}",
                    ("process", int(entry.name)),
                )
            )
    for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]:
        key, shmid, _, size = line.split()[:4]
        if int(key) == SHM_KEY:
            found.append(
                (f"System V segment {shmid} of {int(size) // 2**20} MB (key {SHM_KEY:#x})", ("segment", int(shmid)))
            )
    return found


def remove(found) -> None:
    """End the processes and remove the segments that `leftovers` found (the corpus's own, by id)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for _, (what, number) in found:
        if what == "process":
            try:
                os.kill(number, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            libc.shmctl(number, 0, None)  # IPC_RMID


def collect_logs(folder: Path) -> dict[str, tuple[str, str]]:
    """log file name -> (exit status, output) of every collect of the corpus."""
    return {path.name: tuple(path.read_text().split("\n", 1)) for path in sorted(folder.glob("collect*.txt"))}


def outcomes(root) -> dict[str, tuple[str, float | None]]:
    """student -> (status, score) as the gradebook and the grading state record them; an upload
    that no one was graded for and that a collect listed as unplaced, and kept, is NOT_COLLECTED."""
    results, found = class_results(Course(root)), statuses(Course(root))
    got = {s.id: (found.get((s.id, LESSON), ("no status",))[0], results.score(s.id, LESSON)) for s in results.students}
    listed = "\n".join(output for _, output in collect_logs(root.parent).values())
    kept = len(list((root / ".grading" / "unplaced").glob("*")))
    for kind in KINDS:
        if kind.uploads and kind.student_id not in got:
            names = [kind.listed_as] if kind.listed_as else [name for name, *_ in kind.uploads()]
            if kept and all(name in listed for name in names):
                got[kind.student_id] = (NOT_COLLECTED, None)
    return got
