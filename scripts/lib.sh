# Shared by scripts/serve and scripts/test (sourced, not run).
# ensure_venv [EXTRA]: create .venv if missing and install pyproject.toml's dependencies (plus the
# optional EXTRA group). Skipped when a stamp shows the same pyproject.toml was already installed.

ensure_venv() {
    extra="${1:-}"
    python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        echo "Creating .venv with $python"
        "$python" -m venv .venv
    fi
    .venv/bin/python - <<'PY' || { echo "Python 3.11 or newer is needed (set PYTHON=...)" >&2; return 1; }
import sys
sys.exit(sys.version_info < (3, 11))
PY
    stamp=".venv/.installed-${extra:-base}"
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    echo "Installing dependencies${extra:+ (with [$extra])} into .venv"
    requirements="$(mktemp)"
    .venv/bin/python - "$extra" > "$requirements" <<'PY'
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extra = sys.argv[1]
deps = project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])
print("\n".join(deps))
PY
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    rm -f "$requirements"
    echo "$want" > "$stamp"
}

# build_engine: compile matches/engine with mypyc into build/engine when a C compiler is present
# (scripts/build_engine.py; nothing to do when the build is current). If it cannot, the
# pure-Python engine runs: the failure is reported and ignored.
build_engine() {
    .venv/bin/python scripts/build_engine.py || true
}
