"""CSV a spreadsheet can trust: the standings and a tournament's results as tables.

Three promises, kept here for every CSV the leagues serve:

* **No formulas.** A text cell may start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return. Such a cell is prefixed with a single quote (the OWASP rule against CSV injection). So a
  handle such as ``=HYPERLINK("http://evil", "x")`` is shown as text, never run. Numbers stay
  numbers.
* **UTF-8 with a byte order mark**, always. Excel reads a CSV without one in the machine's legacy
  code page: "José" becomes "JosÃ©". Every CSV library reads it with ``utf-8-sig``.
* **Ratings as a person reads them**: mu, sigma and the ordinal rounded to 2 decimals. The JSON
  endpoints and the season's JSON lines keep them exact.

A table whose results were corrected ends with the corrections, after an empty line. They have a
header of ``CORRECTION_COLUMNS`` and one line each, oldest first. A spreadsheet shows the reason
under the table it changed. A program reads the JSON.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    from _csv import Writer

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
RATING_FIELDS = ("mu", "sigma", "ordinal")
RATING_DECIMALS = 2
CORRECTION_COLUMNS = ("correction", "kind", "reason", "created_at", "tournament", "member", "match")


class Rated(TypedDict):
    """A table row as its JSON answer has it: its cells, and its rating if any."""

    rating: NotRequired[Mapping[str, float] | None]


class CorrectionCells(TypedDict):
    """A correction as a JSON answer lists it: the fields its CSV section shows."""

    id: int
    kind: str
    reason: str
    created_at: datetime.datetime
    tournament: int | None
    member: str | None
    match: int | None


class TableBody(TypedDict):
    """What a CSV is written from: a JSON answer's rows and corrections."""

    rows: list[Rated]
    corrections: NotRequired[list[CorrectionCells]]


def neutralised(value: object) -> object:
    """The cell as written. A text a spreadsheet would read as a formula gets a quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def rounded_rating(rating: Mapping[str, float] | None) -> dict[str, float]:
    """A rating's fields to 2 decimals (none: no cells)."""
    if rating is None:
        return {}
    return {name: round(rating[name], RATING_DECIMALS) for name in RATING_FIELDS}


def table(
    columns: Sequence[str],
    rows: Iterable[Mapping[str, object]],
    corrections: Sequence[CorrectionCells] = (),
) -> bytes:
    """``rows`` as a CSV, then the ``corrections`` section if there is any.

    The CSV has a BOM, a header and one line per row. Fields not in ``columns`` are left out. Every
    cell is neutralised.
    """
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    _section(writer, columns, rows)
    if corrections:
        writer.writerow([])
        listed = (
            {**c, "correction": c["id"], "created_at": _time(c["created_at"])} for c in corrections
        )
        _section(writer, CORRECTION_COLUMNS, listed)
    return out.getvalue().encode("utf-8")


def _time(value: datetime.datetime) -> str:
    """A time as the JSON answers write it: ISO 8601 in UTC with ``Z``."""
    return value.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def _section(writer: Writer, columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> None:
    writer.writerow(columns)
    for row in rows:
        writer.writerow([neutralised(row.get(column, "")) for column in columns])
