"""One release rule (``matches.release``): no other module compares a release time by hand.

A scan of the apps' source fails on a release field (``visible_at``, ``result_visible_at``)
compared in Python (``visible_at > now``), filtered by a lookup (``visible_at__lte=``), or
compared in SQL text (``visible_at <= %s``) anywhere but the rule's own module."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "apikit",
    "cards",
    "config",
    "frontend",
    "infra",
    "leagues",
    "matches",
    "server",
    "tournaments",
)
RULE = ROOT / "matches" / "release.py"
FIELDS = ("visible_at", "result_visible_at")
LOOKUP = re.compile(r"(?:^|__)(?:result_)?visible_at__(?:lt|lte|gt|gte)\b")
SQL = re.compile(r"\bvisible_at\s*[<>]=?")
ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def sources() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts and path != RULE:
                yield path


def _named(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def by_hand(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each place ``tree`` compares a release time itself: (line, what). Docstrings and
    comments are prose, not comparisons."""
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, ORDER) for op in node.ops):
            names = {_named(side) for side in (node.left, *node.comparators)}
            if names & set(FIELDS):
                yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.keyword) and node.arg and LOOKUP.search(node.arg):
            yield node.value.lineno, node.arg
        elif isinstance(node, ast.Constant) and id(node) not in prose and _text_compares(node):
            yield node.lineno, str(node.value)


def _text_compares(node: ast.Constant) -> bool:
    """A string that filters or compares a release field (a lookup, SQL)."""
    text = node.value
    return isinstance(text, str) and bool(LOOKUP.search(text) or SQL.search(text))


def test_no_module_but_the_rules_compares_a_release_time_by_hand() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in sources()
        for line, what in by_hand(ast.parse(path.read_text(), str(path)))
    ]
    assert found == [], "compare release times with matches.release:\n" + "\n".join(found)


def test_the_scan_sees_each_way_of_comparing_by_hand() -> None:
    written = """
late = event.visible_at > now
rows = Event.objects.filter(visible_at__lte=now)
more = Match.objects.filter(**{"result_visible_at__gt": now})
text = "SELECT 1 FROM log WHERE visible_at <= %s"
fine = Event.objects.filter(released(), kind="chat").order_by("visible_at")
"""
    assert sorted(line for line, _what in by_hand(ast.parse(written))) == [2, 3, 4, 5]
