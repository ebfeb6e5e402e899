#!/usr/bin/env bash
# The patches of vendor/lua-src (our copy of the lua-src crate, which mlua builds Lua with)
# against the pristine crate, kept as files in vendor/lua-src/patches/ (applied in name order)
# with the pristine files' checksums in vendor/lua-src/patches/pristine.sha256 (which also lists
# the files the patches cover: LICENSE, src/lib.rs and the Lua sources).
#
#   scripts/lua-patches.sh check
#       The tree is the pristine crate plus the patch files, in order: the patches, taken back
#       off the tree one by one (last first), leave exactly the pristine files, and put on again
#       give exactly the tree. Offline; sandbox/tests/it/lua_patches.rs runs it.
#   scripts/lua-patches.sh export NAME
#       After an edit of the C sources (or a merge of one): writes what the tree changes beyond
#       the patch files as the next patch, NNNN-NAME.patch, to be described at its top and in
#       vendor/lua-src/README.md. Needs the pristine crate, which it fetches with cargo (from
#       the local registry cache if it is there).
#   scripts/lua-patches.sh apply DIR
#       A new Lua release: DIR is an unpacked lua-src crate (e.g. from `cargo fetch`, in
#       ~/.cargo/registry/src/*/lua-src-VERSION). Its Lua 5.4 sources, src/lib.rs and LICENSE
#       replace ours, its checksums replace pristine.sha256, and the patches are put on it one by
#       one (with patch's fuzz); each patch that applies is rewritten against the new sources.
#       It stops at the first patch that does not apply, leaving its .rej files. Then update
#       Cargo.toml's version, build.rs and the README, and rerun the tests.
#   scripts/lua-patches.sh diff OLD NEW
#       The patch from one copy of the covered files to another, as export writes it (for
#       splitting or rewriting a patch by hand).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vendor=$root/vendor/lua-src
patches=$vendor/patches
sums=$patches/pristine.sha256
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

die() { echo "lua-patches: $*" >&2; exit 1; }
command -v patch >/dev/null || die "needs GNU patch (apt-get install patch)"

# The covered files: the pristine ones (pristine.sha256) and the Lua sources of the tree.
covered() { # dir
  { sed 's/^[0-9a-f]*  //' "$sums"; (cd "$1" && find lua-5.4.* src -type f 2>/dev/null); } | LC_ALL=C sort -u
}

copy_covered() { # from to
  mkdir -p "$2"
  (cd "$1" && covered "$1" | while read -r f; do
    if [ -f "$f" ]; then mkdir -p "$2/$(dirname "$f")" && cp "$f" "$2/$f"; fi
  done)
}

diff_trees() { # old new: one unified diff per differing file, without timestamps
  local f status=0
  for f in $({ covered "$1"; covered "$2"; } | LC_ALL=C sort -u); do
    local a=$1/$f b=$2/$f la=a/$f lb=b/$f
    [ -f "$a" ] || { a=/dev/null; la=/dev/null; }
    [ -f "$b" ] || { b=/dev/null; lb=/dev/null; }
    LC_ALL=C diff -u --label "$la" --label "$lb" "$a" "$b" || status=$?
    [ "$status" -le 1 ] || die "diff failed on $f"
    status=0
  done
}

patch_files() { (cd "$patches" && ls -- *.patch 2>/dev/null | LC_ALL=C sort); }

apply_one() { # dir patchfile [reverse]
  patch -d "$1" -p1 -f -s -F0 --no-backup-if-mismatch -r - ${3:+-R} -i "$2" >"$work/patch.log" 2>&1
}

pristine_from_cargo() { # prints the unpacked pristine crate's directory
  local version
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$vendor/Cargo.toml" | head -1)
  local home=${CARGO_HOME:-$HOME/.cargo} dir
  dir=$(ls -d "$home"/registry/src/*/"lua-src-$version" 2>/dev/null | head -1 || true)
  if [ -z "$dir" ]; then
    mkdir -p "$work/fetch/src"
    printf '[package]\nname = "fetch-lua-src"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nlua-src = "=%s"\n' \
      "$version" >"$work/fetch/Cargo.toml"
    : >"$work/fetch/src/lib.rs"
    (cd "$work/fetch" && cargo fetch --quiet) >&2 || die "cargo could not fetch lua-src $version"
    dir=$(ls -d "$home"/registry/src/*/"lua-src-$version" | head -1)
  fi
  (cd "$dir" && sha256sum --quiet -c "$sums") >&2 || die "$dir is not the pristine lua-src $version"
  echo "$dir"
}

case ${1:-} in
check)
  n=$(patch_files | wc -l)
  copy_covered "$vendor" "$work/tree"
  cp -r "$work/tree" "$work/base"
  for p in $(patch_files | LC_ALL=C sort -r); do
    apply_one "$work/base" "$patches/$p" reverse ||
      die "$p does not come off the tree (the tree and the patch files disagree: after an edit of the sources, run scripts/lua-patches.sh export NAME):
$(cat "$work/patch.log")"
  done
  find "$work/base" -type f -empty -delete
  bad=$(cd "$work/base" && sha256sum --quiet -c "$sums" 2>/dev/null) ||
    die "the tree without its $n patches is not the pristine crate ($(echo $bad)): the tree changes more than the patch files say; run scripts/lua-patches.sh export NAME"
  extra=$(cd "$work/base" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | comm -23 - <(sed 's/^[0-9a-f]*  //' "$sums" | LC_ALL=C sort))
  [ -z "$extra" ] || die "files that neither the pristine crate nor a patch has: $extra"
  cp -r "$work/base" "$work/again"
  for p in $(patch_files); do
    apply_one "$work/again" "$patches/$p" || die "$p does not apply to the pristine crate: $(cat "$work/patch.log")"
  done
  diff -r "$work/again" "$work/tree" >/dev/null ||
    die "the pristine crate plus the patch files is not the tree: run scripts/lua-patches.sh export NAME"
  echo "ok: vendor/lua-src is the pristine lua-src plus its $n patches"
  ;;
export)
  name=${2:?usage: scripts/lua-patches.sh export NAME}
  pristine=$(pristine_from_cargo)
  copy_covered "$pristine" "$work/base"
  for p in $(patch_files); do
    apply_one "$work/base" "$patches/$p" || die "$p does not apply to the pristine crate: $(cat "$work/patch.log")"
  done
  copy_covered "$vendor" "$work/tree"
  diff_trees "$work/base" "$work/tree" >"$work/new.diff"
  [ -s "$work/new.diff" ] || { echo "nothing to export: the tree is the pristine crate plus its patches"; exit 0; }
  last=$(patch_files | tail -1)
  next=$(printf '%04d' $((10#${last%%-*} + 1)))
  out=$patches/$next-$name.patch
  {
    echo "$next-$name: what the tree changed beyond the earlier patches (scripts/lua-patches.sh"
    echo "export). Say here what it does and why, and add it to vendor/lua-src/README.md."
    echo
    cat "$work/new.diff"
  } >"$out"
  echo "wrote ${out#"$root"/}"
  ;;
apply)
  dir=${2:?usage: scripts/lua-patches.sh apply <unpacked lua-src crate>}
  dir=$(cd "$dir" && pwd)
  luadir=$(cd "$dir" && ls -d lua-5.4.* | tail -1)
  [ -n "$luadir" ] && [ -f "$dir/src/lib.rs" ] || die "$dir is not an unpacked lua-src crate"
  rm -rf "$vendor"/lua-5.4.*
  cp -r "$dir/$luadir" "$vendor/$luadir"
  cp "$dir/src/lib.rs" "$vendor/src/lib.rs"
  cp "$dir/LICENSE" "$vendor/LICENSE"
  (cd "$vendor" && { echo LICENSE; echo src/lib.rs; find "$luadir" -type f; } | LC_ALL=C sort | xargs sha256sum) >"$sums"
  for p in $(patch_files); do
    sed -i "s#^\(--- a\|+++ b\)/lua-5\.4\.[0-9]*/#\1/$luadir/#" "$patches/$p"
    rm -rf "$work/before" && copy_covered "$vendor" "$work/before"
    if ! patch -d "$vendor" -p1 -f --no-backup-if-mismatch -i "$patches/$p"; then
      die "$p does not apply to $luadir: finish it by hand (the .rej files above), then write it again with
  scripts/lua-patches.sh diff <copy of the tree before it> vendor/lua-src
and apply the patches after it"
    fi
    { sed '/^--- /,$d' "$patches/$p"; diff_trees "$work/before" "$vendor"; } >"$work/refreshed"
    mv "$work/refreshed" "$patches/$p"
  done
  echo "applied every patch to $luadir; now update vendor/lua-src/Cargo.toml, build.rs and README.md"
  ;;
diff)
  diff_trees "${2:?usage: scripts/lua-patches.sh diff OLD NEW}" "${3:?usage: scripts/lua-patches.sh diff OLD NEW}"
  ;;
*)
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
  ;;
esac
