#!/usr/bin/env bash
# Writes crates/gammon-engine/data/gnubg-met7.tsv: the match equities
# gnubg 1.07 shows (`show matchequitytable 7`) for some of its XML tables, so
# that a test can check gammon's reading of the same files (--met) without
# gnubg. Needs gnubg and gnubg-data (apt-get install -y gnubg).
# Columns: file, table (pre/post), away of the player, away of the opponent
# (1 for post), P(win) as gnubg prints it (percent, 4 decimals).
set -euo pipefail
cd "$(dirname "$0")/.."
GNUBG=${GNUBG:-/usr/games/gnubg}
out=crates/gammon-engine/data/gnubg-met7.tsv
{
    echo "# From gnubg 1.07.001 (scripts/gnubg_met_fixture.sh): file, table, away, opponent's away, percent"
    echo "# Excerpts of tables distributed with GNU Backgammon; their notices, preserved as they ask:"
    for f in Kazaross-XG2.xml mec26.xml woolsey.xml g11.xml; do
        echo "# $f:"
        sed -n '/<!--/,/-->/p' "/usr/share/gnubg/met/$f" | grep -v -e '<!--' -e '-->' -e '\$Id' -e '^[[:space:]]*$' \
            | sed -e 's/^[[:space:]]*/#   /' -e 's/[[:space:]]*$//'
    done
    for f in Kazaross-XG2.xml mec26.xml woolsey.xml g11.xml; do
        printf 'set matchequitytable /usr/share/gnubg/met/%s\nshow matchequitytable 7\n' "$f" \
            | "$GNUBG" -t -q 2>/dev/null \
            | awk -v f="$f" '
                /^Pre-Crawford/ { t = "pre"; next }
                /^Post-Crawford table for player 0/ { t = "post"; next }
                /^Post-Crawford table for player 1/ { t = ""; next }
                t != "" && $1 ~ /^[0-9]+-away$/ && $2 ~ /^[0-9.]+$/ {
                    r = $1; sub("-away", "", r)
                    for (c = 2; c <= NF; c++) {
                        if (t == "pre") print f "\tpre\t" r "\t" (c - 1) "\t" $c
                        else print f "\tpost\t" (c - 1) "\t1\t" $c
                    }
                }'
    done
} >"$out"
wc -l "$out"
