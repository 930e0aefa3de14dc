#!/usr/bin/env bash
# The Python package (crates/gammon-py): lint, build (the dev profile, with
# maturin develop, into target/py-venv), test with pytest against the CLI's
# --json (target/debug/gammon, built here), and check the type
# stubs: mypy.stubtest against the module, mypy --strict on the examples.
# .ci/run calls it after `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/target/py-venv
export CARGO_TARGET_DIR=$root/target/py

if ! "$venv/bin/python" -c "import maturin, pytest, mypy" >/dev/null 2>&1; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "maturin>=1.9,<2" pytest mypy
fi

# The package is outside the workspace (as fuzz/ is): its own fmt, clippy
# and unit tests.
cargo fmt --manifest-path crates/gammon-py/Cargo.toml -- --check
cargo clippy --manifest-path crates/gammon-py/Cargo.toml --all-targets --locked -- -D warnings

# Its Rust unit tests embed Python: they link against libpython.
if ! python3 -c "import os, sys, sysconfig as c; sys.exit(not os.path.exists(os.path.join(c.get_config_var('LIBDIR'), c.get_config_var('LDLIBRARY'))))"; then
    apt-get install -y -q libpython3-dev >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q libpython3-dev >/dev/null; } \
        || { echo "error: the package's unit tests need libpython3-dev (apt-get install libpython3-dev)" >&2; exit 1; }
fi
cargo test --manifest-path crates/gammon-py/Cargo.toml --locked --lib -q

# The binary the answers are compared with, built afresh (a stale one, from
# before a new net was shipped, would disagree with the package).
CARGO_TARGET_DIR=$root/target cargo build -q --locked -p gammon-cli

(cd crates/gammon-py && VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH maturin develop --locked -q)
"$venv/bin/python" -m pytest -q crates/gammon-py/tests
"$venv/bin/python" -m mypy.stubtest gammon._gammon
"$venv/bin/mypy" --strict crates/gammon-py/examples crates/gammon-py/python/gammon
