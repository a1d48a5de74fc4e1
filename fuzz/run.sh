#!/usr/bin/env bash
# Runs one fuzz target seeded from the project's corpus, so libFuzzer starts from every hostile file
# the tests already replay (and, for tables and cards, from the real files kepi ships).
#   bash fuzz/run.sh TARGET [SECONDS]      TARGET: tables | cards | save | journal
# New inputs go to fuzz/corpus/TARGET (git-ignored); crashes to fuzz/artifacts/TARGET: copy a crash
# into tests/corpus/TARGET so `cargo test` replays it forever.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: bash fuzz/run.sh tables|cards|save|journal [SECONDS]}"
seconds="${2:-60}"
case "$target" in
  tables) seeds=(../tests/corpus/tables ../tables) ;;
  cards) seeds=(../tests/corpus/cards ../unit-cards/scenarios) ;;
  save) seeds=(../tests/corpus/save) ;;
  journal) seeds=(../tests/corpus/journal) ;;
  *) echo "unknown target '$target' (accepted: tables, cards, save, journal)" >&2; exit 2 ;;
esac
command -v cargo-fuzz >/dev/null 2>&1 || { echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2; exit 2; }
mkdir -p "corpus/$target"
# libFuzzer reads every folder given; it writes new inputs only into the first.
RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" "${seeds[@]}" -- -max_total_time="$seconds"
