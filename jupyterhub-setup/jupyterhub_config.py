"""JupyterHub for one course on this machine, as `python -m grader.hub` (make hub) set it up.

Everything machine-specific (ports, folders, account names, the operator's token) is in the root-only
settings file that the set-up writes and names in SOFTMAX_HUB_SETTINGS.

- Login: PAM, against the accounts' generated passwords (the set-up keeps them in a root-only file).
- Students' servers run the student environment (the learner part of the package only); the
  instructor's the instructors' environment. Each runs as its own Unix user (LocalProcessSpawner).
- Formgrader is a hub-managed service named after the course, running as the course's grader account
  in the course directory; members of formgrade-<course> may open it.
- The autograder, `python -m grader serve` (every lesson handed in graded as it comes, its feedback released to its
  student), is a hub-managed service <course>-autograder in the course directory. It runs as root, as the hub does,
  so that each hand-in's code runs in an isolated kernel, and does every step on the exchange (collect, release
  feedback) as the grader account (`--exchange-as`): root never acts in the students' inbound folder. It works on
  files only (the exchange, the gradebook), so it has no address and no scope of the hub's API; its log is the hub's,
  and JupyterHub starts it again when it ends.
- nbgrader's JupyterHubAuthPlugin reads a user's courses from the groups nbgrader-<course> (students)
  and formgrade-<course> (instructor).
"""

import atexit
import functools
import gc
import json
import os
from pathlib import Path

from jupyterhub import utils
from jupyterhub.spawner import LocalProcessSpawner

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)
hub = json.loads(Path(os.environ["SOFTMAX_HUB_SETTINGS"]).read_text())
course, ports, state = hub["course"], hub["ports"], Path(hub["state"])
staff = {hub["instructor"], hub["grader"]}

c.JupyterHub.bind_url = f"http://127.0.0.1:{ports['public']}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{ports['hub']}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{ports['proxy_api']}"
c.ConfigurableHTTPProxy.command = [hub["proxy"]]
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "cookie_secret")
# Stopped, the hub ends without the last garbage collection of every object it holds (seconds on a busy machine).
atexit.register(gc.freeze)
# No periodic check of formgrader's address: it only logs, JupyterHub restarts formgrader when its process ends,
# and a check that falls while the hub stops reads the service's address already deleted (AttributeError).
c.JupyterHub.service_check_interval = 0
# JupyterHub asks whether formgrader (at its start) or a person's server is up yet at waits that double up to 5 s,
# so a server up after 3 s is seen about 1 s later, up to 3 s: it asks every 0.2 s at most instead.
utils.exponential_backoff = functools.partial(utils.exponential_backoff, max_wait=0.2)

c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.open_sessions = False  # no login session: the server is all a person gets
# The grader account is a hub user too (nbgrader's JupyterHubAuthPlugin, in formgrader, reads its groups) but
# cannot log in: it has no password.
c.Authenticator.allowed_users = {*staff, *hub["students"]}

c.JupyterHub.load_groups = {
    f"nbgrader-{course}": {"users": hub["students"]},
    f"formgrade-{course}": {"users": sorted(staff)},
}
c.JupyterHub.load_roles = [
    {
        "name": f"formgrade-{course}",
        "groups": [f"formgrade-{course}"],
        "scopes": [f"access:services!service={course}", "list:services", f"read:services!service={course}"],
    },
    # A server's token may do what its owner may, and nbgrader's JupyterHubAuthPlugin reads the owner's groups.
    {"name": "server", "scopes": ["inherit"]},
    # Formgrader reads who is in the course's groups, and adds a student it is given.
    {
        "name": f"{course}-formgrader",
        "services": [course],
        "scopes": ["list:users", "read:users", "read:users:groups", "list:groups", "read:groups", "groups"],
    },
    # The operator's token (the settings file's, root only): start servers and make tokens for the accounts.
    {
        "name": "operator",
        "services": ["operator"],
        "scopes": [
            "admin:users",
            "admin:servers",
            "tokens",
            "list:users",
            "read:users",
            "read:groups",
            "list:services",
        ],
    },
]


def runs_in(environment: str) -> dict:
    """A process of one of the set-up's environments: its commands first, its interpreter's own library."""
    return {"PATH": f"{environment}/bin:/usr/bin:/bin", "LD_LIBRARY_PATH": hub["python_lib"]}


c.JupyterHub.services = [
    {
        "name": course,
        "url": f"http://127.0.0.1:{ports['formgrader']}",
        "command": [f"{hub['instructor_env']}/bin/jupyterhub-singleuser"],
        "user": hub["grader"],
        "cwd": hub["course_dir"],
        "environment": {**runs_in(hub["instructor_env"]), "JUPYTERHUB_DEFAULT_URL": "/formgrader"},
        "oauth_no_confirm": True,
    },
    {"name": "operator", "api_token": hub["operator_token"]},
]
if hub.get("autograder", True):  # python -m grader.hub --no-autograder leaves it out
    python, grader = f"{hub['instructor_env']}/bin/python", hub["grader"]
    c.JupyterHub.services.append(
        {
            "name": f"{course}-autograder",
            # umask 007: what it writes in the course directory stays the instructors' group's (the folder's, setgid)
            "command": ["/bin/sh", "-c", 'umask 007 && exec "$0" -m grader serve --exchange-as "$1"', python, grader],
            "cwd": hub["course_dir"],  # no "user": it runs as root, as the hub
            "environment": runs_in(hub["instructor_env"]),
        }
    )


people = [hub["instructor"], hub["grader"], *hub["students"]]


def pre_spawn_hook(spawner):
    """Students get the student environment, the instructor the instructors'. Each person's server has a port
    of its own: with random ports, two servers started at once can draw the same one, and the second (which
    Jupyter moves to the next free port) would be routed to the first's."""
    environment = hub["instructor_env"] if spawner.user.name in staff else hub["student_env"]
    spawner.cmd = [f"{environment}/bin/jupyterhub-singleuser"]
    spawner.environment = runs_in(environment)
    spawner.port = ports["servers"] + people.index(spawner.user.name)
    spawner.args = ["--ServerApp.port_retries=0"]  # a taken port fails the start rather than serving elsewhere


class StoppedByTerm(LocalProcessSpawner):
    """A person's server, stopped with SIGTERM at once. JupyterHub sends SIGINT first and waits up to 30 s:
    a Jupyter server without a terminal dies of it without shutting its kernels down (they live on, as
    their owner), and one with a terminal asks "Shutdown this Jupyter server (y/[n])?" and carries on.
    SIGTERM shuts the kernels down and ends the server."""

    async def stop(self, now=False):
        await super().stop(now=True)


c.JupyterHub.spawner_class = StoppedByTerm
c.Spawner.pre_spawn_hook = pre_spawn_hook
c.Spawner.env_keep = ["LANG", "LC_ALL", "TZ"]  # nothing of the operator's PATH or Python set-up
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 300  # thirty servers starting at once on two cores
c.Spawner.http_timeout = 300
