"""Tests through several rooms at once: the command line, whole lessons graded, a class end to end,
the hostile corpus, the installs."""
