#!/bin/sh
# Builds the interpreter module that Python bots run in (sandbox/interp/python/python.wasm):
# RustPython 0.5.0 from crates.io with the glue of sandbox/interp/python/glue, for wasm32-wasip1.
# The built module is committed, so the arena builds without this; the script rebuilds it byte for
# byte (sandbox/tests/interp_python.rs checks its sha256). Needs rustup's wasm32-wasip1 target.
# A cold build compiles about 230 crates (tens of minutes on two cores); set CARGO_TARGET_DIR to
# keep them between runs.
#
#   scripts/build-python.sh           rebuild the module
#   scripts/build-python.sh --check   rebuild into a temporary file and compare
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
glue=$root/sandbox/interp/python/glue
out=$root/sandbox/interp/python/python.wasm
cargo_home=${CARGO_HOME:-$HOME/.cargo}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/python-wasm}
# Paths of this machine (the registry, the checkout) do not reach the module.
export RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$glue=/glue -C link-arg=-zstack-size=8388608"
cd "$glue"
nice -n 10 cargo build --locked --release --target wasm32-wasip1
built=$CARGO_TARGET_DIR/wasm32-wasip1/release/cardarena_python.wasm
if [ "${1:-}" = "--check" ]; then
    cmp "$built" "$out"
    echo "sandbox/interp/python/python.wasm: rebuilt byte for byte"
else
    cp "$built" "$out"
    sha256sum "$out"
fi
