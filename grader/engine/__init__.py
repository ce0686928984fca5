"""The engine: sandboxed execution of one submission.

Autograde of one notebook (grade.grade_submission), the test runner that keeps test cells
out of the learner's kernel, the bridge and its kernel side, kernel isolation and warm
kernels, the worker pool, statuses and suspicious-code inspection.
"""
