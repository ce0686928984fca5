"""Tests of one module each, in folders named after the rooms of the package
(grader/learner, engine, course, instructor, proof)."""
