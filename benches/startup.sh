#!/usr/bin/env bash
# Start to first frame: kepi (the demo battle) against a bare eframe window built the same way
# (examples/bare.rs, release profile), both closing after their first frame
# (KEPI_EXIT_AFTER_FIRST_FRAME=1). Runs under Xvfb (installed if missing, as root), interleaving
# the two programs so drift on a shared machine hits both alike. Prints the medians and the ratio,
# then each program's peak resident memory (median of 3 runs of GNU time's %M, when
# /usr/bin/time is there) and the difference.
#
#   bash benches/startup.sh [RUNS]      (default 15 runs each)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-15}"

if ! command -v Xvfb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb >/dev/null
  else
    echo "startup.sh: needs Xvfb (apt-get install xvfb)" >&2
    exit 2
  fi
fi

cargo build --release --quiet --bin kepi --example bare --features startup-bench
kepi=target/release/kepi
bare=target/release/examples/bare

display=:97
Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1
export DISPLAY="$display" KEPI_EXIT_AFTER_FIRST_FRAME=1
# Keep the user's kepi settings out of it: a scratch home for both programs.
home=$(mktemp -d)
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config"

ms() {
  local s e
  s=$(date +%s%N)
  "$1" >/dev/null 2>&1 || { echo "startup.sh: $1 failed" >&2; exit 1; }
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}

# One warm-up run each (page cache, font cache), not counted.
ms "$bare" >/dev/null
ms "$kepi" >/dev/null
: >"$home/bare.ms"
: >"$home/kepi.ms"
for _ in $(seq "$runs"); do
  ms "$bare" >>"$home/bare.ms"
  ms "$kepi" >>"$home/kepi.ms"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
b=$(median "$home/bare.ms")
k=$(median "$home/kepi.ms")
echo "start to first frame, median of $runs runs ($(nproc) cores, Xvfb, $(uname -m)):"
echo "  bare eframe: ${b} ms"
echo "  kepi (demo battle): ${k} ms"
awk -v k="$k" -v b="$b" 'BEGIN {printf "  ratio: %.2fx (issue 26 asks 1.10x or less)\n", k / b}'

if [ -x /usr/bin/time ]; then
  peak() {
    for _ in 1 2 3; do
      /usr/bin/time -f '%M' "$1" 2>&1 >/dev/null | tail -1
    done | sort -n | sed -n 2p
  }
  pb=$(peak "$bare")
  pk=$(peak "$kepi")
  echo "peak resident memory, median of 3 runs:"
  echo "  bare eframe: $((pb / 1024)) MiB"
  echo "  kepi (demo battle): $((pk / 1024)) MiB"
  awk -v k="$pk" -v b="$pb" 'BEGIN {printf "  difference: +%.1f MiB (issue 26 asks +10 MiB or less)\n", (k - b) / 1024}'
fi
rm -rf "$home"
