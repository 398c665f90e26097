"""Compile the pure engine (``matches/engine``) with mypyc into ``build/engine/``.

Run by ``scripts/serve`` and ``scripts/test`` (``build_engine`` in ``scripts/lib.sh``); by hand:
``.venv/bin/python scripts/build_engine.py [--force]``. Nothing to do when the build's stamp
matches today's sources (``matches.engine.native.source_digest``). The modules are compiled in a
temporary copy (no cache or C files in the checkout) and the build replaces ``build/engine/``
only once it succeeded; a failed build removes a stale one. Without mypyc, a C compiler (``CC``
or Python's own) or setuptools it exits with status 1 and a reason: ``matches.engine`` then
imports its pure-Python modules, as it does whenever no current build exists.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from matches.engine import native  # noqa: E402 (after the checkout joins the path)


def compiler() -> str | None:
    """The C compiler setuptools will use (``CC`` or the interpreter's), if it can run."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    program = cc.split()[0]
    return program if shutil.which(program) else None


def compile_into(work: Path) -> Path:
    """Compile a copy of the engine in ``work``; returns the directory holding ``matches/``."""
    src = work / "src"
    (src / "matches" / "engine").mkdir(parents=True)
    (src / "matches" / "__init__.py").write_text("")
    for path in native.PACKAGE_DIR.glob("*.py"):
        shutil.copy2(path, src / "matches" / "engine" / path.name)
    lib = work / "lib"
    code = (
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "import sys\n"
        "paths = ['matches/engine/' + name + '.py' for name in sys.argv[1:]]\n"
        "setup(name='challengers-engine', ext_modules=mypycify(\n"
        "    ['--config-file', '', *paths], group_name='matches.engine.native', opt_level='3'),\n"
        f"    script_args=['build_ext', '--build-lib', {str(lib)!r},"
        f" '--build-temp', {str(work / 'tmp')!r}])\n"
    )
    subprocess.run(
        [sys.executable, "-c", code, *native.COMPILED],
        cwd=src,
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "MYPY_CACHE_DIR": str(work / "cache")},
    )
    return lib


def build(force: bool = False) -> int:
    digest = native.source_digest()
    if not force and native.STAMP.is_file() and native.STAMP.read_text().strip() == digest:
        print("Compiled engine up to date (build/engine)")
        return 0
    missing = [m for m in ("mypyc", "setuptools") if not _importable(m)]
    if missing:
        return _give_up(f"{' and '.join(missing)} not installed")
    if compiler() is None:
        return _give_up("no C compiler")
    print("Compiling the engine with mypyc (a minute or two)")
    with tempfile.TemporaryDirectory(prefix="engine-build-") as tmp:
        try:
            lib = compile_into(Path(tmp))
        except subprocess.CalledProcessError:
            return _give_up("the build failed")
        shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
        shutil.copytree(lib, native.BUILD_DIR)
    native.STAMP.write_text(digest + "\n")
    print("Compiled engine built (build/engine)")
    return 0


def _importable(module: str) -> bool:
    with contextlib.suppress(ImportError):
        __import__(module)
        return True
    return False


def _give_up(reason: str) -> int:
    shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
    print(f"Engine not compiled ({reason}): the pure-Python engine runs", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when up to date")
    return build(parser.parse_args(argv).force)


if __name__ == "__main__":
    raise SystemExit(main())
