"""JSON-like documents read without ``Any``.

They are OpenAPI, AsyncAPI, and the YAML and JSON files of ``schema/``. Each helper narrows one
value to the shape its caller indexes. A value of another shape raises ``TypeError``, naming its
place."""

from __future__ import annotations


def as_dict(value: object, where: str) -> dict[str, object]:
    """``value``, a JSON object (a mapping with string keys)."""
    if not isinstance(value, dict):
        raise TypeError(f"{where}: a JSON object expected, not {type(value).__name__}")
    return value


def as_list(value: object, where: str) -> list[object]:
    """``value``, a JSON array."""
    if not isinstance(value, list):
        raise TypeError(f"{where}: a JSON array expected, not {type(value).__name__}")
    return value


def as_dicts(value: object, where: str) -> list[dict[str, object]]:
    """``value``, a JSON array of objects."""
    return [as_dict(item, where) for item in as_list(value, where)]


def as_str(value: object, where: str) -> str:
    """``value``, a JSON string."""
    if not isinstance(value, str):
        raise TypeError(f"{where}: a string expected, not {type(value).__name__}")
    return value


def section(parent: dict[str, object], key: str) -> dict[str, object]:
    """``parent[key]``, a JSON object, set to ``{}`` when missing."""
    return as_dict(parent.setdefault(key, {}), key)


def entries(parent: dict[str, object], key: str) -> list[object]:
    """``parent[key]``, a JSON array, set to ``[]`` when missing."""
    return as_list(parent.setdefault(key, []), key)
