#!/usr/bin/env bash
# Builds the example WASM bots and copies them to example_bots/wasm/:
#   - the Rust bots (example_bots/rust, their own cargo workspace) -> <game>_rust.wasm, and
#     blade_montecarlo_rust.wasm (the Rust port of example_bots/lua/blade_montecarlo.lua)
#   - the C bot (example_bots/c, clang + wasm-ld, no libc)          -> ecard_c.wasm
# and the legacy stdin/stdout bots (docs/legacy-bots.md) to example_bots/legacy/:
#   - intensity.c, blade.c (clang --target=wasm32-wasi, wasi-libc) -> intensity_c.wasm, blade_c.wasm
#   - rust/ (wasm32-wasip1)                                         -> intensity_rust.wasm
# and the C programs of tests/it/legacy.rs (tests/data/legacy/*.c, ordinary COMP1511 programs) to
# tests/data/legacy/*.wasm.
# (The .wat bot needs no build: the arena reads .wat files as they are.)
#
# Installs what is missing: the wasm32-unknown-unknown and wasm32-wasip1 Rust targets (rustup),
# and clang, lld, wasi-libc and libclang-rt-14-dev-wasm32 (apt-get, Debian/Ubuntu; as root, or
# through passwordless sudo). Safe to run again: tools
# that are present are not reinstalled, and cargo only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=example_bots/wasm
mkdir -p "$out"

say() { echo "build-example-bots: $*" >&2; }

# --- Tools --------------------------------------------------------------------------------
if command -v rustup >/dev/null 2>&1; then
  for target in wasm32-unknown-unknown wasm32-wasip1; do
    if ! rustup target list --installed | grep -qx "$target"; then
      say "installing the Rust target $target"
      rustup target add "$target"
    fi
  done
else
  say "rustup not found: assuming the toolchain already has wasm32-unknown-unknown and wasm32-wasip1"
fi

# clang for the C bots; wasm-ld (lld) is the linker clang calls for --target=wasm32; wasi-libc
# (the C library; Debian puts it where clang looks: /usr/include/wasm32-wasi, /usr/lib/wasm32-wasi) and libclang-rt-14-dev-wasm32 (compiler-rt) for the
# legacy C bots, which are ordinary C programs.
packages=(clang lld wasi-libc libclang-rt-14-dev-wasm32)

apt_install() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      say "C tools are missing and I cannot install them (not root, no sudo): install ${packages[*]}"
      exit 2
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "C tools are missing and apt-get is not available: install ${packages[*]}"
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  say "installing ${packages[*]} with apt-get"
  if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${packages[@]}"; then
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends "${packages[@]}"
  fi
}

# compiler-rt's builtins for wasm32 (the file libclang-rt-14-dev-wasm32 installs).
have_wasi_rt() { ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1; }
if ! command -v clang >/dev/null 2>&1 || ! command -v wasm-ld >/dev/null 2>&1 \
  || [ ! -f /usr/include/wasm32-wasi/stdio.h ] || ! have_wasi_rt; then
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


# --- Legacy stdin/stdout bots (WASI commands) ----------------------------------------------
legacy=example_bots/legacy
say "building the legacy bots"
for bot in intensity blade; do
  clang --target=wasm32-wasi -O2 -Wall -Wextra -Werror -Wl,--strip-all \
    -o "$legacy/${bot}_c.wasm" "$legacy/$bot.c"
done
cargo build --release --locked --target wasm32-wasip1 --manifest-path "$legacy/rust/Cargo.toml" \
  --target-dir "$legacy/rust/target"
cp "$legacy/rust/target/wasm32-wasip1/release/intensity-legacy.wasm" "$legacy/intensity_rust.wasm"
for src in tests/data/legacy/*.c; do
  clang --target=wasm32-wasi -O2 -Wall -Wextra -Werror -Wl,--strip-all -o "${src%.c}.wasm" "$src"
done

ls -l "$out"/*.wasm "$legacy"/*.wasm tests/data/legacy/*.wasm >&2
