"""When picked effects (rules.md §2.2 step 5), as obligations a Deck Phase turn must settle.

A card's catalogue effect code says which obligation it creates. The match engine never sees these
codes. A "permanent" removal takes the card out of the game. It does not go back to its pile's
discard, as a Deck Phase removal does.

**Decision:** the card that triggers an effect cannot be the card removed to pay for it. Else
Shapeshifter would trade itself for a pick.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tournaments.rules.errors import RuleError, gettext_noop

RAINBOW = "Rainbow"


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the Deck Phase needs to know of a physical card."""

    key: str
    level: str
    power: int
    set: str
    effect_code: str | None = None
    effect_params: Mapping[str, Any] = field(default_factory=dict)


PENDING_KINDS = ("remove_for_pick", "must_remove", "draw_keep")
"""The kinds of an obligation that waits for its owner (``fans`` is counted at once)."""


@dataclass(slots=True)
class Obligation:
    """A When picked effect waiting for its owner's answer."""

    kind: str  # "fans" | "remove_for_pick" | "must_remove" | "draw_keep"
    source: int
    fans: int = 0
    count: int = 1
    extra_picks: int = 0
    match: Mapping[str, Any] = field(default_factory=dict)
    pile: str = "A"
    draw: int = 0
    offered: list[int] = field(default_factory=list)
    permanent: bool = False

    def eligible(self, deck: list[int], cards: Mapping[int, CardFacts]) -> list[int]:
        """The deck cards this obligation may remove."""
        return [uid for uid in deck if uid != self.source and matches(cards[uid], self.match)]

    def is_mandatory(self, deck: list[int], cards: Mapping[int, CardFacts]) -> bool:
        if self.kind == "draw_keep":
            return True
        return self.kind == "must_remove" and len(self.eligible(deck, cards)) >= self.count

    def check(
        self, answer: list[int], *, deck: list[int], cards_facts: Mapping[int, CardFacts]
    ) -> None:
        """Refuse an answer this obligation cannot take (raises ``RuleError``)."""
        if self.kind == "draw_keep":
            if len(answer) != 1 or answer[0] not in self.offered:
                raise RuleError(
                    "not_offered", gettext_noop("Keep exactly one of the offered cards.")
                )
            return
        if not answer:
            if self.is_mandatory(deck, cards_facts):
                raise RuleError("required", gettext_noop("This card's effect is not optional."))
            return
        eligible = self.eligible(deck, cards_facts)
        if len(set(answer)) != self.count or len(answer) != self.count:
            raise RuleError(
                "wrong_count", gettext_noop("Name exactly %(count)s card(s)."), count=self.count
            )
        if any(uid not in eligible for uid in answer):
            raise RuleError("not_eligible", gettext_noop("That card cannot pay for this effect."))


def matches(facts: CardFacts, match: Mapping[str, object]) -> bool:
    """Whether a card satisfies a catalogue filter.

    ``matches.engine.codes`` documents the keys. ``set`` means "carries that set's icon". A Rainbow
    card carries every icon (rules.md §5).
    """
    checks = (
        ("name", lambda v: facts.key.split("/", 1)[-1] == v),
        ("set", lambda v: facts.set in (v, RAINBOW)),
        ("level", lambda v: facts.level == v),
        ("power", lambda v: facts.power == int(v)),
        ("min_power", lambda v: facts.power >= int(v)),
        ("max_power", lambda v: facts.power <= int(v)),
    )
    return all(test(match[name]) for name, test in checks if name in match)


def obligations_for(uid: int, facts: CardFacts) -> list[Obligation]:
    """The obligations picking this card creates.

    A card without a When picked code creates none.
    """
    params = facts.effect_params
    code = facts.effect_code
    if code == "picked_gain_fans":
        return [Obligation("fans", uid, fans=int(params["n"]))]
    if code in ("picked_remove_for_extra_pick", "picked_must_remove"):
        kind = "remove_for_pick" if code == "picked_remove_for_extra_pick" else "must_remove"
        return [
            Obligation(
                kind,
                uid,
                count=int(params.get("count", 1)),
                extra_picks=1 if kind == "remove_for_pick" else 0,
                match=dict(params.get("filter", {})),
                permanent=bool(params.get("permanent", False)),
            )
        ]
    if code == "picked_draw_keep":
        pile, draw = str(params["pile"]), int(params["draw"])
        return [Obligation("draw_keep", uid, pile=pile, draw=draw)]
    return []
