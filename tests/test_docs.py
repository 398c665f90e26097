"""The docs name everything a client can meet: a test over the code keeps them complete.

Every error code, tournament stream event kind, match event kind (and field), match end reason,
question kind and Deck Phase action that exists in the code must appear in backticks somewhere
in ``docs/*.md``. They are collected from the code itself, never from a list kept here:

- error codes: the string literals passed as the code of ``ApplicationError`` and every subclass
  of it, ``RuleError`` (and subclasses), ``InvalidAnswer``, ``_require``, the stream's
  ``Refused``, DRF's exceptions (``ParseError(code=…)``) and ``{"type": "error", "code": …}``
  frames, and the ``code``/``default_code`` an error class of the apps sets (an AST walk over every
  app's source); the middleware's ``CODES`` and DRF's own exception codes;
- stream event kinds: the literal ``kind`` of every ``publish(…)`` call, the kinds built for
  ``publish_many(…)``, and the ``hidden`` placeholder;
- match event kinds, fields, end reasons and question kinds: the engine's literals (``emit``,
  event dicts, ``ask``/``choose_seat``), the selectors' allowlists, the question
  prompts table, and a few hundred random matches played with ``RandomPolicy``;
- actions: ``tournaments.rules.draft.ACTIONS``, every literal list an ``*actions*`` function of
  ``tournaments`` returns, and the Deck Phase routes of ``tournaments.api.views.DECK_ACTIONS``.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "cards",
    "config",
    "infra",
    "apikit",
    "server",
    "matches",
    "tournaments",
    "leagues",
    "frontend",
)
DOCS = ROOT / "docs"
DOC_FILES = ("rules.md", "protocol.md", "errors.md", "graphql.md")

ERROR_ROOTS = frozenset({"ApplicationError", "RuleError", "InvalidAnswer"})
# Calls whose code is not their first argument: (name, index of the code argument).
CODE_AT = {"_require": 1, "Refused": 1}
ASKING = {"ask": 1, "choose_seat": 2, "_bench_move": 0}
ENDING = frozenset({"lose", "end", "finish"})
RANDOM_MATCHES = 300


# --------------------------------------------------------------------------- the code


@cache
def trees() -> tuple[tuple[Path, ast.Module], ...]:
    """Every app module's syntax tree (migrations excluded)."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                found.append((path, ast.parse(path.read_text(encoding="utf-8"))))
    return tuple(found)


def in_package(package: str) -> Iterator[tuple[Path, ast.Module]]:
    base = ROOT.joinpath(*package.split("."))
    return ((path, tree) for path, tree in trees() if path.is_relative_to(base))


def calls(tree: ast.AST) -> Iterator[tuple[str, ast.Call]]:
    """Each call with the name it calls (``f(…)`` and ``x.f(…)`` both name ``f``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                yield func.id, node
            elif isinstance(func, ast.Attribute):
                yield func.attr, node


def literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def literals(node: ast.AST) -> set[str]:
    """Every string literal inside ``node`` (``"a" if x else "b"`` gives both)."""
    return {value for sub in ast.walk(node) if (value := literal(sub)) is not None}


def argument(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((kw.value for kw in call.keywords if kw.arg == keyword), None)


def subclasses(roots: set[str]) -> dict[str, ast.ClassDef | None]:
    """``roots`` and every class of the apps that derives from one of them (with its node)."""
    known: dict[str, ast.ClassDef | None] = dict.fromkeys(roots)
    grew = True
    while grew:
        grew = False
        for _, tree in trees():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in known:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & known.keys():
                        known[node.name] = node
                        grew = True
    return known


def drf_exceptions() -> dict[str, str]:
    """DRF's exception classes by name, with their default codes."""
    from rest_framework import exceptions

    return {
        name: str(value.default_code)
        for name, value in vars(exceptions).items()
        if isinstance(value, type) and issubclass(value, exceptions.APIException)
    }


def class_codes(classes: dict[str, ast.ClassDef | None]) -> set[str]:
    """The ``code = "…"`` / ``default_code = "…"`` a project error class sets for itself."""
    codes = set()
    for node in classes.values():
        for statement in node.body if node is not None else ():
            targets = (
                statement.targets
                if isinstance(statement, ast.Assign)
                else [statement.target]
                if isinstance(statement, ast.AnnAssign)
                else []
            )
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            value = getattr(statement, "value", None)
            if names & {"code", "default_code"} and (code := literal(value)) is not None:
                codes.add(code)
    return codes


@cache
def error_codes() -> frozenset[str]:
    from infra.middleware import CODES

    drf = drf_exceptions()
    classes = subclasses(set(ERROR_ROOTS))
    # A DRF exception takes its code as ``code=``; Django's ValidationError (the admin's) shares
    # DRF's name and is no API error, so it is left out.
    coded_by_keyword = {*drf, "error_body"} - {"ValidationError"}
    codes: set[str] = set(CODES.values()) | set(drf.values())
    codes |= class_codes(classes) | class_codes(subclasses(set(drf)))
    for _, tree in trees():
        for name, call in calls(tree):
            if name in classes:
                node = argument(call, 0, "code")
            elif name in CODE_AT:
                node = argument(call, CODE_AT[name], "code")
            elif name in coded_by_keyword:
                node = argument(call, 99, "code")
            else:
                continue
            if (code := literal(node)) is not None:
                codes.add(code)
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                pairs = {literal(k): v for k, v in zip(node.keys, node.values, strict=True)}
                if literal(pairs.get("type")) == "error" and (code := literal(pairs.get("code"))):
                    codes.add(code)
    return frozenset(codes)


@cache
def stream_kinds() -> frozenset[str]:
    from tournaments.selectors.events import HIDDEN

    kinds = {HIDDEN}
    for path, tree in in_package("tournaments"):
        for name, call in calls(tree):
            if name == "publish" and len(call.args) >= 2:
                kind = literal(call.args[1])
                assert kind is not None, f"{path}:{call.lineno}: publish() with a computed kind"
                kinds.add(kind)
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef) and (
                any(name == "publish_many" for name, _ in calls(func)) or builds_log_items(func)
            ):
                for node in ast.walk(func):  # the (kind, payload, audience, visible_at) items
                    if isinstance(node, ast.Tuple) and len(node.elts) == 4:
                        kinds |= literals(node.elts[0])
    return frozenset(kinds)


def builds_log_items(func: ast.FunctionDef) -> bool:
    """A function that returns items for ``publish_many`` (``list[tuple[str, dict…, int | None,
    …]]``), like the match's events on their way to the tournament's log."""
    returns = ast.unparse(func.returns) if func.returns is not None else ""
    items = r"list\[tuple\[str, dict\[str, (Any|object)\], int \| None"
    return re.match(items, returns) is not None


@dataclasses.dataclass
class Seen:
    kinds: set[str] = dataclasses.field(default_factory=set)
    fields: set[str] = dataclasses.field(default_factory=set)
    questions: set[str] = dataclasses.field(default_factory=set)
    reasons: set[str] = dataclasses.field(default_factory=set)


@cache
def played() -> Seen:
    """What a few hundred random round-7 matches emit (both parks, the Robot, the Final)."""
    from matches.engine import MatchResult, RandomPolicy, play_match
    from matches.engine.bench import mixed_setups

    seen = Seen()
    for index, setup in enumerate(mixed_setups(RANDOM_MATCHES, 20240601)):
        setup = dataclasses.replace(
            setup,
            park="winter" if index % 2 else "normal",
            robot="B" if index % 5 == 0 else None,
            final=index % 7 == 0,
        )
        policies = {"A": RandomPolicy(index), "B": RandomPolicy(-index - 1)}
        result = play_match(setup, index, policies)
        assert isinstance(result, MatchResult)  # both sides have a policy: never a pause
        seen.reasons.add(result.reason)
        for event in result.events:
            seen.kinds.add(event["kind"])
            seen.fields.update(event)
            if event["kind"] == "question":
                seen.questions.add(event["q_kind"])
    return seen


@cache
def match_kinds() -> frozenset[str]:
    from matches.engine.events import OWNER_KINDS, PUBLIC_KINDS
    from matches.selectors import HIDDEN

    kinds = {HIDDEN, *PUBLIC_KINDS, *OWNER_KINDS, *played().kinds}
    for _, tree in in_package("matches.engine"):
        for name, call in calls(tree):
            if name in ("emit", "_moved") and call.args and (kind := literal(call.args[0])):
                kinds.add(kind)
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                pairs = {literal(k): v for k, v in zip(node.keys, node.values, strict=True)}
                if "seq" in pairs and (kind := literal(pairs.get("kind"))) is not None:
                    kinds.add(kind)
    return frozenset(kinds)


@cache
def question_kinds() -> frozenset[str]:
    from matches.engine.questions import PROMPTS

    kinds = set(PROMPTS) | played().questions
    for _, tree in in_package("matches.engine"):
        for name, call in calls(tree):
            if name in ASKING and len(call.args) > ASKING[name]:
                kinds |= literals(call.args[ASKING[name]])
    return frozenset(kinds)


@cache
def end_reasons() -> frozenset[str]:
    reasons = set(played().reasons)
    for _, tree in in_package("matches.engine"):
        for name, call in calls(tree):
            if name in ENDING and len(call.args) >= 2:
                reasons |= literals(call.args[1])
    catalogue = json.loads((ROOT / "cards" / "data" / "catalogue.json").read_text("utf-8"))
    for card in catalogue["cards"]:
        if card.get("effect_code") == "lose_if":
            reasons.add(str((card.get("effect_params") or {}).get("reason", "card_effect")))
    return frozenset(reasons)


@cache
def actions() -> frozenset[str]:
    from tournaments.rules.draft import ACTIONS

    found = set(ACTIONS)
    for _, tree in in_package("tournaments"):
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef) and "actions" in func.name:
                for node in ast.walk(func):
                    if isinstance(node, ast.Return) and isinstance(node.value, ast.List):
                        found |= literals(node.value)
    return frozenset(found)


def deck_routes() -> set[str]:
    from tournaments.api.views import DECK_ACTIONS

    return {f"{route}/" for route in DECK_ACTIONS}


# --------------------------------------------------------------------------- the docs


def docs_text() -> str:
    return "\n".join((DOCS / name).read_text(encoding="utf-8") for name in DOC_FILES)


def backticked() -> set[str]:
    """Every span written in backticks in the docs (`` `stale` ``, `` `match_event` ``, …)."""
    return set(re.findall(r"`([^`\n]+)`", docs_text()))


def missing(found: frozenset[str] | set[str]) -> list[str]:
    documented = backticked()
    return sorted(name for name in found if name not in documented)


# --------------------------------------------------------------------------- the tests


def test_the_collectors_find_what_the_code_holds() -> None:
    """Not vacuous: each collector finds many names, among them ones known to exist."""
    assert len(error_codes()) >= 60
    assert {"stale", "redraw_used", "too_many", "read_only", "too_deep"} <= error_codes()
    assert len(stream_kinds()) >= 16
    assert {"match_event", "seed_revealed", "hidden"} <= stream_kinds()
    assert len(match_kinds()) >= 19
    assert {"benched", "frozen", "added", "hidden"} <= match_kinds()
    assert len(played().kinds) >= 16, sorted(played().kinds)
    assert len(question_kinds()) >= 10
    assert {"arrange_top", "freeze"} <= question_kinds()
    assert len(actions()) >= 7
    assert {"choose", "resolve", "finish"} <= actions()
    assert len(end_reasons()) >= 5
    assert {"empty_deck", "reveal_limit"} <= end_reasons()
    assert len(backticked()) > 200
    assert "certainly_not_a_code" not in backticked()


def test_every_error_code_is_documented() -> None:
    assert missing(error_codes()) == []


def test_every_stream_event_kind_is_documented() -> None:
    assert missing(stream_kinds()) == []


def test_every_match_event_kind_and_field_is_documented() -> None:
    assert missing(match_kinds()) == []
    assert missing(played().fields) == []


def test_every_match_end_reason_is_documented() -> None:
    assert missing(end_reasons()) == []


def test_every_question_kind_is_documented() -> None:
    assert missing(question_kinds()) == []


def test_every_action_and_its_route_is_documented() -> None:
    assert missing(actions()) == []
    text = docs_text()
    assert sorted(route for route in deck_routes() if route not in text) == []


def test_the_docs_stand_alone() -> None:
    """A clone has no ``../shared``: neither the docs nor the README point there."""
    for path in [*(DOCS / name for name in DOC_FILES), ROOT / "README.md"]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path.name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in DOC_FILES:
        assert f"docs/{name}" in readme, name


# --------------------------------------------------------------------------- named files

# A file named in prose: `docs/errors.md`, `config/env.py`, `nginx.conf` (a word with a dot and
# one of these suffixes, not part of a URL or a dotted name).
NAMED_FILE = re.compile(
    r"(?<![\w/.:@-])((?:\.{1,2}/)?[\w-]+(?:/[\w.-]+)*\.(?:md|py|toml|ya?ml|conf|html|js|css|sh))"
    r"(?![\w/(-])"
)
PROSE_DIRS = (
    "cards",
    "config",
    "infra",
    "apikit",
    "server",
    "matches",
    "tournaments",
    "leagues",
    "frontend",
    "scripts",
    "examples",
)


def prose(path: Path) -> str:
    """What people read in a file: a Markdown page whole, a module's docstrings and comments."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    tree = ast.parse(text)
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef | ast.FunctionDef))]
    docstrings = [ast.get_docstring(node) or "" for node in nodes]
    comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    return "\n".join(docstrings + comments)


def prose_files() -> list[Path]:
    found = [*sorted(DOCS.glob("*.md")), ROOT / "README.md", ROOT / "deploy" / "nginx.conf"]
    for folder in PROSE_DIRS:
        found += [
            path for path in sorted((ROOT / folder).rglob("*.py")) if "migrations" not in path.parts
        ]
    return found


def names_nothing(reference: str, source: Path) -> bool:
    """A relative path is read from the repository, the citing file's folder or an app's (the
    README's map of the code names files under each app); a bare name may live anywhere."""
    if "/" not in reference:
        return not any(ROOT.glob(f"[!.]*/**/{reference}")) and not (ROOT / reference).exists()
    bases = [ROOT, source.parent, *(p for p in ROOT.iterdir() if p.is_dir())]
    return not any((base / reference).exists() for base in bases)


def test_every_file_the_docs_and_docstrings_name_exists() -> None:
    dangling = [
        f"{source.relative_to(ROOT)}: {reference}"
        for source in prose_files()
        for reference in sorted(set(NAMED_FILE.findall(prose(source))))
        if names_nothing(reference, source)
    ]
    assert dangling == []


def test_a_file_named_that_does_not_exist_is_found() -> None:
    source = ROOT / "config" / "env.py"
    assert names_nothing("design.md", source)
    assert names_nothing("docs/nowhere.md", source)
    assert not names_nothing("docs/errors.md", source)
    assert not names_nothing("nginx.conf", source)
    assert NAMED_FILE.findall("see design.md, or https://x.org/a.md and module.py") == [
        "design.md",
        "module.py",
    ]


CHANGELOG_WIDTH = 100


def changelog_faults(text: str) -> list[str]:
    """The bullets over 100 characters and the lines that carry a bullet on."""
    faults = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("- ") and len(line) > CHANGELOG_WIDTH:
            faults.append(f"{len(line)} characters: {line}")
        carried = line.startswith((" ", "\t")) or previous.startswith("- ")
        if line.strip() and carried and not line.startswith(("- ", "#")):
            faults.append(f"carries a bullet on: {line}")
        previous = line
    return faults


def test_the_changelog_is_one_short_line_per_change() -> None:
    """A reader scans it: one line of at most 100 characters each; the docs hold the rest."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog_faults(text) == []
    assert text.count("\n- ") >= 10


def test_a_long_or_wrapped_changelog_bullet_is_found() -> None:
    width = "- " + "x" * (CHANGELOG_WIDTH - 2)
    assert changelog_faults(f"## Added\n{width}\n- short\n\nA paragraph.\n") == []
    assert len(changelog_faults(f"{width}x\n")) == 1
    assert len(changelog_faults("- one\n  carried on\n")) == 1
    assert len(changelog_faults("- one\ncarried on\n")) == 1
