"""Every coded error of the server is worded for translation: where a refusal is raised with its
code written out, its message is a gettext call (or a name holding one), never an English
literal, so the catalogue test (tests/config/test_catalogues.py) holds it translated."""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
APPS = ("config", "infra", "apikit", "server", "cards", "matches", "tournaments", "leagues")
# The pure cores import no Django: their English is translated by code where a transport shows
# it (matchplay's answer_refusal, rule_message of tournaments.services.common).
PURE = ("matches/engine/",)
GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "rule_message"}
# Messages carried on from another error, as they are written: strawberry's own refusals
# (should one get past ours), and a DestinationError's (worded with gettext where it is raised).
CARRIED = {
    ("server/graphql_views.py", "error.reason"),
    ("leagues/services/leagues.py", "refused.message"),
}


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _worded(message: ast.expr) -> bool:
    """A gettext call, a formatted one (``_("… %(x)s") % {...}``) or a name holding one."""
    if isinstance(message, ast.BinOp):
        message = message.left
    if isinstance(message, ast.Call):
        return _name(message) in GETTEXT
    return isinstance(message, ast.Name)


def untranslated(text: str, where: str) -> list[str]:
    """The refusals (``…Error(code, message, …)``) in the module ``text`` whose message is not
    worded for translation: an English literal, or another error's message carried on."""
    found = []
    for node in ast.walk(ast.parse(text)):
        # Django's ValidationError takes its message first: a form's, not a coded refusal.
        if not isinstance(node, ast.Call) or not _name(node).endswith("Error"):
            continue
        if _name(node) == "ValidationError":
            continue
        if len(node.args) < 2:
            continue
        message = node.args[1]
        if (where, ast.unparse(message)) in CARRIED or _worded(message):
            continue
        if isinstance(message, ast.Constant | ast.JoinedStr | ast.Attribute):
            found.append(f"{where}:{node.lineno} {ast.unparse(node.args[0])}")
    return found


def sources() -> dict[str, str]:
    """The server's modules by path, but the pure cores'."""
    paths = [path for app in APPS for path in sorted((PROJECT / app).rglob("*.py"))]
    named = {path.relative_to(PROJECT).as_posix(): path for path in paths}
    return {
        where: path.read_text("utf-8")
        for where, path in named.items()
        if "migrations" not in where and not where.startswith(PURE)
    }


def test_every_coded_refusal_is_worded_for_translation() -> None:
    modules = sources()
    assert len(modules) > 100
    assert [line for where, text in modules.items() for line in untranslated(text, where)] == []


def test_an_english_literal_or_a_carried_message_is_found() -> None:
    sample = (
        "raise ApplicationError('a', 'English.')\n"
        "raise ConflictError('b', f'English {x}.')\n"
        "raise ApplicationError(error.code, error.message)\n"
        "raise ApplicationError('d', _('Worded.'))\n"
        "raise ApplicationError('e', _('Worded %(x)s.') % {'x': 1})\n"
        "raise ApplicationError('f', message)\n"
        "raise ApplicationError(error.code, rule_message(error))\n"
    )
    found = untranslated(sample, "sample.py")
    assert [line.split(" ", 1)[1] for line in found] == ["'a'", "'b'", "error.code"]
