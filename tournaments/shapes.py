"""The tournament's responses, declared once (``apikit.shapes``).

The selectors return these, and REST renders them (``to_json``). The OpenAPI schema and the GraphQL
types are made from them.

Field order is REST's key order. Where the transports differ, the field says so:

- ``rest=False``: a seat's global id, a ticket's flat seat and token;
- ``graphql=False``: the ticket's nested seat;
- ``graphql_name``: ``roomCode``, since GraphQL's ``code`` is an error's;
- ``page=False``: a short list GraphQL sends whole, as it always did;
- ``BigInt``: the revealed seed, a decimal string in REST and GraphQL;
- ``omit_none``: a key REST sends only when set.
"""

from __future__ import annotations

import datetime

import orjson

from apikit.shapes import BigInt, Shape, field, shape
from tournaments.enums import (
    AdviceKind,
    BasicSet,
    BotLevel,
    PendingKind,
    SeatAction,
    SeatKind,
    TournamentStatus,
    WinterMode,
)

STATUS = "lobby, deck, match, finished or cancelled."
TITLE = 'Its title, given by its host or organizer; null: unnamed (show "Game #<id>").'
SEAT = "Seat number (-1: the Robot)."


@shape("A physical card of the tournament.")
class CardCopy(Shape):
    uid: int = field("This physical card's id in the tournament.")
    card: str = field('Catalogue key "Set/Name".')


@shape("A picked card's effect that waits for you.")
class Pending(Shape):
    kind: str = field("remove_for_pick, must_remove or draw_keep.", enum=PendingKind)
    card: str = field("The picked card whose effect waits.")
    count: int = field("How many cards it asks for.")
    offered: list[CardCopy] = field("draw_keep: the cards to keep one of.", page=False)
    eligible: list[CardCopy] = field(
        "The cards a `resolve` may name: the deck cards the effect's text allows "
        "(remove_for_pick, must_remove), or the offered cards (draw_keep).",
        page=False,
    )
    optional: bool = field("`[]` (or `deck/finish/`) declines it.")


@shape("Your Deck Phase turn (yours only).")
class Turn(Shape):
    options: list[str] = field("The round's draft options.")
    option: int | None = field("The option you chose.")
    display: list[CardCopy] = field("Your secret display.", page=False)
    picks_left: int = field("Picks still to make.")
    redraw_used: bool = field("The redraw is spent.")
    picked: list[CardCopy] = field("Cards picked this round.", page=False)
    pending: Pending | None = field("An effect waiting for you.")
    finished: bool = field("You finished this Deck Phase.")
    auto_played: bool = field("Played for you at the deadline.")


@shape("What only you see of the tournament.")
class You(Shape):
    seat: int = field("Your seat number.")
    name: str = field("Your name.")
    version: int = field(
        "Send it back as `version` with an action: it moves only when your own "
        "situation changes (your turn, your deck, the phase or round)."
    )
    answers_live: bool = field("You answer your cards' questions.")
    deck: list[CardCopy] = field(
        "Your deck, sorted by card (its order is never shown).", page=False
    )
    turn: Turn | None = field("Your Deck Phase turn.")
    actions: list[str] = field("What you can do now.", enum=SeatAction)


@shape("A seat as everyone sees it (what only its owner sees is the tournament's `you`).")
class SeatView(Shape):
    id: str = field(
        "\"<tournament>:<number>\": a seat's number is its tournament's.",
        rest=False,
        node_id=True,
    )
    number: int = field("0-7; the Robot is -1.")
    name: str = field("The seat's name.")
    kind: str = field("human, bot or robot.", enum=SeatKind)
    is_host: bool = field("The host.")
    tokens: int = field("Public fan tokens.")
    deck_size: int = field("Cards in its deck.")
    finished: bool | None = field("Finished this Deck Phase.")
    auto_played: bool = field("Played for at a deadline.")
    bot_level: str | None = field(
        "A bot's level (rookie, steady or champion); `steady` for a dropped seat a bot plays for "
        "its owner; null for a person playing their own seat.",
        enum=BotLevel,
    )
    dropped: bool = field(
        "A person's seat played by a bot since its owner left the running tournament or missed "
        "two deadlines in a row; the owner may reclaim it."
    )


@shape("A won trophy.")
class TrophyView(Shape):
    park: str = field("The park.")
    round: int = field("The round, 1-7.")
    seat: int | None = field("The winner's seat number.")
    to_box: bool = field("Won by the Robot at 3-7 seats.")
    fans: int | None = field("Null while secret to you.")


@shape("A seat's standing as you may count it.")
class StandingView(Shape):
    seat: int = field("Seat number.")
    fans: int = field("The fans you may see.")
    fans_complete: bool = field("False while some trophy fans are secret.")
    trophies: int = field("Trophies won.")
    highest_round: int = field("The round of its best trophy.")


@shape("A park of the tournament.")
class ParkView(Shape):
    name: str = field("The park's colour.")
    winter: bool = field("A winter park this round.")


@shape("The tournament's options.")
class OptionsView(Shape):
    seat_count: int = field("Seats, 1-8.")
    basic_set: str = field("City or Rainbow.", enum=BasicSet)
    additional_sets: list[str] = field("The five additional sets.")
    beach_cup: bool = field("Beach Cup draft rules.")
    winter_mode: str = field("off, normal or all.", enum=WinterMode)
    robot_difficulty: int = field("1-5.")
    solo_challenge: bool = field("The Robot's solo challenge.")
    deck_deadline_seconds: int | None = field("Deck Phase clock.")
    answer_deadline_seconds: int = field("Time to answer a question.")
    spectator_chat: bool = field("Spectators may join the table chat.")


@shape("Who meets whom in which park.")
class Pairing(Shape):
    park: str = field("The park.")
    a: int = field(SEAT)
    b: int = field(SEAT)


@shape("The seed's commitment, and the seed once the game ends.")
class Fairness(Shape):
    commitment: str = field(
        "SHA-256 (hex) of '<seed>:<nonce>', published before any card is dealt."
    )
    revealed_seed: BigInt | None = field(
        "The tournament's seed, revealed when the game ends: a decimal string (63 bits)."
    )
    revealed_nonce: str | None = field("The commitment's nonce, revealed when the game ends.")


@shape("A tournament as you may see it.")
class TournamentView(Shape):
    id: int = field(
        "The tournament's number: `tournament(id:)`'s argument (GraphQL: `databaseId`).",
        node_id=True,
    )
    title: str | None = field(TITLE)
    code: str | None = field(
        "Room code (seats only); GraphQL's `roomCode` (`Error.code` is another).",
        graphql_name="room_code",
    )
    status: str = field(STATUS, enum=TournamentStatus)
    round: int = field("0 in the lobby, 1-7, 8 = the Final.")
    is_final: bool = field("The Final is on.")
    version: int = field("Moves with every event of the tournament (to act, send `you.version`).")
    released_seq: int = field(
        "The log's last released seq as this view was read: it shows what events up to it say "
        "(a stream behind it has their frames still to come)."
    )
    options: OptionsView = field("Its options.")
    league: str | None = field("The slug of its league, for a league tournament; else null.")
    parks: list[ParkView] = field("Its parks.", page=False)
    plan: list[list[Pairing]] = field("Per round 1-7: who meets whom in which park.")
    phase_deadline: datetime.datetime | None = field("The phase's deadline.")
    seats: list[SeatView] = field("Every seat, in seat order.")
    trophies: list[TrophyView] = field("Won trophies, in the order they were won.")
    standings: list[StandingView] = field("Ranked standings, first place first.")
    finalists: list[int] = field("The Final's seats.")
    winners: list[int] = field("The champions, at the end.")
    fairness: Fairness = field("Seed commitment and reveal.")
    you: You | None = field("Your own view; null for a spectator.")

    @property
    def completion_key(self) -> bytes:
        """The view's whole content.

        GraphQL reuses its completed fields (``apikit.graphql_execution``).
        """
        return orjson.dumps(self)


@shape("Your seat of a new tournament (REST's ticket).")
class TicketSeat(Shape):
    id: int = field("Seat number (0-7).")
    token: str = field("Bearer token for this seat; shown only once.")


@shape("A lobby seat's ticket: keep the token, it is shown only once.")
class Ticket(Shape):
    id: int = field("Tournament id.")
    code: str = field("Room code to share with players.")
    seat: TicketSeat | None = field("Your seat; null when an organizer created it.", graphql=False)
    seat_number: int | None = field(
        "Your seat number; null for an organizer.", rest=False, graphql_name="seat"
    )
    token: str | None = field("Your bearer token; null for an organizer.", rest=False)

    @classmethod
    def of(cls, tournament_id: int, code: str, seat: int | None, token: str | None) -> Ticket:
        held = None if seat is None or token is None else TicketSeat(id=seat, token=token)
        return cls(id=tournament_id, code=code, seat=held, seat_number=seat, token=token)


@shape("A tournament of the public list (nothing secret).")
class TournamentListItem(Shape):
    id: int = field("Tournament id (GraphQL: `databaseId`).", node_id=True)
    title: str | None = field(TITLE)
    status: str = field(STATUS, enum=TournamentStatus)
    round: int = field("0 in the lobby, 8 = the Final.")
    seat_count: int = field("Seats.")
    seats_taken: int = field("Players and bots seated (not the Robot).")
    free_seats: int | None = field("In a lobby; else null.")
    host: str | None = field("The host's name; null if none.")
    basic_set: str = field("City or Rainbow.", enum=BasicSet)
    additional_sets: list[str] = field("The five additional sets.")
    beach_cup: bool = field("Beach Cup draft rules.")
    winter_mode: str = field("off, normal or all.", enum=WinterMode)
    robot_difficulty: int = field("1-5.")
    winners: list[int] = field("The champions, once finished.")
    created_at: datetime.datetime = field("When it was opened.")


@shape("A page of the public list of tournaments, newest first.")
class TournamentList(Shape):
    count: int = field("Tournaments matching the filter.")
    limit: int = field("The page's size.")
    offset: int = field("Tournaments before the page.")
    results: list[TournamentListItem] = field("The page.")


@shape("One choice of your Deck Phase with its estimated chance to win.")
class AdviceChoice(Shape):
    option: int | None = field("The option's index (kind option).", default=None, omit_none=True)
    text: str | None = field("The option, e.g. `2 from A`.", default=None, omit_none=True)
    card: int | None = field("A display card's uid (kind card).", default=None, omit_none=True)
    key: str | None = field("That card, `Set/Name`.", default=None, omit_none=True)
    win_probability: float = field("Share of the practice matches won.")
    sample_size: int = field("Practice matches played for this choice.")


@shape("Draft advice for your seat now.")
class AdviceView(Shape):
    round: int = field("The round.")
    rival: int | None = field("The seat you meet next (-1 the Robot); null: none.")
    kind: str = field(
        "What the choices are: the round's options, your display's cards, or none now.",
        enum=AdviceKind,
    )
    choices: list[AdviceChoice] = field("Each choice, rated.", page=False)


@shape("A table chat message: plain text, never to be rendered as HTML.")
class ChatMessage(Shape):
    seq: int = field("The message's number in the tournament's log.")
    seat: int | None = field("The seat that said it (null: a spectator).")
    spectator: int | None = field(
        "A spectator's message: its number in the chat (null: a seat's).",
        default=None,
        omit_none=True,
    )
    name: str = field("Who said it.")
    text: str = field("Plain text: never render it as HTML.")
    line: str | None = field(
        "A bot's set line (`greeting`, `farewell`): a client may show its own words for it "
        "instead of the English `text` (omitted: words someone typed).",
        default=None,
        omit_none=True,
    )


@shape("A spectator's place in a table chat.")
class ChatTicket(Shape):
    number: int = field("Your number among the chat's spectators.")
    name: str = field("Your name in the chat.")
    token: str = field("Your chat token: send it as `Bearer` to post.")
