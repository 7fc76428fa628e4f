#!/usr/bin/env bash
# Instructions per operation of the in-process scenarios, under callgrind:
# repeatable whatever else the machine runs (BENCHMARKS.md, "Instructions
# per operation").
#
#   Benchmarks/instructions.sh [SCENARIO ...]
#
# For each scenario and each side (the hand-written baseline, then the
# container), runs `plugboard-bench --iterations N --only SCENARIO --side S`
# under `valgrind --tool=callgrind` for N = 1000 and 2000 and prints the
# difference of the two totals divided by 1000: set-up, start-up and the
# other side drop out. Needs valgrind and a release build
# (`swift build -c release --product plugboard-bench`). valgrind 3.19 cannot
# read the DWARF Swift 6.3 writes, so the binary and PlugboardKit are copied
# and stripped of debug information first.
set -euo pipefail
cd "$(dirname "$0")/.."
scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(singleton transient_leaf graph10_transient graph10_shared arguments_2 arguments_4 named_100 wide_1000
    missing_optional_12 missing_optional_1000)
fi
release=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$release/plugboard-bench" "$release/libPlugboardKit.so" "$work/"
for binary in "$work/plugboard-bench" "$work/libPlugboardKit.so"; do objcopy --strip-debug "$binary"; done

total() { # SCENARIO SIDE N
  valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$work/plugboard-bench" --iterations "$3" --only "$1" --side "$2" >/dev/null 2>"$work/log"
  awk '/^(summary|totals):/ { print $2; exit }' "$work/out"
}

printf '| %s | %s | %s | %s |\n' scenario hand-written plugboard ratio
printf '|---|---|---|---|\n'
for scenario in "${scenarios[@]}"; do
  counts=()
  for side in baseline plugboard; do
    a=$(total "$scenario" "$side" 1000)
    b=$(total "$scenario" "$side" 2000)
    counts+=($(((b - a) / 1000)))
  done
  ratio=$(awk -v h="${counts[0]}" -v p="${counts[1]}" 'BEGIN { if (h > 0) printf "%.2f×", p / h; else print "-" }')
  printf '| %s | %s | %s | %s |\n' "$scenario" "${counts[0]}" "${counts[1]}" "$ratio"
done
