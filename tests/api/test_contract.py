"""The public contract is committed (``schema/``) and equals what the code serves; a breaking
change against ``schema/released/`` is reported (docs/contract.md)."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.test import Client
from graphql import ObjectTypeDefinitionNode, parse, print_ast

from server import contract


def test_the_committed_schemas_are_the_ones_the_code_serves() -> None:
    out = StringIO()
    try:
        call_command("export_schemas", "--check", stdout=out, stderr=StringIO())
    except SystemExit:  # the diff says what changed: run `manage.py export_schemas`
        pytest.fail(out.getvalue()[:20000])


def test_the_schema_endpoint_serves_the_committed_openapi_document() -> None:
    served = Client().get("/api/v1/schema/")
    assert served.status_code == 200
    assert served.content == (contract.SCHEMA_DIR / contract.OPENAPI).read_bytes()


def test_check_prints_a_unified_diff_of_a_stale_file(tmp_path: Path) -> None:
    contract.write(tmp_path)
    graphql = tmp_path / contract.GRAPHQL
    graphql.write_text(graphql.read_text().replace("type Query {", "type Query {\n  gone: Int"))
    diff = contract.stale(tmp_path)
    assert "--- schema/schema.graphql (committed)" in diff
    assert "-  gone: Int" in diff
    assert contract.stale(contract.SCHEMA_DIR) == ""


def _without_a_field(current: Path) -> tuple[str, str]:
    """Remove a field from each document: the first field of the first object type but
    ``Query`` (GraphQL), the first required property of the first component that has one
    (OpenAPI), a stream event kind's ``seq`` (AsyncAPI). Returns the GraphQL ``Type.field``."""
    graphql = current / contract.GRAPHQL
    document = parse(graphql.read_text())
    kind = next(
        d
        for d in document.definitions
        if isinstance(d, ObjectTypeDefinitionNode) and d.name.value != "Query" and d.fields
    )
    fields = kind.fields or ()
    removed = f"{kind.name.value}.{fields[0].name.value}"
    shorter = dataclasses.replace(kind, fields=fields[1:])
    kept = tuple(shorter if d is kind else d for d in document.definitions)
    graphql.write_text(print_ast(dataclasses.replace(document, definitions=kept)))
    openapi = yaml.safe_load((current / contract.OPENAPI).read_text())
    component = next(c for c in openapi["components"]["schemas"].values() if c.get("required"))
    property_name = component["required"].pop(0)
    del component["properties"][property_name]
    (current / contract.OPENAPI).write_text(yaml.safe_dump(openapi, sort_keys=False))
    asyncapi = yaml.safe_load((current / contract.ASYNCAPI).read_text())
    event = asyncapi["components"]["schemas"]["SeatJoinedLogEvent"]  # a kind of stream event
    del event["properties"]["seq"]
    event["required"].remove("seq")
    (current / contract.ASYNCAPI).write_text(yaml.safe_dump(asyncapi, sort_keys=False))
    return removed, property_name


@pytest.mark.parametrize("node", [True, False], ids=["node tools", "python fallback"])
def test_breaking_reports_a_removed_field_in_each_document(tmp_path: Path, node: bool) -> None:
    if node and not contract.node_ready():
        pytest.skip("node and npm are not installed")
    released, current = tmp_path / "released", tmp_path / "current"
    contract.write(released)
    shutil.copytree(released, current)
    assert contract.breaking(released, current, node=node) == []
    graphql_field, openapi_property = _without_a_field(current)
    found = contract.breaking(released, current, node=node)
    by_document = {name: [str(b) for b in found if b.document == name] for name in contract.NAMES}
    assert any(f"{graphql_field} was removed" in b for b in by_document[contract.GRAPHQL]), found
    # openapi-diff names the operations whose answer changed; the fallback names the property.
    assert by_document[contract.OPENAPI], found
    assert node or any(openapi_property in b for b in by_document[contract.OPENAPI]), found
    assert any("seq" in b for b in by_document[contract.ASYNCAPI]), found


def test_the_schema_is_sent_compressed_with_an_etag_and_a_304_when_unchanged() -> None:
    client = Client()
    first = client.get("/api/v1/schema/", headers={"Accept-Encoding": "gzip, br"})
    assert first["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == (contract.SCHEMA_DIR / contract.OPENAPI).read_bytes()
    assert "Accept-Encoding" in first["Vary"]
    again = client.get("/api/v1/schema/", headers={"If-None-Match": first["ETag"]})
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", first["ETag"])
    as_json = client.get("/api/v1/schema/?format=json")
    assert as_json["ETag"] != first["ETag"] and "Content-Encoding" not in as_json
    assert json.loads(as_json.content)["openapi"].startswith("3.")
    stale = client.get("/api/v1/schema/?format=json", headers={"If-None-Match": first["ETag"]})
    assert stale.status_code == 200


def test_the_docs_page_reads_the_json_form() -> None:
    page = Client().get("/api/v1/docs/")
    assert b'<script src="/api/v1/docs/?script=">' in page.content  # no inline script (CSP)
    script = Client().get("/api/v1/docs/?script=")
    assert re.search(rb'url: "/api/v1/schema/\?format(=|\\u003D)json"', script.content)
