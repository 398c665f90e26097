"""Management commands answer in the operator's language: ``--lang``, else the shell's locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English; errors too."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from infra.commands import LocalizedCommand, environment_language

PROJECT = Path(__file__).resolve().parents[2]
OUR_APPS = ("cards", "config", "infra", "apikit", "server", "matches", "tournaments", "leagues")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-hans"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANGUAGE": "fr:ru", "LANG": "zh_CN.UTF-8"}, "ru"),  # LANGUAGE's first spoken one
        ({"LC_ALL": "ru_UA.UTF-8@euro", "LANG": "zh_CN.UTF-8"}, "ru"),  # LC_ALL before LANG
        ({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "ru_RU.UTF-8"}, "zh-hans"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language the server does not speak
        ({}, "en"),
    ],
)
def test_the_locale_environment_names_the_language(environ: dict[str, str], expected: str) -> None:
    assert environment_language(environ) == expected


def test_every_command_of_the_project_speaks_the_operators_language() -> None:
    ours = {
        name: app
        for name, app in get_commands().items()
        if isinstance(app, str) and app.split(".")[0] in OUR_APPS
    }
    assert len(ours) >= 14, ours
    commands = {name: load_command_class(app, name) for name, app in ours.items()}
    plain = [
        name
        for name, command in commands.items()
        if not isinstance(command, LocalizedCommand) and not _djangos_own(command)
    ]
    assert plain == []


def _djangos_own(command: object) -> bool:
    """One of Django's commands the project only wraps (``migrate``: its report logged): its
    text is Django's, English."""
    modules = (base.__module__ for base in type(command).__mro__)
    return any(module.startswith("django.core.management.commands.") for module in modules)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Verified 0 finished tournaments: all ok."),
        ("zh-hans", "已验证 0 场已结束的锦标赛：全部正常。"),
        ("ru", "Проверено 0 завершённых турниров: всё в порядке."),
    ],
)
def test_lang_chooses_the_output_language_plurals_included(lang: str, expected: str) -> None:
    out = StringIO()
    call_command("verify_tournaments", lang=lang, stdout=out)
    assert out.getvalue().strip() == expected


@pytest.mark.django_db
def test_a_refusal_is_in_the_chosen_language() -> None:
    with pytest.raises(CommandError, match="Нет лиги с идентификатором 'nowhere'"):
        call_command("league_recompute", "nowhere", lang="ru")


def test_the_shells_locale_speaks_on_the_command_line() -> None:
    """The real command line (``run_from_argv``): ``LANG`` alone chooses, ``--lang`` wins."""
    environ = {**os.environ, "LANG": "zh_CN.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    for flag, expected in (([], "必须为 0 天或以上"), (["--lang", "ru"], "не меньше 0 дней")):
        done = subprocess.run(
            [sys.executable, "manage.py", "archive_events", "--older-than", "-1", *flag],
            cwd=PROJECT,
            env=environ,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 1
        assert expected in done.stderr, done.stderr


def _help_texts(command: BaseCommand, name: str, language: str) -> dict[str, str]:
    """The command's ``--help`` in ``language``: its own text and each argument's, Django's
    common options (``--verbosity``…) left out."""
    djangos = {action.dest for action in BaseCommand().create_parser("manage.py", name)._actions}
    with translation.override(language):
        parser = command.create_parser("manage.py", name)
        texts = {"help": str(parser.description)}
        texts |= {
            action.dest: str(action.help)
            for action in parser._actions
            if action.dest not in djangos and action.help
        }
    return texts


@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_every_commands_help_is_in_the_operators_language(language: str) -> None:
    ours = {
        name: load_command_class(app, name)
        for name, app in get_commands().items()
        if isinstance(app, str) and app.split(".")[0] in OUR_APPS
    }
    commands = {name: command for name, command in ours.items() if not _djangos_own(command)}
    assert len(commands) >= 14, commands
    same = []
    for name, command in sorted(commands.items()):
        english, shown = _help_texts(command, name, "en"), _help_texts(command, name, language)
        same += [f"{name} {arg}: {text!r}" for arg, text in english.items() if shown[arg] == text]
    assert same == []
