#!/bin/sh
# Rebuilds docs/zoo.md and docs/zoo-levels.svg: plays docs/zoo.toml (every built-in bot, every
# level of `strong`, every example bot, rated per game) and docs/zoo-targets.toml (strong's
# head-to-head targets on 2000 duplicate deals), times every bot's decisions, and writes the page.
#
#   scripts/zoo.sh            # about an hour on 2 idle cores; a second run resumes the databases
#
# Results go to target/zoo/ (the databases, the JSON); THREADS sets the worker threads.
# After changing a built-in bot, delete target/zoo first: a resumed run keeps the matches it
# finds, and a built-in bot is known by its name and the arena's version, not by its code.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet
arena=target/release/arena
out=target/zoo
mkdir -p "$out"
threads=${THREADS:-2}
"$arena" tournament docs/zoo.toml --threads "$threads" --quiet --db "$out/zoo.db" --json "$out/zoo.json" >/dev/null
"$arena" tournament docs/zoo-targets.toml --threads "$threads" --quiet --db "$out/targets.db" --json "$out/targets.json" >/dev/null
"$arena" timing docs/zoo.toml --deals 10 >"$out/timing.json"
python3 scripts/zoo-table.py "$out/zoo.json" "$out/targets.json" "$out/timing.json" \
    --svg docs/zoo-levels.svg >docs/zoo.md
echo "wrote docs/zoo.md and docs/zoo-levels.svg"
