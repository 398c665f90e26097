"""``manage.py missing_translations [--lang LANG] [--strict]``: untranslated cards, per language.

That is, cards whose name or effect lacks a translation. The API shows them in English."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext_noop, ngettext

from cards.selectors import card_missing_translations
from cards.validation import TRANSLATED_LANGUAGES
from infra.commands import LocalizedCommand


class Command(LocalizedCommand):
    help = gettext_noop("List the cards without a name or effect translation, per language.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--lang", choices=TRANSLATED_LANGUAGES, help=gettext_noop("One language only.")
        )
        parser.add_argument(
            "--strict",
            action="store_true",
            help=gettext_noop("Exit non-zero if any translation is missing."),
        )

    def handle(self, *args: object, lang: str | None, strict: bool, **options: object) -> None:
        total = 0
        for language in [lang] if lang else TRANSLATED_LANGUAGES:
            missing = card_missing_translations(language=language)
            total += len(missing)
            self.stdout.write(
                ngettext(
                    "%(language)s: %(count)d card without a translation",
                    "%(language)s: %(count)d cards without a translation",
                    len(missing),
                )
                % {"language": language, "count": len(missing)}
            )
            for key in missing:
                self.stdout.write(f"  {key}")
        if strict and total:
            raise CommandError(
                ngettext("%(count)d translation missing.", "%(count)d translations missing.", total)
                % {"count": total}
            )
