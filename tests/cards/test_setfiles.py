"""Card sets as files: a curator exports a set, edits the file, sees what an import would change
(a dry run), imports it under the catalogue's rules, and exports the same file again."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from cards.catalogue import CATALOGUE_PATH, LoadReport, catalogue_load
from cards.models import Card, CardSet


def _export(*names: str) -> dict[str, Any]:
    out = StringIO()
    call_command("export_sets", *names, stdout=out)
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def _import(path: Path, *args: str) -> str:
    out = StringIO()
    call_command("load_catalogue", "--file", str(path), "--only-its-sets", *args, stdout=out)
    return out.getvalue()


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_an_exported_set_holds_the_catalogues_own_rows(catalogue: LoadReport) -> None:
    shipped = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    exported = _export("Castle")
    assert [row["name"] for row in exported["sets"]] == ["Castle"]
    wanted = [row for row in shipped["cards"] if row["set"] == "Castle"]
    assert len(exported["cards"]) == len(wanted) > 0
    for ours, theirs in zip(exported["cards"], wanted, strict=True):
        optional = ("note", "copies_per_starter_deck")
        assert ours == {**theirs, **{name: theirs.get(name) for name in optional}}


def test_a_curators_round_trip_dry_run_then_import(catalogue: LoadReport, tmp_path: Path) -> None:
    data = _export("Castle")
    untouched = _import(_write(tmp_path, data), "--dry-run")
    assert "Card sets: 0 created, 0 updated, 1 unchanged" in untouched  # its position kept
    assert "Cards: 0 created, 0 updated, 11 unchanged" in untouched
    card = data["cards"][0]
    old_power = card["power"]
    card["power"] = old_power + 1
    card["effect"] = "Gain 1 fan."
    card["i18n"] = {**card["i18n"], "ru": {**card["i18n"].get("ru", {}), "name": "Проба"}}
    path = _write(tmp_path, data)

    shown = _import(path, "--dry-run")
    assert "Dry run: nothing was changed" in shown
    assert f"changed: Castle / {card['name']}" in shown
    assert f"power: {old_power} -> {old_power + 1}" in shown
    assert "not in the file" not in shown.replace("0 not in the file", "")  # other sets' rows
    assert Card.objects.get(card_set__name="Castle", name=card["name"]).power == old_power

    assert "1 updated" in _import(path)
    stored = Card.objects.get(card_set__name="Castle", name=card["name"])
    assert (stored.power, stored.effect, stored.translations["ru"]["name"]) == (
        old_power + 1,
        "Gain 1 fan.",
        "Проба",
    )
    assert _export("Castle") == data  # what was imported exports the same
    assert "0 created, 0 updated" in _import(path)

    # The shipped catalogue's next load (every start of ./scripts/serve) keeps the import: it
    # reverted it before, as it reverts any row no curator marked.
    shipped = catalogue_load()
    assert f"Castle / {card['name']}" in shipped.cards.skipped
    assert Card.objects.get(card_set__name="Castle", name=card["name"]).power == old_power + 1
    card["effect"] = "Gain 2 fans."  # and the curator's next file still goes in
    assert "1 updated" in _import(_write(tmp_path, data))


@pytest.mark.parametrize(
    "change",
    [
        {"level": "S"},  # a starter level in an additional set
        {"power": 30000},  # over the level's cap
        {"timing": "whenever"},  # not a timing
    ],
)
def test_a_file_breaking_a_rule_is_refused_and_changes_nothing(
    catalogue: LoadReport, tmp_path: Path, change: dict[str, Any]
) -> None:
    data = _export("Castle")
    data["sets"][0]["name"] = "Castle Copy"
    for row in data["cards"]:
        row["set"] = "Castle Copy"
    data["cards"][-1].update(change)
    with pytest.raises(CommandError):
        _import(_write(tmp_path, data))
    assert not CardSet.objects.filter(name="Castle Copy").exists()
    assert not Card.objects.filter(card_set__name="Castle Copy").exists()


def test_a_new_set_from_a_file_is_created_whole(catalogue: LoadReport, tmp_path: Path) -> None:
    data = _export("Castle")
    data["sets"][0]["name"] = "Castle Copy"
    for row in data["cards"]:
        row["set"] = "Castle Copy"
    output = _import(_write(tmp_path, data))
    assert "Card sets: 1 created" in output
    assert Card.objects.filter(card_set__name="Castle Copy").count() == len(data["cards"])


def test_an_unknown_set_is_named(catalogue: LoadReport) -> None:
    with pytest.raises(CommandError, match="Nowhere"):
        _export("Castle", "Nowhere")


def test_the_admin_exports_chosen_sets_as_a_download(
    catalogue: LoadReport, admin_client: Client
) -> None:
    castle = CardSet.objects.get(name="Castle")
    response = admin_client.post(
        "/admin/cards/cardset/",
        {"action": "export", "_selected_action": [castle.pk]},
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="castle.json"'
    assert json.loads(response.content) == _export("Castle")
