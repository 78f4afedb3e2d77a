# Sourced by scripts/build and scripts/test: the project's own virtual environment, installed
# from a lock file, so that a new machine runs exactly the versions CI tested and nothing is
# written into the system's Python (PEP 668 forbids that on current Debian and Ubuntu).
#
#   TPS_VENV   where the environment lives (default: .venv in the project; .ci/run uses a new
#              temporary one)
#
# After `use_environment LOCK`, python3 and the project's commands (mkdocs, tps-atlas, pytest)
# are the environment's.

# Debian packages for the scripts' needs, installed with apt-get as root (or through sudo).
apt_install() {
  local apt="apt-get"
  [ "$(id -u)" = 0 ] || apt="sudo apt-get"
  $apt update -qq
  DEBIAN_FRONTEND=noninteractive $apt install -y -qq "$@" >/dev/null
}

use_environment() {
  local lock="$1"
  local venv="${TPS_VENV:-$PWD/.venv}"
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "scripts: python3 must be Python 3.11 or newer, found: $(python3 --version 2>&1 || echo none)" >&2
    exit 2
  fi
  # Debian and Ubuntu ship venv's pip bootstrap in a package of its own.
  python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
  if ! "$venv/bin/python" -c 'import sys' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  # Exactly the locked versions (hash-checked): a package upgraded by hand goes back to its
  # locked version here. The project itself goes in editable, built by the locked setuptools.
  # pip's and the build backend's chatter goes to a log, shown only when an install fails.
  local log="$venv/install.log"
  if ! { "$venv/bin/python" -m pip install -q --disable-pip-version-check --require-hashes --no-deps -r "$lock" &&
         "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .; } \
       >"$log" 2>&1; then
    cat "$log" >&2
    echo "scripts: installing $lock into $venv failed (the lines above; the log is $log)" >&2
    exit 1
  fi
  export VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH"
  hash -r
  echo "environment: $venv (installed from $lock; activate it with: . $venv/bin/activate)"
}

# The browser checks' Node packages (Lighthouse for benchmarks/lighthouse.py, axe-core for the
# browser tests), exactly as package-lock.json pins them, into node_modules/. Their install
# scripts are skipped: none is needed, and Puppeteer's would download a browser (Debian's
# Chromium is the one used). npm's chatter goes to a log, shown only when the install fails.
use_node_packages() {
  local log="${TPS_VENV:-$PWD/.venv}/npm.log"
  mkdir -p "$(dirname "$log")"
  if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
    cat "$log" >&2
    echo "scripts: npm ci from package-lock.json failed (the lines above; the log is $log)" >&2
    exit 1
  fi
  echo "node packages: $PWD/node_modules (installed from package-lock.json)"
}
