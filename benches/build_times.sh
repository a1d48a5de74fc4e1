#!/usr/bin/env bash
# Rebuild time after a real edit (issue 45): `cargo test --no-run` after adding one small public
# function to a window file (src/app/roster.rs) and, separately, to a rule file
# (src/sets/pk/fire.rs); each probe starts from a settled build and is reverted after, so
# the tree ends as it began. Prints every run and the medians. Incremental compilation is on (the
# dev profile's default), as it is for a developer.
#
#   bash benches/build_times.sh [RUNS]      (default 3 runs of each)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
files=(src/app/roster.rs src/sets/pk/fire.rs)
labels=(window rule)
backup="$(mktemp -d)"
restore() {
  for f in "${files[@]}"; do
    [ -f "$backup/$(basename "$f")" ] && cp "$backup/$(basename "$f")" "$f"
  done
  rm -rf "$backup"
}
trap restore EXIT
for f in "${files[@]}"; do cp "$f" "$backup/$(basename "$f")"; done

cargo test --no-run --quiet >/dev/null 2>&1
declare -A times
for i in $(seq 1 "$runs"); do
  for k in 0 1; do
    f=${files[$k]}
    printf '\n/// A probe for benches/build_times.sh (reverted).\npub fn kepi_build_probe_%s() -> u32 {\n    %s\n}\n' "$i$k" "$RANDOM" >>"$f"
    start=$(date +%s.%N)
    cargo test --no-run --quiet >/dev/null 2>&1
    end=$(date +%s.%N)
    cp "$backup/$(basename "$f")" "$f"
    cargo test --no-run --quiet >/dev/null 2>&1
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    echo "${labels[$k]} edit: $t s"
    times[${labels[$k]}]+="$t "
  done
done
for l in "${labels[@]}"; do
  median=$(echo "${times[$l]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  echo "median after a ${l} edit: $median s"
done
