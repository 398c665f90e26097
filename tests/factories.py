"""factory_boy factories for service tests: rows as the services leave them, with defaults."""

from __future__ import annotations

import factory

from tournaments.models import Seat, SeatKind, Status, Tournament
from tournaments.rules.seeds import commitment
from tournaments.selectors.viewers import hash_token


class TournamentFactory(factory.django.DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament

    code = factory.Sequence(lambda n: f"T{n:05d}")
    status = Status.LOBBY
    seat_count = 2
    additional_sets = ["Castle", "Film Studio", "Funfair", "Haunted House", "Shipwreck"]
    seed = factory.Sequence(lambda n: 1000 + n)
    seed_nonce = "00" * 16
    commitment = factory.LazyAttribute(lambda t: commitment(t.seed, t.seed_nonce))


class SeatFactory(factory.django.DjangoModelFactory[Seat]):
    """A human seat whose token is ``token-<tournament>-<number>``."""

    class Meta:
        model = Seat

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n % 8)
    kind = SeatKind.HUMAN
    name = factory.LazyAttribute(lambda s: f"Player {s.number}")
    token_hash = factory.LazyAttribute(lambda s: hash_token(f"token-{s.tournament.pk}-{s.number}"))
    is_host = factory.LazyAttribute(lambda s: s.number == 0)


class BotFactory(SeatFactory):
    kind = SeatKind.BOT
    name = factory.LazyAttribute(lambda s: f"Bot {s.number}")
    token_hash = factory.LazyAttribute(lambda s: "")
    is_host = factory.LazyAttribute(lambda s: False)
