"""League writes: leagues, seasons, members and their tokens, webhook endpoints.

Tournaments join a season here too, when they are created. An organizer creates them, or a host with
the join code.

Only a league's organizers write to it. Recording results lives in ``recording``. Webhook deliveries
live in ``webhooks``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.selectors import additional_set_problems
from infra.errors import ApplicationError, ConflictError, ForbiddenError, NotFoundError
from leagues.models import (
    FormerHandle,
    League,
    LeagueTournament,
    Member,
    MemberKind,
    MemberSeat,
    OrganizerChange,
    OrganizerChangeKind,
    Season,
    Visibility,
    WebhookEndpoint,
)
from leagues.rules.scoring import (
    SEASON_OPTIONS,
    LeagueRuleError,
    check_scoring,
    check_season_options,
)
from leagues.services.destinations import DestinationError, check_registration
from leagues.services.webhooks import EVENT_KINDS
from tournaments.models import Seat, Tournament
from tournaments.selectors.viewers import BadToken, Organizer, hash_token
from tournaments.services import lobby
from tournaments.services.common import new_token, rule_message

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
RESERVED_SLUGS = frozenset({"tournaments"})  # /api/v1/leagues/tournaments/ is a route


def _rule(error: LeagueRuleError) -> ApplicationError:
    refusal = ConflictError if error.code == "season_options" else ApplicationError
    return refusal(error.code, _(error.message), error.details)


def league_of(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError("not_found", _("No league has that slug."))
    return league


def require_organizer(organizer: Organizer | None, league: League | None = None) -> Organizer:
    """An organizer token and, given a league, one of its organizers."""
    if organizer is None:
        raise ForbiddenError(
            "organizer_required", _("Send `Authorization: Token <organizer token>`.")
        )
    if league is not None and not league.organizers.filter(pk=organizer.user_id).exists():
        raise ForbiddenError(
            "not_league_organizer", _("Only this league's organizers may do this.")
        )
    return organizer


def organizes_league_of(user_id: int, tournament: Tournament) -> bool:
    """Whether ``user_id`` organizes the league whose season ``tournament`` joined.

    A league's organizers all host its tournaments, whichever of them opened one.
    """
    return LeagueTournament.objects.filter(
        tournament=tournament, season__league__organizers=user_id
    ).exists()


def league_create(
    *, organizer: Organizer | None, name: str, slug: str, description: str = "", public: bool = True
) -> League:
    """A new league, with its creator as first organizer. ``services.organizing`` adds more."""
    by = require_organizer(organizer)
    if slug in RESERVED_SLUGS:
        raise ConflictError("slug_taken", _("That slug is reserved."))
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name,
                slug=slug,
                description=description,
                visibility=Visibility.PUBLIC if public else Visibility.UNLISTED,
            )
            league.organizers.add(by.user_id)
            organizers_changed(league, OrganizerChangeKind.ADDED, by.name, by.name)
    except IntegrityError as taken:
        raise ConflictError("slug_taken", _("Another league has that slug.")) from taken
    return league


def organizers_changed(league: League, change: str, username: str, by: str) -> None:
    """Audit a change of ``league``'s organizers: who, which way, by whom.

    Names are kept as they are now.
    """
    OrganizerChange.objects.create(league=league, change=change, username=username, by=by)


def season_create(
    *,
    organizer: Organizer | None,
    slug: str,
    name: str,
    starts_on: date | None = None,
    ends_on: date | None = None,
    scoring: Mapping[str, object] | None = None,
    bots_allowed: bool = True,
    advice_allowed: bool = False,
    **options: object,
) -> Season:
    """A season of ``slug``'s league, with its scoring table and tournament options.

    The options are ``basic_set``, ``additional_sets``, ``beach_cup``, ``winter_mode`` and
    ``robot_difficulty``.
    """
    league = league_of(slug)
    require_organizer(organizer, league)
    check_dates(starts_on, ends_on)
    try:
        table = check_scoring(scoring)
    except LeagueRuleError as error:
        raise _rule(error) from error
    check_tournament_options(options)
    return Season.objects.create(
        league=league,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        scoring=table,
        bots_allowed=bots_allowed,
        advice_allowed=advice_allowed,
        join_code=_join_code(),
        **{key: value for key, value in options.items() if key in SEASON_OPTIONS},
    )


def check_dates(starts_on: date | None, ends_on: date | None) -> None:
    """A season ends on or after its first day. Either may be left open."""
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        raise ApplicationError(
            "bad_season_dates",
            _("A season ends on or after the day it starts."),
            {"starts_on": starts_on.isoformat(), "ends_on": ends_on.isoformat()},
        )


def require_season_open(season: Season) -> None:
    """A tournament opens in a season on the days it runs.

    Those are ``starts_on`` to ``ends_on``, both included, in the server's time zone. An open end
    runs on.
    """
    if season.archived_at is not None:
        raise ConflictError("season_archived", _("This season is archived."))
    require_open(season)
    today = timezone.localdate()
    dates = {"starts_on": season.starts_on, "ends_on": season.ends_on, "today": today}
    details = {name: day.isoformat() if day else None for name, day in dates.items()}
    if season.starts_on is not None and today < season.starts_on:
        raise ConflictError("season_not_started", _("This season has not started yet."), details)
    if season.ends_on is not None and today > season.ends_on:
        raise ConflictError("season_ended", _("This season has ended."), details)


def check_tournament_options(options: Mapping[str, object]) -> None:
    """The tournaments' own option rules, as a 1-seat check of the same values."""
    from tournaments.rules.errors import RuleError
    from tournaments.rules.options import check_options

    problems = additional_set_problems()
    sets, basic_set = options.get("additional_sets"), options.get("basic_set", "City")
    beach_cup, winter_mode = options.get("beach_cup", False), options.get("winter_mode", "off")
    difficulty = options.get("robot_difficulty", 1)
    # The values of a valid input, or of a season's columns:
    assert sets is None or isinstance(sets, list)
    assert isinstance(basic_set, str) and isinstance(winter_mode, str)
    assert isinstance(beach_cup, bool) and isinstance(difficulty, int)
    try:
        check_options(
            seat_count=3,
            basic_set=basic_set,
            additional_sets=sets if sets is not None else _any_sets(problems),
            beach_cup=beach_cup,
            winter_mode=winter_mode,
            robot_difficulty=difficulty,
            solo_challenge=False,
            set_problems=problems,
        )
    except RuleError as error:
        raise ApplicationError(error.code, rule_message(error), error.details) from error


def _any_sets(problems: Mapping[str, list[str]]) -> list[str]:
    from tournaments.rules.options import default_sets
    from tournaments.rules.seeds import stream

    return list(default_sets(stream(0, "sets"), problems))


def _join_code() -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(10))


def season_of(season_id: int) -> Season:
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        raise NotFoundError("unknown_season", _("No such season."))
    return season


def require_open(season: Season) -> None:
    """``409 season_closed``, naming the season, if its results are closed
    (``closing.season_close``).

    The caller holds a lock that a close also takes: the league's row or the season's.
    """
    if season.closed_at is not None:
        raise ConflictError(
            "season_closed",
            _("This season's results are closed: reopen the season first."),
            {"season": season.pk, "name": season.name},
        )


def require_season_in(slug: str, season_id: int) -> Season:
    """The season, which must be one of ``slug``'s league."""
    season = season_of(season_id)
    if season.league.slug != slug:
        raise NotFoundError("unknown_season", _("This league has no such season."))
    return season


def member_create(*, organizer: Organizer | None, slug: str, handle: str) -> tuple[Member, str]:
    """A human member. The claim code is returned this once; its person claims a token with it."""
    league = league_of(slug)
    require_organizer(organizer, league)
    claim, digest = new_token()
    return member_add(league=league, handle=handle, claim_hash=digest), claim


def member_add(*, league: League, handle: str, claim_hash: str) -> Member:
    """A human member of ``league`` whose claim code hashes to ``claim_hash``.

    An organizer makes it, or accepting a join request does (``joining``).
    """
    if handle.lower().startswith("bot "):
        raise ConflictError("handle_taken", _("Handles starting with 'Bot ' are the bots'."))
    try:
        with transaction.atomic():
            member = Member.objects.create(league=league, handle=handle, claim_hash=claim_hash)
            handle_taken(league.pk, handle)
    except IntegrityError as taken:
        raise ConflictError("handle_taken", _("Another member has that handle.")) from taken
    return member


def handle_taken(league_id: int, handle: str) -> None:
    """A member now holds ``handle``, so any redirect from it ends.

    That redirect may come from any member's former handle, this one's renamed back included. Called
    in the transaction that gives the handle.
    """
    FormerHandle.objects.filter(league_id=league_id, handle__iexact=handle).delete()


def member_claim(*, slug: str, claim_code: str) -> tuple[Member, str]:
    """The member token, shown this once. The claim code works once; both are stored hashed."""
    league = league_of(slug)
    with transaction.atomic():
        member = (
            Member.objects.select_for_update()
            .filter(league=league, claim_hash=hash_token(claim_code), claimed_at__isnull=True)
            .first()
        )
        if member is None:
            raise ForbiddenError("bad_claim_code", _("That claim code is unknown or already used."))
        token, digest = new_token()
        member.token_hash, member.claim_hash = digest, ""
        member.claimed_at = timezone.now()
        member.save(update_fields=["token_hash", "claim_hash", "claimed_at"])
    return member, token


def member_of_token(token: str) -> Member:
    digest = hash_token(token) if token else None
    member = Member.objects.filter(token_hash=digest, kind=MemberKind.HUMAN).first()
    if member is None:
        raise BadToken("bad_member_token", _("That member token is not known."))
    return member


def webhook_create(
    *, organizer: Organizer | None, slug: str, url: str, events: list[str]
) -> tuple[WebhookEndpoint, str]:
    """A league endpoint for ``events`` (empty: all), and its signing secret, shown once.

    The URL must name a public http(s) destination (``destinations``).
    """
    league = league_of(slug)
    require_organizer(organizer, league)
    check_webhook(url, events)
    secret = secrets.token_hex(32)
    endpoint = WebhookEndpoint.objects.create(
        league=league, url=url, secret=secret, events=sorted(set(events))
    )
    return endpoint, secret


def check_webhook(url: str | None, events: list[str]) -> None:
    """``bad_webhook_events`` for an unknown kind.

    A URL, if given, must name a public http(s) destination. ``destinations`` refuses it otherwise
    (``bad_webhook_url``, ``webhook_url_forbidden``).
    """
    unknown = sorted(set(events) - set(EVENT_KINDS))
    if unknown:
        raise ApplicationError(
            "bad_webhook_events", _("Unknown event kinds."), {"unknown": unknown}
        )
    if url is None:
        return
    try:
        check_registration(url)
    except DestinationError as refused:
        raise ApplicationError(refused.code, refused.message, {"field": "url"}) from refused


# ------------------------------------------------------------------ tournaments joining a season


def _season_options(season: Season, options: dict[str, object]) -> dict[str, object]:
    """The tournament's options: the season's where it sets them, and its policies."""
    required = {name: getattr(season, name) for name in SEASON_OPTIONS}
    try:
        chosen = check_season_options(required, options)
    except LeagueRuleError as error:
        raise _rule(error) from error
    return {
        **chosen,
        "advice_allowed": season.advice_allowed,
        "bots_allowed": season.bots_allowed,
    }


def _opening(season_id: int) -> Season:
    """The season a tournament opens in, locked and open for it.

    ``seasons.season_update`` holds the lock too. So an edit of its options waits for this
    tournament, then sees it.
    """
    locked = Season.objects.select_for_update(of=("self",)).select_related("league")
    season = locked.filter(pk=season_id).first()
    if season is None:  # deleted since it was read (``seasons.season_delete``)
        raise NotFoundError("unknown_season", _("No such season."))
    require_season_open(season)
    return season


def season_tournament_organize(
    *, organizer: Organizer | None, season_id: int, **options: object
) -> Tournament:
    """The league's organizer opens a tournament of the season. No seat is taken."""
    by = require_organizer(organizer, season_of(season_id).league)
    with transaction.atomic():
        season = _opening(season_id)
        chosen = _season_options(season, options)
        tournament = lobby.tournament_organize(organizer=by, **chosen)
        LeagueTournament.objects.create(tournament=tournament, season=season)
    return tournament


def season_tournament_host(
    *, join_code: str, host_name: str, member_token: str | None = None, **options: object
) -> lobby.SeatTicket:
    """A host opens a tournament of the season whose join code it holds.

    With a member token of that league, the host sits as that member.
    """
    found = Season.objects.filter(join_code=join_code.upper()).values_list("pk", flat=True)
    if not found:
        raise NotFoundError("unknown_join_code", _("No season has that join code."))
    with transaction.atomic():
        season = _opening(found[0])
        member = _member_for(season.league_id, member_token)
        chosen = _season_options(season, options)
        ticket = lobby.tournament_create(host_name=host_name, **chosen)
        LeagueTournament.objects.create(tournament=ticket.tournament, season=season)
        if member is not None:
            MemberSeat.objects.create(seat=ticket.seat, member=member)
    return ticket


def league_seat_join(*, code: str, name: str | None, member_token: str) -> lobby.SeatTicket:
    """Join a league tournament's lobby as the member whose token this is.

    The seat is named after its handle unless another name is given.
    """
    member = member_of_token(member_token)
    link = LeagueTournament.objects.filter(tournament__code=code.strip().upper()).first()
    if link is None:
        raise NotFoundError("not_league_tournament", _("No league tournament has that room code."))
    if link.season.league_id != member.league_id:
        raise ForbiddenError("wrong_league", _("That member token belongs to another league."))
    _require_not_seated(link.tournament_id, member)
    with transaction.atomic():
        # The member's row stays locked until the seat is committed: a removal of the member
        # waits and then sees the seat (409 member_in_use), or went first and the token is
        # unknown now; neither leaves a seat naming no member to fail at commit (a 500).
        if not Member.objects.select_for_update().filter(pk=member.pk).exists():
            raise BadToken("bad_member_token", _("That member token is not known."))
        ticket = lobby.seat_join(code=code, name=name or member.handle)
        # Checked again under the tournament's lock (held until this commits): two joins of
        # one member cannot both pass.
        _require_not_seated(link.tournament_id, member, besides=ticket.seat)
        MemberSeat.objects.create(seat=ticket.seat, member=member)
    return ticket


def _require_not_seated(tournament_id: int, member: Member, besides: Seat | None = None) -> None:
    sitting = Seat.objects.filter(tournament_id=tournament_id, member_link__member=member)
    if besides is not None:
        sitting = sitting.exclude(pk=besides.pk)
    if sitting.exists():
        raise ConflictError("member_seated", _("That member already sits in this tournament."))


def _member_for(league_id: int, token: str | None) -> Member | None:
    if not token:
        return None
    member = member_of_token(token)
    if member.league_id != league_id:
        raise ForbiddenError("wrong_league", _("That member token belongs to another league."))
    return member
