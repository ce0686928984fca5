"""Prove the autograder: every catalogued misconception loses points, every alternative gets full marks,
and the mechanical mutants of every reference (grader/proof/mutate.py) are killed.

Each catalogue entry (or mutant) is put into the lesson's release notebook in place of its
function's solution (every other function filled with the reference), and the notebook is
graded by nbgrader with the full hidden tests, all of them in parallel.
"""

from __future__ import annotations

import importlib.util
import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from grader.course import Course
from grader.course.contract import function_of_test, properties
from grader.engine.pool import grade_many
from grader.engine.scores import Report
from grader.learner import hints
from grader.proof import alternatives, catalogue, mutate, pages, public
from grader.proof.alternatives import Alternative
from grader.proof.catalogue import Misconception
from grader.proof.outside import VERDICTS, OutsideEntry
from grader.proof.outside import diagnosis as outside_diagnosis

PAGE = pages.REFERENCE / "proof.md"  # from the course's root
BEGIN, END = pages.markers("prove", "make prove")
OUTSIDE_BEGIN, OUTSIDE_END = pages.markers("outside", "python -m grader prove --entries FILE --page")
EQUIVALENTS_WHERE = (
    "Each mutant by its id (function:kind:number); what it changes quotes the reference, so this page leaves it out. "
    "`python -m grader prove --mutate` prints each survivor's change, and each equivalent's reason is recorded in "
    "`EQUIVALENT_MUTANTS` beside its lesson's alternatives (`grader/proof/alternatives/`)."
)
TARGET = 0.95  # the least share of non-equivalent mutants each function's tests must kill


@dataclass
class Proof:
    """How the graded tests treated one catalogue entry (or one entry of a file given to --entries)."""

    lesson: str
    function: str
    entry: str
    kind: str  # "misconception" or "alternative"
    description: str
    score: float  # the whole notebook's score
    max_score: float
    lost: float  # points lost on the tests of the entry's own function
    named: bool  # a failing test of the function named this misconception
    failed_tests: list[str]
    named_others: list[str] = field(default_factory=list)  # other catalogued misconceptions the feedback named
    catalogued: bool = True  # False for an entry from a file: "named" does not apply to it
    # a misconception's: a public check (the release's test cells, what Validate runs) fails for it; None: not known
    public: bool | None = None
    # the first failed test of the entry's own function, in notebook order: the first message a learner reads
    first_test: str = ""
    first_message: str = ""
    first_named: list[str] = field(default_factory=list)  # the catalogued mistakes it named
    # an outside entry's (grader/proof/outside): its verdict was judged by hand, and what its first failure said
    outside: bool = False
    diagnosis: str = ""  # one of outside.diagnosis.DIAGNOSES, for a wrong outside entry that failed a test

    @property
    def proven(self) -> bool:
        """A misconception must lose points on its function; an alternative must get full marks."""
        if self.max_score == 0:  # not graded at all
            return False
        return self.lost > 0 if self.kind == "misconception" else self.score == self.max_score

    @property
    def specific(self) -> bool:
        """Named alone: the feedback points at this mistake and at no other."""
        return self.named and not self.named_others


@dataclass
class MutantProof:
    """How the graded tests treated one mechanical mutant."""

    lesson: str
    function: str
    mutant: str  # its id
    rule: str
    description: str
    source: str
    score: float
    max_score: float
    lost: float  # points lost on the tests of the mutant's own function
    failed_tests: list[str]
    equivalent: str | None = None  # the lesson author's reason, when recorded as computing the same thing

    @property
    def killed(self) -> bool:
        """It lost points: on its own function's tests or on any other (a helper others call)."""
        return self.max_score > 0 and (self.lost > 0 or self.score < self.max_score)


def entries(lesson: str | None = None):
    """Every catalogue entry to prove, misconceptions first, in catalogue order."""
    return [("misconception", m) for m in catalogue.misconceptions(lesson=lesson)] + [
        ("alternative", a) for a in alternatives.alternatives(lesson=lesson)
    ]


def _lost(course: Course, report: Report, lesson: str, function: str) -> float:
    """Points the report lost on the tests of `function`."""
    return sum(
        t.max_points - t.points for t in report.tests if function_of_test(course, t.grade_id, lesson) == function
    )


def _failed(report: Report | BaseException) -> list[str]:
    if isinstance(report, BaseException):
        return [f"grading failed: {type(report).__name__}: {report}"]
    return [t.grade_id for t in report.tests if not t.passed]


def named_misconceptions(report: Report, lesson: str, besides: str | None = None) -> list[str]:
    """Ids of the lesson's catalogued misconceptions (but `besides`) that a failing test's message names."""
    messages = [t.message for t in report.tests if not t.passed]
    return [
        m.id
        for m in hints.misconceptions(lesson=lesson)
        if m.id != besides and any(m.description in text for text in messages)
    ]


def judge(
    course: Course, kind: str, entry, lesson: str, report: Report | BaseException, catalogued: bool = True
) -> Proof:
    """Read one graded report as the proof for `entry`; a grading that failed proves nothing."""
    if isinstance(report, BaseException):
        return Proof(
            lesson,
            entry.function,
            entry.id,
            kind,
            entry.description,
            0.0,
            0.0,
            0.0,
            False,
            _failed(report),
            catalogued=catalogued,
        )
    failing = [
        t for t in report.tests if not t.passed and function_of_test(course, t.grade_id, lesson) == entry.function
    ]
    wrong = kind == "misconception"
    named = catalogued and wrong and any(entry.description in t.message for t in failing)
    others = named_misconceptions(report, lesson, besides=entry.id if catalogued else None) if wrong else []
    first = failing[0] if failing else None
    first_named = first_failure_named(first, lesson) if first else []
    return Proof(
        lesson,
        entry.function,
        entry.id,
        kind,
        entry.description,
        report.score,
        report.max_score,
        _lost(course, report, lesson, entry.function),
        named,
        _failed(report),
        others,
        catalogued,
        first_test=first.grade_id if first else "",
        first_message=first.message if first else "",
        first_named=first_named,
        outside=isinstance(entry, OutsideEntry),
        diagnosis=outside_diagnosis_of(course, lesson, entry, first, first_named) if first and wrong else "",
    )


def first_failure_named(test, lesson: str) -> list[str]:
    """The ids of the lesson's catalogued mistakes one failed test named: those its check recorded (by
    description, or by id), and any whose description its message quotes."""
    recorded = set(test.mistakes)
    return [
        m.id
        for m in hints.misconceptions(lesson=lesson)
        if m.id in recorded or m.description in recorded or m.description in test.message
    ]


def outside_diagnosis_of(course: Course, lesson: str, entry, first, named: list[str]) -> str:
    """What an outside entry's first failure told it (grader/proof/outside/diagnosis.py); "" for other entries."""
    if not isinstance(entry, OutsideEntry):
        return ""
    contract = properties(course, lesson).get(entry.function, {})
    breaks = {pid: contract[pid].text for pid in entry.breaks if pid in contract}
    return outside_diagnosis.diagnose(first.message, named, entry.names, breaks)


def judge_mutant(
    course: Course, mutant: mutate.Mutant, report: Report | BaseException, equivalent: str | None
) -> MutantProof:
    """Read one graded report as the proof for a mutant; a grading that failed kills nothing."""
    if isinstance(report, BaseException):
        score = max_score = lost = 0.0
    else:
        score, max_score, lost = report.score, report.max_score, _lost(course, report, mutant.lesson, mutant.function)
    return MutantProof(
        mutant.lesson,
        mutant.function,
        mutant.id,
        mutant.rule,
        mutant.description,
        mutant.source,
        score,
        max_score,
        lost,
        _failed(report),
        equivalent,
    )


class EntriesError(ValueError):
    """What `prove` cannot run on: a lesson not built yet, or a file of entries that is missing, not importable, or
    names an unknown lesson or function."""


Entry = Misconception | Alternative | OutsideEntry  # what prove grades: a catalogue's entry or an outside one


def load_entries(course: Course, path) -> list[tuple[str, str, Entry]]:
    """(lesson, kind, entry) for every entry of a file written like a catalogue module, for a lesson of `course`.

    The file holds LESSON, MISCONCEPTIONS and ALTERNATIVES, or, for several lessons,
    ENTRIES = {lesson: (MISCONCEPTIONS, ALTERNATIVES)}, each misconception a grader.proof.catalogue.Misconception
    (it carries its source), each alternative an Alternative; or, written like the outside corpus
    (grader/proof/outside/), LESSON and OUTSIDE = [OutsideEntry, ...] or OUTSIDE = {lesson: [...]}.
    """
    path = Path(path)
    if not path.is_file():
        raise EntriesError(f"{path}: no such file")
    spec = importlib.util.spec_from_file_location(f"entries_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise EntriesError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # whatever its code raises, SyntaxError and SystemExit included
        message = (str(error).strip().splitlines() or [""])[0]
        raise EntriesError(f"{path} does not import: {type(error).__name__}: {message}") from None
    if hasattr(module, "OUTSIDE"):
        return _outside_entries(course, path, module)
    if hasattr(module, "ENTRIES"):
        groups = module.ENTRIES
    elif hasattr(module, "LESSON"):
        groups = {module.LESSON: (getattr(module, "MISCONCEPTIONS", []), getattr(module, "ALTERNATIVES", []))}
    else:
        raise EntriesError(f"{path} defines neither LESSON, MISCONCEPTIONS and ALTERNATIVES nor ENTRIES nor OUTSIDE")
    known = course.lesson_ids()
    out: list[tuple[str, str, Entry]] = []
    for lesson, pair in dict(groups).items():
        if lesson not in known:
            raise EntriesError(f"{path}: unknown lesson {lesson!r}; known: {', '.join(known)}")
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise EntriesError(f"{path}: ENTRIES[{lesson!r}] must be (MISCONCEPTIONS, ALTERNATIVES)")
        functions = course.graded_functions(lesson)
        for kind, items, cls in (("misconception", pair[0], Misconception), ("alternative", pair[1], Alternative)):
            for entry in items:
                if isinstance(entry, hints.Misconception):
                    raise EntriesError(
                        f"{path}: {entry.id} is the learner room's record, which holds no code: "
                        "write misconceptions with grader.proof.catalogue.Misconception"
                    )
                if not isinstance(entry, cls):
                    raise EntriesError(f"{path}: {lesson}'s {kind}s hold {entry!r:.60}, not a {cls.__name__}")
                if entry.function not in functions:
                    raise EntriesError(
                        f"{path}: {entry.id} is for {entry.function!r}, which {lesson} does not grade "
                        f"(it grades {', '.join(functions)})"
                    )
                out.append((lesson, kind, entry))
    return out


def _outside_entries(course: Course, path: Path, module) -> list[tuple[str, str, Entry]]:
    """(lesson, kind, entry) for a file's OUTSIDE entries: a wrong one is proven like a misconception, a correct
    one like an alternative."""
    groups = module.OUTSIDE if isinstance(module.OUTSIDE, dict) else {getattr(module, "LESSON", None): module.OUTSIDE}
    known = course.lesson_ids()
    out: list[tuple[str, str, Entry]] = []
    for lesson, items in groups.items():
        if lesson not in known:
            raise EntriesError(f"{path}: unknown lesson {lesson!r}; known: {', '.join(known)}")
        functions = course.graded_functions(lesson)
        for entry in items:
            if not isinstance(entry, OutsideEntry):
                raise EntriesError(f"{path}: {lesson}'s OUTSIDE holds {entry!r:.60}, not an OutsideEntry")
            if entry.verdict not in VERDICTS:
                raise EntriesError(
                    f"{path}: {entry.id}'s verdict is {entry.verdict!r}, not one of {', '.join(VERDICTS)}"
                )
            if entry.function not in functions:
                raise EntriesError(
                    f"{path}: {entry.id} is for {entry.function!r}, which {lesson} does not grade "
                    f"(it grades {', '.join(functions)})"
                )
            out.append((lesson, entry.kind, entry))
    return out


@dataclass
class Plan:
    """What one `prove` run grades."""

    lessons: list[str]
    entries: list[tuple[str, str, Entry]]  # (lesson, kind, entry)
    mutants: list[mutate.Mutant] | None = None  # None: no mutants this run
    catalogued: bool = True  # False: the entries come from a file


def plan(course: Course, lessons: list[str] | None = None, mutants: bool = False, entries_file=None) -> Plan:
    """The catalogue's entries (or a file's) of the given lessons of `course` (default: all), and their mutants
    if asked."""
    lessons = lessons or course.lesson_ids()
    unbuilt = [lesson for lesson in lessons if lesson not in course.built_lessons()]
    if unbuilt:
        raise EntriesError(f"not built yet: {', '.join(unbuilt)} (run `python -m grader release {' '.join(unbuilt)}`)")
    if entries_file is not None:
        return Plan(lessons, [e for e in load_entries(course, entries_file) if e[0] in lessons], catalogued=False)
    return Plan(
        lessons,
        [(lid, kind, entry) for lid in lessons for kind, entry in entries(lid)],
        [m for lid in lessons for m in mutate.lesson_mutants(course, lid)] if mutants else None,
    )


@dataclass
class Proven:
    """The outcome of one run: the entries' proofs, the mutants' (None when not mutated), stale records."""

    proofs: list[Proof]
    mutants: list[MutantProof] | None = None
    stale: list[str] = field(default_factory=list)  # recorded equivalent ids that no mutant has
    # each lesson's graded functions in course order, for the tables (else in the order the run met them)
    graded: dict[str, list[str]] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """Wrong records of equivalent mutants (ids that no longer exist, "equivalents" that the tests kill), and of
        the public checks (public_problems)."""
        return (
            public_problems(self.proofs)
            + [
                f"{i}: recorded in EQUIVALENT_MUTANTS, but no mutant has this id (the reference changed)"
                for i in self.stale
            ]
            + [
                f"{m.mutant}: recorded in EQUIVALENT_MUTANTS, but the tests kill it"
                for m in self.mutants or []
                if m.equivalent is not None and m.killed
            ]
        )

    @property
    def ok(self) -> bool:
        """Every entry proven, every function's mutation score at the target, every record right."""
        return (
            all(p.proven for p in self.proofs)
            and not self.problems()
            and all(f.mutation_score is None or f.mutation_score >= TARGET for f in function_scores(self))
        )

    @classmethod
    def from_json(cls, data: dict) -> Proven:
        """The run back from to_json's output."""

        def build(kind, item):
            return kind(**{f.name: item[f.name] for f in fields(kind) if f.name in item})

        mutants = data.get("mutants")
        return cls(
            [build(Proof, p) for p in data["entries"]],
            None if mutants is None else [build(MutantProof, m) for m in mutants],
            data.get("stale_equivalents", []),
            data.get("graded_functions", {}),
        )


def as_notebook_code(source: str) -> str:
    """An entry's source as a learner's cell: entries may use `math` unimported (the checks give it them)."""
    source = source.strip() + "\n"
    uses_math = re.search(r"\bmath\.", source) and not re.search(r"^\s*(import math|from math import)", source, re.M)
    return ("import math\n\n" + source) if uses_math else source


def prove(course: Course, todo: Plan, jobs: int | None = None, progress=None) -> Proven:
    """Grade every entry and mutant of the plan in one batch, with the tests of `course`, and judge each."""
    items = [(lid, entry.function, entry.source) for lid, _, entry in todo.entries]
    items += [(m.lesson, m.function, m.source) for m in todo.mutants or []]
    notebooks = []
    for lid, function, source in items:
        answers = course.reference_answers(lid)  # the reference guesses of its predictions too
        if function not in course.graded_functions(lid):
            raise KeyError(f"{lid} has no graded function {function}")
        answers[function] = as_notebook_code(source)
        notebooks.append((lid, course.learner_notebook(lid, answers)))
    reports = grade_many(course, notebooks, jobs=jobs, progress=progress)
    count = len(todo.entries)
    graded = {lid: course.graded_functions(lid) for lid in todo.lessons}
    proofs = [
        judge(course, kind, entry, lid, report, todo.catalogued)
        for (lid, kind, entry), report in zip(todo.entries, reports[:count], strict=False)
    ]
    judge_public(course, todo, notebooks[:count], proofs, jobs, progress)
    if todo.mutants is None:
        return Proven(proofs, graded=graded)
    recorded = {lid: mutate.equivalents(lid) for lid in todo.lessons}
    mutants = [
        judge_mutant(course, m, report, recorded[m.lesson].get(m.id))
        for m, report in zip(todo.mutants, reports[count:], strict=False)
    ]
    stale = [
        i for lid in todo.lessons for i in mutate.stale_equivalents(lid, [m for m in todo.mutants if m.lesson == lid])
    ]
    return Proven(proofs, mutants, stale, graded)


def judge_public(course: Course, todo: Plan, notebooks: list, proofs: list[Proof], jobs=None, progress=None) -> None:
    """Grade each misconception's notebook once more with the release's test cells alone (public.py), and record
    in its proof whether a public check fails for it, as Validate would say."""
    wrong = [index for index, proof in enumerate(proofs) if proof.kind == "misconception"]
    if not wrong:
        return
    checks = public.public_course(course, todo.lessons)
    reports = grade_many(checks, [notebooks[index] for index in wrong], jobs=jobs, progress=progress)
    for index, report in zip(wrong, reports, strict=True):
        proofs[index].public = public.caught(report)


def left_to_hidden(proofs: list[Proof]) -> list[Proof]:
    """The misconceptions that no public check catches: Validate says "Success!" for each."""
    return [p for p in proofs if p.kind == "misconception" and p.public is False]


def public_problems(proofs: list[Proof]) -> list[str]:
    """Catalogued misconceptions that pass the public checks without a recorded reason, records of ones they catch,
    and ones the public checks could not grade."""
    out: list[str] = []
    if not any(p.public is not None for p in proofs):  # not measured (a run read from older JSON)
        return out
    for p in proofs:
        if p.kind != "misconception" or not p.catalogued:
            continue
        reason = public.LEFT_TO_HIDDEN_TESTS.get(p.entry)
        if p.public is None and p.max_score > 0:
            out.append(f"{p.entry}: could not be graded with the public checks")
        elif p.public is False and reason is None:
            out.append(
                f"{p.entry}: passes every public check (Validate says Success), and LEFT_TO_HIDDEN_TESTS "
                "does not say why"
            )
        elif p.public and reason is not None:
            out.append(f"{p.entry}: recorded in LEFT_TO_HIDDEN_TESTS, but a public check fails for it")
    return out


@dataclass
class Summary:
    misconceptions: int
    caught: int
    named: int
    alternatives: int
    accepted: int
    specific: int = 0  # named alone
    public: int = 0  # misconceptions a public check fails for

    @property
    def public_rate(self) -> float:
        return self.public / self.misconceptions if self.misconceptions else 1.0

    @property
    def mutation_score(self) -> float:
        return self.caught / self.misconceptions if self.misconceptions else 1.0

    @property
    def named_rate(self) -> float:
        return self.named / self.misconceptions if self.misconceptions else 1.0

    @property
    def specific_rate(self) -> float:
        return self.specific / self.misconceptions if self.misconceptions else 1.0

    @property
    def pass_rate(self) -> float:
        return self.accepted / self.alternatives if self.alternatives else 1.0


def summarise(proofs: list[Proof]) -> Summary:
    wrong = [p for p in proofs if p.kind == "misconception"]
    right = [p for p in proofs if p.kind == "alternative"]
    return Summary(
        len(wrong),
        sum(p.proven for p in wrong),
        sum(p.named for p in wrong),
        len(right),
        sum(p.proven for p in right),
        sum(p.specific for p in wrong),
        sum(bool(p.public) for p in wrong),
    )


@dataclass
class FunctionScore:
    """Both measures of one graded function's tests: the catalogue's entries and the mechanical mutants."""

    lesson: str
    function: str
    misconceptions: int
    caught: int
    named: int
    specific: int
    alternatives: int
    accepted: int
    mutants: int | None  # None: not mutated this run
    equivalents: int  # mutants recorded as equivalent
    killed: int  # non-equivalent mutants killed
    survivors: list[str]
    public: int = 0  # misconceptions a public check fails for

    @property
    def mutation_score(self) -> float | None:
        """Killed / non-equivalent mutants."""
        if self.mutants is None:
            return None
        live = self.mutants - self.equivalents
        return self.killed / live if live else 1.0


def function_scores(proven: Proven) -> list[FunctionScore]:
    """One score per graded function that the run touched, in course order."""
    touched = {(p.lesson, p.function) for p in proven.proofs} | {(m.lesson, m.function) for m in proven.mutants or []}
    out = []
    judged: list[Proof | MutantProof] = [*proven.proofs, *(proven.mutants or [])]
    for lesson in dict.fromkeys(lesson for lesson, _ in sorted(touched)):
        met = dict.fromkeys(p.function for p in judged if p.lesson == lesson)
        for function in proven.graded.get(lesson) or met:
            if (lesson, function) not in touched:
                continue
            s = summarise([p for p in proven.proofs if p.lesson == lesson and p.function == function])
            mine = [m for m in proven.mutants or [] if m.lesson == lesson and m.function == function]
            live = [m for m in mine if m.equivalent is None]
            out.append(
                FunctionScore(
                    lesson,
                    function,
                    s.misconceptions,
                    s.caught,
                    s.named,
                    s.specific,
                    s.alternatives,
                    s.accepted,
                    None if proven.mutants is None else len(mine),
                    len(mine) - len(live),
                    sum(m.killed for m in live),
                    [m.mutant for m in live if not m.killed],
                    public=s.public,
                )
            )
    return out


def survivors(proven: Proven) -> list[MutantProof]:
    """The mutants no test killed and no one recorded as equivalent: what a lesson author should kill."""
    return [m for m in proven.mutants or [] if m.equivalent is None and not m.killed]


def _result(p: Proof) -> str:
    if p.kind == "alternative":
        return "full marks" if p.proven else f"{p.score:g}/{p.max_score:g}: {', '.join(p.failed_tests)}"
    if p.max_score == 0:
        return p.failed_tests[0]
    return f"loses {p.lost:g}" if p.proven else "NOT CAUGHT"


def _feedback(p: Proof) -> str:
    """What the feedback said about a misconception, for the terminal."""
    if p.kind == "alternative":
        return "-"
    if not p.catalogued:
        return "names " + (", ".join(p.named_others) or "no catalogued misconception")
    if not p.named:
        return "NOT NAMED"
    return "named" + (
        f", and {len(p.named_others)} other{'s' if len(p.named_others) > 1 else ''}" if p.named_others else ""
    )


def _mutant_line(proven: Proven) -> str:
    mutants = proven.mutants or []
    live = [m for m in mutants if m.equivalent is None]
    killed = sum(m.killed for m in live)
    share = killed / len(live) if live else 1.0
    return (
        f"mechanical mutants: {killed}/{len(live)} ({share:.0%}) killed, "
        f"{len(mutants) - len(live)} recorded as equivalent."
    )


def _public_part(proven: Proven) -> str:
    """The summary's words on the public checks, when the run measured them."""
    if not any(p.public is not None for p in proven.proofs):
        return ""
    s = summarise(proven.proofs)
    return f"{s.public}/{s.misconceptions} ({s.public_rate:.0%}) fail a public check (Validate does not say Success); "


def _summary_line(proven: Proven) -> str:
    s = summarise(proven.proofs)
    if not all(p.catalogued for p in proven.proofs):
        named = sum(bool(p.named_others) for p in proven.proofs if p.kind == "misconception")
        return (
            f"{s.caught}/{s.misconceptions} misconceptions lose points; the feedback named a catalogued "
            f"misconception for {named} of them; {_public_part(proven)}"
            f"{s.accepted}/{s.alternatives} alternatives get full marks."
        )
    line = (
        f"{s.caught}/{s.misconceptions} ({s.mutation_score:.0%}) misconceptions lose points; "
        f"{s.named}/{s.misconceptions} ({s.named_rate:.0%}) are named in the feedback, "
        f"{s.specific}/{s.misconceptions} ({s.specific_rate:.0%}) named alone; "
        f"{_public_part(proven)}"
        f"{s.accepted}/{s.alternatives} ({s.pass_rate:.0%}) alternatives get full marks"
    )
    return line + ("; " + _mutant_line(proven) if proven.mutants is not None else ".")


def _columns(header: tuple, rows: list[tuple]) -> list[str]:
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip()  # noqa: E731
    return [line(header), line(tuple("-" * w for w in widths))] + [line(r) for r in rows]


def _percent(f: FunctionScore) -> str:
    if f.mutants is None:  # as mutation_score is None
        return "—"
    return f"{f.killed}/{f.mutants - f.equivalents} ({f.mutation_score:.0%})"


def _below_target(f: FunctionScore) -> str:
    score = f.mutation_score
    return "" if score is None or score >= TARGET else f"BELOW {TARGET:.0%}"


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole if whole else 1.0:.0%})"


def render_public(proven: Proven) -> list[str]:
    """The public checks' table (each function's misconceptions that fail one, what Validate runs) and every
    misconception left to the hidden tests with its recorded reason; nothing when the run did not measure them."""
    if not any(p.public is not None for p in proven.proofs):
        return []
    rows = [
        (f.lesson, f.function, _share(f.public, f.misconceptions), f"{f.misconceptions - f.public}")
        for f in function_scores(proven)
        if f.misconceptions
    ]
    s = summarise(proven.proofs)
    out = [
        "",
        f"Public checks (the release's test cells, what Validate runs): {_share(s.public, s.misconceptions)} "
        "misconceptions fail one.",
    ]
    out += _columns(("lesson", "function", "fail a public check", "left to the hidden tests"), rows)
    left = left_to_hidden(proven.proofs)
    out += ["", f"Left to the hidden tests ({len(left)}):" if left else "No misconception is left to the hidden tests."]
    out += [
        f"  {p.entry}  ({p.function}): {public.LEFT_TO_HIDDEN_TESTS.get(p.entry, 'NO REASON RECORDED')}" for p in left
    ]
    return out


def render_survivors(proven: Proven) -> str:
    """The surviving non-equivalent mutants, one `id  change` line each (empty when none survives)."""
    rows = [(m.mutant, m.description) for m in survivors(proven)]
    return "\n".join("  ".join(r) for r in rows)


def render_table(proven: Proven) -> str:
    """Plain-text tables for the terminal: the entries, then (with mutants) each function and the survivors."""
    rows = [(p.lesson, p.function, p.entry, p.kind, _result(p), _feedback(p)) for p in proven.proofs]
    out = _columns(("lesson", "function", "entry", "kind", "result", "feedback"), rows)
    if proven.mutants is not None:
        function_rows = [
            (
                f.lesson,
                f.function,
                f"{f.caught}/{f.misconceptions}",
                f"{f.named}",
                f"{f.specific}",
                f"{f.accepted}/{f.alternatives}",
                _percent(f),
                f"{f.equivalents}",
                _below_target(f),
            )
            for f in function_scores(proven)
        ]
        out += [""] + _columns(
            ("lesson", "function", "caught", "named", "specific", "full marks", "mutants killed", "equivalent", ""),
            function_rows,
        )
        left = survivors(proven)
        out += ["", f"Surviving mutants ({len(left)}):" if left else "No mutant survives."]
        out += [f"  {m.mutant}  {m.description}" for m in left]
    out += render_public(proven)
    out += [f"error: {problem}" for problem in proven.problems()]
    return "\n".join(out + ["", _summary_line(proven)])


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(proven: Proven) -> str:
    """The page's tables: the summary, a row per function, and collapsed tables of every entry and mutant left."""
    out = [
        f"**{_summary_line(proven)}**",
        "",
        "| lesson | function | misconceptions caught | named | fail a public check | alternatives full marks "
        "| mechanical mutants killed | equivalents recorded |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in function_scores(proven):
        equivalents = "—" if f.mutants is None else f"{f.equivalents}"
        out.append(
            f"| {f.lesson} | `{f.function}` | {f.caught}/{f.misconceptions} | {f.named} "
            f"| {f.public}/{f.misconceptions} | {f.accepted}/{f.alternatives} | {_percent(f)} | {equivalents} |"
        )
    out += [
        "",
        "<details><summary>Every entry</summary>",
        "",
        "| lesson | function | entry | what it does | result | named in feedback |",
        "|---|---|---|---|---|---|",
    ]
    for p in proven.proofs:
        named = "yes" if p.named else "—" if p.kind == "alternative" else "no"
        out.append(f"| {p.lesson[:2]} | `{p.function}` | {p.entry} | {_cell(p.description)} | {_result(p)} | {named} |")
    out += ["", "</details>"]
    hidden = left_to_hidden(proven.proofs)
    if hidden:
        out += ["", "<details><summary>Misconceptions left to the hidden tests</summary>", ""]
        out += ["| lesson | function | entry | why no public check catches it |", "|---|---|---|---|"]
        out += [
            f"| {p.lesson[:2]} | `{p.function}` | {p.entry} "
            f"| {_cell(public.LEFT_TO_HIDDEN_TESTS.get(p.entry, 'no reason recorded'))} |"
            for p in hidden
        ]
        out += ["", "</details>"]
    if proven.mutants is not None:
        # by id alone: a mutant's change, and the reason it computes the same, quote the reference, which the site
        # (read by learners) never shows; `prove` prints each survivor's change, and the reasons are recorded as
        # EQUIVALENT_MUTANTS beside the lesson's alternatives
        left = [m for m in proven.mutants if m.equivalent is not None or not m.killed]
        out += ["", "<details><summary>Surviving and equivalent mutants</summary>", ""]
        out += (
            [EQUIVALENTS_WHERE, "", "| mutant | status |", "|---|---|"]
            if left
            else ["Every mutant is killed; none is recorded as equivalent."]
        )
        for m in left:
            out.append(f"| {m.mutant} | {'survives' if m.equivalent is None else 'equivalent'} |")
        out += ["", "</details>"]
    return "\n".join(out)


@dataclass
class CorpusFigures:
    """The outside corpus's figures (grader/proof/outside): every verdict judged by hand, every diagnosis read
    from the first failing message."""

    wrong: int
    caught: int  # wrong entries that lose points on their own function
    correct: int
    fair: int  # correct entries with full marks
    diagnoses: dict[str, int]  # caught wrong entries by the diagnosis of their first failure
    by_hand: int  # verdicts judged by hand

    @property
    def right(self) -> int:
        """First failures that name the entry's mistake or a property it breaks."""
        return sum(self.diagnoses.get(d, 0) for d in outside_diagnosis.RIGHT)

    def share(self, part: int, whole: int) -> str:
        return f"{part}/{whole} ({part / whole:.0%})" if whole else "0/0"


def corpus_figures(proofs: list[Proof]) -> CorpusFigures | None:
    """The figures of a run's outside entries, or None when it graded none."""
    mine = [p for p in proofs if p.outside]
    if not mine:
        return None
    wrong = [p for p in mine if p.kind == "misconception"]
    right = [p for p in mine if p.kind == "alternative"]
    caught = [p for p in wrong if p.proven]
    return CorpusFigures(
        len(wrong),
        len(caught),
        len(right),
        sum(p.proven for p in right),
        {d: sum(p.diagnosis == d for p in caught) for d in outside_diagnosis.DIAGNOSES},
        len(mine),
    )


def corpus_summary(figures: CorpusFigures) -> str:
    """One paragraph of the corpus's figures, against the issue's targets."""
    f = figures
    d = f.diagnoses
    return (
        f"Outside corpus: {f.wrong + f.correct} implementations from public repositories, every verdict judged by "
        f"hand ({f.by_hand}/{f.wrong + f.correct}); the diagnoses are read from each first failing message.\n"
        f"caught: {f.share(f.caught, f.wrong)} wrong ones lose points (target 100%); "
        f"fair: {f.share(f.fair, f.correct)} correct ones get full marks (target 100%).\n"
        f"first failure: right diagnosis {f.share(f.right, f.caught)} (target >= 80%): names the mistake "
        f"{d.get(outside_diagnosis.MISTAKE, 0)}, names a property it breaks {d.get(outside_diagnosis.PROPERTY, 0)}; "
        f"wrong diagnoses {d.get(outside_diagnosis.WRONG, 0)} (target 0); names neither "
        f"{d.get(outside_diagnosis.NEITHER, 0)}."
    )


def render_corpus(proven: Proven) -> str:
    """The outside entries, one row each (verdict, result, what the first failing message said), then the figures;
    empty when the run graded none."""
    figures = corpus_figures(proven.proofs)
    if figures is None:
        return ""
    rows = []
    for p in proven.proofs:
        if not p.outside:
            continue
        verdict = "wrong" if p.kind == "misconception" else "correct"
        said = p.diagnosis or ("-" if verdict == "correct" or not p.first_test else "")
        named = ", ".join(p.first_named) or "-"
        rows.append((p.lesson[:2], p.function, p.entry, verdict, _result(p), said, p.first_test or "-", named))
    header = ("lesson", "function", "entry", "verdict", "result", "first failure", "first failing test", "it named")
    return "\n".join(_columns(header, rows) + ["", corpus_summary(figures)])


def graded_on(date: str, machine: dict) -> str:
    """The block's first line: when and where the tables were graded."""
    return f"Graded by `python -m grader prove --mutate` on {pages.measured_on(date, machine)}."


def page_tables(page: Path) -> str:
    """The tables of the page's generated block, without its first line (when and where they were graded)."""
    return pages.block(page, BEGIN, END).split("\n", 1)[1].strip()


def write_page(page: Path, proven: Proven) -> None:
    """Replace the page's generated block with the tables of this run, after the date and machine."""
    pages.write_block(page, BEGIN, END, graded_on(pages.now(), pages.this_machine()) + "\n\n" + render_markdown(proven))


def write_outside_page(page: Path, proven: Proven, entries: str) -> None:
    """Replace the page's outside-corpus block with this run's figures of the outside entries of `entries` (the file
    given to --entries), after the date and machine; the rest of the page stays as it is."""
    figures = corpus_figures(proven.proofs)
    if figures is None:
        raise ValueError("the run graded no outside entry")
    when = pages.measured_on(pages.now(), pages.this_machine())
    text = f"Graded by `python -m grader prove --entries {entries}` on {when}.\n\n```\n{corpus_summary(figures)}\n```"
    pages.write_block(page, OUTSIDE_BEGIN, OUTSIDE_END, text)


def _corpus_json(proven: Proven) -> dict | None:
    figures = corpus_figures(proven.proofs)
    return None if figures is None else asdict(figures) | {"right": figures.right}


def to_json(proven: Proven) -> str:
    """Everything about the run: each entry and mutant, each function's scores, the problems, whether all is well."""
    s = summarise(proven.proofs)
    scores = [asdict(f) | {"mutation_score": f.mutation_score} for f in function_scores(proven)]
    mutants = None if proven.mutants is None else [asdict(m) | {"killed": m.killed} for m in proven.mutants]
    return json.dumps(
        {
            "entries": [asdict(p) | {"proven": p.proven, "specific": p.specific} for p in proven.proofs],
            "mutation_score": s.mutation_score,
            "named_rate": s.named_rate,
            "specific": s.specific,
            "specific_rate": s.specific_rate,
            "alternatives_pass_rate": s.pass_rate,
            "public_rate": s.public_rate,
            "left_to_hidden_tests": [
                {
                    "entry": p.entry,
                    "lesson": p.lesson,
                    "function": p.function,
                    "reason": public.LEFT_TO_HIDDEN_TESTS.get(p.entry),
                }
                for p in left_to_hidden(proven.proofs)
            ],
            "functions": scores,
            "mutants": mutants,
            "stale_equivalents": proven.stale,
            "graded_functions": proven.graded,
            "problems": proven.problems(),
            "ok": proven.ok,
            "corpus": _corpus_json(proven),
        },
        indent=1,
    )
