"""Question kinds, their prompts, and the check an answer must pass.

An answer is a list of options. For ``arrange_top`` it is a permutation of all options. Otherwise it
is ``min`` to ``max`` distinct options.
"""

from __future__ import annotations

from collections.abc import Sequence

from matches.engine.model import InvalidAnswer, Question

PROMPTS: dict[str, str] = {
    "bench_to_exhaust": "Choose bench cards to move to the exhaust pile.",
    "bench_to_deck_top": "Choose bench cards to put on top of the deck.",
    "bench_remove": "Choose bench cards to remove from the game.",
    "seat_to_exhaust": "Choose a bench seat: every card in it goes to your exhaust pile.",
    "power_per_card_in_seat": "Choose a bench seat: this card gets +1 power per card in it.",
    "search_deck": "Choose a card of your deck.",
    "arrange_top": "Order these cards (first = top).",
    "peek_move": "Put this card on top or at the bottom of your deck.",
    "exhaust_to_deck": "Choose a card of your exhaust pile to put into your deck.",
    "freeze": "Freeze this card in a frozen seat (choose one) or bench it (choose none).",
}
PERMUTATION_KINDS = frozenset({"arrange_top"})


def check_answer(q: Question, answer: object) -> list[object]:
    """The answer as a list; ``InvalidAnswer`` if ``q`` does not allow it."""
    if isinstance(answer, str | bytes) or not isinstance(answer, Sequence):
        raise InvalidAnswer("bad_kind", f"Answer question {q.seq} with a list of options.")
    chosen = list(answer)
    for value in chosen:
        if value not in q.options:
            raise InvalidAnswer("not_offered", f"{value!r} is not an option of question {q.seq}.")
    if len(set(chosen)) != len(chosen):
        raise InvalidAnswer("duplicate", f"An option was chosen twice in question {q.seq}.")
    if q.kind in PERMUTATION_KINDS:
        if len(chosen) != len(q.options):
            raise InvalidAnswer("not_a_permutation", f"Order all options of question {q.seq}.")
        return chosen
    if len(chosen) > q.max:
        raise InvalidAnswer("too_many", f"Choose at most {q.max} option(s) in question {q.seq}.")
    if len(chosen) < q.min:
        raise InvalidAnswer("too_few", f"Choose at least {q.min} option(s) in question {q.seq}.")
    return chosen
