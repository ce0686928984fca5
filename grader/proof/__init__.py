"""The proof room: the correct alternatives, `prove` (the tests catch every catalogued mistake and mutant and
accept every alternative), and the simulated class used by the demo, the benchmarks and the tests."""
