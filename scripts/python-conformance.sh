#!/bin/sh
# Runs CPython 3.11's own test files for the language core (Lib/test from Debian's
# libpython3.11-testsuite package) inside the sandbox, each as a Python bot, one test method per
# decision under the Python limits: tests/it/python_conformance.rs,
# `cpython_core_tests_in_the_sandbox`, prints the pass count, the skipped tests and failures, and
# the excluded files with why. The package is downloaded
# with `apt-get download` and unpacked into a temporary folder (no root, nothing installed).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download libpython3.11-testsuite > /dev/null
dpkg-deb -x libpython3.11-testsuite_*.deb unpacked
cd "$root"
PYTHON_TESTS="$work/unpacked/usr/lib/python3.11/test" \
    nice -n 10 cargo test --locked --features arena/postgres --test it \
    python_conformance::cpython_core_tests_in_the_sandbox -- --ignored --nocapture
