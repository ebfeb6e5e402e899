#!/usr/bin/env bash
# Builds the ladder's code editor, ladder/src/static/vendor/editor.js (CodeMirror 6 and the glue of
# ladder/editor/glue.js, one minified script) and its licence list EDITOR-LICENSES.md beside it.
# The built files are committed, so the ladder builds without this. The packages are the exact
# versions of ladder/editor/package-lock.json, from the npm registry (`npm ci`), bundled by the
# pinned esbuild; the output is the same byte for byte on every run.
# Needs Node.js (18 or later) and npm: Debian's `nodejs` and `npm` packages, installed here when
# missing (as root, or through passwordless sudo).
#
#   scripts/build-editor.sh           rebuild the files
#   scripts/build-editor.sh --check   rebuild into a temporary folder and compare
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/ladder/editor
out=$root/ladder/src/static/vendor
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "build-editor.sh needs Node.js and npm; installing Debian's nodejs and npm" >&2
  sudo=()
  if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq nodejs npm
fi
cd "$src"
# The packages' install scripts are not run: esbuild's binary comes in its platform package.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
if [ "${1:-}" = "--check" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  node build.mjs "$tmp"
  cmp "$tmp/editor.js" "$out/editor.js"
  cmp "$tmp/EDITOR-LICENSES.md" "$out/EDITOR-LICENSES.md"
  echo "ladder/src/static/vendor/editor.js and EDITOR-LICENSES.md: rebuilt byte for byte"
else
  mkdir -p "$out"
  node build.mjs "$out"
  wc -c "$out/editor.js"
fi
