"""A season as JSON lines, its page's data, read in a fixed number of statements.

It also tells what changed since a version a client holds.

Each tournament is a block: its line, then its matches once it finished. Their results are all
public then. Every correction is applied (``leagues.selectors.corrected``).

Five statements read every block's line. They read the season, its tournaments and their results.
They read the corrections of its tournaments and of the season. A finished tournament's match lines
are the bulk. They are cached per tournament version. So a warm read sends no sixth statement. Every
change a match can show moves that version (``tournaments.selectors.matches``). A tournament with a
forfeit is read afresh: a correction does not move its version.

An answer's version is a digest of its blocks' contents, never a row's counter. A result stored but
not yet released changes nothing shown, and so no version. So a poll learns nothing a full read
would not. The blocks' digests are remembered per version. A client may name the version it holds
(``since``). It is then sent only the blocks that changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from rest_framework.utils.encoders import JSONEncoder

from apikit.shapes import to_json
from leagues.models import Correction, LeagueTournament, Result, Season
from leagues.selectors.corrected import corrections_by_link, forfeited_winners
from leagues.selectors.leagues import correction_view, league_get, season_pick
from leagues.shapes import LineResult, MatchLine, TournamentLine
from matches.models import Match
from tournaments.models import Status
from tournaments.selectors.tournaments import VIEW_TIMEOUT, birth_key

Stamp = tuple[int, int | None, str, list[int], int, str, datetime, int, str]  # a tournament as read
Forfeits = dict[int, tuple[int, int]]  # match id -> (the seat that wins it now, the forfeit)
MATCH = ("tournament_id", "id", "round", "park", "seat_a__number", "seat_b__number")


@dataclass(frozen=True)
class Block:
    """One tournament's lines, as sent, and their digest."""

    tournament: int
    text: str
    digest: str

    @classmethod
    def of(cls, tournament: int, text: str) -> Block:
        return cls(tournament, text, _digest(text))


@dataclass(frozen=True)
class SeasonLines:
    """A season's blocks in tournament order, and the version naming their content."""

    season: int
    version: str
    blocks: list[Block]

    def remember(self) -> None:
        """Keep the blocks' digests of this version. A client is sent it, so it may ask since."""
        digests = {block.tournament: block.digest for block in self.blocks}
        cache.set(_version_key(self.season, self.version), digests, VIEW_TIMEOUT)

    def changed_since(self, version: str) -> list[Block] | None:
        """The blocks that differ from those of ``version``. Empty when the season is at it.

        ``None`` when that version is forgotten or lost a tournament: then send every block.
        """
        known: dict[int, str] | None = cache.get(_version_key(self.season, version))
        if known is None or not known.keys() <= {block.tournament for block in self.blocks}:
            return None
        return [block for block in self.blocks if known.get(block.tournament) != block.digest]


def season_lines(slug: str, season_id: int) -> SeasonLines:
    """The season's blocks (``season_id`` 0: the league's default season).

    ``not_found`` for no such league. ``unknown_season`` for no such season in it.
    """
    season = _season(slug, season_id)
    stamps = list(
        LeagueTournament.objects.filter(season=season)
        .order_by("id")
        .values_list(
            "tournament_id",
            "recorded_seq",
            "tournament__status",
            "tournament__winners",
            "tournament__version",
            "tournament__code",
            "tournament__created_at",
            "id",
            "tournament__title",
        )
    )
    links = [LeagueTournament(pk=s[7], season_id=season.pk, tournament_id=s[0]) for s in stamps]
    by_link = corrections_by_link(links)
    corrected = {s[0]: by_link[s[7]] for s in stamps}
    results, champions = _results(season)
    forfeits = {tid: forfeited_winners(found) for tid, found in corrected.items()}
    matches = _match_texts([s for s in stamps if s[2] == Status.FINISHED], forfeits)
    blocks = [
        _block(s, results.get(s[0], []), champions.get(s[0], []), corrected[s[0]]) for s in stamps
    ]
    blocks = [Block.of(b.tournament, b.text + matches.get(b.tournament, "")) for b in blocks]
    version = _digest("".join(f"{block.tournament}:{block.digest};" for block in blocks))
    return SeasonLines(season.pk, version, blocks)


def _season(slug: str, season_id: int) -> Season:
    """The season in one statement. The errors' lookups run only when it is not there."""
    found = Season.objects.filter(pk=season_id, league__slug=slug).first() if season_id else None
    return found or season_pick(league_get(slug), season_id)


def _results(season: Season) -> tuple[dict[int, list[LineResult]], dict[int, list[int]]]:
    """Every result of the season by tournament, by place then seat, and its champions' seats."""
    found: dict[int, list[LineResult]] = {}
    champions: dict[int, list[int]] = {}
    rows = Result.objects.filter(link__season=season).order_by("link", "place", "seat")
    for tournament, member, seat, place, points, champion in rows.values_list(
        "link__tournament_id", "member__handle", "seat", "place", "points", "champion"
    ):
        found.setdefault(tournament, []).append(
            LineResult(member=member, seat=seat, place=place, points=points)
        )
        if champion:
            champions.setdefault(tournament, []).append(seat)
    return found, champions


def _block(
    stamp: Stamp, results: list[LineResult], champions: list[int], corrections: list[Correction]
) -> Block:
    """A tournament's line.

    A corrected result's champions are its results' champions. A struck title is nobody's.
    """
    tournament, recorded_seq, status, winners = stamp[:4]
    line = TournamentLine(
        type="tournament",
        id=tournament,
        title=stamp[8] or None,
        status=status,
        recorded=recorded_seq is not None,
        winners=champions if corrections else winners,
        results=results,
        corrections=[correction_view(c) for c in corrections],
    )
    return Block.of(tournament, _text(line))


def _match_texts(finished: list[Stamp], forfeits: dict[int, Forfeits]) -> dict[int, str]:
    """The match lines of each finished tournament, from the cache or in one statement.

    A tournament with a forfeit is read afresh and never cached.
    """
    keys = {
        f"slmatch:{birth_key(s[0], s[5], s[6])}:{s[4]}": s[0]
        for s in finished
        if not forfeits[s[0]]
    }
    cached: dict[str, str] = cache.get_many(list(keys))
    texts = {keys[key]: text for key, text in cached.items()}
    missing = [s[0] for s in finished if s[0] not in texts]
    if missing:
        made = _read_match_texts(missing, forfeits)
        texts.update(made)
        cache.set_many({key: made[tid] for key, tid in keys.items() if tid in made}, VIEW_TIMEOUT)
    return texts


def _read_match_texts(tournaments: list[int], forfeits: dict[int, Forfeits]) -> dict[int, str]:
    matches = Match.objects.filter(tournament_id__in=tournaments)
    rows = matches.order_by("tournament_id", "round", "park", "id").values_list(
        *MATCH, "winner__number"
    )
    texts: dict[int, list[str]] = {tid: [] for tid in tournaments}
    for tournament, match, round_, park, seat_a, seat_b, played in rows:
        winner, correction = forfeits[tournament].get(match, (played, None))
        line = MatchLine(
            type="match",
            tournament=tournament,
            id=match,
            round=round_,
            park=park,
            seats=[seat_a, seat_b],
            winner=winner,
            correction=correction,
        )
        texts[tournament].append(_text(line))
    return {tid: "".join(lines) for tid, lines in texts.items()}


def _text(line: TournamentLine | MatchLine) -> str:
    """One JSON line. Times are written as in every JSON answer: DRF's encoder, ISO 8601, ``Z``."""
    return json.dumps(to_json(line), cls=JSONEncoder) + "\n"


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _version_key(season: int, version: str) -> str:
    return f"slversion:{season}:{version}"
