"""The house's habits, measured: a figure may only go down (a ratchet).

``typing.Any`` in a signature turns the type checker off at that door. The goal is ``Any`` in
at most 3 % of the app packages' function signatures; ``ANY_CEILING`` is the share reached so
far, so a change that adds ``Any`` fails here and a change that removes some lowers it.

Docstrings say what a thing is for in short sentences: the goal is a median of 10 words a
sentence (the well-kept projects we read run 9-10); ``SENTENCE_WORDS_CEILING`` is the median
reached so far.
"""

from __future__ import annotations

import ast
import re
import statistics
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_PACKAGES = (
    "cards",
    "matches",
    "tournaments",
    "leagues",
    "apikit",
    "infra",
    "server",
    "verifier",
    "config",
)
SKIPPED_DIRS = frozenset({"tests", "migrations", "scripts", "sdk"})
ANY_GOAL = 0.03
ANY_CEILING = 0.016
SENTENCE_WORDS_GOAL = 10
SENTENCE_WORDS_CEILING = 9
# A sentence ends at ".", "!" or "?" before a space and a capital, a backtick or a bracket.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\[])")

Signature = ast.FunctionDef | ast.AsyncFunctionDef


def app_sources() -> Iterator[Path]:
    """Every Python file of the app packages, tests and migrations left out."""
    for package in APP_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
                yield path


def signatures(tree: ast.AST) -> Iterator[Signature]:
    """Every function and method defined in a module, nested ones too."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def annotated(function: Signature) -> Iterator[ast.expr]:
    """The annotations of a function's parameters and of its return."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
    yield from (arg.annotation for arg in every if arg.annotation is not None)
    if function.returns is not None:
        yield function.returns


def names_any(annotation: ast.expr) -> bool:
    """Whether an annotation (a quoted one too) mentions ``Any`` or ``typing.Any``."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                quoted = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if names_any(quoted):
                return True
    return False


def any_share(paths: Iterator[Path]) -> tuple[int, int]:
    """How many signatures mention ``Any``, out of how many."""
    with_any = total = 0
    for path in paths:
        for function in signatures(ast.parse(path.read_text(encoding="utf-8"))):
            total += 1
            with_any += any(names_any(annotation) for annotation in annotated(function))
    return with_any, total


def test_any_in_signatures_only_goes_down() -> None:
    """At most ``ANY_CEILING`` of the signatures mention ``Any``; lower it as it falls."""
    with_any, total = any_share(app_sources())
    share = with_any / total
    assert total > 1000
    assert share <= ANY_CEILING, f"{with_any}/{total} = {share:.3f} signatures mention Any"


def test_any_is_found_wherever_a_signature_names_it(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text(
        "import typing\n"
        "def a(x: int) -> int: ...\n"
        "def b(x: dict[str, Any]) -> None: ...\n"
        "def c(*, y: 'list[Any]') -> None: ...\n"
        "async def d() -> typing.Any: ...\n"
        "class E:\n"
        "    def f(self, **rest: object) -> 'E': ...\n"
        "    def g(self, *rest: Any) -> None: ...\n",
        encoding="utf-8",
    )
    assert any_share(iter([source])) == (4, 6)


def docstring_sentences(tree: ast.AST) -> Iterator[str]:
    """The sentences of a module's docstrings (its own, its classes' and its functions'),
    code lines (indented, or a ``>>>`` prompt) left out."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        text = ast.get_docstring(node)
        if text:
            prose = [line for line in text.splitlines() if not line.startswith(("    ", ">>>"))]
            yield from SENTENCE_END.split(" ".join(" ".join(prose).split()))


def median_sentence_words(paths: Iterator[Path]) -> float:
    """The median number of words of the docstrings' sentences."""
    trees = (ast.parse(path.read_text(encoding="utf-8")) for path in paths)
    counts = [len(s.split()) for tree in trees for s in docstring_sentences(tree) if s.strip()]
    return statistics.median(counts)


def test_docstring_sentences_only_get_shorter() -> None:
    """The median sentence of the apps' docstrings is at most ``SENTENCE_WORDS_CEILING`` words."""
    median = median_sentence_words(app_sources())
    assert median <= SENTENCE_WORDS_CEILING, f"docstring sentences: median {median} words"


def test_a_sentence_ends_where_the_next_begins(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text(
        '"""One two three. Four five (six) seven eight?\n``Nine`` ten.\n\n    code = 1\n"""\n'
        "def f() -> None:\n"
        '    """Eleven, e.g. twelve."""\n',
        encoding="utf-8",
    )
    tree = ast.parse(source.read_text(encoding="utf-8"))
    assert list(docstring_sentences(tree)) == [
        "One two three.",
        "Four five (six) seven eight?",
        "``Nine`` ten.",
        "Eleven, e.g. twelve.",
    ]
    assert median_sentence_words(iter([source])) == 3  # 3, 5, 2 and 3 words
