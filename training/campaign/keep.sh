#!/usr/bin/env bash
# Keeps the campaign's labels: every training/work/cNNN.gds, bNNN.gds, xNNN.gds,
# dNNN.gds, aNNN.gds, yNNN.gds and wNNN.gds (finished or partial) is gzipped into training/data/cNNN.gds.gz (bNNN...),
# its groups file (which positions share a roll) into cNNN.groups.gz, and SHA256SUMS and
# cpu.log are brought up to date. Safe while the labeller runs: it replaces
# its file by rename, so the copy read here is always a whole saved file.
# Usage: training/campaign/keep.sh   (then commit training/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
# One keep at a time (run.sh keeps every half hour; a session keeps too).
mkdir -p training/work
exec 9> training/work/.keep.lock
flock 9
# A keep stopped half-way leaves no temporary file for `git add` to find.
tmp=''
trap 'rm -f "$tmp"' EXIT
for gds in training/work/[abcdwxy][0-9][0-9][0-9].gds training/work/[abcdwxy][0-9][0-9][0-9].groups; do
  [ -e "$gds" ] || continue
  out=training/data/$(basename "$gds").gz
  tmp=$(mktemp "training/data/.keep.XXXXXX")
  gzip -9 -n -c "$gds" > "$tmp"
  if [ -e "$out" ] && cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv -f "$tmp" "$out"; fi
  tmp=''
done
# Replaced whole: fit.sh checks it, maybe while this runs.
tmp=$(mktemp "training/data/.keep.XXXXXX")
(cd training/data && sha256sum [abcdwxy][0-9][0-9][0-9].gds.gz [abcdwxy][0-9][0-9][0-9].groups.gz) > "$tmp"
mv -f "$tmp" training/data/SHA256SUMS
tmp=''
# The CPU time of each labeller running now (user + system, its children
# included), one line a run in training/work/cpu-running.log: what a run
# stopped with its session had used by the last keep, which run.sh adds to
# cpu.log when it starts again (a run that ends by itself is in cpu.log
# whole, and run.sh drops its line).
tick=$(getconf CLK_TCK)
for pidfile in training/work/[abcdwxy][0-9][0-9][0-9].pid; do
  [ -e "$pidfile" ] || continue
  c=$(basename "$pidfile" .pid) pid=$(cat "$pidfile")
  { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -Eq "label rollout.*$c\.gds|campaign/label-chunk\.sh" || continue
  # (the labeller may end between the two reads)
  read -r -a stat < <(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null) || continue
  [ "${#stat[@]}" -ge 15 ] || continue
  user=$(( (stat[11] + stat[13]) / tick )) sys=$(( (stat[12] + stat[14]) / tick ))
  tmp=$(mktemp training/work/.cpu-running.XXXXXX)
  { grep -v "^$c $pid " training/work/cpu-running.log 2>/dev/null || true
    echo "$c $pid $user user-s $sys sys-s at $(date -u +%FT%TZ)"; } > "$tmp"
  mv "$tmp" training/work/cpu-running.log
done
# training/data/cpu.log is the campaign's record; training/work/cpu.log only
# what this checkout's runs wrote (a fresh checkout starts it empty). Add
# the lines the record lacks, never replace it.
if [ -e training/work/cpu.log ]; then
  tmp=$(mktemp training/data/.cpu.XXXXXX)
  touch training/data/cpu.log
  # Counted, so that a line the record holds twice (two runs that failed
  # alike) is matched twice.
  awk 'NR == FNR { n[$0]++; print; next } n[$0]-- > 0 { next } { print }' training/data/cpu.log training/work/cpu.log > "$tmp"
  mv -f "$tmp" training/data/cpu.log
fi
