"""Test helpers: the gammon binary whose --json the package must equal, and
the shared reference data."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("GAMMON_SHARED", ROOT.parent / "shared"))
GAMMON = pathlib.Path(os.environ.get("GAMMON_BIN", ROOT / "target" / "debug" / "gammon"))

# What differs from one run to the next: the time taken.
TIMES = {"seconds", "elapsed_seconds", "games_per_second"}


def without_times(value):
    """`value` without its timing fields, at any depth."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k not in TIMES}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def cli(*args):
    """`gammon ARGS --json`, parsed; fails the test when it fails."""
    if not GAMMON.exists():
        pytest.fail(f"{GAMMON} is missing: build it (cargo build -p gammon-cli) or set GAMMON_BIN")
    out = subprocess.run([str(GAMMON), *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, f"{args}: {out.stderr}"
    return json.loads(out.stdout)


def cli_error(*args):
    """The one-line message of `gammon ARGS` refusing its input."""
    out = subprocess.run([str(GAMMON), *args], capture_output=True, text=True)
    assert out.returncode != 0, f"{args} succeeded"
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    return out.stderr[len("error: "):].rstrip("\n")


def oracle(name, every=1):
    """Every `every`-th record of the oracle file `name`."""
    with open(SHARED / "oracle" / name) as f:
        return [json.loads(line) for i, line in enumerate(f) if i % every == 0]


@pytest.fixture(scope="session")
def engine():
    import gammon

    return gammon.Engine()
