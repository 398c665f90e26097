"""The lobby: create a tournament, join it by room code, add bots, leave, kick, cancel."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from cards.selectors import additional_set_problems
from infra.errors import ConflictError, ForbiddenError, NotFoundError
from tournaments.models import Seat, SeatKind, Status, Tournament
from tournaments.rules.bots import DEFAULT_LEVEL, check_level
from tournaments.rules.options import check_options, default_sets
from tournaments.rules.seeds import commitment, effective_seed, stream
from tournaments.rules.titles import check_title
from tournaments.selectors.viewers import require_seat
from tournaments.services.common import locked_tournament, new_token, rule_errors
from tournaments.services.deck import play_dropped_seat
from tournaments.services.events import publish, publish_seed


@dataclass(frozen=True, slots=True)
class Staff:
    """A staff user acting in the admin. May do what the host may (cancel), with a reason."""

    user_id: int


if TYPE_CHECKING:
    from tournaments.selectors.viewers import Organizer

    Actor = Seat | Organizer | Staff | None

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
BOT_NAMES = ("Ada", "Brick", "Cog", "Dot", "Echo", "Flux", "Gizmo", "Hex")


@dataclass(frozen=True, slots=True)
class SeatTicket:
    """A seat and its token. The token is shown this once. Only its hash is stored."""

    tournament: Tournament
    seat: Seat
    token: str


def _room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@rule_errors
def tournament_create(*, host_name: str, **options: Any) -> SeatTicket:
    """Open a lobby with the host in seat 0. The options are ``_open``'s."""
    tournament = _open(organizer_id=None, **options)
    token, digest = new_token()
    seat = Seat.objects.create(
        tournament=tournament,
        number=0,
        kind=SeatKind.HUMAN,
        name=host_name,
        token_hash=digest,
        is_host=True,
    )
    return SeatTicket(tournament, seat, token)


@rule_errors
def tournament_organize(*, organizer: Organizer, **options: Any) -> Tournament:
    """An organizer opens a lobby and takes no seat. Every seat is open."""
    return _open(organizer_id=organizer.user_id, **options)


def _open(
    *,
    organizer_id: int | None,
    seat_count: int,
    basic_set: str = "City",
    additional_sets: Sequence[str] | None = None,
    box: str = "base",
    beach_cup: bool = False,
    winter_mode: str = "off",
    robot_difficulty: int = 1,
    solo_challenge: bool = False,
    deck_deadline_seconds: int | None = None,
    answer_deadline_seconds: int = 30,
    seed: int | None = None,
    advice_allowed: bool = True,
    bots_allowed: bool = True,
    spectator_chat: bool = False,
    title: str = "",
) -> Tournament:
    """A new lobby with no seat taken. ``seed`` is only mixed into the server's secret.

    ``advice_allowed`` and ``bots_allowed`` are the policies a league season imposes.
    """
    title = check_title(title)
    seed = _seed(seed)
    nonce = secrets.token_hex(16)
    problems = additional_set_problems()
    if additional_sets is None:
        additional_sets = default_sets(stream(seed, "sets"), problems, box)
    options = check_options(
        seat_count=seat_count,
        basic_set=basic_set,
        additional_sets=additional_sets,
        beach_cup=beach_cup,
        winter_mode=winter_mode,
        robot_difficulty=robot_difficulty,
        solo_challenge=solo_challenge,
        set_problems=problems,
    )
    for _attempt in range(10):
        try:
            with transaction.atomic():
                tournament = Tournament.objects.create(
                    code=_room_code(),
                    seat_count=options.seat_count,
                    basic_set=options.basic_set,
                    additional_sets=list(options.additional_sets),
                    beach_cup=options.beach_cup,
                    winter_mode=options.winter_mode,
                    robot_difficulty=options.robot_difficulty,
                    solo_challenge=options.solo_challenge,
                    deck_deadline_seconds=deck_deadline_seconds,
                    answer_deadline_seconds=answer_deadline_seconds,
                    seed=seed,
                    seed_nonce=nonce,
                    commitment=commitment(seed, nonce),
                    organizer_id=organizer_id,
                    advice_allowed=advice_allowed,
                    bots_allowed=bots_allowed,
                    spectator_chat=spectator_chat,
                    title=title,
                )
                break
        except IntegrityError:  # the room code was taken: draw another
            continue
    else:
        raise ConflictError("no_room_code", _("Could not find a free room code; try again."))
    return tournament


def _seed(host_seed: int | None) -> int:
    if settings.TRUST_HOST_SEED and host_seed is not None:
        return host_seed
    return effective_seed(secrets.token_bytes(32), host_seed)


def free_numbers(tournament: Tournament) -> list[int]:
    taken = set(tournament.seats.values_list("number", flat=True))
    return [n for n in range(tournament.seat_count) if n not in taken]


def require_lobby(tournament: Tournament) -> None:
    if tournament.status != Status.LOBBY:
        raise ConflictError("not_in_lobby", _("The tournament has already started."))


def seat_join(*, code: str, name: str) -> SeatTicket:
    """Take the lowest open seat of the lobby with room ``code``."""
    found = (
        Tournament.objects.filter(code=code.strip().upper()).values_list("pk", flat=True).first()
    )
    if found is None:
        raise NotFoundError("unknown_code", _("No tournament has that room code."))
    with locked_tournament(found) as tournament:
        require_lobby(tournament)
        if tournament.seats.filter(name__iexact=name).exists():
            raise ConflictError("name_taken", _("Another seat already has that name."))
        free = free_numbers(tournament)
        if not free:
            raise ConflictError("tournament_full", _("Every seat is taken."))
        token, digest = new_token()
        seat = Seat.objects.create(
            tournament=tournament,
            number=free[0],
            kind=SeatKind.HUMAN,
            name=name,
            token_hash=digest,
        )
        publish(tournament, "seat_joined", {"seat": seat.number, "name": name, "kind": "human"})
    return SeatTicket(tournament, seat, token)


@rule_errors
def seat_add_bots(
    *, tournament_id: int, seat: Actor, count: int, level: str = DEFAULT_LEVEL
) -> list[Seat]:
    """The host fills ``count`` open seats with bots of ``level``: rookie, steady or champion."""
    check_level(level)
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        require_lobby(tournament)
        if not tournament.bots_allowed:
            raise ConflictError(
                "bots_not_allowed", _("This tournament's league season has no bots.")
            )
        free = free_numbers(tournament)
        if count < 1 or count > len(free):
            raise ConflictError(
                "bad_bot_count",
                _("Add between 1 and %(free)s bots.") % {"free": len(free)},
                {"free": len(free)},
            )
        bots = [
            Seat.objects.create(
                tournament=tournament,
                number=n,
                kind=SeatKind.BOT,
                name=f"Bot {BOT_NAMES[n]}",
                bot_level=level,
            )
            for n in free[:count]
        ]
        for bot in bots:
            publish(
                tournament,
                "seat_joined",
                {"seat": bot.number, "name": bot.name, "kind": "bot", "bot_level": level},
            )
    return bots


def seat_replace_by_bot(*, tournament_id: int, seat: Actor, number: int, level: str) -> Seat:
    """The host gives the person's lobby seat ``number`` to a bot of ``level``.

    Staff may too, for a league's scheduled start. The person leaves and its token stops working.
    The bot sits.
    """
    check_level(level)
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        require_lobby(tournament)
        tournament.seats.filter(number=number, kind=SeatKind.HUMAN).delete()
        publish(tournament, "seat_left", {"seat": number, "reason": "no_show"})
        bot = Seat.objects.create(
            tournament=tournament,
            number=number,
            kind=SeatKind.BOT,
            name=f"Bot {BOT_NAMES[number]}",
            bot_level=level,
        )
        joined = {"seat": number, "name": bot.name, "kind": "bot", "bot_level": level}
        publish(tournament, "seat_joined", joined)
    return bot


# Who else hosts a tournament: each check takes an organizer's user id and
# the tournament (the leagues register theirs: a league's organizers host its tournaments).
CO_HOSTS: list[Callable[[int, Tournament], bool]] = []


def require_host(seat: Actor, tournament: Tournament) -> None:
    """The host seat, the organizer who opened the tournament, a co-host, or staff."""
    if isinstance(seat, Staff):
        return
    if seat is not None and not isinstance(seat, Seat):  # an organizer
        user_id = seat.user_id
        if tournament.organizer_id != user_id and not co_hosts(user_id, tournament):
            raise ForbiddenError("host_only", _("Only this tournament's organizer may do this."))
        return
    if seat is None or seat.tournament_id != tournament.pk or not seat.is_host:
        raise ForbiddenError("host_only", _("Only the host may do this."))


def co_hosts(user_id: int, tournament: Tournament) -> bool:
    """Whether a registered check makes the organizer ``user_id`` a host of ``tournament``."""
    return any(check(user_id, tournament) for check in CO_HOSTS)


@rule_errors
def tournament_rename(*, tournament_id: int, seat: Actor, title: str) -> None:
    """The host or organizer names the tournament anew, at any time. ``""``: unnamed.

    A ``tournament_renamed`` event tells everyone. The same title changes nothing.
    """
    title = check_title(title)
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        if tournament.title != title:
            tournament.title = title
            tournament.save(update_fields=["title"])
            publish(tournament, "tournament_renamed", {"title": title})


def seat_settings(*, tournament_id: int, seat: Seat | None, answers_live: bool) -> Seat:
    """A human seat chooses whether it answers its cards' questions live.

    Refused once the tournament has ended. A change is a private event of the seat's. So the version
    moves as with any change. Setting the value it already has changes nothing.
    """
    with locked_tournament(tournament_id) as tournament:
        seat = require_seat(seat, tournament)
        if seat.kind != SeatKind.HUMAN:
            raise ForbiddenError("not_your_seat", _("Only a human seat has this setting."))
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ConflictError("wrong_phase", _("The tournament has ended."))
        seat.refresh_from_db(fields=["answers_live"])
        if seat.answers_live != answers_live:
            seat.answers_live = answers_live
            seat.save(update_fields=["answers_live"])
            publish(
                tournament,
                "seat_settings",
                {"seat": seat.number, "answers_live": answers_live},
                audience=seat.number,
            )
    return seat


def seat_leave(*, tournament_id: int, seat: Seat | None) -> None:
    """A seat leaves the lobby, and its token stops working.

    The host cannot leave: it cancels instead. A host who stops playing is dropped after two missed
    deadlines, like anyone.

    In a running tournament a person's seat is not emptied. A steady bot plays it from then on
    (``seat_dropped``). Its owner takes it back with the same token (``seat_reclaim``).
    """
    with locked_tournament(tournament_id) as tournament:
        seat = require_seat(seat, tournament)
        if seat.is_host:  # the host's seat keeps the tournament's controls: it cancels instead
            raise ConflictError(
                "host_cannot_leave", _("The host cannot leave its tournament: cancel it instead.")
            )
        if tournament.status in (Status.DECK, Status.MATCH):
            _drop(tournament, seat)
            return
        require_lobby(tournament)
        number = seat.number
        Seat.objects.filter(pk=seat.pk).delete()
        publish(tournament, "seat_left", {"seat": number, "reason": "left"})


def _drop(tournament: Tournament, seat: Seat) -> None:
    seat.refresh_from_db()
    if seat.kind != SeatKind.HUMAN:
        raise ForbiddenError("not_your_seat", _("Only a person's seat can be left to a bot."))
    if seat.dropped:
        raise ConflictError("already_dropped", _("A bot already plays this seat."))
    seat.dropped = True
    seat.version += 1
    seat.save(update_fields=["dropped", "version"])
    publish(tournament, "seat_dropped", {"seat": seat.number, "reason": "left"})
    play_dropped_seat(tournament, seat)


def seat_reclaim(*, tournament_id: int, seat: Seat | None) -> Seat:
    """The owner of a dropped seat takes it back. Its token never stopped working."""
    with locked_tournament(tournament_id) as tournament:
        seat = require_seat(seat, tournament)
        seat.refresh_from_db()
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ConflictError("wrong_phase", _("The tournament has ended."))
        if not seat.dropped:
            raise ConflictError("not_dropped", _("You are playing this seat yourself."))
        seat.dropped = False
        seat.missed_deadlines = 0
        seat.reclaimed_round = tournament.round  # a league credits who played the last round
        seat.version += 1
        seat.save(update_fields=["dropped", "missed_deadlines", "reclaimed_round", "version"])
        publish(tournament, "seat_reclaimed", {"seat": seat.number})
    return seat


def seat_kick(*, tournament_id: int, seat: Actor, number: int) -> None:
    """The host removes seat ``number``, a player or a bot, from the lobby."""
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        require_lobby(tournament)
        target = tournament.seats.filter(number=number).first()
        if target is None:
            raise NotFoundError("no_such_seat", _("No seat has that number."), {"seat": number})
        if target.is_host:
            raise ConflictError(
                "cannot_kick_host", _("The host cannot kick itself: cancel instead.")
            )
        target.delete()
        publish(tournament, "seat_left", {"seat": number, "reason": "kicked"})


def tournament_cancel(*, tournament_id: int, seat: Actor, reason: str | None = None) -> None:
    """The host cancels a lobby or a running tournament. Nothing acts on it afterwards.

    ``reason`` goes to everyone with the event. Staff in the admin give one; a host's is None.

    Its clock stops: no deadline. Deck Phase tasks, matches still to play, answers and releases all
    find a tournament no longer in its phase. They leave it alone.
    """
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ConflictError("already_over", _("The tournament has already ended."))
        tournament.status = Status.CANCELLED
        tournament.phase_deadline = None
        tournament.save(update_fields=["status", "phase_deadline"])
        publish_seed(tournament)  # no one plays on: a new start cannot hide what this one dealt
        publish(tournament, "tournament_cancelled", {"round": tournament.round, "reason": reason})
