"""Card tables: every spec compiled once into flat per-spec lists the match loop indexes by int.

A table depends on the specs, the sets in play (Rainbow icons) and the round number (the Cyborg's
power). It is cached for those three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.engine.cards import RAINBOW, CardSpec
from matches.engine.codes import PICKED_CODES
from matches.engine.effects import HANDLERS

TRIGGER_TIMINGS = ("on_reveal", "takes_flag", "flag_loss", "no_flag_win")
_CACHE: dict[tuple[int, frozenset[str], int], tuple[Mapping[str, CardSpec], Table]] = {}
_CACHE_SIZE = 64


class Table:
    """Per-spec facts and compiled effects, indexed by spec index."""

    def __init__(
        self, specs: Mapping[str, CardSpec], sets_in_play: frozenset[str], round_number: int
    ) -> None:
        self.round_number = round_number
        self.sets_in_play = sets_in_play
        ordered = list(specs.values())
        self.specs = ordered
        self.keys = [s.key for s in ordered]
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.names = [s.name for s in ordered]
        self.codes = [s.effect_code for s in ordered]
        self.bench_label = [f"bench:{k}" for k in self.keys]
        self.levels = [s.level for s in ordered]
        self.base = [round_number if s.power_is_round else s.power for s in ordered]
        self.icons = [s.icons & sets_in_play if s.set == RAINBOW else s.icons for s in ordered]
        self.seat_name = [s.name for s in ordered]  # a bench seat holds one name
        self.width = [1] * len(ordered)
        self.factor = [1] * len(ordered)  # multiplies every bonus (Streamer: 2)
        self.bench_redirect = [False] * len(ordered)
        self.exhaust_redirect = [False] * len(ordered)
        none: list[Any] = [None] * len(ordered)
        self.triggers: dict[str, list[Any]] = {t: list(none) for t in TRIGGER_TIMINGS}
        self.on_reveal = self.triggers["on_reveal"]
        self.takes_flag = self.triggers["takes_flag"]
        self.flag_loss = self.triggers["flag_loss"]
        self.no_flag_win = self.triggers["no_flag_win"]
        self.attack_fn: list[Any] = list(none)
        self.flag_fn: list[Any] = list(none)
        self.watch: list[Any] = list(none)
        self.aura: list[Any] = list(none)
        self.is_aura = [False] * len(ordered)
        self.has_effect = [False] * len(ordered)
        self._compile(ordered)
        # The attack loop's shortcuts (``Match._attack``): a card whose power while attacking
        # (holding the flag) is its base plus the bonuses it was revealed with — no bonus effect
        # of its own, no factor —, and an ordinary bench card: one seat wide, not redirected, no
        # From the bench bonus.
        self.no_attack_bonus = [
            bonus is None and factor == 1
            for bonus, factor in zip(self.attack_fn, self.factor, strict=True)
        ]
        self.no_flag_bonus = [
            bonus is None and factor == 1
            for bonus, factor in zip(self.flag_fn, self.factor, strict=True)
        ]
        self.ordinary_bench_card = [
            not (redirect or aura) and width == 1
            for redirect, aura, width in zip(
                self.bench_redirect, self.is_aura, self.width, strict=True
            )
        ]

    def _compile(self, ordered: list[CardSpec]) -> None:
        """Static rules first: they change base powers and seats that filters read."""
        skip = (None, *PICKED_CODES)
        coded = [(i, s) for i, s in enumerate(ordered) if s.effect_code not in skip]
        for i, s in coded:
            slot, factory = HANDLERS[str(s.effect_code)]
            if slot == "static":
                factory(s.effect_params, self)(self, i)
        for i, s in coded:
            slot, factory = HANDLERS[str(s.effect_code)]
            if slot != "static":
                self._place(i, s, slot, factory(s.effect_params, self))

    def _place(self, i: int, spec: CardSpec, slot: str, compiled: object) -> None:
        self.has_effect[i] = True
        if slot == "trigger":
            timing = spec.timing if spec.timing in TRIGGER_TIMINGS else "on_reveal"
            self.triggers[timing][i] = compiled
        elif slot == "attack":
            self.attack_fn[i] = compiled
        elif slot == "flag":
            self.flag_fn[i] = compiled
        elif slot == "watch":
            self.watch[i] = compiled
        elif slot == "aura":
            self.aura[i] = compiled
            self.is_aura[i] = True


def get_table(
    specs: Mapping[str, CardSpec], sets_in_play: frozenset[str], round_number: int
) -> Table:
    """The cached table for these specs, sets and round.

    Specs are cached by identity."""
    key = (id(specs), sets_in_play, round_number)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is specs:
        return hit[1]
    table = Table(specs, sets_in_play, round_number)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (specs, table)
    return table
