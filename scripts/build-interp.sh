#!/bin/sh
# Builds the interpreter modules that JavaScript bots run in (sandbox/interp/*/*.wasm) from the
# vendored sources, with Debian's clang/lld for wasm32-wasi (apt: clang lld wasi-libc). The built
# modules are committed, so the arena builds without clang; this script rebuilds them byte for byte
# (sandbox/tests/interp.rs checks their sha256).
#
#   scripts/build-interp.sh           rebuild every module
#   scripts/build-interp.sh --check   rebuild into a temporary directory and compare
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out_dir=$root/sandbox/interp
if [ "${1:-}" = "--check" ]; then
    out_dir=$(mktemp -d)
    trap 'rm -rf "$out_dir"' EXIT
    mkdir -p "$out_dir/quickjs"
fi

# QuickJS-ng: quickjs.c (vendor/, unchanged upstream files) is compiled inside bot.c (one
# translation unit, see bot.c); the prefix maps keep paths in the module as they were before
# the upstream files moved to vendor/.
cd "$root/sandbox/interp/quickjs"
nice -n 10 clang --target=wasm32-wasi -O2 -mexec-model=reactor \
    -D_GNU_SOURCE -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_SIGNAL \
    -ffile-prefix-map="$PWD"=. -ffile-prefix-map=./vendor/=./ -ffile-prefix-map=vendor/= \
    -Wno-everything -I./vendor \
    bot.c vendor/libregexp.c vendor/libunicode.c vendor/dtoa.c \
    -lwasi-emulated-process-clocks -lwasi-emulated-signal \
    -Wl,-z,stack-size=1048576 -Wl,--strip-all \
    -o "$out_dir/quickjs/quickjs.wasm"

if [ "${1:-}" = "--check" ]; then
    cmp "$out_dir/quickjs/quickjs.wasm" "$root/sandbox/interp/quickjs/quickjs.wasm"
    echo "sandbox/interp/quickjs/quickjs.wasm: rebuilt byte for byte"
else
    sha256sum "$out_dir/quickjs/quickjs.wasm"
fi
