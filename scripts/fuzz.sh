#!/usr/bin/env bash
# Long fuzz campaigns over every untrusted input (tests/it/fuzz, docs/fuzzing.md).
#
#   scripts/fuzz.sh [MINUTES]              every target for MINUTES each (default 30), one after
#                                          another; prints the first seed, every failure with its
#                                          seed and replay command, and a table of cases per target
#   scripts/fuzz.sh --replay TARGET SEED   runs one case again (twice, as the campaign does)
#
# Environment: FUZZ_TARGETS=wasm,lua (a subset), FUZZ_SEED=0x... (the first seed, to repeat a
# campaign), FUZZ_PROFILE=dev (a debug build; default release, several times faster per case).
set -uo pipefail
cd "$(dirname "$0")/.."
profile=(--release)
if [ "${FUZZ_PROFILE:-release}" = dev ]; then profile=(); fi

if [ "${1:-}" = --replay ]; then
  if [ $# -ne 3 ]; then
    echo "usage: scripts/fuzz.sh --replay TARGET SEED" >&2
    exit 2
  fi
  FUZZ_TARGET="$2" FUZZ_CASE="$3" exec cargo test "${profile[@]}" --test it fuzz::replay -- --ignored --nocapture --exact
fi

minutes="${1:-30}"
state="$(mktemp)"
trap 'rm -f "$state"' EXIT
FUZZ_MINUTES="$minutes" FUZZ_STATE="$state" \
  cargo test "${profile[@]}" --test it fuzz::campaign -- --ignored --nocapture --exact --test-threads 1
status=$?
# 0: clean; 101: failing cases (printed above with their seeds). The campaign empties the state
# file when it ends; if it still names a case, the process died in it (an abort, a signal, the
# hang watchdog, a panic outside a case).
if [ "$status" -ne 0 ] && [ -s "$state" ]; then
  read -r target seed <"$state"
  echo "the fuzz process died (status $status) during $target seed $seed" >&2
  echo "  replay: scripts/fuzz.sh --replay $target $seed" >&2
fi
exit "$status"
