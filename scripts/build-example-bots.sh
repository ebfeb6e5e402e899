#!/usr/bin/env bash
# Builds the example WASM bots and copies them to example_bots/wasm/:
#   - the Rust bots (example_bots/rust, their own cargo workspace) -> <game>_rust.wasm, and
#     blade_montecarlo_rust.wasm (the Rust port of example_bots/lua/blade_montecarlo.lua)
#   - the C bot (example_bots/c, clang + wasm-ld, no libc)          -> ecard_c.wasm
# (The .wat bot needs no build: the arena reads .wat files as they are.)
#
# Installs what is missing: the wasm32-unknown-unknown Rust target (rustup), and clang and lld
# (apt-get, Debian/Ubuntu; as root, or through passwordless sudo). Safe to run again: tools
# that are present are not reinstalled, and cargo only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=example_bots/wasm
mkdir -p "$out"

say() { echo "build-example-bots: $*" >&2; }

# --- Tools --------------------------------------------------------------------------------
if command -v rustup >/dev/null 2>&1; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "installing the Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
else
  say "rustup not found: assuming the toolchain already has wasm32-unknown-unknown"
fi

apt_install() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      say "clang/wasm-ld are missing and I cannot install them (not root, no sudo): install clang and lld"
      exit 2
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "clang/wasm-ld are missing and apt-get is not available: install clang and lld"
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  say "installing clang and lld with apt-get"
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends clang lld; then
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends clang lld
  fi
}

# clang for the C bot; wasm-ld (from lld) is the linker clang calls for --target=wasm32.
if ! command -v clang >/dev/null 2>&1 || ! command -v wasm-ld >/dev/null 2>&1; then
  apt_install
fi
# Debian installs versioned names only for some packages; `wasm-ld` comes from `lld`.
command -v wasm-ld >/dev/null 2>&1 || { say "wasm-ld not found after installing lld"; exit 2; }

# --- Rust bots ----------------------------------------------------------------------------
# --remap-path-prefix: no machine-specific paths (checkout, cargo home) in panic messages, so
# the same toolchain builds the same bytes anywhere.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$root=/cardarena --remap-path-prefix=$cargo_home=/cargo"
say "building the Rust bots"
cargo build --release --locked --target wasm32-unknown-unknown --manifest-path example_bots/rust/Cargo.toml \
  --target-dir example_bots/rust/target  # where the copy below looks, even if CARGO_TARGET_DIR is set
built=example_bots/rust/target/wasm32-unknown-unknown/release
for game in blade ecard lost-cities intensity; do
  cp "$built/${game//-/_}_bot.wasm" "$out/${game}_rust.wasm"
done
cp "$built/blade_montecarlo.wasm" "$out/blade_montecarlo_rust.wasm"   # Monte-Carlo search

# --- C bot --------------------------------------------------------------------------------
say "building the C bot"
clang --target=wasm32 -O2 -nostdlib -ffreestanding -Wall -Wextra -Werror \
  -Wl,--no-entry -Wl,--strip-debug \
  -o "$out/ecard_c.wasm" example_bots/c/ecard_bot.c

ls -l "$out"/*.wasm >&2
