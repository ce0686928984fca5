"""The whole outside corpus as one file for `python -m grader prove --entries grader/proof/outside/corpus.py`."""

from grader.proof import outside

OUTSIDE = {lesson: module.OUTSIDE for lesson, module in outside.lessons().items()}
