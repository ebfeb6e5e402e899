#!/usr/bin/env bash
# Writes what the arena does, as files, into OUT_DIR (default: target/snapshot): the default
# tournament's JSON, one replay per game, variant and seed for built-in, Lua, WASM and legacy bots,
# their `--verify`, `check` of every example bot (fuel and memory), and a grade of the class
# folder. Two snapshots taken before and after a refactoring must be byte-identical:
#   scripts/behaviour-snapshot.sh /tmp/before; (change the code); scripts/behaviour-snapshot.sh /tmp/after
#   diff -r /tmp/before /tmp/after
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-target/snapshot}")
rm -rf "$out"; mkdir -p "$out/replays" "$out/check"
cargo build --release --quiet
arena=$PWD/target/release/arena
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

cp arena.toml "$work/arena.toml"
# Bot paths in arena.toml are relative to it: run it from a copy whose paths point back here.
sed -i "s#\"example_bots/#\"$PWD/example_bots/#" "$work/arena.toml"
"$arena" tournament "$work/arena.toml" --quiet --threads 2 --json "$out/tournament.json" >"$out/tournament.txt"

play() { # game variant seed bots...
  local g=$1 v=$2 s=$3 b=$4 name
  name=$(echo "$g.$v.$s.$b" | tr '/,:' '_+-')
  "$arena" play --game "$g" --variant "$v" --seed "$s" --bots "$b" --json --replay "$out/replays/$name.json" \
    --capsules "$work/capsules" >"$out/replays/$name.out" 2>&1 || echo "exit $?" >>"$out/replays/$name.out"
  "$arena" replay "$out/replays/$name.json" --verify >"$out/replays/$name.verify" 2>&1 || echo "exit $?" >>"$out/replays/$name.verify"
}
for s in 1 2 3; do
  for v in readme controller; do
    play blade $v $s greedy,random
    play blade $v $s example_bots/lua/blade_greedy.lua,example_bots/wasm/blade_rust.wasm
    play blade $v $s example_bots/lua/blade_montecarlo.lua,example_bots/wasm/blade_montecarlo_rust.wasm
    play blade $v $s strong,example_bots/wat/first_legal.wat
  done
  play blade readme $s legacy:blade:example_bots/legacy/blade_c.wasm,greedy
  for v in readme manga; do
    play ecard $v $s greedy,nash
    play ecard $v $s example_bots/lua/ecard_greedy.lua,example_bots/wasm/ecard_c.wasm
    play ecard $v $s example_bots/wasm/ecard_rust.wasm,strong
  done
  for v in classic six-suits; do
    play lost-cities $v $s greedy,strong
    play lost-cities $v $s example_bots/lua/lost-cities_greedy.lua,example_bots/wasm/lost-cities_rust.wasm
  done
  play intensity standard $s greedy,random,strong,example_bots/lua/intensity_greedy.lua
  play intensity standard $s example_bots/wasm/intensity_rust.wasm,example_bots/lua/intensity_random.lua,example_bots/lua/any_coroutines.lua,greedy
  play intensity standard $s legacy:comp1511:example_bots/legacy/intensity_c.wasm,legacy:comp1511:example_bots/legacy/intensity_rust.wasm,greedy,random
done

for f in example_bots/lua/*.lua example_bots/wasm/*.wasm; do
  b=$(basename "$f"); g=${b%%_*}
  case $g in blade|ecard|lost-cities|intensity) ;; *) continue ;; esac
  "$arena" check "$f" --game "$g" --deals 5 --threads 2 >"$out/check/$b.txt" 2>&1 || echo "exit $?" >>"$out/check/$b.txt"
done

mkdir -p "$work/class"; cp example_bots/lua/blade_*.lua example_bots/wasm/blade_*.wasm "$work/class/"
"$arena" grade --game blade --bots "$work/class" --deals 5 --threads 2 --csv - >"$out/grade.csv" 2>&1 || echo "exit $?" >>"$out/grade.csv"
"$arena" sprt --help >/dev/null
"$arena" sprt --game ecard --bots strong,example_bots/lua/ecard_greedy.lua --seed 3 --max-pairs 200 --threads 2 >"$out/sprt.txt" 2>&1 || echo "exit $?" >>"$out/sprt.txt"
# Paths of this run's temporary folder are not behaviour.
{ grep -rl "$work" "$out" || true; } | xargs -r sed -i "s#$work#WORK#g"
(cd "$out" && find . -type f | sort | xargs sha256sum) >"$out.sums"
echo "snapshot: $out ($(find "$out" -type f | wc -l) files; sums in $out.sums)"
