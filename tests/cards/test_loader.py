"""load_catalogue is idempotent and never silently overwrites a curated edit."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.catalogue import CATALOGUE_PATH, CatalogueError, LoadReport, catalogue_load
from cards.models import Card


def _run(*args: str) -> str:
    out = StringIO()
    call_command("load_catalogue", *args, stdout=out)
    return out.getvalue()


def test_a_second_run_changes_nothing(catalogue: LoadReport) -> None:
    report = catalogue_load()
    assert (report.cards.created, report.cards.updated, report.cards.unchanged) == (0, 0, 163)
    assert (report.sets.created, report.sets.updated, report.sets.unchanged) == (0, 0, 17)


@pytest.mark.django_db
def test_the_command_reports_its_counts() -> None:
    assert "Cards: 163 created, 0 updated, 0 unchanged" in _run()
    assert "Cards: 0 created, 0 updated, 163 unchanged" in _run()


def test_an_edit_that_is_not_curated_is_restored_from_the_file(catalogue: LoadReport) -> None:
    Card.objects.filter(name="Submarine").update(power=7)
    report = catalogue_load()
    assert report.cards.updated == 1
    assert Card.objects.get(name="Submarine").power == 9


def test_a_curated_edit_is_skipped_and_reported(catalogue: LoadReport) -> None:
    Card.objects.filter(name="Submarine").update(power=7, curated=True)
    output = _run()
    assert "1 skipped (curated)" in output
    assert "skipped, curated in admin: Shipwreck / Submarine" in output
    assert Card.objects.get(name="Submarine").power == 7


def test_force_overwrites_a_curated_edit_and_clears_the_mark(catalogue: LoadReport) -> None:
    Card.objects.filter(name="Submarine").update(power=7, curated=True)
    assert "1 updated" in _run("--force")
    submarine = Card.objects.get(name="Submarine")
    assert (submarine.power, submarine.curated) == (9, False)


def test_a_card_missing_from_the_file_is_kept_and_reported(
    catalogue: LoadReport, tmp_path: Path
) -> None:
    data = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    data["cards"] = [c for c in data["cards"] if c["name"] != "Submarine"]
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    output = _run("--file", str(path))
    assert "in the database but not in the file (kept): Shipwreck / Submarine" in output
    assert Card.objects.filter(name="Submarine").exists()


@pytest.mark.django_db
def test_a_file_with_a_bad_card_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    data = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    submarine = next(c for c in data["cards"] if c["name"] == "Submarine")
    submarine["power"] = 12  # over the base box's level C cap of 10
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match="Submarine"):
        _run("--file", str(path))
    assert not Card.objects.exists()


def _with_reporter_params(tmp_path: Path, params: object) -> Path:
    data = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    reporter = next(c for c in data["cards"] if c["name"] == "Reporter")
    reporter["effect_params"] = params
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"n": "two"}, "parameter 'n' must be a whole number, not 'two'"),
        ({"n": -5}, "parameter 'n' must be from 1 to 10, not -5"),
        ({"bottom": 1}, "parameter 'n' is required"),
    ],
)
def test_a_file_with_a_bad_effect_parameter_is_refused_naming_the_card_and_parameter(
    tmp_path: Path, params: object, message: str
) -> None:
    path = _with_reporter_params(tmp_path, params)
    with pytest.raises(CatalogueError) as caught:
        catalogue_load(path=path)
    assert str(caught.value).startswith("City / Reporter: Reporter: Effect 'arrange_top': ")
    assert message in str(caught.value)
    with pytest.raises(CommandError, match=r"City / Reporter: .*parameter 'n'"):
        _run("--file", str(path))
    assert not Card.objects.exists()


def test_a_reload_with_a_bad_effect_parameter_keeps_the_loaded_card(
    catalogue: LoadReport, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match="Reporter"):
        _run("--file", str(_with_reporter_params(tmp_path, {"n": "two"})))
    assert Card.objects.get(name="Reporter").effect_params == {"n": 2, "bottom": 1}
