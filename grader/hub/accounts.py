"""The course's Unix accounts: an instructor, the course's grader account (formgrader runs as it), the
students, and the instructors' group (instructor and grader) that reads submissions. Every name starts
with one prefix, so that a test can find and remove exactly what it made.

Passwords are generated here, set with chpasswd (PAM checks them when a person logs in to the hub) and
kept in a root-only file for the operator to hand out: none is ever in the repository.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import re
import secrets
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Accounts:
    prefix: str
    students: int

    @property
    def instructor(self) -> str:
        return f"{self.prefix}instructor"

    @property
    def grader(self) -> str:
        return f"{self.prefix}grader"

    @property
    def group(self) -> str:
        """The instructors' Unix group: the instructor and the grader account."""
        return f"{self.prefix}instructors"

    @property
    def student_names(self) -> list[str]:
        return [f"{self.prefix}student{n:02d}" for n in range(1, self.students + 1)]

    @property
    def people(self) -> list[str]:
        """Everyone who logs in to the hub (the grader account does not: formgrader runs as it)."""
        return [self.instructor, *self.student_names]

    @property
    def everyone(self) -> list[str]:
        return [self.instructor, self.grader, *self.student_names]


def exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def create(accounts: Accounts, passwords: Path) -> dict[str, str]:
    """Every account and the group, made when missing; homes private (0700). Returns name -> password of
    each person who logs in, also written to `passwords` (root, 0600); an account that already has one keeps
    it. The grader account has none (useradd leaves it locked)."""
    if not group_exists(accounts.group):
        subprocess.run(["groupadd", accounts.group], check=True)
    known = json.loads(passwords.read_text()) if passwords.exists() else {}
    for name in accounts.everyone:
        if not exists(name):
            extra = ["--groups", accounts.group] if name in (accounts.instructor, accounts.grader) else []
            subprocess.run(
                ["useradd", "--create-home", "--user-group", "--shell", "/bin/bash", *extra, name], check=True
            )
            known.pop(name, None)
        os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
    fresh = {name: secrets.token_urlsafe(12) for name in accounts.people if name not in known}
    if fresh:
        lines = "".join(f"{name}:{password}\n" for name, password in fresh.items())
        subprocess.run(["chpasswd"], input=lines, text=True, check=True)
    known = {name: known.get(name) or fresh[name] for name in accounts.people}
    passwords.touch(mode=0o600)
    os.chmod(passwords, 0o600)
    passwords.write_text(json.dumps(known, indent=1) + "\n")
    return known


def group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def uid(name: str) -> int:
    return pwd.getpwnam(name).pw_uid


def processes_of(uids: set[int]) -> list[int]:
    """The ids of the live processes whose real user is one of `uids`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            line = next(line for line in status.splitlines() if line.startswith("Uid:"))
            if int(line.split()[1]) in uids:
                found.append(int(entry))
    return found


def made_with(prefix: str) -> list[str]:
    """The accounts of this machine that the set-up makes with `prefix`, whatever number of students it was given."""
    ours = re.compile(re.escape(prefix) + r"(instructor|grader|student\d+)")
    return sorted(entry.pw_name for entry in pwd.getpwall() if ours.fullmatch(entry.pw_name))


def remove(accounts: Accounts) -> list[str]:
    """Ends the accounts' processes (by id), then removes the accounts, their homes and the group. Returns the
    names of the accounts and group it removed."""
    names = made_with(accounts.prefix)
    uids = {uid(name) for name in names}
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in processes_of(uids):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while processes_of(uids) and time.monotonic() < deadline:
            time.sleep(0.1)
    for name in names:
        subprocess.run(["userdel", "--remove", name], check=False, capture_output=True)
    removed = [name for name in names if not exists(name)]
    if group_exists(accounts.group):
        subprocess.run(["groupdel", accounts.group], check=False, capture_output=True)
        removed += [] if group_exists(accounts.group) else [accounts.group]
    return removed
