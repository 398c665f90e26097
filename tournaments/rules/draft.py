"""One seat's Deck Phase as a pure state machine (rules.md §2.2).

``DraftTurn`` holds what the seat did this phase. Each action checks the phase rules. It changes the
turn, the seat's deck and the piles in memory. It returns what happened. The service loads the rows,
calls one action under a lock, and saves. Every refusal is a coded ``RuleError``. It is raised
before anything changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from tournaments.rules.data import DraftOption
from tournaments.rules.errors import RuleError, gettext_noop
from tournaments.rules.piles import Pile
from tournaments.rules.when_picked import CardFacts, Obligation, obligations_for

DISPLAY_SIZE = 5


@dataclass(slots=True)
class DraftTurn:
    """A seat's progress through one Deck Phase."""

    options: tuple[DraftOption, ...]
    option: int | None = None
    display: list[int] = field(default_factory=list)
    drawn: bool = False
    picks_left: int = 0
    redraw_used: bool = False
    picked: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    offered: list[int] = field(default_factory=list)  # every card its displays showed
    obligations: list[Obligation] = field(default_factory=list)
    finished: bool = False
    # Every action taken, as [name, arguments]: published once the seed is (the replay), so a
    # verifier re-takes the Deck Phase from the seed (docs/protocol.md §15).
    moves: list[list[Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.option is None and len(self.options) == 1:
            self.option = 0
            self.picks_left = self.options[0].count

    @property
    def chosen(self) -> DraftOption | None:
        return None if self.option is None else self.options[self.option]


@dataclass(slots=True)
class Table:
    """What a turn may change besides itself: the seat's deck, the piles and the card facts."""

    deck: list[int]
    piles: dict[str, Pile]
    cards: Mapping[int, CardFacts]
    rng: random.Random
    fans: int = 0
    left_game: list[int] = field(default_factory=list)


def _require(condition: bool, code: str, message: str, **details: object) -> None:
    if not condition:
        raise RuleError(code, message, **details)


def _open(turn: DraftTurn) -> None:
    _require(
        not turn.finished,
        "already_finished",
        gettext_noop("This seat has finished its Deck Phase."),
    )


def draft_choose(turn: DraftTurn, table: Table, *, option: int) -> None:
    """Choose the round's option (pile and count) before drawing."""
    _open(turn)
    _require(len(turn.options) > 1, "no_choice", gettext_noop("This round offers a single option."))
    _require(not turn.drawn, "already_drawn", gettext_noop("The option is chosen before drawing."))
    _require(turn.option is None, "already_chosen", gettext_noop("The option is already chosen."))
    _require(
        0 <= option < len(turn.options),
        "bad_option",
        gettext_noop("No such option."),
        option=option,
    )
    turn.option = option
    turn.picks_left = turn.options[option].count
    table.fans += turn.options[option].fans


def draft_draw(turn: DraftTurn, table: Table) -> list[int]:
    """Draw the secret display of five from the chosen pile."""
    _open(turn)
    chosen = turn.chosen
    _require(chosen is not None, "choose_first", gettext_noop("Choose an option before drawing."))
    _require(not turn.drawn, "already_drawn", gettext_noop("The display is already drawn."))
    assert chosen is not None
    turn.display = table.piles[chosen.pile].draw(DISPLAY_SIZE, table.rng)
    turn.offered.extend(turn.display)
    turn.drawn = True
    _settle_display(turn, table)
    return list(turn.display)


def draft_redraw(turn: DraftTurn, table: Table) -> list[int]:
    """Throw back the display and draw as many again, once per phase."""
    _open(turn)
    _require(
        turn.drawn and turn.picks_left > 0,
        "nothing_to_redraw",
        gettext_noop("There is no display."),
    )
    _require(
        not turn.redraw_used, "redraw_used", gettext_noop("The redraw is used once per Deck Phase.")
    )
    _require(
        not turn.obligations, "obligation_pending", gettext_noop("Resolve the picked card first.")
    )
    pile = table.piles[_pile_of(turn)]
    thrown = turn.display
    turn.display = pile.draw(len(thrown), table.rng)
    turn.offered.extend(turn.display)
    pile.put_back(thrown)
    turn.redraw_used = True
    _settle_display(turn, table)
    return list(turn.display)


def draft_pick(turn: DraftTurn, table: Table, *, card: int) -> None:
    """Keep one card of the display. Its When picked effect resolves at once."""
    _open(turn)
    _require(turn.drawn, "draw_first", gettext_noop("Draw the display before picking."))
    _require(
        not turn.obligations, "obligation_pending", gettext_noop("Resolve the picked card first.")
    )
    _require(
        turn.picks_left > 0, "no_picks_left", gettext_noop("Every pick of this phase is made.")
    )
    _require(
        card in turn.display,
        "not_in_display",
        gettext_noop("That card is not in your display."),
        card=card,
    )
    turn.display.remove(card)
    turn.picks_left -= 1
    _take(turn, table, card)
    _settle_display(turn, table)


def _take(turn: DraftTurn, table: Table, card: int) -> None:
    table.deck.append(card)
    turn.picked.append(card)
    facts = table.cards[card]
    for obligation in obligations_for(card, facts):
        if obligation.fans:
            table.fans += obligation.fans
        else:
            turn.obligations.append(obligation)
    if turn.obligations and turn.obligations[0].kind == "draw_keep":
        _start_draw_keep(turn, table)


def _start_draw_keep(turn: DraftTurn, table: Table) -> None:
    head = turn.obligations[0]
    head.offered = table.piles[head.pile].draw(head.draw, table.rng)
    if not head.offered:
        turn.obligations.pop(0)


def draft_resolve(turn: DraftTurn, table: Table, *, cards: list[int]) -> None:
    """Answer the pending When picked effect.

    Give the cards to remove or keep, or ``[]`` to decline.
    """
    _open(turn)
    _require(
        bool(turn.obligations),
        "nothing_pending",
        gettext_noop("No picked card waits for an answer."),
    )
    head = turn.obligations[0]
    head.check(cards, deck=table.deck, cards_facts=table.cards)
    turn.obligations.pop(0)
    if head.kind == "draw_keep":
        kept = cards[0]
        table.piles[head.pile].put_back([uid for uid in head.offered if uid != kept])
        _take(turn, table, kept)
    elif cards:
        _remove_cards(turn, table, cards, permanent=head.permanent)
        turn.picks_left += head.extra_picks
    if turn.obligations and turn.obligations[0].kind == "draw_keep":
        _start_draw_keep(turn, table)
    _settle_display(turn, table)


def deck_remove(turn: DraftTurn, table: Table, *, cards: list[int]) -> None:
    """Remove cards from the deck after the picks.

    S cards leave; A/B/C cards go to their discard.
    """
    _open(turn)
    _require(
        turn.picks_left == 0 and turn.drawn, "picks_first", gettext_noop("Make your picks first.")
    )
    _require(
        not turn.obligations, "obligation_pending", gettext_noop("Resolve the picked card first.")
    )
    _require(bool(cards), "no_cards", gettext_noop("Name at least one card to remove."))
    _require(
        len(set(cards)) == len(cards), "duplicate_card", gettext_noop("A card is named twice.")
    )
    missing = [uid for uid in cards if uid not in table.deck]
    _require(
        not missing, "not_in_deck", gettext_noop("Those cards are not in your deck."), cards=missing
    )
    _remove_cards(turn, table, cards)


def _remove_cards(
    turn: DraftTurn, table: Table, cards: list[int], *, permanent: bool = False
) -> None:
    for uid in cards:
        table.deck.remove(uid)
        turn.removed.append(uid)
        level = table.cards[uid].level
        if level in table.piles and not permanent:
            table.piles[level].put_back([uid])
        else:
            table.left_game.append(uid)


def deck_finish(turn: DraftTurn, table: Table) -> None:
    """Confirm the deck. Optional When picked effects still waiting are declined."""
    _open(turn)
    _require(turn.drawn, "draw_first", gettext_noop("Draw and pick before finishing."))
    _require(
        turn.picks_left == 0,
        "picks_left",
        gettext_noop("Make every pick first."),
        picks=turn.picks_left,
    )
    mandatory = [o for o in turn.obligations if o.is_mandatory(table.deck, table.cards)]
    _require(
        not mandatory,
        "obligation_pending",
        gettext_noop("A picked card's effect must be resolved."),
    )
    turn.obligations.clear()
    _settle_display(turn, table)
    turn.finished = True


PUBLIC_PROGRESS = {
    "choose": "chose",
    "draw": "drew",
    "redraw": "redrew",
    "pick": "picked",
    "resolve": "picked",
    "remove": "removed",
    "finish": "finished",
}
"""What the other seats may know of an action (the log's ``seat_progress``): that it was taken,
never what it saw or took."""


TURN_ACTIONS = ("resolve", "choose", "draw", "pick", "redraw", "remove", "finish")
"""Every action ``available_actions`` may offer."""


def available_actions(turn: DraftTurn) -> list[str]:
    """The actions this turn offers now, in the order a seat takes them.

    Each is one the action functions above accept now. A waiting When picked effect comes first.
    ``remove`` and ``finish`` come once every pick is made.
    """
    if turn.finished:
        return []
    if turn.obligations:
        return ["resolve"]
    if turn.option is None and turn.options:
        return ["choose"]
    if not turn.drawn:
        return ["draw"]
    if turn.picks_left:
        return ["pick"] if turn.redraw_used else ["pick", "redraw"]
    return ["remove", "finish"]


def _pile_of(turn: DraftTurn) -> str:
    chosen = turn.chosen
    assert chosen is not None
    return chosen.pile


def _settle_display(turn: DraftTurn, table: Table) -> None:
    """Put the unkept display back once no pick can come from it."""
    if not turn.display and turn.drawn:
        turn.picks_left = 0
    if turn.picks_left == 0 and not turn.obligations and turn.display:
        table.piles[_pile_of(turn)].put_back(turn.display)
        turn.display = []


ACTIONS: dict[str, Any] = {
    "choose": draft_choose,
    "draw": draft_draw,
    "redraw": draft_redraw,
    "pick": draft_pick,
    "resolve": draft_resolve,
    "remove": deck_remove,
    "finish": deck_finish,
}
"""Every Deck Phase action by name, as a seat (over the API) or the bot policy names it."""


class ObligationData(TypedDict):
    """An ``Obligation`` as stored (``obligation_to_data``): every field but ``permanent``."""

    kind: str
    source: int
    fans: NotRequired[int]
    count: NotRequired[int]
    extra_picks: NotRequired[int]
    match: NotRequired[dict[str, object]]
    pile: NotRequired[str]
    draw: NotRequired[int]
    offered: list[int]


class TurnData(TypedDict):
    """A ``DraftTurn`` as stored on its row (``turn_to_data``).

    An option is [pile, count, fans].
    """

    options: list[list[str | int]]
    option: int | None
    display: list[int]
    drawn: bool
    picks_left: int
    redraw_used: bool
    picked: list[int]
    removed: list[int]
    offered: NotRequired[list[int]]  # rows stored before it was kept lack it
    obligations: list[ObligationData]
    finished: bool
    moves: NotRequired[list[list[object]]]  # so do rows stored before the moves were kept


def turn_to_data(turn: DraftTurn) -> TurnData:
    """A turn's JSON form, as stored on its row."""
    return {
        "options": [[o.pile, o.count, o.fans] for o in turn.options],
        "option": turn.option,
        "display": list(turn.display),
        "drawn": turn.drawn,
        "picks_left": turn.picks_left,
        "redraw_used": turn.redraw_used,
        "picked": list(turn.picked),
        "removed": list(turn.removed),
        "offered": list(turn.offered),
        "obligations": [obligation_to_data(o) for o in turn.obligations],
        "finished": turn.finished,
        "moves": [list(move) for move in turn.moves],
    }


def turn_from_data(data: TurnData) -> DraftTurn:
    """Read a stored turn back."""
    return DraftTurn(
        options=tuple(DraftOption(str(p), int(c), int(f)) for p, c, f in data["options"]),
        option=data["option"],
        display=list(data["display"]),
        drawn=bool(data["drawn"]),
        picks_left=int(data["picks_left"]),
        redraw_used=bool(data["redraw_used"]),
        picked=list(data["picked"]),
        removed=list(data["removed"]),
        offered=list(data.get("offered", [])),  # rows stored before it was kept
        obligations=[obligation_from_data(o) for o in data["obligations"]],
        finished=bool(data["finished"]),
        moves=[list(move) for move in data.get("moves", [])],  # rows stored before they were kept
    )


def obligation_to_data(obligation: Obligation) -> ObligationData:
    return {
        "kind": obligation.kind,
        "source": obligation.source,
        "fans": obligation.fans,
        "count": obligation.count,
        "extra_picks": obligation.extra_picks,
        "match": dict(obligation.match),
        "pile": obligation.pile,
        "draw": obligation.draw,
        "offered": list(obligation.offered),
    }


def obligation_from_data(data: ObligationData) -> Obligation:
    copied: ObligationData = {**data, "offered": list(data["offered"])}
    return Obligation(**copied)


def final_turn() -> DraftTurn:
    """A finalist's turn before the Final: no cards are drafted, removal only."""
    return DraftTurn(options=(), drawn=True)
