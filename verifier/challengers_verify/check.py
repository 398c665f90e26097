"""Re-derive a whole tournament from its revealed seed and its public documents.

Every draw comes from the seed through the repository's own pure rules and pure engine. The rules
(``tournaments.rules``) give the deal, the plan, the trophy stacks and the Winter Park. They also
give the finalists, and each Deck Phase's displays and setups. The engine (``matches.engine``) plays
every match.

The log's order of Deck Phase actions (``seat_progress``) and the replay's moves re-take every Deck
Phase. Each match's setup must be exactly the one the state gives. Each match must re-play to its
events.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from challengers_verify.documents import as_dict, as_dicts, as_int, as_list, as_str
from challengers_verify.entries import card_ref, catalogue_entry, stored_setup
from matches.engine import play_match, verify
from matches.engine.cards import CardSpec, spec_from_entry
from matches.engine.model import MatchResult
from matches.engine.stored import setup_from_data
from tournaments.rules import draft
from tournaments.rules.data import FINAL_ROUND, ROUNDS, draft_options, parks_for
from tournaments.rules.dealing import deal
from tournaments.rules.errors import RuleError
from tournaments.rules.piles import LEVELS, Pile
from tournaments.rules.plan import ROBOT, compute_plan, places, plan_to_data
from tournaments.rules.seeds import commitment, derive_seed, stream
from tournaments.rules.setups import Side, match_setup, pile_shares
from tournaments.rules.standings import (
    Standing,
    finalists,
    lead_winner,
    scores,
    winners_after_last_round,
)
from tournaments.rules.trophies import deal_trophies
from tournaments.rules.when_picked import CardFacts
from tournaments.rules.winter import NORMAL, OFF, next_winter_index, park_kind

CITY = "City"


class Forged(Exception):
    """A document is not what the seed and the log give.

    The message says which and why."""


@dataclass(slots=True)
class SeatState:
    deck: list[int]
    fans: int = 0
    lost_previous: bool = False
    won: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Options:
    """The tournament's options the rules read, from its view."""

    seat_count: int
    robot: tuple[int, bool]  # its difficulty, the solo challenge
    basic_set: str
    additional_sets: list[str]
    winter_mode: str
    beach_cup: bool


def _options(view: Mapping[str, object]) -> Options:
    given = as_dict(view["options"], "the view's options")
    robot = (as_int(given["robot_difficulty"], "robot_difficulty"), bool(given["solo_challenge"]))
    return Options(
        seat_count=as_int(given["seat_count"], "seat_count"),
        robot=robot,
        basic_set=as_str(given["basic_set"], "basic_set"),
        additional_sets=[as_str(s, "a set") for s in as_list(given["additional_sets"], "sets")],
        winter_mode=as_str(given["winter_mode"], "winter_mode"),
        beach_cup=bool(given["beach_cup"]),
    )


@dataclass(slots=True)
class Tournament:
    """What the verifier holds while it walks the log."""

    seed: int
    options: Options
    specs: dict[str, CardSpec]
    facts: dict[int, CardFacts]
    keys: dict[int, str]
    seats: dict[int, SeatState]
    piles: dict[str, Pile]
    parks: tuple[str, ...]
    stacks: dict[str, list[int]]
    replayed: dict[int, dict[str, object]]
    moves: dict[tuple[int, int], deque[object]]
    round: int = 0
    winter: int = 0
    finalists: tuple[int, int] | None = None
    turns: dict[int, draft.DraftTurn] = field(default_factory=dict)
    taken: dict[int, int] = field(default_factory=dict)
    opened: dict[int, dict[str, object]] = field(default_factory=dict)  # match id: its log entry
    results: dict[int, MatchResult] = field(default_factory=dict)
    kept: list[tuple[str, int, int, int]] = field(default_factory=list)  # park, round, fans, seat
    ending: tuple[str, list[int]] | None = None  # how the rules end it after this round
    champion: int | None = None
    checked: int = 0


Document = Mapping[str, object]


def verify_tournament(
    given: str, view: Document, replay: Document | None, log: Sequence[Document]
) -> str:
    """The verdict's text when every check holds.

    Raises ``Forged`` naming the first check that fails."""
    if view["status"] == "cancelled":
        return _cancelled(given, view, log)
    if replay is None:
        raise Forged("replay: a finished tournament's replay is missing")
    seed = _opened_commitment(given, replay, log)
    state = _start(seed, _options(view), replay)
    for event in _in_order(log):
        _step(state, as_str(event["kind"], "an event's kind"), _payload(event))
    _all_told(state, replay)
    return (
        f"tournament {replay['tournament']}: the commitment opens; the deal, "
        f"{len(state.moves)} seats' Deck Phases, the plan and {state.checked} matches' "
        "setups, seeds, shuffles, events and winners re-derive exactly"
    )


def _in_order(log: Sequence[Document]) -> list[Document]:
    return sorted(log, key=lambda event: as_int(event["seq"], "an event's seq"))


def _payload(event: Document) -> dict[str, object]:
    return as_dict(event.get("payload") or {}, f"the payload of {event.get('kind')}")


def _cancelled(given: str, view: Document, log: Sequence[Document]) -> str:
    """A cancelled tournament: its log ends with the cancel, after the revealed seed.

    The seed must open the commitment you recorded. So a host cannot start, look, cancel and start
    again unseen."""
    kinds = [event["kind"] for event in _in_order(log)]
    if "tournament_cancelled" not in kinds or "seed_revealed" not in kinds:
        raise Forged("cancel: the log of a cancelled tournament shows no cancel and revealed seed")
    if kinds.index("seed_revealed") > kinds.index("tournament_cancelled"):
        raise Forged("cancel: the seed was revealed after the cancel")
    revealed = next(_payload(e) for e in log if e["kind"] == "seed_revealed")
    cancel = next(_payload(e) for e in log if e["kind"] == "tournament_cancelled")
    seed = as_int(revealed["seed"], "the revealed seed")
    if commitment(seed, str(revealed["nonce"])) != given.strip().lower():
        raise Forged(
            "commitment: the revealed seed and nonce do not open the commitment you recorded "
            "in the lobby"
        )
    who = "its host" if cancel["reason"] is None else f"the staff ({cancel['reason']})"
    when = "in the lobby" if cancel["round"] == 0 else f"in round {cancel['round']}"
    return (
        f"tournament {view['id']} was cancelled by {who} {when}: the revealed seed opens "
        "your commitment"
    )


def _opened_commitment(given: str, replay: Document, log: Sequence[Document]) -> int:
    """Forgery (a): a seed and a commitment chosen at the end open each other, not yours."""
    seed, nonce = as_int(replay["seed"], "the replay's seed"), str(replay["nonce"])
    if commitment(seed, nonce) != given.strip().lower():
        raise Forged(
            "commitment: the revealed seed and nonce do not open the commitment you recorded "
            "in the lobby (a seed chosen at the end)"
        )
    for event in log:
        if event["kind"] == "seed_revealed" and _payload(event)["seed"] != replay["seed"]:
            raise Forged("commitment: the log's seed_revealed is not the replay's seed")
    return seed


def _start(seed: int, options: Options, replay: Document) -> Tournament:
    cards = as_dict(replay["cards"], "the replay's cards")
    entries = as_dicts(cards["entries"], "the frozen card data")
    if any("copies" not in entry for entry in entries):
        raise Forged(
            "cards: the frozen card data names no copies (a tournament started before "
            "2026-12 cannot be re-dealt)"
        )
    sets = frozenset(as_str(name, "a set") for name in as_list(cards["all_sets"], "all_sets"))
    typed = [catalogue_entry(entry, "a frozen card") for entry in entries]
    specs = {spec.key: spec for spec in (spec_from_entry(e, sets) for e in typed)}
    count = options.seat_count
    dealt = deal(
        seed,
        entries,
        basic_set=options.basic_set,
        additional_sets=options.additional_sets,
        seats=list(range(count)),
        robot=options.robot if ROBOT in places(count) else None,
    )
    seats = {number: SeatState(list(deck)) for number, deck in dealt.starter.items()}
    if dealt.robot is not None:
        seats[ROBOT] = SeatState(list(dealt.robot))
    parks = parks_for(len(places(count)))
    moves: dict[tuple[int, int], deque[object]] = {}
    for phase in as_dicts(replay.get("deck_phases", []), "the replay's deck phases"):
        where = (as_int(phase["round"], "a deck phase's round"), as_int(phase["seat"], "its seat"))
        moves[where] = deque(as_list(phase["moves"], "a deck phase's moves"))
    return Tournament(
        seed=seed,
        options=options,
        specs=specs,
        facts={uid: _facts(specs[key]) for uid, key in dealt.keys.items()},
        keys=dealt.keys,
        seats=seats,
        piles={level: Pile(level, list(dealt.piles[level])) for level in LEVELS},
        parks=parks,
        stacks=deal_trophies(stream(seed, "trophies"), parks),
        replayed={as_int(m["id"], "a match id"): m for m in as_dicts(replay["matches"], "matches")},
        moves=moves,
    )


def _facts(spec: CardSpec) -> CardFacts:
    return CardFacts(
        spec.key, spec.level, spec.power, spec.set, spec.effect_code, dict(spec.effect_params)
    )


def _step(state: Tournament, kind: str, payload: dict[str, object]) -> None:
    handler = HANDLERS.get(kind)
    if handler is not None:
        handler(state, payload)


def _started(state: Tournament, payload: dict[str, object]) -> None:
    plan = plan_to_data(compute_plan(state.options.seat_count))
    if payload["plan"] != plan or tuple(as_list(payload["parks"], "parks")) != state.parks:
        raise Forged("plan: the log's plan (who meets whom) is not the rules' plan")


def _deck_opened(state: Tournament, payload: dict[str, object]) -> None:
    if state.ending is not None:
        raise Forged(f"plan: round {payload['round']} opens after the rules ended the tournament")
    state.round = round_number = as_int(payload["round"], "the round")
    if state.options.winter_mode == NORMAL and 2 <= round_number <= ROUNDS:
        rng = stream(state.seed, "winter", round_number)
        state.winter = next_winter_index(rng, state.winter, len(state.parks))
    if payload["winter_index"] != state.winter:
        raise Forged(f"round {round_number}: the Winter Park is not the one the seed moves")
    final = round_number == FINAL_ROUND
    state.turns, state.taken = {}, {}
    for number in state.seats:
        if number == ROBOT or (final and number not in (state.finalists or ())):
            continue
        options = (
            ()
            if final
            else draft_options(beach_cup=state.options.beach_cup, round_number=round_number)
        )
        state.turns[number] = draft.final_turn() if final else draft.DraftTurn(options)
        state.taken[number] = 0


def _move(move: object, where: str) -> tuple[str, dict[str, object]]:
    """A Deck Phase move of the replay: ``[action, arguments]``."""
    match move:
        case [str() as action, dict() as arguments]:
            return action, arguments
    raise Forged(f"deck phase ({where}): {move!r} is not a move")


def _progress(state: Tournament, payload: dict[str, object]) -> None:
    number, round_number = as_int(payload["seat"], "the seat"), state.round
    where = f"round {round_number}, seat {number}"
    queue = state.moves.get((round_number, number))
    if not queue or number not in state.turns:
        raise Forged(f"deck phase ({where}): the log shows an action the replay's moves lack")
    action, arguments = _move(queue.popleft(), where)
    if draft.PUBLIC_PROGRESS.get(action) != payload["did"]:
        raise Forged(
            f"deck phase ({where}): the move {action!r} is not the log's {payload['did']!r}"
        )
    seat = state.seats[number]
    rng = stream(state.seed, "draft", round_number, number, state.taken[number])
    table = draft.Table(deck=seat.deck, piles=state.piles, cards=state.facts, rng=rng)
    try:
        draft.ACTIONS[action](state.turns[number], table, **arguments)
    except (RuleError, KeyError, TypeError) as error:
        raise Forged(
            f"deck phase ({where}): the rules refuse the move {action} {arguments}: {error}"
        ) from error
    state.taken[number] += 1
    seat.fans += table.fans


def _pairings(state: Tournament) -> list[tuple[str, int, int]]:
    if state.round == FINAL_ROUND:
        if state.finalists is None:
            raise Forged("plan: a Final without finalists")
        mode = state.options.winter_mode
        park = state.parks[0] if mode == OFF else state.parks[state.winter % len(state.parks)]
        return [(park, *state.finalists)]
    plan = compute_plan(state.options.seat_count)
    return [(p.park, p.a, p.b) for p in plan[state.round - 1]]


def _kind(state: Tournament, park: str) -> str:
    mode = state.options.winter_mode
    if state.round == FINAL_ROUND:
        return "normal" if mode == OFF else "winter"
    return park_kind(mode, state.parks, state.winter, park)


def _seats(value: object, what: str) -> tuple[int, int]:
    match value:
        case [int() as a, int() as b]:
            return a, b
    raise ValueError(f"{what}: two seat numbers expected, not {value!r}")


def _match_phase(state: Tournament, payload: dict[str, object]) -> None:
    round_number = state.round
    for number, turn in state.turns.items():
        if not turn.finished or state.moves.get((round_number, number)):
            raise Forged(
                f"deck phase (round {round_number}, seat {number}): its moves do not "
                "end with the phase the log closed"
            )
    matches = as_dicts(payload["matches"], f"round {round_number}'s matches")
    told = [(m["park"], *_seats(m["seats"], "a match's seats")) for m in matches]
    if told != _pairings(state):
        raise Forged(f"plan: round {round_number}'s matches are not the plan's pairings")
    piles = {level: pile.cards for level, pile in state.piles.items()}
    shares = pile_shares(piles, len(matches))
    for entry, share in zip(matches, shares, strict=True):
        _check_match(state, entry, share)


def _check_match(state: Tournament, entry: dict[str, object], share: dict[str, list[int]]) -> None:
    park, (a, b) = as_str(entry["park"], "a park"), _seats(entry["seats"], "a match's seats")
    match_id = as_int(entry["id"], "a match id")
    name = f"match {match_id} (round {state.round}, {park})"
    match = state.replayed.get(match_id)
    if match is None:
        raise Forged(f"left out: {name} of the log is left out of the replay")
    if (match["round"], match["park"], match["seats"]) != (state.round, park, {"A": a, "B": b}):
        raise Forged(f"plan: {name} is not the match the log opened")
    sides: dict[str, Side] = {}
    for side, number in (("A", a), ("B", b)):
        seat = state.seats[number]
        sides[side] = Side(seat.deck, seat.fans, seat.lost_previous, seat.won, number == ROBOT)
    sets = [state.options.basic_set, *state.options.additional_sets]
    expected = match_setup(
        round_number=state.round,
        final=state.round == FINAL_ROUND,
        park_kind=_kind(state, park),
        sides=sides,
        share=share,
        keys=state.keys,
        sets_in_play=sets if CITY in sets else [*sets, CITY],
    )
    _same_setup(name, expected, as_dict(match["setup"], f"{name}'s setup"))
    if as_int(match["seed"], f"{name}'s seed") != derive_seed(
        state.seed, "match", state.round, park
    ):
        raise Forged(f"{name}: its seed is not the one derived from the revealed seed")
    state.results[match_id] = _replayed(state, name, match)
    state.opened[match_id] = entry
    state.checked += 1


def _same_setup(name: str, expected: Document, given: Document) -> None:
    for part in ("decks", "piles"):
        if expected[part] != given.get(part):
            what = "rigged decks" if part == "decks" else "reordered level piles"
            raise Forged(
                f"{what}: {name}'s setup {part} are not the ones the seed and the Deck Phases give"
            )
    for key, value in expected.items():
        if given.get(key) != value:
            raise Forged(f"setup: {name}'s {key} is {given.get(key)!r}, the state gives {value!r}")


def _replayed(state: Tournament, name: str, match: Document) -> MatchResult:
    version = as_int(match["rules_version"], f"{name}'s rules_version")
    stored = stored_setup(as_dict(match["setup"], name), f"{name}'s setup")
    setup = setup_from_data(stored, state.specs, rules_version=version)
    seed = as_int(match["seed"], name)  # a decimal string: the engine takes the number
    answers = as_list(match["answers"], f"{name}'s answers")
    if not verify(setup, seed, answers, as_dicts(match["events"], f"{name}'s events")):
        raise Forged(f"{name}: re-playing it does not give its published events")
    outcome = play_match(setup, seed, {"A": None, "B": None}, answers=answers)
    if not isinstance(outcome, MatchResult):
        raise Forged(f"{name}: its answers stop short of its end")
    return outcome


def _uid(ref: object) -> int:
    """The uid of a pile's ``[uid, key]``."""
    return card_ref(ref, "a pile's card")[0]


def _match_finished(state: Tournament, payload: dict[str, object]) -> None:
    match_id = as_int(payload["match"], "a finished match")
    entry, result = state.opened.get(match_id), state.results.get(match_id)
    if entry is None or result is None:
        raise Forged(f"match {payload['match']}: finished in the log but never opened")
    numbers = dict(zip("AB", _seats(entry["seats"], "a match's seats"), strict=True))
    if numbers[result.winner] != payload["winner"]:
        raise Forged(f"match {payload['match']}: the log's winner is not the re-play's")
    taken = result.piles_taken
    setup = as_dict(state.replayed[match_id]["setup"], f"match {match_id}'s setup")
    share = as_dict(setup["piles"], f"match {match_id}'s piles")
    consumed = {
        _uid(ref)
        for level, refs in share.items()
        for ref in as_list(refs, f"match {match_id}'s {level} pile")[: taken.get(level, 0)]
    }
    for pile in state.piles.values():
        pile.cards = [uid for uid in pile.cards if uid not in consumed]
    decks = result.decks_after
    for side, number in numbers.items():
        seat = state.seats[number]
        seat.deck = list(decks[side])
        seat.fans += int(result.fans_gained.get(side, 0))
        seat.lost_previous = side != result.winner
    winner = numbers[result.winner]
    count = state.options.seat_count
    if state.round == FINAL_ROUND:
        state.champion = winner
    elif not (winner == ROBOT and count > 1):  # the Robot's trophy goes back to the box
        park = as_str(entry["park"], "a park")
        fans = state.stacks[park][state.round - 1]
        state.seats[winner].won.append((state.round, fans))
        state.kept.append((park, state.round, fans, winner))


def _standings(state: Tournament) -> list[Standing]:
    count = state.options.seat_count
    return [
        Standing(seat=n, tokens=s.fans, trophies=tuple(s.won))
        for n, s in sorted(state.seats.items())
        if scores(is_robot=n == ROBOT, seat_count=count)
    ]


def _round_finished(state: Tournament, payload: dict[str, object]) -> None:
    """What the rules do after the round.

    That is the Final's champion, a 1-2 seat game's lead or last round, or the finalists after round
    7."""
    count, standings = state.options.seat_count, _standings(state)
    if state.round == FINAL_ROUND:
        state.ending = ("final", [state.champion or 0])
    elif count <= 2:
        leader = lead_winner(standings)
        if leader is not None:
            state.ending = ("lead", [leader])
        elif state.round == ROUNDS:
            state.ending = ("most_fans", winners_after_last_round(standings))
    elif state.round == ROUNDS:
        state.finalists = finalists(standings, stream(state.seed, "finalists"))


def _trophy(told: Document) -> tuple[str, int, int, int]:
    """A trophy the log says was kept: park, round, fans, seat."""
    park, seat = as_str(told["park"], "a trophy's park"), as_int(told["seat"], "its seat")
    return park, as_int(told["round"], "its round"), as_int(told["fans"], "its fans"), seat


def _finished(state: Tournament, payload: dict[str, object]) -> None:
    """The champion and trophies kept are the ones the re-played matches give."""
    if state.ending != (payload["reason"], as_list(payload["winners"], "the winners")):
        raise Forged(
            f"result: the log's winners {payload['winners']} ({payload['reason']}) are "
            f"not the rules' {state.ending}"
        )
    told = sorted(_trophy(t) for t in as_dicts(payload["trophies"], "the trophies kept"))
    if told != sorted(state.kept):
        raise Forged("result: the trophies kept are not the ones the re-played matches won")


def _all_told(state: Tournament, replay: Document) -> None:
    """Forgery (d) the other way round: nothing in the replay the log never opened."""
    added = sorted(set(state.replayed) - set(state.opened))
    if added:
        raise Forged(f"plan: match {added[0]} of the replay is in no round the log opened")
    left = [key for key, queue in state.moves.items() if queue]
    if left:
        raise Forged(
            f"deck phase (round {left[0][0]}, seat {left[0][1]}): moves the log never took"
        )


HANDLERS: dict[str, Callable[[Tournament, dict[str, object]], None]] = {
    "tournament_started": _started,
    "deck_phase_opened": _deck_opened,
    "seat_progress": _progress,
    "match_phase_opened": _match_phase,
    "match_finished": _match_finished,
    "round_finished": _round_finished,
    "tournament_finished": _finished,
}
