"""Starting a tournament: cards, decks, piles, the Robot, the plan and the trophy stacks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from cards.models import Card
from cards.snapshots import snapshot_take
from config.errors import ConflictError
from tournaments.models import CardCopy, Pile, Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules.data import parks_for
from tournaments.rules.options import BASIC_SETS, STARTER_SET
from tournaments.rules.piles import LEVELS
from tournaments.rules.plan import ROBOT, compute_plan, places, plan_to_data
from tournaments.rules.robot import robot_deck
from tournaments.rules.seeds import stream
from tournaments.rules.trophies import deal_trophies
from tournaments.selectors.cards import card_key
from tournaments.services.bot_talk import bots_say
from tournaments.services.common import locked_tournament
from tournaments.services.events import publish
from tournaments.services.lobby import free_numbers, require_host, require_lobby
from tournaments.services.rounds import open_deck_phase

if TYPE_CHECKING:
    from tournaments.services.lobby import Actor


class _Minter:
    """Hands out the physical cards of one tournament, numbered 1 to N in a random order.

    Every uid is drawn from the tournament's seeded stream (so a seed deals the same uids), and
    none tells where its card started: a starter card's uid looks like any pile card's.
    """

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.rows: list[CardCopy] = []
        # Retired cards are dealt to no new tournament (its snapshot leaves them out as well).
        in_play = Card.objects.filter(retired=False, card_set__retired=False)
        self.cards = {card_key(card): card for card in in_play.select_related("card_set")}
        self.pool: list[int] = []

    def number(self, total: int) -> None:
        """Draw the uids of the ``total`` cards about to be minted."""
        self.pool = list(range(1, total + 1))
        stream(self.tournament.seed, "uids").shuffle(self.pool)

    def mint(self, keys: Iterable[str]) -> list[int]:
        uids = []
        for key in keys:
            uid = self.pool[len(self.rows)]
            self.rows.append(CardCopy(tournament=self.tournament, uid=uid, card=self.cards[key]))
            uids.append(uid)
        return uids

    def save(self) -> None:
        CardCopy.objects.bulk_create(self.rows)


def tournament_start(*, tournament_id: int, seat: Actor) -> Tournament:
    """The host starts a full lobby: everything is dealt and the first Deck Phase opens."""
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        require_lobby(tournament)
        if free_numbers(tournament):
            raise ConflictError(
                "seats_open", _("Fill every seat (join or add bots) before starting.")
            )
        tournament.snapshot = snapshot_take()  # card edits from now on reach later tournaments
        minter = _Minter(tournament)
        starter, piles = _starter_keys(minter), _pile_keys(minter)
        robot = _robot_keys_of(tournament)
        humans = list(tournament.seats.exclude(kind=SeatKind.ROBOT))
        total = len(starter) * len(humans) + sum(map(len, piles.values())) + len(robot or [])
        minter.number(total)
        _deal_starter_decks(humans, starter, minter)
        _deal_piles(tournament, piles, minter)
        _seat_robot(tournament, robot, minter)
        minter.save()
        _make_plan(tournament)
        tournament.status = Status.DECK
        tournament.round = 1
        tournament.save()
        publish(
            tournament, "tournament_started", {"parks": tournament.parks, "plan": tournament.plan}
        )
        bots_say(tournament, "greeting")
        open_deck_phase(tournament)
    return tournament


def _starter_keys(minter: _Minter) -> list[str]:
    """One starter deck's cards (by key)."""
    starter = STARTER_SET[BASIC_SETS[minter.tournament.basic_set]]
    cards = [c for c in minter.cards.values() if c.card_set.name == starter]
    return [card_key(c) for c in cards for _ in range(c.copies_per_starter_deck or 0)]


def _deal_starter_decks(seats: list[Seat], keys: list[str], minter: _Minter) -> None:
    for seat in seats:
        seat.deck = minter.mint(keys)
        seat.save(update_fields=["deck"])


def minting_order(tournament: Tournament, label: str, keys: list[str]) -> list[str]:
    """The order in which hidden cards get their uids: random, so a uid never tells its card.

    A pile's (or the Robot's) cards are numbered in an order drawn apart from the order they lie
    in; a client seeing a uid (an unseen card added to a deck, a display) learns nothing of it.
    """
    order = sorted(keys)
    stream(tournament.seed, "mint", label).shuffle(order)
    return order


def _pile_keys(minter: _Minter) -> dict[str, list[str]]:
    """Each level's pile cards (by key), in the order they get their uids."""
    tournament = minter.tournament
    in_play = {tournament.basic_set, *tournament.additional_sets}
    return {
        level: minting_order(
            tournament,
            f"pile {level}",
            [
                key
                for key, card in minter.cards.items()
                if card.card_set.name in in_play and card.level == level
                for _ in range(card.copies or 0)
            ],
        )
        for level in LEVELS
    }


def _deal_piles(tournament: Tournament, piles: dict[str, list[str]], minter: _Minter) -> None:
    for level in LEVELS:
        uids = minter.mint(piles[level])
        stream(tournament.seed, "pile", level).shuffle(uids)
        Pile.objects.create(tournament=tournament, level=level, cards=uids, discard=[])


def _robot_keys_of(tournament: Tournament) -> list[str] | None:
    """The Robot's cards (by key), in the order they get their uids; ``None``: no Robot."""
    if ROBOT not in places(tournament.seat_count):
        return None
    keys = robot_deck(
        stream(tournament.seed, "robot"),
        difficulty=tournament.robot_difficulty,
        solo_challenge=tournament.solo_challenge,
    )
    return minting_order(tournament, "robot", keys)


def _seat_robot(tournament: Tournament, keys: list[str] | None, minter: _Minter) -> None:
    if keys is None:
        return
    Seat.objects.create(
        tournament=tournament,
        number=ROBOT,
        kind=SeatKind.ROBOT,
        name="The Robot",
        deck=minter.mint(keys),
        answers_live=False,
    )


def _make_plan(tournament: Tournament) -> None:
    plan = compute_plan(tournament.seat_count)
    parks = parks_for(len(places(tournament.seat_count)))
    tournament.plan = plan_to_data(plan)
    tournament.parks = list(parks)
    stacks = deal_trophies(stream(tournament.seed, "trophies"), parks)
    Trophy.objects.bulk_create(
        Trophy(tournament=tournament, park=park, round=index + 1, fans=fans)
        for park, row in stacks.items()
        for index, fans in enumerate(row)
    )
