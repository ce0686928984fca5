"""Softmax, step by step: lesson authoring, checks and grading on top of nbgrader."""
