"""A tournament's title: what its host or organizer calls it (pure: no Django).

Unnamed, the clients call it "Game #<id>", in the reader's language.
"""

from __future__ import annotations

from tournaments.rules.errors import OptionError, gettext_noop

TITLE_CHARS = 60


def check_title(title: str) -> str:
    """The title, its whitespace collapsed (``""``: unnamed).

    Refused as ``bad_title`` if over ``TITLE_CHARS`` or holding an unprintable character.
    """
    shown = " ".join(title.split())
    if len(shown) > TITLE_CHARS or not shown.isprintable():
        raise OptionError(
            "bad_title",
            gettext_noop("A title is at most %(max)s printable characters."),
            max=TITLE_CHARS,
        )
    return shown
