#!/usr/bin/env bash
# Runs the official Lua 5.4 test files (testes/ of the Lua distribution) inside the sandbox
# (sandbox/tests/it/official.rs). The files are not in this repository; give a Lua checkout or
# git directory (e.g. a clone of https://github.com/lua/lua):
#   scripts/lua-testes.sh <checkout-or-git-dir> [tag]     (tag: default v5.4.8)
# A directory that already holds the .lua files (pm.lua, sort.lua, ...) works too.
# The test builds the sandbox with the `lua-testes` feature (Lua's debug library and the
# harness's stubs, docs/sandbox.md), which no other build enables.
set -euo pipefail
src=${1:?usage: scripts/lua-testes.sh <lua checkout, git dir or testes dir> [tag]}
tag=${2:-v5.4.8}
root=$(cd "$(dirname "$0")/.." && pwd)
out="${CARGO_TARGET_DIR:-$root/target}/lua-testes/$tag"
mkdir -p "$out"
if [ -f "$src/pm.lua" ]; then
  cp "$src"/*.lua "$out"/
elif [ -f "$src/testes/pm.lua" ]; then
  cp "$src"/testes/*.lua "$out"/
else
  gitdir=$src
  [ -d "$src/.git" ] && gitdir=$src/.git
  for f in $(git --git-dir="$gitdir" ls-tree --name-only "$tag:testes" | grep '\.lua$'); do
    git --git-dir="$gitdir" show "$tag:testes/$f" > "$out/$f"
  done
fi
cd "$root"
LUA_TESTES="$out" cargo test -p cardarena-sandbox --features lua-testes --test it official:: -- --ignored --nocapture
