"""Mechanical mutants of the reference solutions: one small change each, made by rules over Python's ast.

The catalogue holds the mistakes learners are known to make; mutants measure the hidden
tests independently of it: nearly every small change to a reference changes what it
computes, so the tests should take points from it. A mutant that computes the same thing
as the reference cannot be killed; a lesson author records it, with the reason, in the
lesson's catalogue module as EQUIVALENT_MUTANTS = {mutant id: why}.

A mutant's id is `<function>:<rule>:<n>`, n counting that rule's applications in the
function's cell in source order, so ids stay the same as long as the reference does.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from grader.course import Course
from grader.proof import alternatives

REMOVE = object()  # a rule's replacement that deletes a statement


@dataclass(frozen=True)
class Mutant:
    """One mechanical change to a reference solution cell; `source` is the whole mutated cell."""

    id: str
    lesson: str
    function: str
    rule: str
    description: str
    source: str


@dataclass(frozen=True)
class Rule:
    slug: str  # the rule's part of a mutant id
    name: str  # what it does, for people
    replacements: Callable  # (node, context) -> list of replacement nodes (or REMOVE)


RULES: list[Rule] = []


def rule(slug: str, name: str):
    """Register a rule; rules apply in the order they are registered."""

    def register(replacements):
        RULES.append(Rule(slug, name, replacements))
        return replacements

    return register


@dataclass
class Context:
    """What a rule may need to know about a node's surroundings."""

    parent: ast.AST | None
    parameters: frozenset[str]  # every parameter name of every function in the cell


# ---------------------------------------------------------------- helpers

MODULES = {"np", "numpy", "math"}
ARITHMETIC = (ast.BinOp, ast.AugAssign)  # the nodes that hold a binary operator
REDUCTIONS = {
    "max",
    "min",
    "sum",
    "mean",
    "prod",
    "any",
    "all",
    "argmax",
    "argmin",
    "std",
    "var",
    "amax",
    "amin",
    "nanmax",
    "nanmin",
    "nansum",
    "cumsum",
    "sort",
    "argsort",
}


def _number(node) -> int | float | None:
    """The value of a numeric literal (`3`, `2.5`, `-1`), else None; booleans are not numbers."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    return None


def _literal(value: int | float) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def _on_module(call: ast.Call) -> bool:
    """`np.max(x)` rather than the method call `x.max()`."""
    return (
        isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id in MODULES
    )


def _method(call) -> str | None:
    """The attribute a call calls (`max` for np.max(x) and x.max()), else None."""
    return call.func.attr if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else None


def _axis_spots(call: ast.Call) -> list[tuple[str, int]]:
    """Where a call holds an axis of -1: ("keyword", i) or ("arg", i)."""
    spots = [("keyword", i) for i, k in enumerate(call.keywords) if k.arg == "axis" and _number(k.value) == -1]
    if _method(call) in REDUCTIONS:
        position = 1 if _on_module(call) else 0
        if len(call.args) > position and _number(call.args[position]) == -1:
            spots.append(("arg", position))
    return spots


def _is_axis_minus_one(node, parent) -> bool:
    """A -1 that the axis rules change (so the constant rules leave it alone)."""
    if isinstance(parent, ast.keyword):
        return parent.arg == "axis" and _number(node) == -1
    if isinstance(parent, ast.Call):
        return any(kind == "arg" and parent.args[i] is node for kind, i in _axis_spots(parent))
    return False


def _renamed(call: ast.Call, swaps: dict[str, str]) -> list[ast.Call]:
    """The call with its function's name swapped (np.max -> np.min, max -> min), if it is in `swaps`."""
    if isinstance(call.func, ast.Attribute) and call.func.attr in swaps:
        func = copy.deepcopy(call.func)
        func.attr = swaps[call.func.attr]
        new = copy.deepcopy(call)
        new.func = func
        return [new]
    return []


def _with_op(node, swaps: dict[type, type]) -> list:
    """A BinOp, AugAssign or BoolOp with its operator swapped, if it is in `swaps`."""
    if type(node.op) not in swaps:
        return []
    new = copy.deepcopy(node)
    new.op = swaps[type(node.op)]()
    return [new]


def _compare_swapped(node, swaps: dict[type, type]) -> list[ast.Compare]:
    """One Compare per operator of `node` that `swaps` changes."""
    if not isinstance(node, ast.Compare):
        return []
    out = []
    for i, op in enumerate(node.ops):
        if type(op) in swaps:
            new = copy.deepcopy(node)
            new.ops[i] = swaps[type(op)]()
            out.append(new)
    return out


def _is_inf(node) -> bool:
    """np.inf, math.inf or float('inf')."""
    if isinstance(node, ast.Attribute):
        return node.attr == "inf" and isinstance(node.value, ast.Name) and node.value.id in MODULES
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).strip().lower() in ("inf", "+inf")
    )


def _is_minus_inf(node) -> bool:
    """-np.inf, -math.inf or float('-inf')."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_inf(node.operand)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).strip().lower() == "-inf"
    )


# ---------------------------------------------------------------- the rules


def _axis_set(call, value) -> list[ast.Call]:
    out = []
    for kind, i in _axis_spots(call) if isinstance(call, ast.Call) else []:
        new = copy.deepcopy(call)
        if kind == "keyword":
            new.keywords[i].value = ast.Constant(value)
        else:
            new.args[i] = ast.Constant(value)
        out.append(new)
    return out


@rule("axis-0", "axis -1 -> 0")
def axis_to_zero(node, context):
    return _axis_set(node, 0)


@rule("axis-none", "axis -1 -> None")
def axis_to_none(node, context):
    return _axis_set(node, None)


@rule("no-keepdims", "keepdims=True dropped")
def keepdims_dropped(node, context):
    if not isinstance(node, ast.Call):
        return []
    out = []
    for i, k in enumerate(node.keywords):
        if k.arg == "keepdims":
            new = copy.deepcopy(node)
            del new.keywords[i]
            out.append(new)
    return out


@rule("max-min", "max <-> min")
def max_min_swapped(node, context):
    if not isinstance(node, ast.Call):
        return []
    if isinstance(node.func, ast.Name) and node.func.id in ("max", "min"):
        func = copy.deepcopy(node.func)
        func.id = "min" if node.func.id == "max" else "max"
        new = copy.deepcopy(node)
        new.func = func
        return [new]
    return _renamed(
        node,
        {
            "max": "min",
            "min": "max",
            "maximum": "minimum",
            "minimum": "maximum",
            "argmax": "argmin",
            "argmin": "argmax",
            "amax": "amin",
            "amin": "amax",
            "nanmax": "nanmin",
            "nanmin": "nanmax",
            "fmax": "fmin",
            "fmin": "fmax",
        },
    )


@rule("global-max", "row max -> global max")
def row_max_made_global(node, context):
    if _method(node) not in ("max", "amax"):
        return []
    if _on_module(node):
        if len(node.args) == 1 and not node.keywords or not node.args:
            return []
        return [ast.Call(copy.deepcopy(node.func), [copy.deepcopy(node.args[0])], [])]
    if not node.args and not node.keywords:
        return []
    return [ast.Call(copy.deepcopy(node.func), [], [])]


@rule("inf-finite", "inf -> a large finite number")
def inf_made_finite(node, context):
    if _is_minus_inf(node):
        return [_literal(-1e9)]
    if _is_inf(node) and not _is_minus_inf(context.parent):
        return [ast.Constant(1e9)]
    return []


@rule("cmp-flip", "comparison flipped (< <-> >, == <-> !=)")
def comparison_flipped(node, context):
    return _compare_swapped(
        node,
        {
            ast.Lt: ast.Gt,
            ast.Gt: ast.Lt,
            ast.LtE: ast.GtE,
            ast.GtE: ast.LtE,
            ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq,
            ast.Is: ast.IsNot,
            ast.IsNot: ast.Is,
            ast.In: ast.NotIn,
            ast.NotIn: ast.In,
        },
    )


@rule("cmp-strict", "strictness changed (< <-> <=, > <-> >=)")
def comparison_strictness(node, context):
    return _compare_swapped(node, {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt})


def _constant_changed(node, context, step) -> list:
    value = _number(node)
    if value is None or _is_axis_minus_one(node, context.parent):
        return []
    if isinstance(context.parent, ast.UnaryOp) and _number(context.parent) is not None:
        return []  # the 1 of -1: the whole literal is the number
    return [_literal(value + step)]


@rule("plus-1", "constant + 1")
def constant_plus_one(node, context):
    return _constant_changed(node, context, 1)


@rule("minus-1", "constant - 1")
def constant_minus_one(node, context):
    return _constant_changed(node, context, -1)


@rule("no-cast", "dtype cast removed")
def cast_removed(node, context):
    if not isinstance(node, ast.Call):
        return []
    out: list[ast.expr] = []
    for i, k in enumerate(node.keywords):
        if k.arg == "dtype":
            new = copy.deepcopy(node)
            del new.keywords[i]
            out.append(new)
    if _on_module(node) and _method(node) in ("asarray", "array", "asanyarray") and len(node.args) == 2:
        out.append(ast.Call(copy.deepcopy(node.func), [copy.deepcopy(node.args[0])], copy.deepcopy(node.keywords)))
    if isinstance(node.func, ast.Attribute) and node.func.attr == "astype":  # as _method(node) == "astype"
        out.append(copy.deepcopy(node.func.value))
    if (
        isinstance(node.func, ast.Name)
        and node.func.id in ("float", "int", "bool")
        and len(node.args) == 1
        and not node.keywords
        and not isinstance(node.args[0], ast.Constant)
    ):
        out.append(copy.deepcopy(node.args[0]))
    return out


@rule("no-shift", "a - b -> a")
def subtraction_dropped(node, context):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return [copy.deepcopy(node.left)]
    return []


@rule("global-rng", "generator -> np.random's global state")
def generator_made_global(node, context):
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in context.parameters
        and hasattr(np.random, node.func.attr)
    ):
        return []
    new = copy.deepcopy(node)
    np_random = ast.Attribute(ast.Name("np", ast.Load()), "random", ast.Load())
    new.func = ast.Attribute(np_random, node.func.attr, ast.Load())
    return [new]


@rule("no-early-exit", "if with an early exit removed")
def early_exit_removed(node, context):
    exits = (ast.Return, ast.Raise, ast.Continue, ast.Break)
    return [REMOVE] if isinstance(node, ast.If) and not node.orelse and isinstance(node.body[-1], exits) else []


@rule("raise-pass", "raise -> pass")
def raise_made_pass(node, context):
    return [ast.Pass()] if isinstance(node, ast.Raise) else []


@rule("add-sub", "+ <-> -")
def plus_minus_swapped(node, context):
    return _with_op(node, {ast.Add: ast.Sub, ast.Sub: ast.Add}) if isinstance(node, ARITHMETIC) else []


@rule("mul-div", "* <-> /")
def times_divide_swapped(node, context):
    return _with_op(node, {ast.Mult: ast.Div, ast.Div: ast.Mult}) if isinstance(node, ARITHMETIC) else []


@rule("and-or", "& <-> |, and <-> or")
def and_or_swapped(node, context):
    if isinstance(node, ARITHMETIC):
        return _with_op(node, {ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd})
    return _with_op(node, {ast.And: ast.Or, ast.Or: ast.And}) if isinstance(node, ast.BoolOp) else []


@rule("any-all", "any <-> all")
def any_all_swapped(node, context):
    return _renamed(node, {"any": "all", "all": "any"}) if isinstance(node, ast.Call) else []


@rule("sum-mean", "sum -> mean")
def sum_made_mean(node, context):
    return _renamed(node, {"sum": "mean", "nansum": "nanmean"}) if isinstance(node, ast.Call) else []


def _unary_dropped(node, op) -> list:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, op) and _number(node) is None:
        return [copy.deepcopy(node.operand)]
    return []


@rule("no-neg", "unary - removed")
def negation_removed(node, context):
    return _unary_dropped(node, ast.USub)


@rule("no-invert", "~ removed")
def invert_removed(node, context):
    return _unary_dropped(node, ast.Invert)


@rule("no-not", "not removed")
def not_removed(node, context):
    return _unary_dropped(node, ast.Not)


@rule("where-swap", "np.where(c, a, b) -> np.where(c, b, a)")
def where_branches_swapped(node, context):
    if not (isinstance(node, ast.Call) and _on_module(node) and _method(node) == "where" and len(node.args) == 3):
        return []
    new = copy.deepcopy(node)
    new.args[1], new.args[2] = new.args[2], new.args[1]
    return [new]


# ---------------------------------------------------------------- making mutants


def _nodes(tree: ast.AST) -> list[tuple[ast.AST, ast.AST | None]]:
    """Every node with its parent, depth first in field order (which is source order)."""
    out = []

    def visit(node, parent):
        out.append((node, parent))
        for child in ast.iter_child_nodes(node):
            visit(child, node)

    visit(tree, None)
    return out


def _replaced(tree: ast.Module, index: int, replacement) -> ast.Module:
    """A copy of `tree` whose `index`-th node (in _nodes order) is replaced (or removed)."""
    new = copy.deepcopy(tree)
    target, parent = _nodes(new)[index]
    assert parent is not None, "the module itself is never replaced, only nodes inside it"
    for field, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, field, replacement)
        elif isinstance(value, list) and any(item is target for item in value):
            at = next(i for i, item in enumerate(value) if item is target)
            if replacement is REMOVE:
                del value[at]
                if not value:
                    value.append(ast.Pass())
            else:
                value[at] = replacement
    return ast.fix_missing_locations(new)


def _short(node) -> str:
    """One line of code for a description."""
    lines = ast.unparse(node).splitlines()
    text = lines[0] + (" ..." if len(lines) > 1 else "")
    return text if len(text) <= 70 else text[:67] + "..."


def _describe(node, replacement) -> str:
    where = f"line {node.lineno}: " if hasattr(node, "lineno") else ""
    if replacement is REMOVE:
        return f"{where}removed `{_short(node)}`"
    return f"{where}`{_short(node)}` -> `{_short(replacement)}`"


def mutants_of(source: str, function: str, lesson: str = "") -> list[Mutant]:
    """Every mutant of one solution cell: each rule applied at each place it fits, one change each.

    A mutant that reads the same as the reference or as an earlier mutant, or that does
    not compile, is left out.
    """
    tree = ast.parse(source)
    nodes = _nodes(tree)
    parameters = frozenset(
        a.arg
        for node, _ in nodes
        if isinstance(node, ast.arguments)
        for a in node.posonlyargs + node.args + node.kwonlyargs
    )
    seen = {ast.unparse(tree)}
    out = []
    for r in RULES:
        n = 0
        for index, (node, parent) in enumerate(nodes):
            for replacement in r.replacements(node, Context(parent, parameters)):
                n += 1
                text = ast.unparse(_replaced(tree, index, replacement)) + "\n"
                if text.strip() in seen:
                    continue
                seen.add(text.strip())
                try:
                    compile(text, f"<mutant of {function}>", "exec")
                except SyntaxError:
                    continue
                out.append(
                    Mutant(f"{function}:{r.slug}:{n}", lesson, function, r.name, _describe(node, replacement), text)
                )
    return out


def lesson_mutants(course: Course, lesson: str) -> list[Mutant]:
    """The mutants of every graded function's reference in a lesson of `course`, function by function."""
    return [
        m
        for function, source in course.reference_answers(lesson).items()
        if function in course.graded_functions(lesson)  # a prediction's guess is no function to mutate
        for m in mutants_of(source, function, lesson)
    ]


def equivalents(lesson: str) -> dict[str, str]:
    """The lesson's recorded equivalent mutants: id -> why it computes the same as the reference."""
    return alternatives.equivalent_mutants(lesson)


def stale_equivalents(lesson: str, mutants: list[Mutant]) -> list[str]:
    """Recorded equivalent ids that no mutant of the lesson has any more (the reference changed)."""
    ids = {m.id for m in mutants}
    return [i for i in equivalents(lesson) if i not in ids]
