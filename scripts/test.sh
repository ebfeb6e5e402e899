#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
# Example WASM bots are built for wasm32-unknown-unknown.
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
cargo test --workspace --locked "$@"
