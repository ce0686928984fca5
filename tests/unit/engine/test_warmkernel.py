"""Kernels forked from the warm zygote behave like kernels started from scratch."""

from __future__ import annotations

import asyncio
import os

import pytest

from grader.engine import warmkernel
from grader.engine.sandbox import GRADING_KERNEL
from grader.engine.warmkernel import ForkedProcess
from tests.support import run_apart, run_in_kernel


def test_a_forked_kernel_runs_code_in_its_own_directory_environment_and_process(tmp_path):
    async def main():
        code = (
            "import os, sys, numpy\nprint(os.getcwd()); print(os.environ['MARK']); print(os.getpid());"
            "print(os.getsid(0) == os.getpid()); print('matplotlib' in sys.modules)"
        )
        out, km = await run_in_kernel(code, tmp_path, {"MARK": "graded"})
        assert isinstance(km.provisioner.process, ForkedProcess)
        cwd, mark, pid, own_session, preloaded = out.split()
        assert (cwd, mark, own_session, preloaded) == (str(tmp_path), "graded", "True", "True")
        assert int(pid) == km.provisioner.pid != os.getpid()
        await km.shutdown_kernel(now=True)
        assert km.provisioner is None or km.provisioner.process is None or km.provisioner.process.poll() is not None
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)

    run_apart(asyncio.run, main())


def test_two_forked_kernels_do_not_share_state_or_random_numbers(tmp_path):
    async def main():
        first, km1 = await run_in_kernel(
            "import numpy, random\nx = 1\nprint(numpy.random.random(), random.random())", tmp_path
        )
        second, km2 = await run_in_kernel(
            "print('x' in globals())\nimport numpy, random\nprint(numpy.random.random(), random.random())", tmp_path
        )
        assert second.split()[0] == "False"
        assert first.split() != second.split()[1:]
        await km1.shutdown_kernel(now=True)
        await km2.shutdown_kernel(now=True)

    run_apart(asyncio.run, main())


def test_a_forked_kernel_starts_with_the_zygotes_imports_done_frozen_and_figures_shown_as_ipython_shows_them(
    tmp_path,
):
    """What the zygote imported is there before the first cell, its objects out of the kernel's collections; and
    matplotlib's display through IPython (matplotlib_inline's, set up only in a running kernel) is still set up."""

    async def main():
        code = (
            "import gc, sys\nimport matplotlib.pyplot as plt\nplt.figure()\n"
            f"print(sorted(set({list(warmkernel.PRELOAD)!r}) - set(sys.modules)), gc.get_freeze_count() > 0, "
            "[f.__name__ for f in get_ipython().events.callbacks['post_execute']].count('flush_figures'))"
        )
        out, km = await run_in_kernel(code, tmp_path)
        assert out.split() == ["[]", "True", "1"]
        await km.shutdown_kernel(now=True)

    run_apart(asyncio.run, main())


def test_a_figure_left_open_by_a_cell_is_not_drawn_after_it_unless_something_asks(tmp_path):
    """pyplot's hook after each cell draws nothing in a grading kernel (whose displays are text, which draws no
    figure); asking for a drawing still draws."""

    async def main():
        code = (
            "import io\nimport matplotlib.figure, matplotlib.pyplot as plt\ndrawn = []\n"
            "draw = matplotlib.figure.Figure.draw\n"
            "matplotlib.figure.Figure.draw = lambda self, renderer: drawn.append(draw(self, renderer))\n"
            "fig = plt.figure()\nfig.add_subplot().plot([1, 2])\n"
            "get_ipython().events.trigger('post_execute')\nprint(len(drawn))\n"
            "fig.savefig(io.BytesIO(), format='png')\nprint(len(drawn))"
        )
        out, km = await run_in_kernel(code, tmp_path, arguments=GRADING_KERNEL)
        assert out.split() == ["0", "1"]
        await km.shutdown_kernel(now=True)

    run_apart(asyncio.run, main())


def test_a_grading_kernel_makes_no_debug_line_of_its_log_and_still_its_warnings(tmp_path):
    async def main():
        code = "log = get_ipython().kernel.log\nprint(log.isEnabledFor(10), log.isEnabledFor(30))"
        out, km = await run_in_kernel(code, tmp_path, arguments=GRADING_KERNEL)
        assert out.split() == ["False", "True"]
        await km.shutdown_kernel(now=True)

    run_apart(asyncio.run, main())


def test_a_kernel_flushes_a_stream_only_when_something_was_written_and_every_output_arrives(tmp_path):
    """A flush with nothing buffered hands the I/O thread nothing; what the cell and its threads print arrives."""

    async def main():
        code = (
            "import sys, threading\npub = sys.stdout.pub_thread\nscheduled = []\nschedule = pub.schedule\n"
            "pub.schedule = lambda job: scheduled.append(job) or schedule(job)\n"
            "sys.stdout.flush()\nsys.stderr.flush()\nempty = len(scheduled)\n"
            "print('from-the-cell')\nprint('to-stderr', file=sys.stderr)\n"
            "thread = threading.Thread(target=print, args=('from-a-thread',))\nthread.start()\nthread.join()\n"
            "sys.stdout.flush()\npub.schedule = schedule\nprint(empty, len(scheduled) > empty)"
        )
        out, km = await run_in_kernel(code, tmp_path, arguments=GRADING_KERNEL)
        assert sorted(out.split()) == sorted(["from-the-cell", "to-stderr", "from-a-thread", "0", "True"])
        await km.shutdown_kernel(now=True)

    run_apart(asyncio.run, main())


def test_a_zygote_that_died_is_replaced_by_the_next_kernel_asked_for(tmp_path, monkeypatch):
    """Its socket is left where the environment says, with no one listening: the next kernel starts a new one."""
    monkeypatch.delenv(warmkernel.ADDRESS, raising=False)
    dead = warmkernel.start_zygote()
    dead.kill()
    dead.wait()
    assert os.path.exists(os.environ[warmkernel.ADDRESS])
    first = os.environ[warmkernel.ADDRESS]

    async def main():
        out, km = await run_in_kernel("print(6 * 7)", tmp_path)
        await km.shutdown_kernel(now=True)
        return out

    assert run_apart(asyncio.run, main()).strip() == "42" and os.environ[warmkernel.ADDRESS] != first
