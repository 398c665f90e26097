"""Compiling the gettext catalogues under ``locale/`` without GNU gettext.

It imports no Django. So an image build can run it before any settings exist."""

from __future__ import annotations

from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
# `manage.py makemessages` as the catalogues are made (from the project's folder; GNU gettext's
# xgettext needed): the server's own code, no line numbers (so a moved line changes no catalogue).
MAKEMESSAGES_ARGS = (
    *("-l", "zh_Hans", "-l", "ru", "--no-location"),
    *(f"--ignore={folder}/*" for folder in ("tests", "build", "examples", "scripts", "deploy")),
    "--ignore=frontend/static/*",
)
# The same for the web client's words (`djangojs`, served at /jsi18n/): every script of the
# project's apps' static folders — a new page's gettext() calls are picked up with no list to keep.
MAKEMESSAGES_JS_ARGS = (
    *("-d", "djangojs", "-l", "zh_Hans", "-l", "ru", "--no-location"),
    *(f"--ignore={folder}/*" for folder in ("tests", "build", "examples", "scripts", "deploy")),
    "--ignore=test-artifacts/*",
)


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile each ``.po`` under ``locale_dir`` whose ``.mo`` is missing or older.

    Returns the paths written. polib does it in Python. So a machine without GNU gettext needs
    nothing more."""
    import polib

    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written
