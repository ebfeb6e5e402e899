#!/usr/bin/env bash
# docs/img/ladder.png, the README's picture of the web ladder: tests/it/ladder_e2e.rs fills a ladder
# through headless Chromium (four example bots, a worker playing their matches) and saves its
# leaderboard, cropped to the page's content, as target/screenshots/ladder-board.png; this
# script runs it and copies that picture into docs/. Needs what scripts/test.sh installs
# (chromium, chromium-driver) and the example WASM bots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-example-bots.sh
CARDARENA_REQUIRE_TOOLS=1 cargo test --locked --test it ladder_e2e::
mkdir -p docs/img
cp target/screenshots/ladder-board.png docs/img/ladder.png
size=$(stat -c %s docs/img/ladder.png)
echo "docs/img/ladder.png: $size bytes"
if [ "$size" -gt 153600 ]; then
  echo "docs/img/ladder.png is over 150 KB; keep the README light (fewer rows, a smaller window)" >&2
  exit 1
fi
