"""A PEP 517 build backend of the standard library alone, for the verifier's wheel.

It puts each package of ``[tool.challengers-verify.packages]`` (installed name to source folder,
the repository's own modules where they live) into a wheel with the project's metadata and
console script. Only ``build_wheel`` is offered: a wheel is all ``pip install ./verifier``
needs, and it needs no package index.
"""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _sources(config: dict[str, Any]) -> list[tuple[str, Path]]:
    """Every (path in the wheel, source file) of the packages."""
    own = config["tool"]["challengers-verify"]
    found = []
    for package, folder in own["packages"].items():
        for path in sorted((ROOT / folder).iterdir()):
            if path.is_file() and any(fnmatch(path.name, p) for p in own["include"]):
                found.append((f"{package.replace('.', '/')}/{path.name}", path))
    return found


def _metadata(project: dict[str, Any]) -> str:
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {project['name']}\n"
        f"Version: {project['version']}\n"
        f"Summary: {project['description']}\n"
        f"Requires-Python: {project['requires-python']}\n"
    )


def _digest(data: bytes) -> str:
    encoded = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={encoded.decode()},{len(data)}"


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    config = _project()
    project = config["project"]
    name = project["name"].replace("-", "_")
    info = f"{name}-{project['version']}.dist-info"
    scripts = "".join(f"{k} = {v}\n" for k, v in project.get("scripts", {}).items())
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
    filename = f"{name}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for arc, data in [*files, (f"{info}/RECORD", record.encode())]:
            wheel.writestr(zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0)), data)
    return filename
