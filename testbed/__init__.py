"""What the tests and the benchmarks both run on, so that neither imports the other: the hostile corpus (hostile/),
a Dask cluster of this machine's processes (cluster.py), a fresh clone (clone.py) and a hub of real Unix users
(hub.py). Not part of the installed package: it is written against this repository's own course."""
