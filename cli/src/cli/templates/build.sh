#!/bin/sh
# Builds bot.wasm from bot.c with clang and wasm-ld (Debian/Ubuntu: apt-get install clang lld).
set -eu
cd "$(dirname "$0")"
clang --target=wasm32 -O2 -nostdlib -ffreestanding -Wall -Wextra \
  -Wl,--no-entry -Wl,--strip-debug -o bot.wasm bot.c
echo "built $(pwd)/bot.wasm"
