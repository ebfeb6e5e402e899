#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs and builds what the tests need, then
# runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
# The example WASM bots (Rust and C) that tests/it/example_bots.rs plays: this installs the
# wasm32-unknown-unknown target and clang/lld when missing, builds the bots and refreshes
# example_bots/wasm/.
bash scripts/build-example-bots.sh
# The committed modules are the ones the script builds (the same bytes in any checkout).
if git rev-parse --git-dir >/dev/null 2>&1 \
  && ! git diff --quiet -- example_bots/wasm example_bots/legacy tests/data/legacy; then
  git diff --stat -- example_bots/wasm example_bots/legacy tests/data/legacy >&2
  echo "test.sh: scripts/build-example-bots.sh built other modules than the committed ones (above): commit them" >&2
  exit 1
fi
# The rules crate builds for the browser and for bots (ARCHITECTURE.md, `games/`): the target was
# installed by the script above.
cargo check --locked -p cardarena-games --target wasm32-unknown-unknown
# Headless Chromium for tests/it/report.rs (the HTML report opened in a browser), with its WebDriver
# for tests/it/browser.rs (the replay viewer, driven through tests/testkit/src/browser.rs), tmux for
# tests/it/authoring.rs (a person playing in a terminal) and PostgreSQL for tests/it/queue.rs: Debian's
# packages, installed when missing (as root, or through passwordless sudo).
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
# PostgreSQL for tests/it/queue.rs, tests/it/ladder_pg.rs and the ladder crate's store tests (the
# PostgreSQL backends, feature `postgres`): each test starts a throwaway cluster itself (initdb
# as the `postgres` user, a loopback port).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
# nginx, openssl and curl for tests/it/ladder_tls.rs (the ladder behind a TLS reverse proxy, as
# docs/deploy.md sets it up, with a throwaway self-signed certificate).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi
# The ladder's code editor (ladder/src/static/vendor/editor.js) is the build of ladder/editor at
# the pinned versions: rebuilt from the npm registry and compared byte for byte (installs Debian's
# nodejs and npm when missing).
bash scripts/build-editor.sh --check
# With the tools installed, a test that needs one fails rather than skips when it is missing.
export CARDARENA_REQUIRE_TOOLS=1
# The Rust bot SDK's own tests (native; its observation types against docs/games/*.md).
cargo test --locked --manifest-path example_bots/rust/Cargo.toml -p cardarena-bot
# With the job queue's PostgreSQL backend, so that tests/it/queue.rs runs its PostgreSQL test.
cargo test --workspace --locked --features arena/postgres "$@"
