#!/bin/sh
# Runs QuickJS-ng's own test files (the tests/ folder of the same crates.io package the engine is
# vendored from, rquickjs-sys 0.14.0) inside the sandbox, each as a JavaScript bot's top level:
# sandbox/tests/interp.rs, `quickjs_own_tests_pass_in_the_sandbox`, prints the pass count and
# the excluded files with why. npm has no `test262` package, so this is the conformance suite.
# Needs network access to crates.io (cargo vendor).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cargo new --quiet --vcs none scratch
cd scratch
cargo add --quiet rquickjs-sys@=0.14.0
cargo vendor --quiet vendor > /dev/null
sum=$(grep -A3 'name = "rquickjs-sys"' Cargo.lock | sed -n 's/checksum = "\(.*\)"/\1/p')
want=cee271d0eeba64f0915b846cb7ae02e16faf3dfdffdca91731101d9d30fe3423
if [ "$sum" != "$want" ]; then
    echo "rquickjs-sys 0.14.0 has checksum $sum, not $want (sandbox/interp/quickjs/README.md)" >&2
    exit 1
fi
cd "$root"
QUICKJS_TESTS="$work/scratch/vendor/rquickjs-sys/quickjs/tests" \
    nice -n 10 cargo test --locked --features arena/postgres --workspace --test it \
    interp::quickjs_own_tests_pass_in_the_sandbox -- --ignored --nocapture
