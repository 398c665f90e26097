"""A PEP 517 build backend of the standard library alone, for the verifier's wheel.

It puts each package of ``[tool.challengers-verify.packages]`` into a wheel. That table maps
installed name to source folder: the repository's own modules where they live. The wheel gets the
project's metadata and console script. Only ``build_wheel`` is offered. A wheel is all
``pip install ./verifier`` needs, and it needs no package index.
"""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _table(config: dict[str, object], *keys: str) -> dict[str, object]:
    """The table at ``keys`` (``"tool", "challengers-verify"``).

    A clear error if there is none."""
    table = config
    for key in keys:
        found = table.get(key, {})
        if not isinstance(found, dict):
            raise ValueError(f"pyproject.toml: {'.'.join(keys)} is not a table")
        table = found
    return table


def _text(table: dict[str, object], key: str) -> str:
    value = table.get(key)
    if not isinstance(value, str):
        raise ValueError(f"pyproject.toml: {key} is not a string")
    return value


def _sources(config: dict[str, object]) -> list[tuple[str, Path]]:
    """Every (path in the wheel, source file) of the packages."""
    own = _table(config, "tool", "challengers-verify")
    patterns = own.get("include")
    if not isinstance(patterns, list):
        raise ValueError("pyproject.toml: tool.challengers-verify.include is not a list")
    found = []
    packages = _table(own, "packages")
    for package in packages:
        for path in sorted((ROOT / _text(packages, package)).iterdir()):
            if path.is_file() and any(fnmatch(path.name, p) for p in patterns):
                found.append((f"{package.replace('.', '/')}/{path.name}", path))
    return found


def _metadata(project: dict[str, object]) -> str:
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {_text(project, 'name')}\n"
        f"Version: {_text(project, 'version')}\n"
        f"Summary: {_text(project, 'description')}\n"
        f"Requires-Python: {_text(project, 'requires-python')}\n"
    )


def _digest(data: bytes) -> str:
    encoded = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={encoded.decode()},{len(data)}"


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, object] | None = None,
    metadata_directory: str | None = None,
) -> str:
    config = _project()
    project = _table(config, "project")
    name, version = _text(project, "name").replace("-", "_"), _text(project, "version")
    info = f"{name}-{version}.dist-info"
    scripts = "".join(f"{k} = {v}\n" for k, v in _table(project, "scripts").items())
    files = [(arc, path.read_bytes()) for arc, path in _sources(config)]
    files += [
        (f"{info}/METADATA", _metadata(project).encode()),
        (
            f"{info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        ),
        (f"{info}/entry_points.txt", f"[console_scripts]\n{scripts}".encode()),
    ]
    record = "".join(f"{arc},{_digest(data)}\n" for arc, data in files) + f"{info}/RECORD,,\n"
    filename = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for arc, data in [*files, (f"{info}/RECORD", record.encode())]:
            wheel.writestr(zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0)), data)
    return filename
