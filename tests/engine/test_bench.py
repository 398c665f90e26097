"""The engine benchmark: its setups are the ones the issue describes, and it prints figures."""

from __future__ import annotations

import json

import pytest

from matches.engine import native
from matches.engine.bench import main, mixed_setups, starter_setups
from matches.engine.cards import load_catalogue


def test_mixed_setups_are_round_7_decks_of_14_to_18_a_b_c_cards_with_the_rest_in_the_piles() -> (
    None
):
    specs = load_catalogue()
    for setup in mixed_setups(20, seed=3):
        assert setup.round == 7
        sizes = [len(setup.decks[side]) for side in "AB"]
        assert all(14 <= size <= 18 for size in sizes)
        cards = [ref for side in "AB" for ref in setup.decks[side]]
        cards += [ref for level in "ABC" for ref in setup.piles[level]]
        assert len({uid for uid, _ in cards}) == len(cards)
        assert {specs[key].level for _, key in cards} == {"A", "B", "C"}
        assert all(specs[key].level == level for level in "ABC" for _, key in setup.piles[level])


def test_starter_setups_are_two_base_starter_decks() -> None:
    (setup,) = starter_setups(1)
    assert [key for _, key in setup.decks["A"]] == [key for _, key in setup.decks["B"]]
    assert len(setup.decks["A"]) == 6


def test_the_json_figures_are_matches_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", "-n", "30", "--repeat", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures.pop("engine") == native.kind()
    assert set(figures) == {"starter_fast", "starter_recorded", "mixed_fast", "mixed_recorded"}
    assert all(value > 0 for value in figures.values())


def test_only_plays_and_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--only", "5", "-n", "5"]) == 0
    assert capsys.readouterr().out == ""


def test_compare_measures_the_pure_and_the_compiled_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not native.build_current():
        pytest.skip(
            "No current compiled engine (no C compiler, or sources changed since the build)"
        )
    assert main(["--compare", "1", "--json", "-n", "20", "--repeat", "1"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert set(compared) == {"pure", "compiled", "ratio"}
    assert set(compared["ratio"]) == set(compared["pure"]) == set(compared["compiled"])
    assert all(value > 0 for value in compared["ratio"].values())
