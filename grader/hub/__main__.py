"""`python -m grader.hub` (make hub): set the hub up, then run JupyterHub in the foreground.

--set-up-only makes everything and starts nothing (the tests start the hub themselves); --remove takes
away the accounts and homes made with --prefix, and the folder --root, gives the checkout back the mode the
set-up took from it, and says what it did.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import sys
from pathlib import Path
from typing import NoReturn

from grader import logs

from . import accounts, machine

CHECKOUT = Path(__file__).resolve().parents[2]
CONFIG = CHECKOUT / machine.CONFIG
PREFIX = "[a-z][a-z0-9-]*"  # what useradd takes to start a name; never empty, so never a name such as "grader"
logger = logging.getLogger(__name__)


class Parser(argparse.ArgumentParser):
    """A refused argument in one line (argparse prints the usage above it), as python -m grader says it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parser() -> Parser:
    """The options of python -m grader.hub (the site's CLI reference is generated from it)."""
    parser = Parser(prog="python -m grader.hub", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=machine.DEFAULT_ROOT, help="the hub's folder")
    parser.add_argument("--prefix", default="sm-", help="the start of every account's name")
    parser.add_argument("--students", type=int, default=2, help="how many student accounts to make")
    parser.add_argument(
        "--port", type=int, default=8000, help="the hub serves http on 127.0.0.1:PORT, and uses the ports above it too"
    )
    parser.add_argument("--set-up-only", action="store_true", help="make everything, start nothing")
    parser.add_argument(
        "--no-autograder",
        action="store_true",
        help="leave out the grading service (python -m grader serve), for a hub whose hand-ins are graded otherwise",
    )
    parser.add_argument(
        "--remove", action="store_true", help="remove the accounts made with --prefix and the folder --root"
    )
    logs.add_options(parser)
    return parser


def parse(argv: list[str]) -> argparse.Namespace:
    command_line = parser()
    options = command_line.parse_args(argv)
    if not re.fullmatch(PREFIX, options.prefix):
        command_line.error(f"--prefix {options.prefix!r} does not start a Unix account's name: {PREFIX}")
    if options.students < 0 or not 0 < options.port < 65536:
        command_line.error("--students is 0 or more, and --port a port number (1 to 65535)")
    return options


NOT_ROOT = "make hub needs root (sudo make hub): it creates Unix accounts and sets owners under /srv"


def missing() -> str | None:
    """What the hub cannot run without, in one line, or None."""
    if os.geteuid() != 0:
        return NOT_ROOT
    if not (CHECKOUT / machine.PROXY).exists():
        folder = CHECKOUT / machine.JUPYTERHUB_FILES
        return f"make hub needs the proxy: npm ci --prefix {folder} (make hub runs it when npm is there)"
    if shutil.which("setfacl") is None:
        return "make hub needs setfacl (Debian: apt-get install acl): feedback is given to its student alone"
    return None


def ports_from(port: int) -> dict[str, int]:
    """The hub's ports, from --port on: the proxy's two, the hub's, formgrader's, then one per person's server."""
    return {"public": port, "proxy_api": port + 1, "hub": port + 2, "formgrader": port + 3, "servers": port + 4}


def remove(root: Path, people: accounts.Accounts) -> list[str]:
    """Everything the set-up made with this prefix and root, gone, and the checkout's mode put back; what it did."""
    settings_file = root / "hub.json"
    settings = json.loads(settings_file.read_text()) if settings_file.exists() else {}
    removed = accounts.remove(people)
    said = [f"removed {', '.join(removed)} (accounts with their homes and processes, and the group)"] if removed else []
    if root.exists():
        shutil.rmtree(root)
        said.append(f"removed {root} (the course directory, its gradebook, the exchange, the environments)")
    said += machine.reopen_checkout(settings)
    return said or [f"nothing to remove: no account starting with {people.prefix}, no {root}"]


def main(argv: list[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    logs.configure(verbose=options.verbose, quiet=options.quiet)
    people = accounts.Accounts(options.prefix, options.students)
    if options.remove:
        if os.geteuid() != 0:
            print("python -m grader.hub --remove needs root (sudo): it removes Unix accounts", file=sys.stderr)
            return 2
        for line in remove(options.root, people):
            print(line)
        return 0
    problem = missing()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    logger.debug("setting up the hub in %s for %s, ports %s", options.root, CHECKOUT, ports_from(options.port))
    hub = machine.set_up(CHECKOUT, options.root, people, ports_from(options.port), not options.no_autograder)
    for line in hub["said"]:  # what the set-up did, and warnings (machine.close_checkout)
        if line.startswith("warning: "):
            logger.warning(line.removeprefix("warning: "))
        else:
            logger.info(line)
    print(f"hub for {hub['course']}: http://127.0.0.1:{options.port}; passwords in {options.root / 'passwords.json'}")
    if options.set_up_only:
        return 0
    os.chdir(hub["state"])
    os.environ["SOFTMAX_HUB_SETTINGS"] = str(options.root / "hub.json")
    stoppable_by_ctrl_c()
    serve()
    return 0


def serve() -> None:
    """JupyterHub with the hub's settings, in this process: no second interpreter to start and import what the
    set-up imported, and nbformat's import here skipped the IRI grammar (grader/__init__.py) that JupyterHub's
    own import would build. Each is about a second of CPU of the hub's start."""
    from jupyterhub.app import main as jupyterhub

    jupyterhub(["-f", str(CONFIG)])


def stoppable_by_ctrl_c() -> None:
    """What JupyterHub's stop needs of the processes it starts: JupyterHub starts formgrader before it handles
    SIGINT itself, so formgrader inherits this process's SIGINT and standard input, and JupyterHub stops it
    with SIGINT, waiting 30 s for it to end. Ignored (make hub run as a background job), SIGINT would not end
    formgrader; with a terminal as its input, formgrader would ask "Shutdown this Jupyter server (y/[n])?"
    and carry on. The hub reads nothing from its input."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)


if __name__ == "__main__":
    sys.exit(main())
