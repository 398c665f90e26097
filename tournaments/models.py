"""Tournaments, seats, physical cards, level piles, Deck Phase turns, trophies.

State that the rules treat as one value is stored as JSON on its owning row. Examples are a pile's
order, a seat's deck, a turn's progress. So one ``select_for_update`` locks it whole. Invariants the
database can hold are constraints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Status(models.TextChoices):
    LOBBY = "lobby", _("Waiting for players")
    DECK = "deck", _("Deck Phase")
    MATCH = "match", _("Match Phase")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class WinterMode(models.TextChoices):
    OFF = "off", _("No Winter Park")
    NORMAL = "normal", _("One Winter Park that moves")
    ALL = "all", _("Every park is a Winter Park")


class Tournament(models.Model):
    code = models.CharField(max_length=8, unique=True, verbose_name=_("code"))
    title = models.CharField(
        max_length=60,
        blank=True,
        default="",
        help_text=_('What its host or organizer calls it; empty: "Game #<id>".'),
        verbose_name=_("title"),
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.LOBBY, verbose_name=_("status")
    )
    round = models.PositiveSmallIntegerField(
        default=0, help_text=_("0 in the lobby, 8 = the Final."), verbose_name=_("round")
    )
    seat_count = models.PositiveSmallIntegerField(verbose_name=_("seat count"))
    basic_set = models.CharField(max_length=40, default="City", verbose_name=_("basic set"))
    additional_sets = models.JSONField(default=list, verbose_name=_("additional sets"))
    beach_cup = models.BooleanField(
        default=False, help_text=_("Beach Cup draft rules."), verbose_name=_("beach cup")
    )
    winter_mode = models.CharField(
        max_length=8, choices=WinterMode.choices, default="off", verbose_name=_("winter mode")
    )
    winter_index = models.PositiveSmallIntegerField(default=0, verbose_name=_("winter index"))
    robot_difficulty = models.PositiveSmallIntegerField(
        default=1, verbose_name=_("robot difficulty")
    )
    solo_challenge = models.BooleanField(default=False, verbose_name=_("solo challenge"))
    deck_deadline_seconds = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("deck deadline seconds")
    )
    answer_deadline_seconds = models.PositiveIntegerField(
        default=30, verbose_name=_("answer deadline seconds")
    )
    seed = models.BigIntegerField(
        help_text=_("The effective seed: secret until the end."), verbose_name=_("seed")
    )
    seed_nonce = models.CharField(
        max_length=32,
        blank=True,
        help_text=_("Revealed with the seed."),
        verbose_name=_("seed nonce"),
    )
    commitment = models.CharField(
        max_length=64,
        blank=True,
        help_text=_("SHA-256 of '<seed>:<nonce>', public from the start."),
        verbose_name=_("commitment"),
    )
    snapshot = models.ForeignKey(
        "cards.CardSnapshot",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The card data frozen when the tournament started."),
        verbose_name=_("snapshot"),
    )
    plan = models.JSONField(default=list, verbose_name=_("plan"))
    parks = models.JSONField(default=list, verbose_name=_("parks"))
    phase_deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("phase deadline"))
    finalists = models.JSONField(default=list, verbose_name=_("finalists"))
    winners = models.JSONField(
        default=list, help_text=_("Seat numbers; two on a shared win."), verbose_name=_("winners")
    )
    left_game = models.JSONField(
        default=list, help_text=_("Card uids removed from the game."), verbose_name=_("left game")
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    advice_allowed = models.BooleanField(
        default=True,
        help_text=_("Seats may ask the draft advisor (a league season may forbid it)."),
        verbose_name=_("advice allowed"),
    )
    bots_allowed = models.BooleanField(
        default=True,
        help_text=_("Bots may take seats (a league season may forbid it)."),
        verbose_name=_("bots allowed"),
    )
    spectator_chat = models.BooleanField(
        default=False,
        help_text=_("Spectators may join the table chat by name (the host's choice)."),
        verbose_name=_("spectator chat"),
    )
    event_seq = models.PositiveIntegerField(default=0, verbose_name=_("event seq"))
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organized_tournaments",
        help_text=_("The organizer who opened it without a seat; empty when a host seat did."),
        verbose_name=_("organizer"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    # Not a column: set on the instance ``locked_tournament`` holds, which saves ``event_seq``
    # with the version, and nudges live streams once, when its block ends (services.events).
    seq_saved_by_lock: bool = False
    # Not a column: when the log's last event is released, once read (services.events.log_tail).
    log_tail_at: datetime | None = None
    # Not a column: a change that logs nothing now (a paced match released: its events were
    # logged for their instants) still moves the version under ``locked_tournament``.
    changed_quietly: bool = False
    # Not a column: a caller that plays the next Deck Phase's bots itself, in the same block
    # (services.deck.bot_deck_phases closing a round), sets an ``Opening`` here; closing the
    # round and opening a Deck Phase then fill it in instead of queueing the bots' task
    # (rounds.open_deck_phase).
    opening: Opening | None = None
    # Not a column: the round whose last match the block released; it closes once this block
    # has committed, alone (services.matchplay.match_changes) or with the next Deck Phase's
    # bots (tournaments.tasks._play_rounds).
    round_owed: int | None = None
    # Not a column: the fields a change under ``locked_tournament`` set, written with the lock's
    # own save of the counter when its block ends: one ``UPDATE`` (services.common.save_later).
    fields_owed: frozenset[str] = frozenset()
    # Not a column: every seat's version moved in this block already, written with the seats
    # (services.desk.Tables.write): the lock need not move them for a new phase.
    seats_moved: bool = False

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        permissions = [("organize", "Can run tournaments through the API with an organizer token")]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=1, seat_count__lte=8), name="tournament_seat_count"
            ),
            models.CheckConstraint(
                condition=Q(robot_difficulty__gte=1, robot_difficulty__lte=5),
                name="tournament_robot_difficulty",
            ),
            models.CheckConstraint(condition=Q(round__lte=8), name="tournament_round"),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.code}"

    @property
    def is_final(self) -> bool:
        return self.round == 8


class SeatKind(models.TextChoices):
    HUMAN = "human", _("Human")
    BOT = "bot", _("Bot")
    ROBOT = "robot", _("The Robot")


ROBOT_NUMBER = -1


class Seat(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seats", verbose_name=_("tournament")
    )
    number = models.SmallIntegerField(
        help_text=_("0-7; the Robot is -1."), verbose_name=_("number")
    )
    kind = models.CharField(max_length=6, choices=SeatKind.choices, verbose_name=_("kind"))
    name = models.CharField(max_length=40, verbose_name=_("name"))
    token_hash = models.CharField(
        max_length=64, blank=True, db_index=True, verbose_name=_("token hash")
    )
    is_host = models.BooleanField(default=False, verbose_name=_("is host"))
    answers_live = models.BooleanField(
        default=True,
        help_text=_("Answer this seat's card questions live instead of by policy."),
        verbose_name=_("answers live"),
    )
    tokens = models.PositiveIntegerField(
        default=0, help_text=_("Public fan tokens."), verbose_name=_("tokens")
    )
    deck = models.JSONField(
        default=list, help_text=_("Card uids; its order is never shown."), verbose_name=_("deck")
    )
    lost_previous = models.BooleanField(default=False, verbose_name=_("lost previous"))
    auto_played = models.BooleanField(default=False, verbose_name=_("auto played"))
    bot_level = models.CharField(
        max_length=9,
        blank=True,
        default="",
        help_text=_("rookie, steady or champion (bots only)."),
        verbose_name=_("bot level"),
    )
    dropped = models.BooleanField(
        default=False,
        help_text=_("A person's seat played by a steady bot until its owner returns."),
        verbose_name=_("dropped"),
    )
    reclaimed_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("The round in which its owner last took the seat back from its bot."),
        verbose_name=_("reclaimed in round"),
    )
    missed_deadlines = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Deck Phase deadlines missed in a row."),
        verbose_name=_("missed deadlines"),
    )
    version = models.PositiveIntegerField(
        default=0,
        help_text=_("Moves when this seat's own situation changes (its stale check)."),
        verbose_name=_("version"),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="seat_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=-1, number__lte=7), name="seat_number_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.number})"

    @property
    def is_robot(self) -> bool:
        return self.kind == SeatKind.ROBOT


class CardCopy(models.Model):
    """One physical card of a tournament. Everywhere else its ``uid`` names it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="copies", verbose_name=_("tournament")
    )
    uid = models.PositiveIntegerField(verbose_name=_("uid"))
    card = models.ForeignKey(
        "cards.Card", on_delete=models.PROTECT, related_name="+", verbose_name=_("card")
    )

    class Meta:
        verbose_name = _("card copy")
        verbose_name_plural = _("card copies")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "uid"], name="copy_uid_unique"),
        ]

    def __str__(self) -> str:
        return f"Card {self.uid} of tournament {self.tournament_id}"


class Pile(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="piles", verbose_name=_("tournament")
    )
    level = models.CharField(max_length=1, verbose_name=_("level"))
    cards = models.JSONField(default=list, help_text=_("Top first."), verbose_name=_("cards"))
    discard = models.JSONField(default=list, verbose_name=_("discard"))

    class Meta:
        verbose_name = _("level pile")
        verbose_name_plural = _("level piles")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "level"], name="pile_level_unique"),
        ]

    def __str__(self) -> str:
        return f"Pile {self.level} of tournament {self.tournament_id}"


class DraftTurn(models.Model):
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="turns", verbose_name=_("seat")
    )
    round = models.PositiveSmallIntegerField(verbose_name=_("round"))
    state = models.JSONField(default=dict, verbose_name=_("state"))
    finished = models.BooleanField(default=False, verbose_name=_("finished"))
    auto_played = models.BooleanField(default=False, verbose_name=_("auto played"))
    actions = models.PositiveIntegerField(
        default=0, help_text=_("Actions taken; seeds the draws."), verbose_name=_("actions")
    )

    class Meta:
        verbose_name = _("Deck Phase turn")
        verbose_name_plural = _("Deck Phase turns")
        constraints = [
            models.UniqueConstraint(fields=["seat", "round"], name="turn_round_unique"),
        ]

    def __str__(self) -> str:
        return f"Deck Phase of seat {self.seat_id}, round {self.round}"


class Trophy(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="trophies", verbose_name=_("tournament")
    )
    park = models.CharField(max_length=8, verbose_name=_("park"))
    round = models.PositiveSmallIntegerField(verbose_name=_("round"))
    fans = models.PositiveSmallIntegerField(verbose_name=_("fans"))
    winner = models.ForeignKey(
        Seat,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="trophies",
        verbose_name=_("winner"),
    )
    to_box = models.BooleanField(
        default=False, help_text=_("Won by the Robot at 3-7 seats."), verbose_name=_("to box")
    )

    class Meta:
        verbose_name = _("trophy")
        verbose_name_plural = _("trophies")
        ordering = ["round", "park"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "park", "round"], name="trophy_park_round_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Trophy {self.park} round {self.round}"


LOG_KINDS = (
    *("seat_joined", "seat_left", "seat_dropped", "seat_reclaimed", "seat_settings"),
    *("tournament_started", "tournament_cancelled", "deck_phase_opened", "seat_progress"),
    *("match_phase_opened", "match_question", "match_waiting", "match_event", "match_finished"),
    *("match_failed", "match_retried", "round_finished", "seed_revealed", "tournament_finished"),
    *("chat", "chat_mute", "chat_settings", "tournament_renamed"),
)
"""Every kind of event the tournament's log holds (docs/protocol.md §13): ``publish`` takes no
other, and GraphQL's and OpenAPI's ``TournamentEventKind`` are made from it."""


class TournamentEvent(models.Model):
    """The tournament's append-only event log: the source of truth for live streams.

    ``audience`` is ``None`` for a public fact. Else it is the only seat that may see it.
    Projections never send an event to anyone else.
    """

    # No index and no foreign-key trigger of its own, as ``MatchEvent.match``: the unique
    # (tournament, seq) index serves every lookup, and only the tournament's lock holder writes.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
        verbose_name=_("tournament"),
    )
    seq = models.PositiveIntegerField(verbose_name=_("seq"))
    kind = models.CharField(max_length=32, verbose_name=_("kind"))
    payload = models.JSONField(default=dict, verbose_name=_("payload"))
    audience = models.SmallIntegerField(null=True, blank=True, verbose_name=_("audience"))
    visible_at = models.DateTimeField(verbose_name=_("visible at"))

    class Meta:
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tevent_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} event {self.seq} ({self.kind})"


class ChatGuest(models.Model):
    """A spectator who joined a table chat by name.

    Its token is stored hashed. Its rate limit and the host's mute hold on to that token. It sees
    what any spectator sees.
    """

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="chat_guests",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(
        help_text=_("1, 2, ... in the order they joined."), verbose_name=_("number")
    )
    name = models.CharField(max_length=24, verbose_name=_("name"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("chat spectator")
        verbose_name_plural = _("chat spectators")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="chat_guest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (spectator {self.number})"


class OrganizerToken(models.Model):
    """An organizer's API token (``Authorization: Token …``), stored only hashed.

    ``manage.py create_organizer NAME`` shows a new one once. Making another replaces it. The token
    acts only while its user is active and holds the ``tournaments.organize`` permission.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="organizer_token",
        verbose_name=_("user"),
    )
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("organizer token")
        verbose_name_plural = _("organizer tokens")

    def __str__(self) -> str:
        return f"Organizer token of user {self.user_id}"


class TournamentEventArchive(models.Model):
    """A finished tournament's event log after ``manage.py archive_events``.

    It is one gzip-compressed JSON list, in seq order. Each entry is
    ``[seq, kind, audience, visible_at, payload]``. The log's readers (streams, REST, GraphQL)
    fall back to it when the rows are gone (``tournaments.selectors.archive``).
    """

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="event_archive",
        verbose_name=_("tournament"),
    )
    events = models.BinaryField(verbose_name=_("events"))
    count = models.PositiveIntegerField(verbose_name=_("count"))
    archived_at = models.DateTimeField(auto_now_add=True, verbose_name=_("archived at"))

    class Meta:
        verbose_name = _("archived tournament events")
        verbose_name_plural = _("archived tournament events")

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} event log, archived ({self.count})"


class Player(models.TextChoices):
    """Who played a card, for its statistics: a person, a bot of a strength, or the Robot."""

    HUMAN = "human", _("Human")
    ROOKIE = "rookie", _("Bot (rookie)")
    STEADY = "steady", _("Bot (steady)")
    CHAMPION = "champion", _("Bot (champion)")
    ROBOT = "robot", _("The Robot")


class CardStat(models.Model):
    """Figures from stored play of one card design, or of a whole set.

    ``key`` is "Set/Name" for a design; for a set, the set's name. The figures are pre-summed the
    two ways reads need:

    - per set combination, over every kind of player (``player`` blank);
    - per kind of player, over every combination (``sets`` blank).

    Recorded matches and finished Deck Phases keep them current. Recordings append ``CardStatDelta``
    rows. A task folds them in (``tournaments.services.cardstats``). ``manage.py
    card_stats_recount`` rebuilds them.
    """

    key = models.CharField(
        max_length=124, help_text=_('"Set/Name", or a set\'s name.'), verbose_name=_("key")
    )
    set_name = models.CharField(max_length=60, verbose_name=_("set name"))
    sets = models.CharField(
        max_length=400,
        blank=True,
        help_text=_("The sets in play, sorted, joined by +; blank: all."),
        verbose_name=_("sets"),
    )
    player = models.CharField(
        max_length=10,
        choices=Player.choices,
        blank=True,
        help_text=_("Blank: every kind."),
        verbose_name=_("player"),
    )
    offered = models.PositiveIntegerField(
        default=0, help_text=_("Copies shown in Deck Phases."), verbose_name=_("offered")
    )
    picked = models.PositiveIntegerField(
        default=0, help_text=_("Copies kept in Deck Phases."), verbose_name=_("picked")
    )
    decks = models.PositiveIntegerField(
        default=0, help_text=_("Match sides whose deck held it."), verbose_name=_("decks")
    )
    deck_wins = models.PositiveIntegerField(
        default=0, help_text=_("Of those, the sides that won."), verbose_name=_("deck wins")
    )
    reveals = models.PositiveIntegerField(
        default=0, help_text=_("Copies revealed in matches."), verbose_name=_("reveals")
    )
    power_total = models.BigIntegerField(
        default=0, help_text=_("Power of its attacks, summed."), verbose_name=_("power total")
    )
    power_count = models.PositiveIntegerField(
        default=0, help_text=_("Its attacks."), verbose_name=_("power count")
    )
    effects = models.PositiveIntegerField(
        default=0, help_text=_("Times its effect resolved."), verbose_name=_("effects")
    )

    class Meta:
        verbose_name = _("card statistic")
        verbose_name_plural = _("card statistics")
        # A design's or a set's rows are read by the unique index's first column.
        constraints = [
            models.UniqueConstraint(fields=["key", "sets", "player"], name="cardstat_unique"),
        ]
        indexes = [models.Index(fields=["set_name"], name="cardstat_set")]  # the admin's filter

    def __str__(self) -> str:
        return f"{self.key} ({self.player or 'all players'}, {self.sets or 'all sets'})"


class CardStatDelta(models.Model):
    """Counts recorded but not yet in ``CardStat``.

    A recording transaction appends its rows here. No other recording touches them. So none waits
    for another's commit. The ``card_stats_fold`` task adds them to the stored rows, then deletes
    them.
    """

    rows = models.TextField(
        help_text=_("JSON: the rows to add, as card_stats_write takes them."),
        verbose_name=_("rows"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("card statistic change")
        verbose_name_plural = _("card statistic changes")

    def __str__(self) -> str:
        return f"Card stat delta {self.pk}"


class BalanceStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class CardBalance(models.Model):
    """A balance simulation of one card design (``tournaments.rules.balance``).

    Paired bot matches with and without it. Shown next to the card's figures from stored play.
    """

    key = models.CharField(
        max_length=124, db_index=True, help_text=_('"Set/Name".'), verbose_name=_("key")
    )
    matches = models.PositiveIntegerField(
        help_text=_("Pairs asked for."), verbose_name=_("matches")
    )
    seed = models.BigIntegerField(default=0, verbose_name=_("seed"))
    status = models.CharField(
        max_length=8,
        choices=BalanceStatus.choices,
        default=BalanceStatus.QUEUED,
        verbose_name=_("status"),
    )
    done = models.PositiveIntegerField(
        default=0, help_text=_("Pairs played so far (progress)."), verbose_name=_("done")
    )
    wins_with = models.PositiveIntegerField(default=0, verbose_name=_("wins with"))
    wins_without = models.PositiveIntegerField(default=0, verbose_name=_("wins without"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("card balance simulation")
        verbose_name_plural = _("card balance simulations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Balance of {self.key} ({self.done}/{self.matches})"


@dataclass
class Opening:
    """What a round's close and its new Deck Phase read and wrote.

    It is made in a block whose caller plays the new phase's bots there (``Tournament.opening``).
    The caller reads none of it again.
    """

    bots: list[int] = field(default_factory=list)
    """The ids of the seats whose bots (or stand-ins) play the new phase."""
    seats: list[Seat] | None = None
    """Every seat, in seat order, as the close read them under the lock."""
    trophies: list[Trophy] | None = None
    """The trophies won, as the close read them (round and park order)."""
    turns: list[DraftTurn] | None = None
    """Every turn of the new phase, not yet written: the caller writes them before its block
    ends (``services.desk.Tables.write``)."""
