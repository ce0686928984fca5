"""Softmax, step by step: lesson authoring, checks and grading on top of nbgrader."""

import sys


def skip_iri_grammar() -> None:
    """Mark the optional rfc3987_syntax as unavailable, so that importing nbformat costs a second less.

    nbformat imports jsonschema, and jsonschema's format module imports rfc3987_syntax when it is
    installed, which compiles a Lark grammar at import (about 1 s of CPU, more than the rest of
    nbformat). It serves only jsonschema's "iri" and "iri-reference" format checks, and nothing the
    grader runs checks formats: nbformat validates notebooks without a format checker (and its schema
    names no such format), nor do nbgrader and nbconvert. A None in sys.modules makes `import
    rfc3987_syntax` raise ModuleNotFoundError (Python's import system), and jsonschema then leaves those
    two formats unchecked, as it does when the library is not installed (it imports each optional format
    library inside `suppress(ImportError)`). Done here, in the package every grader process imports
    first (a learner's kernel too, where likewise only those two formats go unchecked), and only if
    jsonschema is not imported yet; tests/unit/test_imports.py shows notebooks validated as before.
    """
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # None: "not importable"


skip_iri_grammar()
