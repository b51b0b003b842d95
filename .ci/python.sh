#!/usr/bin/env bash
# The Python package (crates/python): lint the bindings (the workspace build leaves
# their `python` feature off), build and install the package into a venv with pip
# (maturin from PyPI as the PEP 517 backend, the light `python-ci` profile instead
# of release's fat LTO), then run its pytest suite against the debug `tagloom`
# binary `cargo test --workspace` built. Called by `.ci/run` after the cargo tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# A venv (Debian splits venv and pip out of python3: installed when missing).
venv=target/py-venv
if [ ! -x "$venv/bin/python" ] && ! python3 -m venv "$venv" >/dev/null 2>&1; then
  rm -rf "$venv"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3 python3-venv python3-pip >/dev/null
    python3 -m venv "$venv"
  else
    echo "python: python3 with venv is missing and cannot be installed (not root, or no apt-get)" >&2
    exit 1
  fi
fi

echo "== python: cargo clippy -p tagloom-python --features python"
cargo clippy -p tagloom-python --features python --all-targets --locked -- -D warnings

echo "== python: pip install ./crates/python (profile python-ci)"
"$venv/bin/python" -m pip install --quiet --upgrade pip
MATURIN_PEP517_ARGS="--profile python-ci --locked" \
  "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps ./crates/python
"$venv/bin/python" -m pip install --quiet "pytest>=7"

echo "== python: import check"
(cd /tmp && "$OLDPWD/$venv/bin/python" -c "import tagloom; print(tagloom.parse(b'<p>x').html)")

# The CLI the results are compared with (built by `cargo test --workspace`).
[ -x target/debug/tagloom ] || cargo build -p tagloom-cli --locked
export TAGLOOM_BIN="$PWD/target/debug/tagloom"
# Inputs from ../shared are required here (the tests fail instead of skipping).
export TAGLOOM_REQUIRE_SHARED=1
echo "== python: pytest crates/python/tests"
# From the tests' directory: `import tagloom` is the installed package.
(cd crates/python && "$OLDPWD/$venv/bin/python" -m pytest -q tests)
