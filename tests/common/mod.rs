//! Helpers shared by the integration tests.

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
