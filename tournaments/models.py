"""Tournaments, seats, physical cards, level piles, Deck Phase turns and trophies.

State that the rules treat as one value (a pile's order, a seat's deck, a turn's progress) is
stored as JSON on the row that owns it, so one ``select_for_update`` locks it whole; invariants
the database can hold are constraints.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Status(models.TextChoices):
    LOBBY = "lobby", "Waiting for players"
    DECK = "deck", "Deck Phase"
    MATCH = "match", "Match Phase"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class WinterMode(models.TextChoices):
    OFF = "off", "No Winter Park"
    NORMAL = "normal", "One Winter Park that moves"
    ALL = "all", "Every park is a Winter Park"


class Tournament(models.Model):
    code = models.CharField(max_length=8, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    round = models.PositiveSmallIntegerField(default=0, help_text="0 in the lobby, 8 = the Final.")
    seat_count = models.PositiveSmallIntegerField()
    basic_set = models.CharField(max_length=40, default="City")
    additional_sets = models.JSONField(default=list)
    beach_cup = models.BooleanField(default=False, help_text="Beach Cup draft rules.")
    winter_mode = models.CharField(max_length=8, choices=WinterMode.choices, default="off")
    winter_index = models.PositiveSmallIntegerField(default=0)
    robot_difficulty = models.PositiveSmallIntegerField(default=1)
    solo_challenge = models.BooleanField(default=False)
    deck_deadline_seconds = models.PositiveIntegerField(null=True, blank=True)
    answer_deadline_seconds = models.PositiveIntegerField(default=30)
    seed = models.BigIntegerField(help_text="The effective seed: secret until the end.")
    seed_nonce = models.CharField(max_length=32, blank=True, help_text="Revealed with the seed.")
    commitment = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of '<seed>:<nonce>', public from the start."
    )
    snapshot = models.ForeignKey(
        "cards.CardSnapshot",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The card data frozen when the tournament started.",
    )
    plan = models.JSONField(default=list)
    parks = models.JSONField(default=list)
    phase_deadline = models.DateTimeField(null=True, blank=True)
    finalists = models.JSONField(default=list)
    winners = models.JSONField(default=list, help_text="Seat numbers; two on a shared win.")
    left_game = models.JSONField(default=list, help_text="Card uids removed from the game.")
    version = models.PositiveIntegerField(default=0)
    advice_allowed = models.BooleanField(
        default=True, help_text="Seats may ask the draft advisor (a league season may forbid it)."
    )
    bots_allowed = models.BooleanField(
        default=True, help_text="Bots may take seats (a league season may forbid it)."
    )
    spectator_chat = models.BooleanField(
        default=False, help_text="Spectators may join the table chat by name (the host's choice)."
    )
    event_seq = models.PositiveIntegerField(default=0)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organized_tournaments",
        help_text="The organizer who opened it without a seat; empty when a host seat did.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Not a column: set on the instance ``locked_tournament`` holds, which saves ``event_seq``
    # with the version, and nudges live streams once, when its block ends (services.events).
    seq_saved_by_lock: bool = False
    # Not a column: when the log's last event is released, once read (services.events.log_tail).
    log_tail_at: datetime | None = None
    # Not a column: a change that logs nothing now (a paced match released: its events were
    # logged for their instants) still moves the version under ``locked_tournament``.
    changed_quietly: bool = False
    # Not a column: a caller that plays the next Deck Phase's bots itself, in the same block
    # (services.deck.bot_deck_phases closing a round), sets a list here; opening a Deck Phase
    # then adds their seat ids to it instead of queueing their task (rounds.open_deck_phase).
    bots_to_play: list[int] | None = None
    # Not a column: the round whose last match the block released; it closes once this block
    # has committed, alone (services.matchplay.match_changes) or with the next Deck Phase's
    # bots (tournaments.tasks._play_rounds).
    round_owed: int | None = None

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
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"
    ROBOT = "robot", "The Robot"


ROBOT_NUMBER = -1


class Seat(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seats")
    number = models.SmallIntegerField(help_text="0-7; the Robot is -1.")
    kind = models.CharField(max_length=6, choices=SeatKind.choices)
    name = models.CharField(max_length=40)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    is_host = models.BooleanField(default=False)
    answers_live = models.BooleanField(
        default=True, help_text="Answer this seat's card questions live instead of by policy."
    )
    tokens = models.PositiveIntegerField(default=0, help_text="Public fan tokens.")
    deck = models.JSONField(default=list, help_text="Card uids; its order is never shown.")
    lost_previous = models.BooleanField(default=False)
    auto_played = models.BooleanField(default=False)
    bot_level = models.CharField(
        max_length=9, blank=True, default="", help_text="rookie, steady or champion (bots only)."
    )
    dropped = models.BooleanField(
        default=False, help_text="A person's seat played by a steady bot until its owner returns."
    )
    missed_deadlines = models.PositiveSmallIntegerField(
        default=0, help_text="Deck Phase deadlines missed in a row."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Moves when this seat's own situation changes (its stale check)."
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
    """One physical card of a tournament, named by its ``uid`` everywhere else."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="copies")
    uid = models.PositiveIntegerField()
    card = models.ForeignKey("cards.Card", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("card copy")
        verbose_name_plural = _("card copies")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "uid"], name="copy_uid_unique"),
        ]

    def __str__(self) -> str:
        return f"Card {self.uid} of tournament {self.tournament_id}"


class Pile(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="piles")
    level = models.CharField(max_length=1)
    cards = models.JSONField(default=list, help_text="Top first.")
    discard = models.JSONField(default=list)

    class Meta:
        verbose_name = _("level pile")
        verbose_name_plural = _("level piles")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "level"], name="pile_level_unique"),
        ]

    def __str__(self) -> str:
        return f"Pile {self.level} of tournament {self.tournament_id}"


class DraftTurn(models.Model):
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="turns")
    round = models.PositiveSmallIntegerField()
    state = models.JSONField(default=dict)
    finished = models.BooleanField(default=False)
    auto_played = models.BooleanField(default=False)
    actions = models.PositiveIntegerField(default=0, help_text="Actions taken; seeds the draws.")

    class Meta:
        verbose_name = _("Deck Phase turn")
        verbose_name_plural = _("Deck Phase turns")
        constraints = [
            models.UniqueConstraint(fields=["seat", "round"], name="turn_round_unique"),
        ]

    def __str__(self) -> str:
        return f"Deck Phase of seat {self.seat_id}, round {self.round}"


class Trophy(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="trophies")
    park = models.CharField(max_length=8)
    round = models.PositiveSmallIntegerField()
    fans = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="trophies"
    )
    to_box = models.BooleanField(default=False, help_text="Won by the Robot at 3-7 seats.")

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
    *("chat", "chat_mute", "chat_settings"),
)
"""Every kind of event the tournament's log holds (docs/protocol.md §13): ``publish`` takes no
other, and GraphQL's and OpenAPI's ``TournamentEventKind`` are made from it."""


class TournamentEvent(models.Model):
    """The tournament's append-only event log, the source of truth for live streams.

    ``audience`` is ``None`` for a public fact, or the seat number of the only seat that may see
    it; projections never send an event to anyone else.
    """

    # No index and no foreign-key trigger of its own, as ``MatchEvent.match``: the unique
    # (tournament, seq) index serves every lookup, and only the tournament's lock holder writes.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
    )
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    audience = models.SmallIntegerField(null=True, blank=True)
    visible_at = models.DateTimeField()

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
    """A spectator who joined a tournament's table chat by name: its token (stored hashed) is
    what its rate limit and the host's mute hold on to. It sees what any spectator sees."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat_guests")
    number = models.PositiveSmallIntegerField(help_text="1, 2, ... in the order they joined.")
    name = models.CharField(max_length=24)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat spectator")
        verbose_name_plural = _("chat spectators")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="chat_guest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (spectator {self.number})"


class OrganizerToken(models.Model):
    """An organizer's API token (``Authorization: Token …``), stored only as its hash.

    ``manage.py create_organizer NAME`` shows a new one once; making another replaces it. The
    token acts only while its user is active and holds the ``tournaments.organize`` permission.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organizer_token"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("organizer token")
        verbose_name_plural = _("organizer tokens")

    def __str__(self) -> str:
        return f"Organizer token of user {self.user_id}"


class TournamentEventArchive(models.Model):
    """A finished tournament's event log after ``manage.py archive_events``: one gzip-compressed
    JSON list of ``[seq, kind, audience, visible_at, payload]``, in seq order. The log's readers
    (streams, REST, GraphQL) fall back to it when the rows are gone
    (``tournaments.selectors.archive``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="event_archive"
    )
    events = models.BinaryField()
    count = models.PositiveIntegerField()
    archived_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("archived tournament events")
        verbose_name_plural = _("archived tournament events")

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} event log, archived ({self.count})"


class Player(models.TextChoices):
    """Who played a card, for its statistics: a person, a bot of a strength, or the Robot."""

    HUMAN = "human", "Human"
    ROOKIE = "rookie", "Bot (rookie)"
    STEADY = "steady", "Bot (steady)"
    CHAMPION = "champion", "Bot (champion)"
    ROBOT = "robot", "The Robot"


class CardStat(models.Model):
    """Figures from stored play of one card design (``key`` "Set/Name") or of a whole set
    (``key`` the set's name), pre-summed the two ways they are read: per set combination over
    every kind of player (``player`` blank), and per kind of player over every combination
    (``sets`` blank). Kept current as matches are recorded and Deck Phases finish (appended as
    ``CardStatDelta`` rows, folded in by a task: ``tournaments.services.cardstats``);
    ``manage.py card_stats_recount`` rebuilds them."""

    key = models.CharField(max_length=124, help_text='"Set/Name", or a set\'s name.')
    set_name = models.CharField(max_length=60)
    sets = models.CharField(
        max_length=400, blank=True, help_text="The sets in play, sorted, joined by +; blank: all."
    )
    player = models.CharField(
        max_length=10, choices=Player.choices, blank=True, help_text="Blank: every kind."
    )
    offered = models.PositiveIntegerField(default=0, help_text="Copies shown in Deck Phases.")
    picked = models.PositiveIntegerField(default=0, help_text="Copies kept in Deck Phases.")
    decks = models.PositiveIntegerField(default=0, help_text="Match sides whose deck held it.")
    deck_wins = models.PositiveIntegerField(default=0, help_text="Of those, the sides that won.")
    reveals = models.PositiveIntegerField(default=0, help_text="Copies revealed in matches.")
    power_total = models.BigIntegerField(default=0, help_text="Power of its attacks, summed.")
    power_count = models.PositiveIntegerField(default=0, help_text="Its attacks.")
    effects = models.PositiveIntegerField(default=0, help_text="Times its effect resolved.")

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
    """Counts recorded but not yet in ``CardStat``: a recording transaction appends its rows
    here (no row another recording touches, so no wait for another's commit), and the
    ``card_stats_fold`` task adds them to the stored rows and deletes them."""

    rows = models.TextField(help_text="JSON: the rows to add, as card_stats_write takes them.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("card statistic change")
        verbose_name_plural = _("card statistic changes")

    def __str__(self) -> str:
        return f"Card stat delta {self.pk}"


class BalanceStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class CardBalance(models.Model):
    """A balance simulation of one card design (``tournaments.rules.balance``): paired bot
    matches with and without it. Shown next to the card's figures from stored play."""

    key = models.CharField(max_length=124, db_index=True, help_text='"Set/Name".')
    matches = models.PositiveIntegerField(help_text="Pairs asked for.")
    seed = models.BigIntegerField(default=0)
    status = models.CharField(
        max_length=8, choices=BalanceStatus.choices, default=BalanceStatus.QUEUED
    )
    done = models.PositiveIntegerField(default=0, help_text="Pairs played so far (progress).")
    wins_with = models.PositiveIntegerField(default=0)
    wins_without = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("card balance simulation")
        verbose_name_plural = _("card balance simulations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Balance of {self.key} ({self.done}/{self.matches})"
