//! Python conformance: CPython's own test files (Debian's `libpython3.11-testsuite`, fetched by
//! `scripts/python-conformance.sh`) run inside the sandbox as Python bots, under the Python
//! limits of a decision, one test method per decision. The harness (`tests/data/python_conformance.py`) is
//! the bot's first line; it stands in for `unittest` and `test.support` and skips the tests that
//! need a module bots cannot import. The bot allow-list is the arena's own, unchanged.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use cardarena_sandbox::{Instance, Kind, Limits, Program, Sandbox};

const HARNESS: &str = include_str!("../data/python_conformance.py");
const INFO: &str = r#"{"game":"conformance","variant":"","seat":0,"players":1,"seed":1}"#;

/// The files of Lib/test that test the language core and the modules bots may import.
const CORE: &[&str] = &[
    "test_augassign.py",
    "test_baseexception.py",
    "test_binop.py",
    "test_bisect.py",
    "test_bool.py",
    "test_class.py",
    "test_collections.py",
    "test_compare.py",
    "test_contains.py",
    "test_decorators.py",
    "test_dict.py",
    "test_dictcomps.py",
    "test_dictviews.py",
    "test_enumerate.py",
    "test_exception_variations.py",
    "test_exceptions.py",
    "test_float.py",
    "test_format.py",
    "test_fstring.py",
    "test_funcattrs.py",
    "test_functools.py",
    "test_generators.py",
    "test_genexps.py",
    "test_global.py",
    "test_grammar.py",
    "test_heapq.py",
    "test_int.py",
    "test_int_literal.py",
    "test_iter.py",
    "test_itertools.py",
    "test_keywordonlyarg.py",
    "test_list.py",
    "test_listcomps.py",
    "test_long.py",
    "test_math.py",
    "test_opcodes.py",
    "test_patma.py",
    "test_pow.py",
    "test_property.py",
    "test_raise.py",
    "test_random.py",
    "test_range.py",
    "test_re.py",
    "test_richcmp.py",
    "test_scope.py",
    "test_set.py",
    "test_setcomps.py",
    "test_slice.py",
    "test_sort.py",
    "test_string.py",
    "test_string_literals.py",
    "test_super.py",
    "test_tuple.py",
    "test_unary.py",
    "test_unpack.py",
    "test_unpack_ex.py",
    "test_userlist.py",
    "test_with.py",
];

/// Files of [`CORE`] that are not run, with why.
const EXCLUDED: &[(&str, &str)] = &[
    ("test_genexps.py", "doctests only (doctest is not available to bots)"),
    ("test_listcomps.py", "doctests only (doctest is not available to bots)"),
    ("test_setcomps.py", "doctests only (doctest is not available to bots)"),
    ("test_unpack.py", "doctests only (doctest is not available to bots)"),
    ("test_unpack_ex.py", "doctests only (doctest is not available to bots)"),
];

/// What one file gave.
#[derive(Debug, Default)]
struct FileResult {
    passed: usize,
    failed: Vec<String>,
    skipped: Vec<String>,
    /// The file did not load (its top level raised, or a stand-in module was used there).
    not_loaded: Option<String>,
}

/// The limits of a test: a Python decision's, with the match's fuel bank lifted (a file is
/// many decisions) and a long wall-clock backstop (a slow machine must not decide).
fn limits() -> Limits {
    Limits { fuel_per_match: u64::MAX / 4, wall_per_decision: Duration::from_secs(60), ..Limits::PYTHON }
}

/// The `test.<name>` helper modules `text` imports, found in `dir`, and theirs.
fn helpers(text: &str, dir: &Path, out: &mut BTreeMap<String, String>) {
    let mut names = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("from test import ") {
            names.extend(rest.split(',').map(|n| n.split_whitespace().next().unwrap_or("").to_string()));
        } else if let Some(rest) = line.strip_prefix("from test.") {
            names.extend(rest.split_whitespace().next().map(str::to_string));
        } else if let Some(rest) = line.strip_prefix("import test.") {
            names.extend(rest.split_whitespace().next().map(str::to_string));
        }
    }
    for name in names {
        let name = name.trim_matches(|c: char| c == '(' || c == ')' || c == ',');
        if name.is_empty() || name.starts_with("support") || out.contains_key(&format!("test.{name}")) {
            continue;
        }
        if let Ok(source) = std::fs::read_to_string(dir.join(format!("{name}.py"))) {
            out.insert(format!("test.{name}"), source.clone());
            helpers(&source, dir, out);
        }
    }
}

/// The bot: the harness on its first line, then the test file (its line numbers one more).
fn bot_source(text: &str, helpers: &BTreeMap<String, String>) -> String {
    let sources = serde_json::to_string(helpers).unwrap();
    let harness = serde_json::to_string(HARNESS).unwrap();
    format!("_SOURCES = {sources}; exec(compile({harness}, 'conformance.py', 'exec'))\n{text}")
}

fn start(program: &Program) -> Result<Instance, String> {
    program.start(&limits(), 1, INFO).map_err(|f| format!("{:?}: {}", f.verdict, first_line(&f.message)))
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Runs every test method of one file, one per decision; after a fault the bot is started
/// again and the next test runs.
fn run_file(sandbox: &Sandbox, name: &str, text: &str, dir: Option<&Path>) -> FileResult {
    let mut modules = BTreeMap::new();
    if let Some(dir) = dir {
        helpers(text, dir, &mut modules);
    }
    let mut result = FileResult::default();
    let program = match sandbox.load(name, Kind::Python, bot_source(text, &modules).as_bytes()) {
        Ok(p) => p,
        Err(f) => {
            result.not_loaded = Some(first_line(&f.message).to_string());
            return result;
        }
    };
    let mut bot = match start(&program) {
        Ok(bot) => bot,
        Err(e) => {
            result.not_loaded = Some(e);
            return result;
        }
    };
    let count: usize = match bot.act(r#"{"count": true}"#) {
        Ok(n) => n.parse().expect("a count"),
        Err(f) => {
            result.not_loaded = Some(first_line(&f.message).to_string());
            return result;
        }
    };
    for i in 0..count {
        match bot.act(&format!(r#"{{"run": {i}}}"#)) {
            Ok(r) if r.starts_with("pass") => result.passed += 1,
            Ok(r) => {
                let test = bot.act(&format!(r#"{{"name": {i}}}"#)).unwrap_or_default();
                match r.strip_prefix("skip: ") {
                    Some(why) => result.skipped.push(format!("{test}: {why}")),
                    None => {
                        result.failed.push(format!("{test}: {}", first_line(r.trim_start_matches("fail: "))))
                    }
                }
            }
            Err(f) => {
                let fault = format!("{:?}: {}", f.verdict, first_line(&f.message));
                bot = match start(&program) {
                    Ok(bot) => bot,
                    Err(e) => {
                        result.failed.push(format!("test {i}: {fault}; the restart failed: {e}"));
                        return result;
                    }
                };
                let test = bot.act(&format!(r#"{{"name": {i}}}"#)).unwrap_or_default();
                result.failed.push(format!("{test}: {fault}"));
            }
        }
    }
    result
}

/// The harness on a small file of its own: passes, failures, errors, skips (by decorator, by
/// `skipTest` and by a module bots cannot import), an expected failure, `setUp`, and a fault
/// (a runaway loop, the `fuel` verdict) after which the next test still runs.
#[test]
fn the_conformance_harness_counts_a_small_file() {
    let text = r#"
import unittest
import sys
from test import support

class Sample(unittest.TestCase):
    def setUp(self):
        self.x = 2

    def test_a_pass(self):
        self.assertEqual(self.x * 3, 6)
        with self.assertRaises(ZeroDivisionError):
            1 / 0

    def test_b_fail(self):
        self.assertEqual(self.x, 3)

    def test_c_error(self):
        {}["missing"]

    @unittest.skip("not today")
    def test_d_skipped(self):
        pass

    def test_e_needs_sys(self):
        self.assertGreater(sys.maxsize, 0)

    @support.cpython_only
    def test_f_cpython(self):
        pass

    @unittest.expectedFailure
    def test_g_expected(self):
        self.assertTrue(False)

    def test_h_runaway(self):
        while True:
            pass

    def test_i_after_the_fault(self):
        self.assertIn(3, [1, 2, 3])

class NotATest:
    def test_never(self):
        raise RuntimeError
"#;
    let r = run_file(&Sandbox::new().unwrap(), "test_sample.py", text, None);
    assert_eq!(r.not_loaded, None);
    assert_eq!(r.passed, 3, "{r:?}");
    assert_eq!(r.failed.len(), 3, "{r:?}");
    assert!(r.failed[0].starts_with("Sample.test_b_fail: AssertionError: 2 != 3"), "{r:?}");
    assert!(r.failed[1].starts_with("Sample.test_c_error: KeyError"), "{r:?}");
    assert!(r.failed[2].starts_with("Sample.test_h_runaway: Fuel"), "{r:?}");
    assert_eq!(
        r.skipped,
        [
            "Sample.test_d_skipped: not today",
            "Sample.test_e_needs_sys: needs sys.maxsize (sys is not available to bots)",
            "Sample.test_f_cpython: CPython implementation detail",
        ],
        "{r:?}"
    );
}

/// CPython 3.11's test files for the language core, from Debian's `libpython3.11-testsuite`.
/// Run by `scripts/python-conformance.sh`, which sets `PYTHON_TESTS` to the package's `test`
/// folder; prints the counts, the files not run and why, and every failure.
#[test]
#[ignore = "needs CPython's test files: scripts/python-conformance.sh"]
fn cpython_core_tests_in_the_sandbox() {
    let dir = std::path::PathBuf::from(std::env::var("PYTHON_TESTS").expect("PYTHON_TESTS=<Lib>/test"));
    let sandbox = Sandbox::new().unwrap();
    let (mut passed, mut failed, mut skipped, mut files) = (0, Vec::new(), Vec::new(), 0);
    let mut not_loaded = Vec::new();
    for file in CORE {
        if let Some((_, why)) = EXCLUDED.iter().find(|(f, _)| f == file) {
            eprintln!("excluded {file}: {why}");
            continue;
        }
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let r = run_file(&sandbox, file, &text, Some(&dir));
        let name = file.trim_end_matches(".py");
        eprintln!(
            "{name}: {} passed, {} failed, {} skipped{}",
            r.passed,
            r.failed.len(),
            r.skipped.len(),
            r.not_loaded.as_deref().map(|e| format!(" (did not load: {e})")).unwrap_or_default()
        );
        files += 1;
        passed += r.passed;
        failed.extend(r.failed.into_iter().map(|f| format!("{name}.{f}")));
        skipped.extend(r.skipped.into_iter().map(|s| format!("{name}.{s}")));
        not_loaded.extend(r.not_loaded.map(|e| format!("{name}: {e}")));
    }
    for s in &skipped {
        eprintln!("skipped {s}");
    }
    for f in &failed {
        eprintln!("FAILED {f}");
    }
    for f in &not_loaded {
        eprintln!("NOT LOADED {f}");
    }
    eprintln!(
        "passed {passed} of {} tests in {files} files ({} skipped, {} files did not load, {} files excluded)",
        passed + failed.len(),
        skipped.len(),
        not_loaded.len(),
        EXCLUDED.len()
    );
    assert!(passed > 0);
}
