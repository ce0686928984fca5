"""What one command costs with every process it starts counted: wall time, CPU seconds, peak memory.

Why control groups: `grader grade` forks its kernels from a zygote (grader/engine/warmkernel.py)
and, as root, puts each kernel in a PID namespace and a memory and pids control group of its own
(grader/engine/isolation.py). RUSAGE_CHILDREN, or wait4 on the command, counts only the processes
that were waited for all the way up to the command, so a kernel that is killed and reaped by no
one in the chain, or a zygote stopped without a wait, drops out. Here each command runs in a
cpuacct group and a memory group of its own (cgroup v1, made inside this process's groups):
cpuacct charges CPU time to the group as it is used, whoever waits for whom, and isolation
leaves cpuacct alone; it makes its kernels' memory groups inside the memory group it runs in,
so they are children of the command's, whose hierarchical figures (`total_*`) count them. A
sampler checks this while the command runs: every process in the command's memory group and
below (the kernels' groups) must be in its cpuacct group, or the run says how many were not; and
the benchmark prints what wait4 alone would have counted (on this machine, about a third less for
`grader grade`). psutil over the process tree was not the measure: it sees only live processes,
so it loses the CPU of any that end between two samples, and an orphan leaves the tree.

Memory: the peak, sampled every SAMPLE_S, of anonymous memory and tmpfs pages (`total_rss` +
`total_shmem`) of all the command's processes together, each page once however many processes
share it (forked kernels share much of the zygote's); page cache is left out, as it holds
the files a class writes (and grows with the class) and the kernel can drop it. memory's own
high-water mark, page cache included, is kept as `peak_with_cache_bytes`. The largest single
process is the highest VmHWM (the kernel's exact peak RSS of a process) seen, or wait4's maxrss.

Without root or cgroup v1 (cgroup v2 puts isolated kernels' groups at its top, outside the
command's), CPU is wait4's and memory is psutil's over the live process tree: `measure` then
says "rusage", and kernels may be missed.

    .venv/bin/python benchmarks/treeusage.py --log PATH -- COMMAND [ARG ...]   # what COMMAND cost, as JSON
    .venv/bin/python benchmarks/treeusage.py --measure                         # cgroup or rusage, here
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

SAMPLE_S = 0.25


@dataclass
class Usage:
    """What one command (or several, added up) cost."""

    wall_s: float
    cpu_s: float  # every process of the command's tree, kernels included (with the cgroup measure)
    cpu_user_s: float  # cpuacct splits by ticks: user and system need not add up to cpu_s
    cpu_system_s: float
    waited_cpu_s: float  # what wait4 (RUSAGE_CHILDREN's view) counted: the command and what it waited for
    peak_memory_bytes: int  # all processes together: anonymous memory and tmpfs, sampled
    peak_with_cache_bytes: int  # the memory group's own high-water mark, page cache included (0 without it)
    largest_process_bytes: int  # the largest peak RSS of one process
    processes: int  # processes seen while sampling
    kernel_groups: int  # control groups seen inside the command's memory group (isolated kernels)
    uncounted: int  # processes seen outside the command's CPU group: must be 0
    leftover: int  # processes still in the command's groups after it ended (killed then)
    measure: str  # "cgroup" or "rusage"
    commands: int = 1

    def __add__(self, other: Usage) -> Usage:
        """Commands run one after another: times and counts add up, peaks are the higher one."""
        peaks = {"peak_memory_bytes", "peak_with_cache_bytes", "largest_process_bytes"}
        added = {
            f.name: max(getattr(self, f.name), getattr(other, f.name))
            if f.name in peaks
            else getattr(self, f.name) + getattr(other, f.name)
            for f in fields(self)
            if f.name != "measure"
        }
        return Usage(**added, measure=self.measure if self.measure == other.measure else "mixed")

    def as_dict(self) -> dict:
        return asdict(self)


class CommandFailed(RuntimeError):
    """The measured command exited with an error; the message ends with the tail of its output."""


# ----------------------------------------------------------------- where the control groups are


def v1_hierarchies() -> dict[str, tuple[Path, str]]:
    """{"cpuacct", "memory"}: (the folder of this process's own group, its path as /proc/<pid>/cgroup
    names it) in each cgroup v1 hierarchy found."""
    mounts: dict[str, tuple[str, str]] = {}
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            left, right = line.split(" - ", 1)
            root, mount_point = left.split()[3:5]
            fstype, _, options = right.split()[:3]
            if fstype == "cgroup":
                for controller in set(options.split(",")) & {"cpuacct", "memory"}:
                    mounts.setdefault(controller, (mount_point, root))
    own: dict[str, str] = {}
    with open("/proc/self/cgroup") as groups:
        for line in groups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(","):
                own[controller] = path
    found = {}
    for controller, (mount_point, root) in mounts.items():
        path = own.get(controller, "/")
        inside = path[len(root) :] if root != "/" and path.startswith(root) else path
        found[controller] = (Path(mount_point + inside.rstrip("/")), path.rstrip("/"))
    return found


@dataclass
class Groups:
    """A command's own cpuacct and memory groups."""

    cpuacct: Path
    memory: Path
    cpu_path: str  # the cpuacct group as /proc/<pid>/cgroup names it


def cgroups_usable() -> bool:
    """Whether commands can be run in cpuacct and memory groups of their own (root, cgroup v1)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    try:
        found = v1_hierarchies()
    except OSError:
        return False
    return {"cpuacct", "memory"} <= set(found) and all(os.access(folder, os.W_OK) for folder, _ in found.values())


def measure_name() -> str:
    return "cgroup" if cgroups_usable() else "rusage"


def describe(measure: str) -> str:
    """One sentence for people: how CPU and memory were counted."""
    if measure == "cgroup":
        return (
            "CPU and memory of every process of each command, its kernels included "
            "(a cgroup v1 cpuacct and memory group per command)"
        )
    return "CPU of the processes each command waited for (wait4) and memory of its live process tree (psutil)"


# ----------------------------------------------------------------- reading /proc and the groups


def read_text(path: Path | str) -> str:
    with open(path) as file:
        return file.read()


def pids_in(folder: Path) -> list[int]:
    """The processes in a group and every group below it."""
    pids: list[int] = []
    for here, _, _ in os.walk(folder):
        try:
            pids += [int(pid) for pid in read_text(os.path.join(here, "cgroup.procs")).split()]
        except OSError:
            pass  # removed meanwhile
    return pids


def cpuacct_path(pid: int) -> str | None:
    """The process's cpuacct group (relative to its hierarchy), None if it has ended."""
    try:
        for line in read_text(f"/proc/{pid}/cgroup").splitlines():
            _, controllers, path = line.split(":", 2)
            if "cpuacct" in controllers.split(","):
                return path
    except OSError:
        return None
    return None


def peak_rss(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), 0 if it has ended."""
    try:
        for line in read_text(f"/proc/{pid}/status").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def memory_stat(folder: Path) -> dict[str, int]:
    return {key: int(value) for key, value in (line.split() for line in read_text(folder / "memory.stat").splitlines())}


class Sampler(threading.Thread):
    """Every SAMPLE_S until stopped: peak memory of the tree, the largest process, and the check that
    every process of the command's memory group (and the kernels' groups below it) is in its CPU group."""

    def __init__(self, pid: int, groups: Groups | None):
        super().__init__(daemon=True)
        self.pid, self.groups = pid, groups
        self.stopped = threading.Event()
        self.peak_memory = self.largest = 0
        self.seen: set[int] = set()
        self.kernel_groups: set[str] = set()
        self.uncounted: set[int] = set()

    def run(self) -> None:
        while True:
            self.sample()
            if self.stopped.wait(SAMPLE_S):
                return

    def sample(self) -> None:
        if self.groups:
            self.sample_groups(self.groups)
        else:
            self.sample_tree()

    def sample_groups(self, groups: Groups) -> None:
        try:
            stat = memory_stat(groups.memory)
        except OSError:
            return
        self.peak_memory = max(self.peak_memory, stat.get("total_rss", 0) + stat.get("total_shmem", 0))
        self.kernel_groups.update(here for here, _, _ in os.walk(groups.memory) if Path(here) != groups.memory)
        for pid in pids_in(groups.memory):
            self.largest = max(self.largest, peak_rss(pid))
            if pid not in self.seen:
                self.seen.add(pid)
                path = cpuacct_path(pid)
                if path is not None and path != groups.cpu_path and not path.startswith(groups.cpu_path + "/"):
                    self.uncounted.add(pid)

    def sample_tree(self) -> None:
        import psutil

        try:
            tree = [psutil.Process(self.pid), *psutil.Process(self.pid).children(recursive=True)]
        except psutil.Error:
            return
        total = 0
        for process in tree:
            self.seen.add(process.pid)
            try:
                total += process.memory_info().rss
            except psutil.Error:
                continue
            self.largest = max(self.largest, peak_rss(process.pid))
        self.peak_memory = max(self.peak_memory, total)

    def stop(self) -> None:
        self.stopped.set()
        self.join()


# ----------------------------------------------------------------- running one command


def make_groups(name: str) -> Groups:
    """A cpuacct and a memory group named `name`, inside this process's own."""
    found = v1_hierarchies()
    groups = Groups(found["cpuacct"][0] / name, found["memory"][0] / name, f"{found['cpuacct'][1]}/{name}")
    groups.cpuacct.mkdir()
    groups.memory.mkdir()
    return groups


def empty(groups: Groups, grace_s: float = 10.0) -> int:
    """Wait up to `grace_s` for the groups' processes to end, then kill those left (they are the command's).
    Returns how many had to be killed."""
    folders = [groups.cpuacct, groups.memory]
    deadline = time.monotonic() + grace_s
    killed: set[int] = set()
    while pids := {pid for folder in folders for pid in pids_in(folder)}:
        if time.monotonic() > deadline + grace_s:
            raise RuntimeError(f"processes {sorted(pids)} of {folders} would not end")
        if time.monotonic() > deadline:
            for pid in pids - killed:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                except ProcessLookupError:
                    pass
        time.sleep(0.05)
    return len(killed)


def remove(groups: Groups) -> None:
    """Remove the (empty) groups, the ones made inside them first."""
    for folder in (groups.cpuacct, groups.memory):
        for here, _, _ in sorted(os.walk(folder), key=lambda entry: -len(entry[0])):
            for _ in range(100):
                try:
                    os.rmdir(here)
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy while the last exits are accounted
                    time.sleep(0.02)


class Started:
    """A command started in control groups of its own (or, without them, watched as a process tree), measured from
    its start until it ends: `run` waits for it at once; a service is started, asked `cpu_s` between the moments
    it measures, and stopped (benchmarks/on_submit.py)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str], log: Path):
        self.command, self.cwd, self.log = command, cwd, log
        self.groups = make_groups(f"softmax-bench-{os.getpid()}-{time.monotonic_ns()}") if cgroups_usable() else None
        groups = self.groups

        def join_groups() -> None:  # in the child, before it runs the command: all it starts is inside
            for folder in (groups.cpuacct, groups.memory) if groups else ():
                with open(folder / "cgroup.procs", "w") as procs:
                    procs.write("0")

        try:
            with open(log, "wb") as output:
                self.start = time.monotonic()
                self.child = subprocess.Popen(
                    command, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT, preexec_fn=join_groups
                )
        except BaseException:
            if groups:
                remove(groups)
            raise
        self.sampler = Sampler(self.child.pid, groups)
        self.sampler.start()

    def cpu_s(self) -> float:
        """The CPU seconds the command has used so far: every process of its groups, or its live tree's."""
        if self.groups:
            return int(read_text(self.groups.cpuacct / "cpuacct.usage")) / 1e9
        import psutil

        try:
            tree = [psutil.Process(self.child.pid), *psutil.Process(self.child.pid).children(recursive=True)]
        except psutil.Error:
            return 0.0
        total = 0.0
        for process in tree:
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system + times.children_user + times.children_system
        return total

    def finish(self) -> Usage:
        """Wait for the command to end; what it cost. CommandFailed if it failed."""
        groups, child, sampler = self.groups, self.child, self.sampler
        leftover, cpu_ns, user_ns, system_ns, with_cache = 0, 0, 0, 0, 0
        try:
            _, status, rusage = os.wait4(child.pid, 0)
            wall = time.monotonic() - self.start
            child.returncode = os.waitstatus_to_exitcode(status)
            sampler.stop()
            if groups:
                sampler.sample_groups(groups)  # what is left after the command, before it is killed
                leftover = empty(groups)  # every process gone: the groups' figures are final
                cpu_ns = int(read_text(groups.cpuacct / "cpuacct.usage"))
                user_ns = int(read_text(groups.cpuacct / "cpuacct.usage_user"))
                system_ns = int(read_text(groups.cpuacct / "cpuacct.usage_sys"))
                with_cache = int(read_text(groups.memory / "memory.max_usage_in_bytes"))
        finally:
            if groups:
                leftover += empty(groups)
                remove(groups)
        if child.returncode != 0:
            tail = self.log.read_text(errors="replace")[-3000:]
            raise CommandFailed(f"{' '.join(self.command)} exited with {child.returncode} (in {self.cwd}):\n{tail}")
        waited = rusage.ru_utime + rusage.ru_stime
        if not groups:
            user_ns, system_ns = int(rusage.ru_utime * 1e9), int(rusage.ru_stime * 1e9)
            cpu_ns = user_ns + system_ns
        return Usage(
            wall_s=wall,
            cpu_s=cpu_ns / 1e9,
            cpu_user_s=user_ns / 1e9,
            cpu_system_s=system_ns / 1e9,
            waited_cpu_s=waited,
            peak_memory_bytes=sampler.peak_memory,
            peak_with_cache_bytes=with_cache,
            largest_process_bytes=max(sampler.largest, rusage.ru_maxrss * 1024),
            processes=len(sampler.seen),
            kernel_groups=len(sampler.kernel_groups),
            uncounted=len(sampler.uncounted),
            leftover=leftover,
            measure="cgroup" if groups else "rusage",
        )


def run(command: list[str], cwd: Path, env: dict[str, str], log: Path) -> Usage:
    """Run `command` to its end with its output in `log`; what it cost. CommandFailed if it fails."""
    return Started(command, cwd, env, log).finish()


def main(argv=None) -> int:
    """`--measure` says how a command would be counted; `--log PATH -- COMMAND ...` runs one and prints its cost."""
    parser = argparse.ArgumentParser(description="What one command costs, with every process it starts counted.")
    parser.add_argument("--measure", action="store_true", help="print how commands are counted here (cgroup, rusage)")
    parser.add_argument("--log", type=Path, metavar="PATH", help="where the command's output goes")
    parser.add_argument("command", nargs="*", help="the command, after --")
    args = parser.parse_args(argv)
    if args.measure:
        print(measure_name())
        return 0
    if not args.command or not args.log:
        parser.error("give --measure, or --log PATH -- COMMAND")
    try:
        usage = run(args.command, Path.cwd(), dict(os.environ), args.log)
    except CommandFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print(json.dumps(usage.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
