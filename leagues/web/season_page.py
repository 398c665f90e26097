"""A season's page drawn by the server.

The standings and every tournament are in the HTML itself. They use the words and markup
``league.js`` draws them with. So the first paint shows the season.

It reads only what the public API sends an anonymous reader. That is the league, every member's
standings, and the season's JSON lines. The template escapes every value. The page's script then
only keeps it current (``?since=`` the version drawn, docs/leagues.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from django.contrib.staticfiles import finders
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as noop
from django.utils.translation import ngettext

from apikit.shapes import to_json
from infra.errors import ApplicationError
from leagues.models import Season
from leagues.selectors import leagues as selectors
from leagues.selectors import lines
from leagues.shapes import Standings

Json = dict[str, Any]
STYLESHEET = "frontend/style.css"
LIVE = ("deck", "match")  # league.js: a tournament being played (a lobby only waits)
STATUS_WORDS = {
    "lobby": noop("open lobby"),
    "deck": noop("building decks"),
    "match": noop("matches being played"),
    "finished": noop("finished"),
    "cancelled": noop("cancelled"),
}


@dataclass(frozen=True)
class SeasonPage:
    """What the template draws, and what the script needs to keep it current."""

    template: ClassVar[str] = "leagues/season.html"  # drawn inside the shell's <main>

    league: Json
    season: Json
    standings: Json
    rows: list[Json]
    tournaments: list[Json]
    recorded: bool
    version: str
    live: str  # "playing", "waiting" or "" (league.js polls the first every 4 s, the second 30 s)
    lines: list[Json]  # sent with the page while it is live: the script's base for changes

    @property
    def stylesheet(self) -> SafeString:
        """The client's stylesheet, inlined, so the first paint waits for no other fetch."""
        return _stylesheet()

    @property
    def script(self) -> Json:
        """What the page's script reads: the version drawn, whether to poll, the lines."""
        return {"version": self.version, "live": self.live, "lines": self.lines}


@cache
def _stylesheet() -> SafeString:
    found = finders.find(STYLESHEET)
    assert isinstance(found, str), STYLESHEET
    return mark_safe(Path(found).read_text("utf-8"))  # our own file, no one's input


def season_page(found: Season, everyone: Standings) -> SeasonPage | None:
    """The page of season ``found``, with everyone's standings.

    ``None`` when the public API would refuse one of its reads.
    """
    slug = found.league.slug
    try:
        league = to_json(selectors.league_view(slug, None))
        read = lines.season_lines(slug, found.pk)
    except ApplicationError:
        return None
    read.remember()  # the script asks ?since= this version
    standings = to_json(everyone)
    season = next(s for s in league["seasons"] if s["id"] == found.pk)
    parsed = [json.loads(line) for block in read.blocks for line in block.text.splitlines()]
    heads = [line for line in parsed if line["type"] == "tournament"]
    live, words = _live(heads), _replay_words()
    return SeasonPage(
        league=league,
        season={**season, "dates": _dates(season), "scoring_words": _scoring(season["scoring"])},
        standings=standings,
        rows=[_row(slug, row, index) for index, row in enumerate(standings["rows"])],
        tournaments=[_tournament(slug, head, parsed, words) for head in heads],
        recorded=any(head["recorded"] for head in heads),
        version=read.version,
        live=live,
        lines=parsed if live else [],
    )


def _live(heads: list[Json]) -> str:
    playing = any(
        head["status"] in LIVE or (head["status"] == "finished" and not head["recorded"])
        for head in heads
    )
    waiting = any(head["status"] == "lobby" for head in heads)
    return "playing" if playing else "waiting" if waiting else ""


def _dates(season: Json) -> str:
    start, end = season["starts_on"], season["ends_on"]
    if start and end:
        return _("%(start)s to %(end)s") % {"start": start, "end": end}
    if start:
        return _("from %(start)s") % {"start": start}
    if end:
        return _("until %(end)s") % {"end": end}
    return _("no set dates")


def _scoring(scoring: Json) -> str:
    text = _(
        "Points: champion %(champion)s, finalist %(finalist)s, the others by fans rank "
        "%(ranks)s, plus %(played)s for each tournament played."
    )
    ranks = ", ".join(str(rank) for rank in scoring["by_fans_rank"])
    return text % {**scoring, "ranks": ranks}


def member_path(slug: str, handle: str) -> str:
    """A member's page, its parts encoded as ``encodeURIComponent`` does."""
    return f"/leagues/{_component(slug)}/members/{_component(handle)}/"


def _component(text: str) -> str:
    return quote(text, safe="!'()*")


DECIDED = {
    "points": noop("more points"),
    "wins": noop("more championships"),
    "finals": noop("more Finals reached"),
    "fans": noop("more fans"),
    "played": noop("fewer tournaments played"),
}


def _row(slug: str, row: Json, index: int) -> Json:
    """A standings row with its link, rating and place in words."""
    rating = row["rating"]
    return {
        **row,
        "href": member_path(slug, row["member"]),
        "rating_shown": _fixed(rating["ordinal"]) if rating else "\N{EN DASH}",
        "why": _decided(row["decided_by"], index),
    }


def _decided(decided_by: str | None, index: int) -> str:
    if decided_by is None or index == 0:
        return _("leads")
    if decided_by == "tied":
        return _("tied with the row above")
    words = _(DECIDED[decided_by]) if decided_by in DECIDED else decided_by
    return _("behind the row above, which has %(reason)s") % {"reason": words}


def _fixed(value: float) -> str:
    """``value`` with two decimals, like JavaScript's ``toFixed(2)``. A tie rounds away from 0."""
    return str(Decimal(value).quantize(Decimal("0.01"), ROUND_HALF_UP))


def _replay_words() -> dict[str, str]:
    """The replays' words, looked up once a page. A season has hundreds of replays."""
    return {
        "final": _("Final"),
        "round": _("Round %(round)s"),
        "park": _("%(park)s park"),
        "versus": _("%(a)s vs %(b)s"),
        "won": _("won by %(name)s"),
        "robot": _("the Robot"),
        "seat": _("seat %(seat)s"),
        "forfeit": _("forfeit"),
    }


def _tournament(slug: str, head: Json, parsed: list[Json], words: dict[str, str]) -> Json:
    """A tournament's item: name, status, podium, corrections and replays, in words."""
    names = {result["seat"]: result["member"] for result in head["results"]}
    podium = sorted(head["results"], key=lambda result: result["place"])[:3]
    ours = [x for x in parsed if x["type"] == "match" and x["tournament"] == head["id"]]
    return {
        **head,
        "name": head["title"] or _("Game #%(id)s") % {"id": head["id"]},
        "badge": _badge(head),
        "podium": [_("%(place)s. %(member)s (%(points)s pts)") % result for result in podium],
        "corrected": [_correction(correction) for correction in head["corrections"]],
        "rounds": f"/leagues/{_component(slug)}/tournaments/{head['id']}/",
        "replays_words": ngettext("%(count)s replay", "%(count)s replays", len(ours))
        % {"count": len(ours)},
        "replays": _replays(ours, names, words),
    }


def _badge(head: Json) -> tuple[str, str]:
    """The status badge's class and words."""
    status = head["status"]
    if status in LIVE:
        return "status-match", f"{_('live')}: {_(STATUS_WORDS[status])}"
    if status == "finished" and not head["recorded"]:
        return "status-deck", _("finished, result being recorded")
    words = _(STATUS_WORDS[status]) if status in STATUS_WORDS else status
    return f"status-{status}", words


# league.js's replay item. The season's hundreds of replays are joined here: the template's loop
# over them cost ten times the rest of the page.
REPLAY = '<li><a href="/#/match/{}">{}</a>{}{}</li>'


def _replays(matches: list[Json], names: dict[int, str], words: dict[str, str]) -> SafeString:
    """A tournament's replay items, every value escaped."""
    return format_html_join("", REPLAY, (_replay(match, names, words) for match in matches))


def _replay(match: Json, names: dict[int, str], words: dict[str, str]) -> tuple[object, ...]:
    def seat(number: int) -> str:
        if number == -1:
            return words["robot"]
        return names.get(number) or words["seat"] % {"seat": number + 1}

    first, second = match["seats"]
    round_words = words["final"] if match["round"] == 8 else words["round"] % match
    versus = words["versus"] % {"a": seat(first), "b": seat(second)}
    winner = match["winner"]
    won = "" if winner is None else words["won"] % {"name": seat(winner)}
    return (
        match["id"],
        f"{round_words}, {words['park'] % match}: {versus}",
        format_html('<span class="muted"> {}</span>', won) if won else "",
        format_html(' <span class="badge badge-corrected">{}</span>', words["forfeit"])
        if match["correction"]
        else "",
    )


def _correction(correction: Json) -> Json:
    """A correction in words, as corrections.js has it: what it did, when, and why."""
    values = {"member": correction["member"], "id": correction["tournament"]}
    kind = correction["kind"]
    if kind == "forfeit":
        what = _("%(member)s forfeited a match of game #%(id)s")
    elif kind == "manual_result":
        what = _("Places of game #%(id)s entered by hand")
    elif kind == "no_show":
        what = _("%(member)s did not check in for game #%(id)s")
    elif correction["tournament"]:
        what = _("%(member)s disqualified from game #%(id)s")
    else:
        what = _("%(member)s disqualified from the whole season")
    when = str(correction["created_at"])[:10]
    return {"what": what % values, "when": when, "reason": correction["reason"]}
