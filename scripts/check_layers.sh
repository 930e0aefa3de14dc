#!/usr/bin/env bash
# Runs every check of docs/dev/layers.md and fails on any drift.
#
# The page is the one place the checks live: each ```sh block under a crate's
# `## gammon-…` heading holds commands, and each command is followed by one
# or more `#=> a, b, c` lines, the expected output after normalising:
#   - `path:line:text` (grep -n) becomes `path`;
#   - `name vX.Y.Z (…)` (cargo tree) becomes `name`;
#   - any other line is kept as it is;
# then duplicates go and the items are compared as sorted sets. `#=> nothing`
# expects no output. Lines starting `#   ` are prose for the reader.
# Every crate under crates/ must have a section with at least one check, so
# a new crate's rules are one small block in the page.
set -uo pipefail
cd "$(dirname "$0")/.."
doc=docs/dev/layers.md
failures=0
checks=0
declare -A checked

normalise() {
    sed -E 's/^([^: ]+):[0-9]+:.*/\1/; s/^([A-Za-z0-9_-]+) v[0-9][^ ]*( .*)?$/\1/; s/[[:space:]]+$//' \
        | grep -v '^$' | LC_ALL=C sort -u
}

expected_items() {
    tr ',' '\n' | sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//' | grep -v '^$' | grep -vx 'nothing' | LC_ALL=C sort -u
}

run_check() {
    local section=$1 cmd=$2 expected=$3
    if [[ -z $expected ]]; then
        echo "layers: $section: no '#=>' line after: $cmd" >&2
        failures=$((failures + 1))
        return
    fi
    local out rc err
    err=$(mktemp)
    out=$(bash -o pipefail -c "$cmd" 2>"$err")
    rc=$?
    checks=$((checks + 1))
    checked[$section]=1
    if ((rc > 1)); then
        echo "layers: $section: command failed (exit $rc): $cmd" >&2
        sed 's/^/    /' "$err" >&2
        rm -f "$err"
        failures=$((failures + 1))
        return
    fi
    rm -f "$err"
    local got want
    got=$(printf '%s\n' "$out" | normalise)
    want=$(printf '%s\n' "$expected" | expected_items)
    if [[ $got != "$want" ]]; then
        echo "layers: $section: drift in: $cmd" >&2
        diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | grep '^[<>]' \
            | sed 's/^</    expected, missing:/; s/^>/    found, not expected:/' >&2
        failures=$((failures + 1))
    fi
}

section="" in_block=0 cmd="" expected=""
while IFS= read -r line || [[ -n $line ]]; do
    if ((in_block == 0)); then
        if [[ $line =~ ^##\ (gammon-[A-Za-z0-9_-]+) ]]; then
            section=${BASH_REMATCH[1]}
        elif [[ $line == '```sh' ]]; then
            in_block=1 cmd="" expected=""
        fi
        continue
    fi
    if [[ $line == '```' ]]; then
        [[ -n $cmd ]] && run_check "$section" "$cmd" "$expected"
        in_block=0 cmd="" expected=""
    elif [[ $line =~ ^\#=\>\ ?(.*)$ ]]; then
        expected+="${BASH_REMATCH[1]},"
    elif [[ $line =~ ^\# || -z $line ]]; then
        :
    else
        [[ -n $cmd ]] && run_check "$section" "$cmd" "$expected"
        cmd=$line expected=""
    fi
done <"$doc"

for manifest in crates/*/Cargo.toml; do
    name=$(sed -nE 's/^name = "([^"]+)"/\1/p' "$manifest" | head -n 1)
    if [[ -z ${checked[$name]:-} ]]; then
        echo "layers: $name has no checked section in $doc" >&2
        failures=$((failures + 1))
    fi
done

if ((failures > 0)); then
    echo "layers: $failures problem(s); fix the code, or the page where the page is stale" >&2
    exit 1
fi
echo "layers: $checks checks of $doc agree with the code"
