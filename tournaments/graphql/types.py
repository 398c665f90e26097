"""GraphQL types of a tournament as one viewer may see it.

Each type is built from the dictionaries REST answers with (``tournament_view_of``,
``tournament_list``), or made from the shape REST renders (a match, its events, the log's):
GraphQL never reads a model field REST does not show, so a query selecting every field learns
nothing REST hides.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
import strawberry
from strawberry import relay

from config.graphql import Connection
from config.graphql_pages import After, Before, First, Last, Page, page_of
from config.shapes import connection_type, graphql_type
from matches import shapes as match_shapes
from tournaments import log_shapes
from tournaments.enums import (
    AdviceKind,
    BasicSet,
    BotLevel,
    PendingKind,
    SeatKind,
    TournamentStatus,
    WinterMode,
)


@strawberry.type(description="A physical card of the tournament.")
class CardCopy:
    uid: int = strawberry.field(description="This physical card's id in the tournament.")
    card: str = strawberry.field(description='Catalogue key "Set/Name".')


def copies(items: list[dict[str, Any]]) -> list[CardCopy]:
    return [CardCopy(uid=item["uid"], card=item["card"]) for item in items]


@strawberry.type(description="A picked card's effect that waits for you.")
class Pending:
    kind: PendingKind = strawberry.field(description="remove_for_pick, must_remove or draw_keep.")
    card: str = strawberry.field(description="The picked card whose effect waits.")
    count: int = strawberry.field(description="How many cards it asks for.")
    offered: list[CardCopy] = strawberry.field(description="draw_keep: the cards to keep one of.")
    eligible: list[CardCopy] = strawberry.field(
        description="The cards a resolve may name (the deck cards the effect allows, or the "
        "offered cards for draw_keep)."
    )
    optional: bool = strawberry.field(description="An empty resolve (or finishing) declines it.")


@strawberry.type(description="Your Deck Phase turn (yours only).")
class Turn:
    options: list[str] = strawberry.field(description="The round's draft options.")
    option: int | None = strawberry.field(description="The option you chose.")
    display: list[CardCopy] = strawberry.field(description="Your secret display.")
    picks_left: int = strawberry.field(description="Picks still to make.")
    redraw_used: bool = strawberry.field(description="The redraw is spent.")
    picked: list[CardCopy] = strawberry.field(description="Cards picked this round.")
    pending: Pending | None = strawberry.field(description="An effect waiting for you.")
    finished: bool = strawberry.field(description="You finished this Deck Phase.")
    auto_played: bool = strawberry.field(description="Played for you at the deadline.")

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> Turn | None:
        if data is None:
            return None
        pending = data["pending"]
        return cls(
            **{k: data[k] for k in ("options", "option", "picks_left", "redraw_used")},
            display=copies(data["display"]),
            picked=copies(data["picked"]),
            pending=None
            if pending is None
            else Pending(
                **{
                    **pending,
                    "offered": copies(pending["offered"]),
                    "eligible": copies(pending["eligible"]),
                }
            ),
            finished=data["finished"],
            auto_played=data["auto_played"],
        )


@strawberry.type(description="What only you see of the tournament.")
class You:
    seat: int = strawberry.field(description="Your seat number.")
    name: str = strawberry.field(description="Your name.")
    version: int = strawberry.field(
        description="Send it back as `version` with an action: it moves only when your own "
        "situation changes (your turn, your deck, the phase or round)."
    )
    answers_live: bool = strawberry.field(description="You answer your cards' questions.")
    deck: list[CardCopy] = strawberry.field(description="Your deck, sorted by card.")
    turn: Turn | None = strawberry.field(description="Your Deck Phase turn.")
    actions: list[str] = strawberry.field(description="What you can do now.")

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> You | None:
        if data is None:
            return None
        plain = {k: data[k] for k in ("seat", "name", "version", "answers_live", "actions")}
        return cls(**plain, deck=copies(data["deck"]), turn=Turn.of(data["turn"]))


@strawberry.type(
    description="A seat as everyone sees it (what only its owner sees is the tournament's `you`)."
)
class SeatView(relay.Node):
    id: relay.NodeID[str]  # "<tournament>:<number>": a seat's number is its tournament's
    number: int = strawberry.field(description="0-7; the Robot is -1.")
    name: str = strawberry.field(description="The seat's name.")
    kind: SeatKind = strawberry.field(description="human, bot or robot.")
    is_host: bool = strawberry.field(description="The host.")
    tokens: int = strawberry.field(description="Public fan tokens.")
    deck_size: int = strawberry.field(description="Cards in its deck.")
    finished: bool | None = strawberry.field(description="Finished this Deck Phase.")
    auto_played: bool = strawberry.field(description="Played for at a deadline.")
    bot_level: BotLevel | None = strawberry.field(
        description="A bot's strength (rookie, steady, champion), or the level of the bot playing "
        "a dropped seat; null for a person playing their own seat."
    )
    dropped: bool = strawberry.field(
        description="A person's seat played by a bot since its owner left the running "
        "tournament or missed two deadlines in a row; the owner may reclaim it."
    )

    @classmethod
    def of(cls, tournament_id: int, data: dict[str, Any]) -> SeatView:
        return cls(id=f"{tournament_id}:{data['number']}", **data)


@strawberry.type(description="A won trophy.")
class TrophyView:
    park: str = strawberry.field(description="The park.")
    round: int = strawberry.field(description="The round, 1-7.")
    seat: int | None = strawberry.field(description="The winner's seat number.")
    to_box: bool = strawberry.field(description="Won by the Robot at 3-7 seats.")
    fans: int | None = strawberry.field(description="Null while secret to you.")


@strawberry.type(description="A seat's standing as you may count it.")
class StandingView:
    seat: int = strawberry.field(description="Seat number.")
    fans: int = strawberry.field(description="The fans you may see.")
    fans_complete: bool = strawberry.field(description="False while some fans are secret.")
    trophies: int = strawberry.field(description="Trophies won.")
    highest_round: int = strawberry.field(description="The round of its best trophy.")


@strawberry.type(description="A park of the tournament.")
class ParkView:
    name: str = strawberry.field(description="The park's colour.")
    winter: bool = strawberry.field(description="A winter park this round.")


@strawberry.type(description="The tournament's options.")
class OptionsView:
    seat_count: int = strawberry.field(description="Seats, 1-8.")
    basic_set: BasicSet = strawberry.field(description="City or Rainbow.")
    additional_sets: list[str] = strawberry.field(description="The five additional sets.")
    beach_cup: bool = strawberry.field(description="Beach Cup draft rules.")
    winter_mode: WinterMode = strawberry.field(description="off, normal or all.")
    robot_difficulty: int = strawberry.field(description="1-5.")
    solo_challenge: bool = strawberry.field(description="The Robot's solo challenge.")
    deck_deadline_seconds: int | None = strawberry.field(description="Deck Phase clock.")
    answer_deadline_seconds: int = strawberry.field(description="Time to answer a question.")
    spectator_chat: bool = strawberry.field(description="Spectators may join the table chat.")


@strawberry.type(description="Who meets whom in which park.")
class Pairing:
    park: str = strawberry.field(description="The park.")
    a: int = strawberry.field(description="Seat number (-1: the Robot).")
    b: int = strawberry.field(description="Seat number (-1: the Robot).")


@strawberry.type(description="The seed's commitment, and the seed once the game ends.")
class Fairness:
    commitment: str = strawberry.field(description="SHA-256 (hex) of '<seed>:<nonce>'.")
    revealed_seed: str | None = strawberry.field(description="The seed (decimal), at the end.")
    revealed_nonce: str | None = strawberry.field(description="The nonce, at the end.")


@strawberry.type(description="A tournament as you may see it (REST's tournament view).")
class TournamentView(relay.Node):
    id: relay.NodeID[int]
    database_id: int = strawberry.field(
        description="The tournament's number: REST's `id`, `tournament(id:)`'s argument."
    )
    room_code: str | None = strawberry.field(
        description="Room code (seats only); REST's `code` (renamed: `Error.code` is another)."
    )
    status: TournamentStatus = strawberry.field(
        description="lobby, deck, match, finished or cancelled."
    )
    round: int = strawberry.field(description="0 in the lobby, 1-7, 8 = the Final.")
    is_final: bool = strawberry.field(description="The Final is on.")
    version: int = strawberry.field(description="Moves with every event of the tournament.")
    options: OptionsView = strawberry.field(description="Its options.")
    parks: list[ParkView] = strawberry.field(description="Its parks.")
    plan: list[list[Pairing]] = strawberry.field(description="Per round 1-7: the pairings.")
    phase_deadline: datetime | None = strawberry.field(description="The phase's deadline.")
    seat_list: strawberry.Private[list[SeatView]]
    trophy_list: strawberry.Private[list[TrophyView]]
    standing_list: strawberry.Private[list[StandingView]]
    finalists: list[int] = strawberry.field(description="The Final's seats.")
    winners: list[int] = strawberry.field(description="The champions, at the end.")
    fairness: Fairness = strawberry.field(description="Seed commitment and reveal.")
    you: You | None = strawberry.field(description="Your own view; null for a spectator.")
    # The view's whole content: its completed fields are reused (config.graphql_execution).
    completion_key: strawberry.Private[bytes | None] = None

    @strawberry.field(description="Every seat, in REST's order.")
    def seats(
        self, first: First = None, after: After = None, last: Last = None, before: Before = None
    ) -> Connection[SeatView]:
        return page_of(self.seat_list, Page(first, after, last, before))

    @strawberry.field(description="Won trophies, in the order they were won.")
    def trophies(
        self, first: First = None, after: After = None, last: Last = None, before: Before = None
    ) -> Connection[TrophyView]:
        return page_of(self.trophy_list, Page(first, after, last, before))

    @strawberry.field(description="Ranked standings, first place first.")
    def standings(
        self, first: First = None, after: After = None, last: Last = None, before: Before = None
    ) -> Connection[StandingView]:
        return page_of(self.standing_list, Page(first, after, last, before))

    @classmethod
    def of(cls, data: dict[str, Any]) -> TournamentView:
        fair = data["fairness"]
        seed = fair["revealed_seed"]
        plain = ("id", "status", "round", "is_final", "version", "phase_deadline")
        return cls(
            **{k: data[k] for k in plain},
            database_id=data["id"],
            room_code=data["code"],
            finalists=list(data["finalists"]),
            winners=list(data["winners"]),
            options=OptionsView(**data["options"]),
            parks=[ParkView(**p) for p in data["parks"]],
            plan=[[Pairing(**p) for p in rnd] for rnd in data["plan"]],
            seat_list=[SeatView.of(data["id"], s) for s in data["seats"]],
            trophy_list=[TrophyView(**t) for t in data["trophies"]],
            standing_list=[StandingView(**s) for s in data["standings"]],
            fairness=Fairness(
                commitment=fair["commitment"],
                revealed_seed=None if seed is None else str(seed),
                revealed_nonce=fair["revealed_nonce"],
            ),
            you=You.of(data["you"]),
            completion_key=orjson.dumps(data),
        )


@strawberry.type(description="A lobby seat's ticket: keep the token, it is shown only once.")
class Ticket:
    id: int = strawberry.field(description="Tournament id.")
    code: str = strawberry.field(description="Room code to share with players.")
    seat: int | None = strawberry.field(description="Your seat number; null for an organizer.")
    token: str | None = strawberry.field(description="Your bearer token; null for an organizer.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> Ticket:
        seat = data["seat"]
        number, token = (None, None) if seat is None else (seat["id"], seat["token"])
        return cls(id=data["id"], code=data["code"], seat=number, token=token)


@strawberry.type(description="A tournament of the public list (nothing secret).")
class TournamentListItem:
    id: int = strawberry.field(description="Tournament id.")
    status: TournamentStatus = strawberry.field(
        description="lobby, deck, match, finished or cancelled."
    )
    round: int = strawberry.field(description="0 in the lobby, 8 = the Final.")
    seat_count: int = strawberry.field(description="Seats.")
    seats_taken: int = strawberry.field(description="Players and bots seated.")
    free_seats: int | None = strawberry.field(description="In a lobby; else null.")
    host: str | None = strawberry.field(description="The host's name.")
    basic_set: BasicSet = strawberry.field(description="City or Rainbow.")
    additional_sets: list[str] = strawberry.field(description="The five additional sets.")
    beach_cup: bool = strawberry.field(description="Beach Cup draft rules.")
    winter_mode: WinterMode = strawberry.field(description="off, normal or all.")
    robot_difficulty: int = strawberry.field(description="1-5.")
    winners: list[int] = strawberry.field(description="The champions, once finished.")
    created_at: datetime = strawberry.field(description="When it was opened.")


# A match's objects and the log's events, made from their one declaration (``matches.shapes``,
# ``tournaments.log_shapes``): no field is written twice.
MatchSeat = graphql_type(match_shapes.MatchSeat)
Question = graphql_type(match_shapes.Question)
MatchEventView = graphql_type(match_shapes.MatchEventView)
MatchView = graphql_type(match_shapes.MatchView)
TournamentEventView = graphql_type(log_shapes.TournamentEventView)
MatchConnection = connection_type(match_shapes.MatchView)
TournamentEventConnection = connection_type(log_shapes.TournamentEventView)


@strawberry.type(description="One choice of your Deck Phase with its estimated chance to win.")
class AdviceChoice:
    option: int | None = strawberry.field(description="The option's index (kind option).")
    text: str | None = strawberry.field(description="The option, e.g. `2 from A`.")
    card: int | None = strawberry.field(description="A display card's uid (kind card).")
    key: str | None = strawberry.field(description="That card, `Set/Name`.")
    win_probability: float = strawberry.field(description="Share of the practice matches won.")
    sample_size: int = strawberry.field(description="Practice matches played for this choice.")


@strawberry.type(description="Draft advice for your seat now (REST's advice/).")
class AdviceView:
    round: int = strawberry.field(description="The round.")
    rival: int | None = strawberry.field(
        description="The seat you meet next (-1 the Robot); null: none."
    )
    kind: AdviceKind = strawberry.field(
        description="option (the round's options), card (your display's cards) or none."
    )
    choices: list[AdviceChoice] = strawberry.field(description="Each choice, rated.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> AdviceView:
        fields = ("option", "text", "card", "key", "win_probability", "sample_size")
        choices = [AdviceChoice(**{f: c.get(f) for f in fields}) for c in data["choices"]]
        return cls(round=data["round"], rival=data["rival"], kind=data["kind"], choices=choices)
