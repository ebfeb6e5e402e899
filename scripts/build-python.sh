#!/bin/sh
# Builds the interpreter module that Python bots run in (sandbox/interp/python/python.wasm):
# RustPython 0.5.0 from crates.io with the glue of sandbox/interp/python/glue, for wasm32-wasip1.
# One crate is patched: rustpython-common's reference count gets 28 bits on wasm32 instead of 15
# (glue/patches/); the script takes the crate from cargo's cache or crates.io, checks its sha256
# (crates.io's own, as in the index), and patches a copy in glue/patched/.
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
mkdir -p "$CARGO_TARGET_DIR"
target_dir=$(cd "$CARGO_TARGET_DIR" && pwd)

# The patched crate: the registry's exact bytes, then the patch.
crate=rustpython-common-0.5.0
sum=9f3c0808a170ea900e0489a06d6aa04ce5d27d62b347836c2f98df958f47f243
file=$(ls "$cargo_home"/registry/cache/*/$crate.crate 2>/dev/null | head -n 1 || true)
if [ -z "$file" ]; then
    file=$target_dir/$crate.crate
    curl -sSfL -o "$file" "https://static.crates.io/crates/rustpython-common/$crate.crate"
fi
if [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sum" ]; then
    echo "build-python.sh: $file is not crates.io's $crate (sha256 should be $sum)" >&2
    exit 1
fi
rm -rf "$glue/patched"
mkdir -p "$glue/patched"
tar -xzf "$file" -C "$glue/patched"
mv "$glue/patched/$crate" "$glue/patched/rustpython-common"
patch -s -d "$glue/patched/rustpython-common" -p1 < "$glue/patches/rustpython-common-refcount.patch"

# Paths of this machine (the registry, the checkout, the build folder) do not reach the module.
export RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$glue=/glue --remap-path-prefix=$target_dir=/target -C link-arg=-zstack-size=8388608"
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
