#!/bin/sh
# Builds the interpreter module that Python bots run in (sandbox/interp/python/python.wasm):
# RustPython 0.5.0 from crates.io with the glue of sandbox/interp/python/glue, for wasm32-wasip1.
# Three crates are patched (glue/patches/): rustpython-common's reference count gets 28 bits on
# wasm32 instead of 15; rustpython-vm's build script no longer copies the build's environment
# (every variable: paths, core count) or a surrounding checkout's commit into the module; and
# rustpython-derive-impl's macros emit the frozen modules and a class's attributes in name order
# rather than a HashMap's, which changes from one build to the next. The script takes each crate from cargo's
# cache or crates.io, checks its sha256 (crates.io's own, as in the index), and patches a copy in
# glue/patched/.
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

# The patched crates: crates.io's exact bytes (the sha256 of its index), then the patch.
rm -rf "$glue/patched"
mkdir -p "$glue/patched"
patched() { # name version sha256 patch
    local crate=$1-$2 file
    file=$(ls "$cargo_home"/registry/cache/*/"$crate.crate" 2>/dev/null | head -n 1 || true)
    if [ -z "$file" ]; then
        file=$target_dir/$crate.crate
        curl -sSfL -o "$file" "https://static.crates.io/crates/$1/$crate.crate"
    fi
    if [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$3" ]; then
        echo "build-python.sh: $file is not crates.io's $crate (sha256 should be $3)" >&2
        exit 1
    fi
    tar -xzf "$file" -C "$glue/patched"
    mv "$glue/patched/$crate" "$glue/patched/$1"
    patch -s -d "$glue/patched/$1" -p1 < "$glue/patches/$4"
}
patched rustpython-common 0.5.0 9f3c0808a170ea900e0489a06d6aa04ce5d27d62b347836c2f98df958f47f243 \
    rustpython-common-refcount.patch
patched rustpython-vm 0.5.0 1880770161cef896bf9c7e065dae574e3b4c3cf6172e485f1ce86f0483816ab2 \
    rustpython-vm-no-build-env.patch
patched rustpython-derive-impl 0.5.0 322d64ea8a21d52cd769db0f6190b6e7c17963b13c8c17f39d7364e68af96731 \
    rustpython-derive-impl-sorted.patch

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
