//! Helpers shared by the workspace's integration tests (tests/it/, sandbox/tests/it/) and
//! examples, each module behind the feature of its name so that a package takes only the
//! dependencies of the helpers it uses: headless Chromium ([`browser`]), a running `arena serve`
//! and an HTTP client for it ([`ladder`]), a throwaway PostgreSQL ([`postgres`]), the sandbox's test bots and fixtures ([`sandbox`]), the
//! tutorials' measurements ([`tutorials`]). Not published.

#[cfg(feature = "browser")]
pub mod browser;
#[cfg(feature = "ladder")]
pub mod ladder;
#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "sandbox")]
pub mod sandbox;
#[cfg(feature = "tutorials")]
pub mod tutorials;

/// Skips the rest of a test whose outside tool is missing, with `why` on stderr. Under
/// scripts/test.sh, which installs the tools and sets `CARDARENA_REQUIRE_TOOLS`, a missing tool
/// fails the test instead, so CI never passes a test that did not run.
pub fn skip_without_tool(why: &str) {
    assert!(
        std::env::var_os("CARDARENA_REQUIRE_TOOLS").is_none(),
        "{why}; scripts/test.sh should have installed it (CARDARENA_REQUIRE_TOOLS is set)"
    );
    eprintln!("skipped: {why}");
}

/// A copy of the Lua source `src` that hides where it came from: each `(from, to)` of `renames`
/// replaced (names of variables and functions), and the text from `order[0]` up to `order[1]`
/// swapped with the text from `order[1]` up to `order[2]` (two function definitions in the other
/// order). What a student who copies might do.
pub fn disguised(src: &str, renames: &[(&str, &str)], order: [&str; 3]) -> String {
    let at = |s: &str| src.find(s).unwrap_or_else(|| panic!("{s:?} is not in the source"));
    let (a, b, c) = (at(order[0]), at(order[1]), at(order[2]));
    assert!(a < b && b < c, "{order:?} are not in that order");
    let mut out = format!("{}{}{}{}", &src[..a], &src[b..c], &src[a..b], &src[c..]);
    for (from, to) in renames {
        out = out.replace(from, to);
    }
    assert_ne!(out, src);
    out
}
