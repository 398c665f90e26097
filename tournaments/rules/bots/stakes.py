"""What a champion plays for: the fans at stake against each rival.

This is the fan race. The next rival is worth this round's trophies' mean fans. The other rivals
share what the later rounds are worth (their trophies' mean fans). They share the Final too. The
Final decides the game whatever the fans (``FINAL_WORTH``).

In a 1-2 seat game the one rival is worth everything. The seat may be near the 11-fan lead. Then the
next match is worth the lead as well: winning it may end the game at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean

from tournaments.rules.data import ROUNDS, trophy_fans

FINAL_WORTH = 20.0
LEAD = 11


def round_worth(round_number: int) -> float:
    return float(mean(trophy_fans(round_number))) if 1 <= round_number <= ROUNDS else 0.0


def rival_weights(
    *, round_number: int, next_rival: int, others: Sequence[int], lead: int | None = None
) -> dict[int, float]:
    """Each rival seat's weight this Deck Phase.

    ``lead`` is the seat's fan lead (1-2 seat games).
    """
    now = round_worth(round_number)
    if lead is not None and abs(lead) + now >= LEAD:
        now += LEAD
    weights = {next_rival: now or FINAL_WORTH}
    later = [r for r in others if r != next_rival]
    if later and round_number < ROUNDS:
        future = sum(round_worth(n) for n in range(round_number + 1, ROUNDS + 1)) + FINAL_WORTH
        for rival in later:
            weights[rival] = future / len(later) / (ROUNDS - round_number)
    return weights
