#!/usr/bin/env bash
# Keeps the campaign's labels: every training/work/cNNN.gds, bNNN.gds and
# xNNN.gds (finished or partial) is gzipped into training/data/cNNN.gds.gz (bNNN...),
# its groups file (which positions share a roll) into cNNN.groups.gz, and SHA256SUMS and
# cpu.log are brought up to date. Safe while the labeller runs: it replaces
# its file by rename, so the copy read here is always a whole saved file.
# Usage: training/campaign/keep.sh   (then commit training/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
for gds in training/work/[cbx][0-9][0-9][0-9].gds training/work/[cbx][0-9][0-9][0-9].groups; do
  [ -e "$gds" ] || continue
  out=training/data/$(basename "$gds").gz
  tmp=$(mktemp "training/data/.keep.XXXXXX")
  gzip -9 -n -c "$gds" > "$tmp"
  if [ -e "$out" ] && cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv -f "$tmp" "$out"; fi
done
(cd training/data && sha256sum [cbx][0-9][0-9][0-9].gds.gz [cbx][0-9][0-9][0-9].groups.gz > SHA256SUMS)
cp training/work/cpu.log training/data/cpu.log
