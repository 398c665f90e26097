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
    # --no-compile: Python compiles what it imports, once (scripts/test keeps it in build/pycache),
    # instead of pip compiling every installed file (~11 s of a fresh venv's ~38 s).
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-compile -r "$requirements"
    rm -f "$requirements"
    echo "$want" > "$stamp"
}

# ensure_chromium: the browser tests (tests/web) drive Debian's Chromium, with a Chinese font for
# the zh-hans screens (fonts-wqy-microhei); install them when missing (as root, as CI runs;
# quietly). Playwright's own browser downloads cannot reach the network.
ensure_chromium() {
    [ -x /usr/bin/chromium ] && fc-list :lang=zh | grep -q . && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "Chromium or a Chinese font is missing and only root can install them:" \
            "apt-get install chromium fonts-wqy-microhei" >&2
        return 0
    fi
    echo "Installing Chromium and a Chinese font for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null &&
        apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null 2>&1
}

# ensure_promtool: tests/ops/test_alerts.py checks and unit-tests deploy/prometheus/alerts.yml
# with Prometheus's promtool. Debian ships it in the prometheus package, whose install would also
# start a Prometheus server: only that one binary is taken from the package, into .venv/bin.
ensure_promtool() {
    command -v promtool >/dev/null || [ -x .venv/bin/promtool ] && return 0
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
        echo "promtool is missing (no apt-get): the alert rule unit tests are skipped" >&2
        return 0
    fi
    echo "Installing promtool (from Debian's prometheus package) for the alert rule tests"
    dir="$(mktemp -d)"
    (cd "$dir" && { apt-get download -qq prometheus >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null && apt-get download -qq prometheus >/dev/null 2>&1; }; }) &&
        dpkg-deb --fsys-tarfile "$dir"/prometheus_*.deb | tar -x -C "$dir" ./usr/bin/promtool &&
        install -m 755 "$dir/usr/bin/promtool" .venv/bin/promtool ||
        echo "promtool could not be installed: the alert rule unit tests are skipped" >&2
    rm -rf "$dir"
}

# compile_catalogues: the gettext catalogues (locale/*/LC_MESSAGES/*.po) compiled to .mo with
# polib (no GNU gettext needed); only those changed since the last run.
compile_catalogues() {
    .venv/bin/python manage.py compile_catalogues
}

# build_engine: compile matches/engine with mypyc into build/engine when a C compiler is present
# (scripts/build_engine.py; nothing to do when the build is current). If it cannot, the
# pure-Python engine runs: the failure is reported and ignored.
build_engine() {
    .venv/bin/python scripts/build_engine.py || true
}
