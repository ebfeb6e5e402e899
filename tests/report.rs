//! The HTML report (`arena tournament --html`, `arena grade --html`) as a browser shows it:
//! opened in headless Chromium (scripts/test.sh installs it), its elements read back from the
//! DOM Chromium built, and a screenshot taken.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).to_string_lossy().into_owned()
}

/// Chromium's flags for a headless run as root in a container.
const CHROMIUM: [&str; 4] = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().map(|o| o.status.success()).unwrap_or(false))
}

#[test]
fn the_tournament_report_is_one_file_a_browser_shows() {
    let dir = scratch("tournament");
    let toml = dir.join("arena.toml");
    std::fs::write(
        &toml,
        format!(
            "[defaults]\nseed = 3\ndeals = 6\n\n[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\", {:?}]\n",
            repo("tests/data/bots/crashes_sometimes.lua")
        ),
    )
    .unwrap();
    let html = dir.join("report.html");
    let o = arena(&[
        "tournament",
        toml.to_str().unwrap(),
        "--threads",
        "2",
        "--quiet",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    // self-contained: nothing to fetch
    for fetch in ["http:", "https:", "<script", "<link", "src="] {
        assert!(!page.contains(fetch), "the report fetches something ({fetch})");
    }
    assert!(page.contains("deliberate crash at decision"), "the faults are listed with their messages");
    assert!(
        page.contains("<th>points</th>") && page.contains("points: Blade&#39;s 2/1/0"),
        "the game's points explained"
    );
    // the crashing bot is a Lua file: each of its faults has a crash capsule to rerun
    assert!(page.contains("arena repro "), "a command that replays a fault");

    let Some(browser) = chromium() else {
        common::skip_without_tool("the browser half: Chromium is not installed");
        return;
    };
    let url = format!("file://{}", html.display());
    let dom = Command::new(browser).args(CHROMIUM).arg("--dump-dom").arg(&url).output().unwrap();
    assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
    let dom = String::from_utf8(dom.stdout).unwrap();
    // the DOM Chromium built: a standings row and a rating point per bot, a heat-map cell per pair
    assert_eq!(dom.matches("<tr><td>").count(), 3, "{dom}");
    assert_eq!(dom.matches("<circle class=\"rating\"").count(), 3, "{dom}");
    assert_eq!(dom.matches("class=\"cell\"").count(), 6, "{dom}");
    // a histogram of points per match per bot: as many bars per bot, adding up to its matches
    let bars: Vec<&str> = dom.split("<rect class=\"hist-bar\"").skip(1).collect();
    assert!(!bars.is_empty() && bars.len().is_multiple_of(3), "{dom}");
    let per_bot = |bot: &str| -> u64 {
        bars.iter()
            .filter_map(|b| b.split("<title>").nth(1))
            .filter(|t| t.starts_with(&format!("{bot}: ")))
            .map(|t| t.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse::<u64>().unwrap())
            .sum()
    };
    assert_eq!(per_bot("greedy"), 24, "2 opponents × 6 deals × 2 seatings: {dom}");
    assert_eq!(per_bot("random"), 24, "{dom}");
    assert!(dom.contains("<section id=\"faults\">"), "{dom}");
    let shot = dir.join("report.png");
    let o = Command::new(browser)
        .args(CHROMIUM)
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1000,900")
        .arg(&url)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "a screenshot of a drawn page: {} bytes",
        png.len()
    );
}

#[test]
fn grade_writes_the_same_report() {
    let dir = scratch("grade");
    for (from, to) in [
        ("example_bots/lua/ecard_greedy.lua", "alice.lua"),
        ("tests/data/bots/crashes_sometimes.lua", "dave.lua"),
    ] {
        std::fs::copy(repo(from), dir.join(to)).unwrap();
    }
    let html = dir.join("grades.html");
    let o = arena(&[
        "grade",
        "--game",
        "ecard",
        "--bots",
        dir.to_str().unwrap(),
        "--deals",
        "3",
        "--html",
        html.to_str().unwrap(),
        "--capsules",
        dir.join("capsules").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("class=\"standings\"") && page.contains("class=\"heat\""), "{page}");
    assert!(page.contains("dave.lua") && page.contains("arena play --game ecard"), "{page}");
}
