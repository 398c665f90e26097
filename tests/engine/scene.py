"""A small builder for match situations: decks, benches, exhaust piles and the flag as a player
would lay them out, then one opening, one attack or the rest of the match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from matches.engine import Match, MatchSetup, Policy, Position, Question, load_catalogue

COVERED: set[str] = set()
SIDE = {"A": 0, "B": 1}


def covers(*keys: str) -> Any:
    """Mark a test as the unit test of the effect of the cards ``keys``."""
    specs = load_catalogue()
    for key in keys:
        assert key in specs, key
    COVERED.update(keys)

    def mark(fn: Any) -> Any:
        return fn

    return mark


class Scene:
    """A match put in a given position. Card lists are keys; decks are top → bottom, the flag
    stack bottom → top."""

    def __init__(
        self,
        *,
        a: Sequence[str] = (),
        b: Sequence[str] = (),
        bench_a: Sequence[str] = (),
        bench_b: Sequence[str] = (),
        exhaust_a: Sequence[str] = (),
        exhaust_b: Sequence[str] = (),
        flag: tuple[str, Sequence[str]] | None = None,
        piles: Mapping[str, Sequence[str]] | None = None,
        answers: Sequence[Any] = (),
        policies: Mapping[str, Policy | None] | None = None,
        **setup: Any,
    ) -> None:
        self.counter = 0
        decks = {"A": self._refs("A", a), "B": self._refs("B", b)}
        pile_refs = {p: self._refs("P" + p, ks) for p, ks in (piles or {}).items()}
        self.setup = MatchSetup(decks=decks, piles=pile_refs, shuffle=False, **setup)
        position = Position(
            bench={"A": self._refs("A", bench_a), "B": self._refs("B", bench_b)},
            exhaust={"A": self._refs("A", exhaust_a), "B": self._refs("B", exhaust_b)},
            flag=None if flag is None else (flag[0], self._refs(flag[0], flag[1])),
        )
        self.m = Match.at(self.setup, position, policies, answers=answers)
        self.question: Question | None = None  # where the match stopped for a side's answer

    def _refs(self, prefix: str, keys: Iterable[str]) -> tuple[tuple[str, str], ...]:
        refs = []
        for key in keys:
            self.counter += 1
            refs.append((f"{prefix}{self.counter}", key))
        return tuple(refs)

    # ------------------------------------------------------------------ acting

    def _went(self, question: Question | None) -> Scene:
        self.question = question
        return self

    def open(self, side: str) -> Scene:
        """The opening reveal of ``side``."""
        return self._went(self.m.play_opening(side))

    def attack(self) -> Scene:
        """One attack by the side without the flag, up to the flag change."""
        return self._went(self.m.play_attack())

    def play(self) -> Scene:
        """Attacks until the match ends."""
        return self._went(self.m.play_to_end())

    # ------------------------------------------------------------------ looking

    def keys(self, cards: Iterable[int]) -> list[str]:
        return [self.m.key_of(c) for c in cards]

    def deck(self, side: str) -> list[str]:
        """``side``'s deck, top → bottom."""
        return self.keys(reversed(self.m.deck[SIDE[side]]))

    def bench(self, side: str) -> list[list[str]]:
        """``side``'s occupied seats (slot order), each a list of keys."""
        return [self.keys(s[1]) for s in self.m.bench[SIDE[side]] if s is not None and s[0]]

    def bench_keys(self, side: str) -> list[str]:
        return self.keys(self.m.bench_cards(SIDE[side]))

    def exhaust(self, side: str) -> list[str]:
        return self.keys(self.m.exhaust[SIDE[side]])

    def removed(self, side: str) -> list[str]:
        return self.keys(self.m.removed[SIDE[side]])

    def frozen(self, side: str) -> list[list[str]]:
        return [self.keys(seat) for seat in self.m.frozen[SIDE[side]]]

    def flag(self) -> tuple[str, list[str]]:
        """The flag holder and its stack (bottom → top)."""
        return "AB"[self.m.holder], self.keys(self.m.stack)

    def fans(self, side: str) -> int:
        return self.m.fans[SIDE[side]]

    @property
    def winner(self) -> str | None:
        return None if self.m.winner < 0 else "AB"[self.m.winner]

    @property
    def reason(self) -> str:
        return self.m.reason

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.m.events if e["kind"] == kind]

    def power(self, key: str) -> int:
        """The power recorded at the last reveal of a card of design ``key`` (its attack event;
        an opening card's: its flag event)."""
        uids = {self.m.uid[c] for c in range(len(self.m.spec_of)) if self.m.key_of(c) == key}
        attacks = [e for e in self.m.events if e["kind"] == "attack" and e["card"] in uids]
        shown = attacks or [e for e in self.m.events if "power" in e and e["card"] in uids]
        return shown[-1]["power"]

    def totals(self) -> list[tuple[int, int]]:
        """(attack total, defence) after each reveal of the attacks played."""
        return [(e["total"], e["defence"]) for e in self.events("attack")]

    def questions(self) -> list[dict[str, Any]]:
        return self.events("question")
