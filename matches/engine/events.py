"""The events of a match: one shape per kind, who may see each kind, and where each is built.

Every event is a JSON-serialisable dict with ``seq`` (its index in the match's list) and ``kind``.
The ``TypedDict`` of its kind names the other fields. Sides are ``"A"``/``"B"`` and cards their
uids.

``SHOWN_TO`` says who may see each kind: ``everyone``, the ``owner`` (the event's ``side``) or
``nobody``. Nobody sees the shuffled deck orders. They would give away every card still to come.
``observe``, the one observer, applies it. Every channel that shows an event asks it. Those are the
engine's own views for a side, the REST and GraphQL match events, the tournament stream and the
replay. ``matches.observer`` gives it the viewer and its SQL twin for counts.

``EventLog`` builds the events while a match is recorded. It has one method per kind. Each
translates the match's int sides and cards into public names. The one exception is ``attack``, built
only by the attack loop (``Match._attack``). A call there would cost about 1 % of a recorded match.
"""

# No ``from __future__ import annotations``: ``TypedDict`` reads ``NotRequired`` from evaluated
# annotations only.
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict

from matches.engine.model import SIDES

if TYPE_CHECKING:
    from matches.engine.table import Table

Side = Annotated[str, Literal["A", "B"]]
MatchKind = Annotated[str, Literal["normal", "winter"]]  # model.PARK_KINDS
"""``"A"`` or ``"B"`` (the extra: what the server's schemas state, ``apikit.events``)."""
Uid = Annotated[Any, int]
"""A physical card's uid, as the setup gave it (the server's setups give ints)."""
Parts = list[list[Any]]
"""A power's breakdown: ``[["base", 3], ["reveal", 2], ["bench:City/Bard", 1]…]``."""


class Start(TypedDict):
    """The match begins (``decks``: each side's deck size)."""

    seq: int
    kind: Literal["start"]
    round: int
    final: bool
    match_kind: MatchKind  # a Winter Park's match is "winter"; the park's name is the match's
    first: Side | None
    decks: NotRequired[dict[Side, int]]


class Stated(TypedDict):
    """The board's values an event changed, stated on it (``Match.stated``): ``defence``, the
    flag card's defence now (``None``: nobody holds the flag); ``attack_total``, the attack's
    total now (``None``: no attack on a held flag; an ``attack`` event says ``total``);
    ``deck``, the cards left in ``side``'s deck."""

    defence: NotRequired[int | None]
    attack_total: NotRequired[int | None]
    deck: NotRequired[int]


class Shuffle(TypedDict):
    """A deck's order after the shuffle, top → bottom (a chance outcome: replays read it)."""

    seq: int
    kind: Literal["shuffle"]
    side: Side
    order: list[Uid]


class FlagToss(TypedDict):
    """Who opens, when the setup left it to chance."""

    seq: int
    kind: Literal["flag_toss"]
    side: Side


class Reveal(Stated):
    """A card turned face up from the top of its owner's deck."""

    seq: int
    kind: Literal["reveal"]
    side: Side
    card: Uid
    key: str


class Effect(Stated):
    """A card's effect resolves (``timing``: on_reveal, takes_flag, flag_loss, no_flag_win,
    in_flag_possession)."""

    seq: int
    kind: Literal["effect"]
    side: Side
    card: Uid
    code: str | None
    timing: str


class Attack(TypedDict):
    """After each reveal of an attack: that card's power and how it is made, the attack's total
    against the flag card's defence."""

    seq: int
    kind: Literal["attack"]
    side: Side
    card: Uid
    power: int
    parts: Parts
    total: int
    defence: int


class Flag(Stated):
    """A card takes the flag, ``under`` the cards of its stack (top → bottom); ``power``, its
    defence, and ``parts``, how it is made (before the board fields, recorded on the opening
    card only)."""

    seq: int
    kind: Literal["flag"]
    side: Side
    card: Uid
    key: str
    under: list[Uid]
    power: NotRequired[int]
    parts: NotRequired[Parts]


class Benched(Stated):
    """A card took bench seat ``seat`` (a slot index, 0-5), coming from ``src``; ``held``: the
    second seat a wide card (a Troll) blocks, free again when ``seat`` empties."""

    seq: int
    kind: Literal["benched"]
    side: Side
    card: Uid
    seat: int
    src: str
    held: NotRequired[int]


class Frozen(Stated):
    """Winter Park: a card went to frozen seat ``seat`` (0 or 1) instead of the bench."""

    seq: int
    kind: Literal["frozen"]
    side: Side
    card: Uid
    seat: int


class Exhausted(Stated):
    """A card went to its owner's exhaust pile from ``src``."""

    seq: int
    kind: Literal["exhausted"]
    side: Side
    card: Uid
    src: str
    to: Literal["exhaust"]


class Moved(Stated):
    """A card went from ``src`` to the top or the bottom of its owner's deck."""

    seq: int
    kind: Literal["moved"]
    side: Side
    card: Uid
    src: str
    to: str


class Removed(Stated):
    """A card left the game for good."""

    seq: int
    kind: Literal["removed"]
    side: Side
    card: Uid
    src: str


class Added(Stated):
    """A card of level pile ``pile`` joined a side's cards (``to``: exhaust, deck_top,
    deck_bottom); its ``key`` is recorded, but shown to nobody until the seed is revealed
    (``UNSEEN_FIELDS``)."""

    seq: int
    kind: Literal["added"]
    side: Side
    card: Uid
    key: NotRequired[str]
    pile: str
    to: str


class Arranged(TypedDict):
    """Where a look-at effect put the cards it saw (top → bottom)."""

    seq: int
    kind: Literal["arranged"]
    side: Side
    card: Uid
    top: list[Uid]
    bottom: list[Uid]


class Fans(Stated):
    """A side gained ``n`` fan tokens through ``card`` (``total``: gained in this match)."""

    seq: int
    kind: Literal["fans"]
    side: Side
    n: int
    card: Uid
    total: int


class QuestionAsked(TypedDict):
    """A side must choose (number ``q`` of the match, of kind ``q_kind``)."""

    seq: int
    kind: Literal["question"]
    q: int
    side: Side
    q_kind: str
    card: Uid
    options: list[Any]
    min: int
    max: int


class Answer(TypedDict):
    """The choice made for question ``q``."""

    seq: int
    kind: Literal["answer"]
    q: int
    side: Side
    answer: list[Any]


class End(Stated):
    """The match is over; ``unplaced``: the loser's cards no bench seat could take (they left
    the place they were in)."""

    seq: int
    kind: Literal["end"]
    winner: Side
    reason: str
    unplaced: NotRequired[list[Uid]]


Event = (
    Start
    | Shuffle
    | FlagToss
    | Reveal
    | Effect
    | Attack
    | Flag
    | Benched
    | Frozen
    | Exhausted
    | Moved
    | Removed
    | Added
    | Arranged
    | Fans
    | QuestionAsked
    | Answer
    | End
)

EVERYONE, OWNER, NOBODY = "everyone", "owner", "nobody"
# Every kind, its shape, and who may see it.
SHAPES: dict[str, tuple[type, str]] = {
    "start": (Start, EVERYONE),
    "shuffle": (Shuffle, NOBODY),
    "flag_toss": (FlagToss, EVERYONE),
    "reveal": (Reveal, EVERYONE),
    "effect": (Effect, EVERYONE),
    "attack": (Attack, EVERYONE),
    "flag": (Flag, EVERYONE),
    "benched": (Benched, EVERYONE),
    "frozen": (Frozen, EVERYONE),
    "exhausted": (Exhausted, EVERYONE),
    "moved": (Moved, EVERYONE),
    "removed": (Removed, EVERYONE),
    "added": (Added, EVERYONE),
    "arranged": (Arranged, OWNER),
    "fans": (Fans, EVERYONE),
    "question": (QuestionAsked, OWNER),
    "answer": (Answer, OWNER),
    "end": (End, EVERYONE),
}
KINDS: tuple[str, ...] = tuple(SHAPES)
SHOWN_TO: dict[str, str] = {kind: who for kind, (_, who) in SHAPES.items()}
PUBLIC_KINDS = frozenset(kind for kind in KINDS if SHOWN_TO[kind] == EVERYONE)
OWNER_KINDS = frozenset(kind for kind in KINDS if SHOWN_TO[kind] == OWNER)
UNSEEN_FIELDS: dict[str, tuple[str, ...]] = {"added": ("key",)}
"""Fields of a public kind nobody sees: a card taken from a pile unseen is unknown until
revealed."""


def observe(
    event: dict[str, Any], side: Side | None, *, revealed: bool = False
) -> dict[str, Any] | None:
    """The one observer: ``event`` as ``side`` may see it, or ``None`` if hidden.

    ``side`` ``None`` is a spectator. Hidden fields are left out (``SHOWN_TO``, ``UNSEEN_FIELDS``).

    ``revealed``: the tournament is over and its seed revealed. Then every event is public as
    recorded (the replay). The deck orders follow from the seed anyway. An event shown whole is the
    same dict (callers never change it)."""
    kind = event.get("kind")
    if revealed:
        return event
    if kind in PUBLIC_KINDS:
        hidden = UNSEEN_FIELDS.get(str(kind), ())
        return {k: v for k, v in event.items() if k not in hidden} if hidden else event
    if kind in OWNER_KINDS and side is not None and event.get("side") == side:
        return event
    return None


def seen_by(events: Sequence[dict[str, Any]], side: Side | None) -> list[dict[str, Any]]:
    """The events ``side`` may see (``None``: a spectator), as ``observe`` shows each."""
    return [shown for event in events if (shown := observe(event, side)) is not None]


STATED_FIELDS = frozenset(("defence", "attack_total", "deck", "decks", "held", "unplaced"))
"""The fields that state the board's values (``Stated``, ``start``'s ``decks``, ``benched``'s
``held``, ``end``'s ``unplaced``), with ``power`` and ``parts`` on a ``flag`` after the
opening: added after matches were first stored, so ``same_events`` compares them only where a
stored event has them."""


def same_events(played: Sequence[dict[str, object]], stored: Sequence[dict[str, object]]) -> bool:
    """Whether ``played`` (a re-run) gives ``stored``.

    Every stored field must be equal. Fields the re-run adds must be stated board fields. Matches
    stored before those fields lack them."""
    if len(played) != len(stored):
        return False
    return all(_same_event(new, old) for new, old in zip(played, stored, strict=True))


def _same_event(new: dict[str, object], old: dict[str, object]) -> bool:
    if new == old:
        return True
    added = new.keys() - old.keys()
    if new["kind"] == "flag":
        added -= {"power", "parts"}
    if added - STATED_FIELDS or old.keys() - new.keys():
        return False
    return all(new[key] == value for key, value in old.items())


class EventLog:
    """A recorded match's events, one method per kind.

    Each method appends to ``events``. Sides and cards come in as the match's ints (side 0 =
    ``"A"``). A card indexes ``uid`` and ``spec_of``, the match's own lists. They grow as level-pile
    cards join the match.

    Some public events move a card, change fans or start an effect. Each states the board's values
    it changed before it is appended (``stated``: ``Match.stated``, compiled with the match). Those
    values are the flag card's defence, the attack's total and its side's deck count. So a board
    folds the events without counting. ``decks`` are the match's deck lists.
    """

    __slots__ = ("decks", "events", "spec_of", "stated", "table", "uid")

    def __init__(
        self,
        events: list[Any],
        uid: list[Uid],
        spec_of: list[int],
        table: "Table",
        decks: list[list[int]],
        stated: Callable[[Any, int, int], None],
    ) -> None:
        self.events = events
        self.uid = uid
        self.spec_of = spec_of
        self.table = table
        self.decks = decks
        self.stated = stated

    def start(self, round: int, final: bool, match_kind: str, first: Side | None) -> None:
        events = self.events
        event: Start = {
            "seq": len(events),
            "kind": "start",
            "round": round,
            "final": final,
            "match_kind": match_kind,
            "first": first,
            "decks": {"A": len(self.decks[0]), "B": len(self.decks[1])},
        }
        events.append(event)

    def shuffle(self, side: int, deck: Sequence[int]) -> None:
        """``deck`` lists its top card last (the match's order)."""
        events, uid = self.events, self.uid
        order = [uid[card] for card in reversed(deck)]
        event: Shuffle = {
            "seq": len(events),
            "kind": "shuffle",
            "side": SIDES[side],
            "order": order,
        }
        events.append(event)

    def flag_toss(self, side: Side) -> None:
        """The toss gave the flag to ``side``.

        ``side`` is a name: a replay's recorded toss, as it is."""
        events = self.events
        event: FlagToss = {"seq": len(events), "kind": "flag_toss", "side": side}
        events.append(event)

    def effect(self, side: int, card: int, timing: str) -> None:
        """Logged as the effect starts.

        It states what the effect before it changed after its last move. An example is a bonus it
        gave its own card, which moves nothing."""
        events = self.events
        event: Effect = {
            "seq": len(events),
            "kind": "effect",
            "side": SIDES[side],
            "card": self.uid[card],
            "code": self.table.codes[self.spec_of[card]],
            "timing": timing,
        }
        self.stated(event, side, -1)
        events.append(event)

    def reveal(self, side: int, card: int) -> None:
        events = self.events
        event: Reveal = {
            "seq": len(events),
            "kind": "reveal",
            "side": SIDES[side],
            "card": self.uid[card],
            "key": self.table.keys[self.spec_of[card]],
        }
        self.stated(event, side, -1)
        events.append(event)

    def flag(self, side: int, stack: Sequence[int], shown: tuple[int, Parts]) -> None:
        """The top card of ``stack`` (bottom → top) takes the flag.

        ``shown`` is its power and its breakdown. The power is the defence now: the attack is
        over."""
        events, uid, card = self.events, self.uid, stack[-1]
        event: Flag = {
            "seq": len(events),
            "kind": "flag",
            "side": SIDES[side],
            "card": uid[card],
            "key": self.table.keys[self.spec_of[card]],
            "under": [uid[under] for under in reversed(stack[:-1])],
        }
        event["power"], event["parts"] = shown
        self.stated(event, side, shown[0])
        events.append(event)

    def benched(self, side: int, card: int, seat: int, src: str, held: int = -1) -> None:
        """``held``: the second seat a wide card blocks (``-1``: none)."""
        events = self.events
        event: Benched = {
            "seq": len(events),
            "kind": "benched",
            "side": SIDES[side],
            "card": self.uid[card],
            "seat": seat,
            "src": src,
        }
        if held >= 0:
            event["held"] = held
        self.stated(event, side, -1)
        events.append(event)

    def frozen(self, side: int, card: int, seat: int) -> None:
        events = self.events
        event: Frozen = {
            "seq": len(events),
            "kind": "frozen",
            "side": SIDES[side],
            "card": self.uid[card],
            "seat": seat,
        }
        self.stated(event, side, -1)
        events.append(event)

    def exhausted(self, side: int, card: int, src: str) -> None:
        """``card`` reached the exhaust pile.

        A level-pile card is logged as ``added`` instead."""
        if src.startswith("pile:"):
            self.added(side, card, src[5:], "exhaust")
            return
        events = self.events
        event: Exhausted = {
            "seq": len(events),
            "kind": "exhausted",
            "side": SIDES[side],
            "card": self.uid[card],
            "src": src,
            "to": "exhaust",
        }
        self.stated(event, side, -1)
        events.append(event)

    def moved(self, side: int, card: int, src: str, to: str) -> None:
        """``card`` reached the deck (``to``: deck_top, deck_bottom).

        A level-pile card is logged as ``added`` instead."""
        if src.startswith("pile:"):
            self.added(side, card, src[5:], to)
            return
        events = self.events
        event: Moved = {
            "seq": len(events),
            "kind": "moved",
            "side": SIDES[side],
            "card": self.uid[card],
            "src": src,
            "to": to,
        }
        self.stated(event, side, -1)
        events.append(event)

    def removed(self, side: int, card: int, src: str) -> None:
        events = self.events
        event: Removed = {
            "seq": len(events),
            "kind": "removed",
            "side": SIDES[side],
            "card": self.uid[card],
            "src": src,
        }
        self.stated(event, side, -1)
        events.append(event)

    def added(self, side: int, card: int, pile: str, to: str) -> None:
        events = self.events
        event: Added = {
            "seq": len(events),
            "kind": "added",
            "side": SIDES[side],
            "card": self.uid[card],
            "key": self.table.keys[self.spec_of[card]],
            "pile": pile,
            "to": to,
        }
        self.stated(event, side, -1)
        events.append(event)

    def arranged(self, side: int, card: int, top: Sequence[int], bottom: Sequence[int]) -> None:
        events, uid = self.events, self.uid
        event: Arranged = {
            "seq": len(events),
            "kind": "arranged",
            "side": SIDES[side],
            "card": uid[card],
            "top": [uid[c] for c in top],
            "bottom": [uid[c] for c in bottom],
        }
        events.append(event)

    def fans(self, side: int, n: int, card: int, total: int) -> None:
        events = self.events
        event: Fans = {
            "seq": len(events),
            "kind": "fans",
            "side": SIDES[side],
            "n": n,
            "card": self.uid[card],
            "total": total,
        }
        self.stated(event, side, -1)
        events.append(event)

    def question(
        self, q: int, side: int, q_kind: str, card: int, options: list[Any], least: int, most: int
    ) -> None:
        """Question ``q`` (``options`` as shown: uids, seats, "top"/"bottom")."""
        events = self.events
        event: QuestionAsked = {
            "seq": len(events),
            "kind": "question",
            "q": q,
            "side": SIDES[side],
            "q_kind": q_kind,
            "card": self.uid[card],
            "options": options,
            "min": least,
            "max": most,
        }
        events.append(event)

    def answer(self, q: int, side: int, answer: list[object]) -> None:
        events = self.events
        event: Answer = {
            "seq": len(events),
            "kind": "answer",
            "q": q,
            "side": SIDES[side],
            "answer": answer,
        }
        events.append(event)

    def end(self, winner: int, reason: str, unplaced: Sequence[int]) -> None:
        """``unplaced``: the loser's cards no bench seat could take."""
        events = self.events
        event: End = {"seq": len(events), "kind": "end", "winner": SIDES[winner], "reason": reason}
        if unplaced:
            event["unplaced"] = [self.uid[card] for card in unplaced]
        self.stated(event, 1 - winner, -1)
        events.append(event)
