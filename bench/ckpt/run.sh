#!/usr/bin/env bash
# The checkpointed-loop ODE benchmark (ode_ckpt.c): time and memory of the gradient of
# n Euler steps of a 2000-double state, untaped primal, fully taped gradient, and
# __enzyme_checkpoint_for with Revolve at several slot counts, the default scheme and
# FERROZYME_TAPE_BUDGET, and the plain loop checkpointed automatically under several
# budgets (FERROZYME_TAPE_BUDGET, checkpoint/auto.rs).
# Usage: bash bench/ckpt/run.sh [n]   (default 10000)
#        FERROZYME_BENCH_AUTO_ONLY=1 bash bench/ckpt/run.sh n   (the automatic rows only)
#        FERROZYME_BENCH_REPS=1 ...   (one timed run per row instead of the best of 3)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
n="${1:-10000}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$root/target/release/ferrozyme" cc -O2 "$root/bench/ckpt/ode_ckpt.c" -o "$out/ode" -lm
echo "| run | slots | time (ms) | grad/primal | tape peak (MB) | snapshots (MB) | peak RSS (MB) | gradient checksum |"
echo "|---|---|---|---|---|---|---|---|"
primal=""
row() {
  local label="$1"; shift
  local line
  line="$("$@")"
  local t tape snap rss sum slots
  t="$(sed -E 's/.*time_ms=([^ ]+).*/\1/' <<<"$line")"
  tape="$(sed -E 's/.*tape=([^ ]+).*/\1/' <<<"$line")"
  snap="$(sed -E 's/.*snapshots=([^ ]+).*/\1/' <<<"$line")"
  rss="$(sed -E 's/.*rss=([^ ]+).*/\1/' <<<"$line")"
  sum="$(sed -E 's/.*checksum=([^ ]+).*/\1/' <<<"$line")"
  slots="$(sed -E 's/.*slots=([^ ]+).*/\1/' <<<"$line")"
  [ -z "$primal" ] && primal="$t"
  awk -v l="$label" -v s="$slots" -v t="$t" -v p="$primal" -v tp="$tape" -v sn="$snap" -v r="$rss" -v c="$sum" \
    'BEGIN { snap = (l ~ /^default/) ? "n/a" : sprintf("%.2f", sn / 1048576);
             printf "| %s | %s | %.1f | %.1f | %.2f | %s | %.1f | %s |\n", l, (s == 0 ? "-" : s), t, t / p, tp / 1048576, snap, r / 1048576, c }'
}
row "primal (no derivative)" "$out/ode" primal "$n"
if [ -z "${FERROZYME_BENCH_AUTO_ONLY:-}" ]; then
# The fully taped gradient needs about 16 KB of tape per step: skipped past 20000 steps.
if [ "$n" -le 20000 ]; then
  row "fully taped gradient" "$out/ode" taped "$n"
fi
# Two slots recompute each step about sqrt(2n) times: only for short runs.
slots_list="5 10 30 100 1000"
[ "$n" -le 20000 ] && slots_list="2 $slots_list"
for s in $slots_list; do
  row "Revolve" "$out/ode" revolve "$n" "$s"
done
row "default (ceil(sqrt(n)) slots)" "$out/ode" default "$n"
row "default, FERROZYME_TAPE_BUDGET=1MB" env FERROZYME_TAPE_BUDGET=1048576 "$out/ode" default "$n"
fi
# The plain loop (the "taped" mode) checkpointed automatically: Revolve with
# budget / 16 KB slots once the estimated tape exceeds the budget.
for b in 1 16 256; do
  row "automatic, FERROZYME_TAPE_BUDGET=${b}MB" env FERROZYME_TAPE_BUDGET=$((b * 1048576)) "$out/ode" taped "$n"
done
# A budget above the estimated tape keeps the plain taped loop.
if [ "$n" -le 20000 ]; then
  row "automatic, FERROZYME_TAPE_BUDGET=4GB (not exceeded)" env FERROZYME_TAPE_BUDGET=4294967296 "$out/ode" taped "$n"
fi
