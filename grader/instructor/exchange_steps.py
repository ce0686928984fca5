"""The grading service's steps on the exchange: list the hand-ins, read their receipts, collect them, release
feedback; done in the service's own process, or by an agent process of another account (`serve --exchange-as`).

On a hub the service runs as root, so that every kernel it grades in is isolated (grader.engine.isolation), but the
exchange's inbound folder is the students' to write: root must never act by path there, where a student could put a
link in its way. So, before the service starts any thread, it forks an agent that becomes the course's grader account
for good (its groups, then its group, then its user: it can never be root again) and does these steps, as the grader
account does them by hand. They talk over two pipes, one JSON line each way: never a pickle, since what the agent
says comes from a less trusted account. The agent ends when the service's end of the pipe closes.
"""

from __future__ import annotations

import json
import os
import pwd
import signal
from dataclasses import dataclass
from pathlib import Path

from grader.course import Course
from grader.engine.submission import BadInput
from grader.exchange.layout import receipt_of
from grader.instructor.collect import collect_exchange, inbound_of

MOST_REPLY_BYTES = 64 * 2**20  # one reply of the agent: a listing of the inbound folder is the largest


class ExchangeStepFailed(RuntimeError):
    """A step failed in the agent; its message is the agent's one line."""


@dataclass
class ExchangeSteps:
    """The steps, done by this process."""

    course: Course

    def listing(self, lessons: list[str]) -> list[str]:
        """The inbound folder's hand-ins of `lessons`, by name (student+lesson+time+random), sorted."""
        folder = inbound_of(self.course.nbgrader_config())
        names = sorted(entry.name for entry in folder.iterdir()) if folder.is_dir() else []
        return [name for name in names if len(parts := name.split("+")) >= 4 and parts[1] in lessons]

    def receipts(self, names: list[str]) -> dict[str, str]:
        """Each hand-in's receipt (exchange.layout.receipt_of), as ISO time; "error: ..." when it cannot be read."""
        if not names:
            return {}
        folder, found = inbound_of(self.course.nbgrader_config()), {}
        for name in names:
            try:
                found[name] = receipt_of(folder / name).isoformat()
            except (BadInput, OSError) as error:
                found[name] = f"error: {error}"
        return found

    def collect(self, lesson: str, only: list[str]) -> list[tuple[str, str]]:
        """nbgrader's collect of these hand-ins of `lesson` into the course (collect_exchange); what it could not
        place, with why."""
        return list(collect_exchange(self.course, [lesson], only=set(only)).unplaced)

    def release_feedback(self, lesson: str, student: str) -> None:
        """nbgrader's release_feedback of the student's page of `lesson`, already written in the course."""
        from nbgrader.apps import NbGraderAPI  # here: the command line imports this module before it needs nbgrader

        from grader.course.nbgrader_calls import quiet_stderr, require_success

        with quiet_stderr():
            api = NbGraderAPI(config=self.course.nbgrader_config())
            require_success(api.release_feedback(lesson, student_id=student), "release_feedback")

    def close(self) -> None:
        """Nothing to end: the steps ran here."""


STEPS = ("listing", "receipts", "collect", "release_feedback")


class ExchangeAgent(ExchangeSteps):
    """The steps, done by a process of `account` forked now: call this before the process starts any thread."""

    def __init__(self, course: Course, account: str):
        super().__init__(course)
        user = pwd.getpwnam(account)  # KeyError: no such account
        requests, replies = os.pipe(), os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(requests[1])
            os.close(replies[0])
            code = 1
            try:
                keep_only(0, 1, 2, requests[0], replies[1])
                become(user)
                answer(ExchangeSteps(course), os.fdopen(requests[0], "rb"), os.fdopen(replies[1], "wb"))
                code = 0
            finally:
                os._exit(code)  # never back into the service's code, which is root's
        os.close(requests[0])
        os.close(replies[1])
        self.requests, self.replies = os.fdopen(requests[1], "wb"), os.fdopen(replies[0], "rb")

    def call(self, step: str, *args):
        self.requests.write(json.dumps({"step": step, "args": args}).encode() + b"\n")
        self.requests.flush()
        line = self.replies.readline(MOST_REPLY_BYTES)
        if not line.endswith(b"\n"):
            raise ExchangeStepFailed(f"the exchange agent (pid {self.pid}) ended or said too much")
        reply = json.loads(line)
        if "error" in reply:
            raise ExchangeStepFailed(str(reply["error"]))
        return reply["result"]

    def listing(self, lessons: list[str]) -> list[str]:
        return [str(name) for name in self.call("listing", lessons)]

    def receipts(self, names: list[str]) -> dict[str, str]:
        return {str(name): str(when) for name, when in self.call("receipts", names).items()}

    def collect(self, lesson: str, only: list[str]) -> list[tuple[str, str]]:
        return [(str(name), str(reason)) for name, reason in self.call("collect", lesson, only)]

    def release_feedback(self, lesson: str, student: str) -> None:
        self.call("release_feedback", lesson, student)

    def close(self) -> None:
        """Close the pipe, so the agent ends, and wait for it."""
        self.requests.close()
        self.replies.close()
        os.waitpid(self.pid, 0)


def become(user: pwd.struct_passwd) -> None:
    """This process as `user` for good: its groups, group and user id (real, effective and saved alike)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the service's to handle; the agent ends with its pipe
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.initgroups(user.pw_name, user.pw_gid)
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    os.environ.update(HOME=user.pw_dir, USER=user.pw_name, LOGNAME=user.pw_name)
    if os.getuid() != user.pw_uid or os.geteuid() != user.pw_uid:
        raise PermissionError(f"could not become {user.pw_name}")


def keep_only(*descriptors: int) -> None:
    """Close every file descriptor of this process but these: the agent holds no channel of root's."""
    for number in map(int, os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []):
        if number not in descriptors:
            try:
                os.close(number)
            except OSError:  # the listing's own descriptor, closed already
                pass


def answer(steps: ExchangeSteps, requests, replies) -> None:
    """Do each step asked, one JSON line in and one out, until the pipe closes."""
    for line in requests:
        request = json.loads(line)
        if request.get("step") not in STEPS:
            reply = {"error": f"no such step: {request.get('step')!r}"}
        else:
            try:
                reply = {"result": getattr(steps, request["step"])(*request["args"])}
            except Exception as error:  # the service decides what a failed step costs
                reply = {"error": f"{type(error).__name__}: {error}"}
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()


def others_write(folder: Path) -> bool:
    """Whether anyone but root may write `folder` (the exchange's inbound: the students, on a shared machine)."""
    try:
        status = folder.stat()
    except OSError:
        return False
    return status.st_uid != 0 or bool(status.st_mode & 0o022)


def steps_for(course: Course, account: str | None) -> ExchangeSteps:
    """The exchange's steps as `account` (an agent forked now), or by this process when none is given."""
    return ExchangeAgent(course, account) if account else ExchangeSteps(course)
