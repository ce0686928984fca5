"""Broken and hostile submissions of lesson 01, one kind per entry, with the outcome each must get.

Each kind builds the file a student hands in (kinds.py, from the lesson's notebooks in lesson.py, the edits in
cells.py and the code in payloads.py, lookup.py and scripts.py). tests/integration/test_hostile.py grades all of
them in one batch with two ordinary students (full marks and stubs), then checks each status and score;
benchmarks/hostile.py grades them with plain nbgrader too. `python -m testbed.hostile --page` writes the outcome
table of docs/reference/hostile.md (page.py), which the test keeps equal to its own grading.

The tests of naive_normalize come first in the notebook (7 points), then those of
is_distribution (5). A kind that stops or kills its kernel does it in is_distribution's
cell or function, after a correct naive_normalize: the tests before keep their 7 points
and the ones after score 0 whether they are not run or run in a fresh kernel, so the score
it must get does not depend on how the grader goes on after a kernel stops.
"""
