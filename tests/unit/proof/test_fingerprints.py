"""The catalogue's fingerprints (grader/proof/fingerprints.py): what the learner's side holds of each misconception.

They are written into the learner room by `make fingerprints`; here: what is written is what the catalogue computes
(a drifted file fails, as a drifted notebook does), every misconception has one, and each tells its misconception
apart: run as a learner's function, every misconception is named by its own fingerprint alone, and no correct
implementation (the reference, each alternative) is named at all.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from grader.engine import kernelside
from grader.learner import checks, hints
from grader.learner.streams import OnePass
from grader.proof import alternatives, catalogue, fingerprints
from tests.support import COURSE

LESSONS = COURSE.lesson_ids()
MISCONCEPTIONS = catalogue.misconceptions()


pytestmark = pytest.mark.xdist_group("fingerprints")  # the module fixture below, computed once


@pytest.fixture(scope="module")
def computed() -> dict:
    return {}


def fresh(computed: dict, lesson: str) -> dict:
    if lesson not in computed:
        computed[lesson] = fingerprints.compute(COURSE, lesson)
    return computed[lesson]


def same_prints(written: dict, fresh: dict, scale_of) -> list[str]:
    """Where two lessons' fingerprints differ: functions, probe counts, ids, probes, or an outcome."""
    problems = []
    if written.keys() != fresh.keys():
        return [f"functions {sorted(written)} != {sorted(fresh)}"]
    for function, old in written.items():
        new = fresh[function]
        if old["probes"] != new["probes"]:
            problems.append(f"{function}: {old['probes']} probes written, {new['probes']} now")
        scale = scale_of(function)
        a, b = old.get("reference", {}), new["reference"]
        problems += [
            f"{function}: the reference's outcome on probe {index} differs"
            for index in a.keys() | b.keys()
            if index not in a
            or index not in b
            or not (
                checks.same_outcome(a[index], b[index], scale[int(index)])
                and checks.same_outcome(b[index], a[index], scale[int(index)])
            )
        ]
        for ident in old["misconceptions"].keys() | new["misconceptions"].keys():
            a, b = old["misconceptions"].get(ident), new["misconceptions"].get(ident)
            if a is None or b is None or a.keys() != b.keys():
                problems.append(f"{ident}: probes {sorted(a or {})} written, {sorted(b or {})} now")
                continue
            problems += [
                f"{ident}: probe {index} differs"
                for index in a
                if not (
                    checks.same_outcome(a[index], b[index], scale[int(index)])
                    and checks.same_outcome(b[index], a[index], scale[int(index)])
                )
            ]
    return problems


def scales(function: str) -> list[float]:
    return [checks.input_scale(args, kwargs) for args, kwargs in hints.probes(function)]


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_written_fingerprints_are_what_the_catalogue_computes(lesson, computed):
    path = hints.fingerprints_file(lesson)
    assert path.is_file(), f"{path} is missing: run `make fingerprints`"
    written = json.loads(path.read_text())
    now = fresh(computed, lesson)
    assert written["lesson"] == lesson
    assert same_prints(written["functions"], now["functions"], scales) == [], "run `make fingerprints`"


def test_a_drifted_fingerprint_is_seen(computed):
    now = fresh(computed, "01_naive_division")["functions"]
    drifted = json.loads(json.dumps(now))
    prints = drifted["naive_normalize"]["misconceptions"]["naive_sums_whole_array"]
    index = next(iter(prints))
    prints[index] = {"raised": "builtins:ValueError"}
    assert same_prints(drifted, now, scales) == [f"naive_sums_whole_array: probe {index} differs"]
    del drifted["naive_normalize"]["misconceptions"]["naive_sums_axis0"][next(iter(prints))]
    assert len(same_prints(drifted, now, scales)) == 2
    drifted["naive_normalize"]["reference"]["0"] = {"raised": "builtins:ValueError"}
    assert "naive_normalize: the reference's outcome on probe 0 differs" in same_prints(drifted, now, scales)


def test_the_written_files_are_plain_json():
    def refuse(name):
        raise ValueError(f"{name} is not plain JSON")

    for lesson in LESSONS:
        json.loads(hints.fingerprints_file(lesson).read_text(), parse_constant=refuse)


@pytest.mark.parametrize("entry", MISCONCEPTIONS, ids=[m.id for m in MISCONCEPTIONS])
def test_each_misconception_is_named_by_its_fingerprint_alone(entry):
    assert hints.fingerprints(entry.function).get(entry.id), f"{entry.id} does what the reference does on every probe"
    named = checks.catalogued_mistake(catalogue.implementation(entry))
    assert named is not None and named.id == entry.id, (entry.id, named and named.id)


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_correct_implementation_is_named(lesson):
    references = fingerprints.references(COURSE, lesson)
    right = [(name, fn) for name, fn in references.items()]
    right += [(a.id, catalogue.implementation(a)) for a in alternatives.alternatives(lesson=lesson)]
    named = {ident: checks.catalogued_mistake(fn) for ident, fn in right}
    assert {ident: m.id for ident, m in named.items() if m is not None} == {}


def unchanged_across(sent, received) -> bool:
    """Whether a value came out of the grading bridge as it went in, down to an array's memory layout."""
    if type(sent) is not type(received):
        return False
    if isinstance(sent, np.ndarray):
        return (
            sent.dtype == received.dtype
            and sent.shape == received.shape
            and sent.flags.c_contiguous == received.flags.c_contiguous
            and sent.flags.writeable == received.flags.writeable
            and np.array_equal(sent, received, equal_nan=sent.dtype.kind in "fc")
        )
    if isinstance(sent, np.random.Generator):
        return sent.bit_generator.state == received.bit_generator.state
    if isinstance(sent, OnePass):
        return unchanged_across(sent.chunks, received.chunks) and sent.reuse_buffer == received.reuse_buffer
    if isinstance(sent, (list, tuple)):
        return len(sent) == len(received) and all(map(unchanged_across, sent, received))
    if isinstance(sent, dict):
        return sent.keys() == received.keys() and all(unchanged_across(sent[k], received[k]) for k in sent)
    return sent == received or (sent != sent and received != received)


PROBED = [
    (function, index)
    for function in sorted({m.function for m in MISCONCEPTIONS})
    for index in range(len(hints.probes(function)))
]


@pytest.mark.parametrize("function, index", PROBED, ids=[f"{f}-{i}" for f, i in PROBED])
def test_each_probe_reaches_a_learners_function_in_a_kernel_as_it_is_here(function, index):
    """While grading, a probe crosses the bridge (grader.engine.kernelside) to the learner's function: what it does
    there must be what the fingerprints, computed here, record (a transposed array would arrive C-ordered, say)."""
    args, kwargs = hints.probes(function)[index]
    given = [id(value) for value in [*args, *kwargs.values()] if isinstance(value, (np.ndarray, list, OnePass))]
    assert len(set(given)) == len(given), "one object given twice arrives as two"
    codec = kernelside.Codec()
    received = codec.decode(json.loads(json.dumps(codec.encode([list(args), kwargs]))))
    assert unchanged_across([list(args), kwargs], received)


def test_a_probe_changed_by_the_bridge_is_seen():
    transposed = np.arange(1.0, 9.0).reshape(2, 2, 2).T
    codec = kernelside.Codec()
    assert not unchanged_across([transposed], codec.decode(codec.encode([transposed])))


SHIFT_BY_FIRST = """
def stable_softmax(scores, temperature=1.0):
    x = np.asarray(scores, dtype=float) / temperature  # float64 even for float32 scores: a dtype detail
    e = np.exp(x - x[..., :1])
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights{tail}
"""


def learner_function(source: str):
    namespace: dict = {"np": np}
    exec(source, namespace)  # noqa: S102 - the test's own code
    return namespace["stable_softmax"]


def test_a_mistake_is_named_whatever_the_dtype_but_not_beside_another_mistake():
    """Shifting by the first score is named though the learner's weights are float64 where the reference keeps
    float32; the same mistake with batches also reversed (wrong where the misconception is right) is not."""
    alone = learner_function(SHIFT_BY_FIRST.format(tail=""))
    assert checks.catalogued_mistake(alone).id == "stable_shift_by_first_score"
    recorded = hints.fingerprints("stable_softmax")["stable_shift_by_first_score"]
    assert all(
        np.ndim(args[0]) == 1 for index, (args, _) in enumerate(hints.probes("stable_softmax")) if index in recorded
    )
    with_another = learner_function(SHIFT_BY_FIRST.format(tail=" if x.ndim == 1 else weights[..., ::-1]"))
    assert checks.catalogued_mistake(with_another) is None


def test_an_uncatalogued_mistake_is_not_named():
    """Weights divided by one more than their total: wrong on every probe, and no misconception's fingerprint."""
    plus_one = learner_function(SHIFT_BY_FIRST.format(tail=" / (1 + weights.sum(axis=-1, keepdims=True))"))
    assert checks.catalogued_mistake(plus_one) is None
