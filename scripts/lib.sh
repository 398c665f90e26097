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
# with Prometheus's promtool, and tests/ops/test_alertmanager.py runs deploy/prometheus/
# alertmanager.yml in a real Alertmanager. Debian ships them in the prometheus and
# prometheus-alertmanager packages, whose installs would also start their servers: only the
# binaries are taken from the packages, into .venv/bin.
ensure_promtool() {
    take_binaries prometheus ./usr/bin/promtool
    take_binaries prometheus-alertmanager ./usr/bin/prometheus-alertmanager ./usr/bin/amtool
    ensure_alertmanager_template
}

# ensure_nginx: tests/ops/test_token_logs.py and tests/config/test_nginx_refusals.py run
# deploy/nginx.conf in a real nginx; only the binary is taken from Debian's package (its install
# would start a server on port 80), into .venv/bin.
ensure_nginx() {
    command -v nginx >/dev/null && return 0
    take_binaries nginx ./usr/sbin/nginx
}

# Debian's Alertmanager reads its notification templates from a fixed folder that its package
# leaves out (the Go sources' package carries them): put them there, as root.
ensure_alertmanager_template() {
    target=/usr/share/prometheus/alertmanager
    [ -f "$target/email.tmpl" ] || [ "$(id -u)" -ne 0 ] && return 0
    dir="$(mktemp -d)"
    source=./usr/share/gocode/src/github.com/prometheus/alertmanager/template
    (cd "$dir" && apt-get download -qq golang-github-prometheus-alertmanager-dev >/dev/null 2>&1) &&
        dpkg-deb --fsys-tarfile "$dir"/golang-github-prometheus-alertmanager-dev_*.deb |
        tar -x -C "$dir" "$source/default.tmpl" "$source/email.tmpl" &&
        install -D -m 644 -t "$target" "$dir/$source/default.tmpl" "$dir/$source/email.tmpl" ||
        echo "Alertmanager's templates could not be installed" >&2
    rm -rf "$dir"
}

# take_binaries PACKAGE PATH...: the package's files at PATHs (./usr/bin/x) into .venv/bin,
# unless all are there already; a failure is reported and the tests that need them skip.
take_binaries() {
    package="$1"
    shift
    missing=0
    for path in "$@"; do [ -x ".venv/bin/$(basename "$path")" ] || missing=1; done
    [ "$missing" -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
        echo "$package is missing (no apt-get): the tests that need it are skipped" >&2
        return 0
    fi
    echo "Installing $* (from Debian's $package package) for the monitoring tests"
    dir="$(mktemp -d)"
    (cd "$dir" && { apt-get download -qq "$package" >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null && apt-get download -qq "$package" >/dev/null 2>&1; }; }) &&
        dpkg-deb --fsys-tarfile "$dir/${package}"_*.deb | tar -x -C "$dir" "$@" &&
        for path in "$@"; do install -m 755 "$dir/$path" .venv/bin/; done ||
        echo "$package could not be installed: the tests that need it are skipped" >&2
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
