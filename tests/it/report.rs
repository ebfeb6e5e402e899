//! The HTML report (`arena tournament --html`, `arena grade --html`) as a browser shows it:
//! opened in headless Chromium (scripts/test.sh installs it), its elements read back from the
//! DOM Chromium built, and a screenshot taken.

use testkit::browser;

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
        testkit::skip_without_tool("the browser half: Chromium is not installed");
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
fn grade_writes_a_report_for_the_teacher() {
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
    assert!(page.contains("class=\"ranking\"") && page.contains("class=\"matrix\""), "{page}");
    // without --round-robin the files did not play each other: no columns of files that read
    // as lost matches, and the page says why
    assert!(page.contains("The files did not play each other"), "{page}");
    let header = page.split("<table class=\"matrix\"><tr>").nth(1).unwrap().split("</tr>").next().unwrap();
    assert_eq!(header.matches("<th").count(), 1 + 2, "file, random, greedy: {header}");
    assert!(page.contains("dave.lua") && page.contains("arena play --game ecard"), "{page}");
}

/// A class of 17 files as a teacher gets them: working bots, bots that play at random (written
/// apart), copies (the same file, the same file with another comment, copies with other names
/// and functions in another order), files that do not load, bots that fault in every match, a
/// file name with a comma. Returns the folder.
fn class_of_17(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    let o = arena(&["new", dir.join("new").to_str().unwrap(), "--game", "lost-cities", "--lang", "lua"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let greedy = std::fs::read_to_string(repo("example_bots/lua/lost-cities_greedy.lua")).unwrap();
    let random = std::fs::read_to_string(repo("example_bots/lua/lost-cities_random.lua")).unwrap();
    let coroutines = std::fs::read_to_string(repo("example_bots/lua/any_coroutines.lua")).unwrap();
    let files: Vec<(&str, String)> = vec![
        ("ann.lua", greedy.clone()),
        ("ben.lua", random.clone()),
        ("cat.lua", coroutines.clone()),
        ("dan.lua", std::fs::read_to_string(dir.join("new/bot.lua")).unwrap()),
        ("eve.lua", "function act(obs)\n  local pick = math.random(1, #obs.legal)\n  return obs.legal[pick]\nend\n".into()),
        ("fay.lua", greedy.clone()),
        (
            "gus.lua",
            testkit::disguised(
                &greedy,
                &[("suit_of", "colour"), ("number_of", "value"), ("ctx", "state"), ("hand_set", "mine")],
                ["local function cards_in_expeditions", "local function hand_set", "local function gap("],
            ),
        ),
        (
            "hal.lua",
            testkit::disguised(
                &coroutines,
                &[("shuffled", "mix"), ("order", "perm"), ("list", "items"), ("memory", "recall")],
                ["-- Yields the elements", "-- Remembers the last", "function act(obs)"],
            ),
        ),
        ("ivy.lua", "function act(obs)\n  return obs.legal[1]\n".into()),
        ("jon.lua", "function Act(obs) return obs.legal[1] end\n".into()),
        ("kim.lua", "function act(obs)\n  error(\"not finished yet: \" .. string.rep(\"a very long message \", 20))\nend\n".into()),
        (
            "lea.lua",
            "local seat\nfunction init(info) seat = info.seat end\nfunction act(obs)\n  if seat == 1 then error(\"lost in seat 1\") end\n  return obs.legal[1]\nend\n".into(),
        ),
        ("max.lua", "function act(obs) return \"play the best card\" end\n".into()),
        ("nia, the late one.lua", format!("-- Nia's own bot, written at night\n{random}")),
        ("oli.wat", std::fs::read_to_string(repo("example_bots/wat/first_legal.wat")).unwrap()),
        ("pam.lua", "function act(obs) return obs.legal[#obs.legal] end\n".into()),
        (
            "quinn.lua",
            "function act(obs)\n  if math.random() < 0.5 then return obs.legal[1] end\n  return obs.legal[math.random(#obs.legal)]\nend\n".into(),
        ),
    ];
    assert_eq!(files.len(), 17);
    for (name, text) in files {
        std::fs::write(class.join(name), text).unwrap();
    }
    class
}

/// Reads a CSV as a spreadsheet does (quoted fields, doubled quotes).
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let (mut fields, mut field, mut quoted, mut chars) =
            (Vec::new(), String::new(), false, line.chars().peekable());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => fields.push(std::mem::take(&mut field)),
                (c, _) => field.push(c),
            }
        }
        fields.push(field);
        rows.push(fields);
    }
    rows
}

/// The teacher's class of 17 graded into a CSV and a report: the CSV says which bots faulted
/// in every match, keeps lists and W-D-L counts whole in a spreadsheet; the report ranks the
/// files (those that did not load last, with why), sets the reference bots apart, shows the
/// copies and `–` for matches not played, and reads at a desktop's and a phone's width.
#[test]
fn a_class_of_17_grades_into_a_report_and_a_csv_a_teacher_can_read() {
    let dir = scratch("class17");
    let class = class_of_17(&dir);
    let html = dir.join("grades.html");
    let csv = dir.join("grades.csv");
    let o = arena(&[
        "grade",
        "--game",
        "lost-cities",
        "--bots",
        class.to_str().unwrap(),
        "--deals",
        "2",
        "--round-robin",
        "--html",
        html.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--capsules",
        dir.join("capsules").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // ---- the CSV
    let rows = read_csv(&std::fs::read_to_string(&csv).unwrap());
    let header = &rows[0];
    assert_eq!(rows.len(), 18);
    assert!(rows.iter().all(|r| r.len() == header.len()), "{rows:?}");
    let col = |file: &str, name: &str| -> String {
        let i = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
        rows.iter().find(|r| r[0] == file).unwrap_or_else(|| panic!("no row {file}"))[i].clone()
    };
    assert_eq!(col("ann.lua", "status"), "ok");
    assert_eq!(col("lea.lua", "status"), "ok", "faults in some matches only");
    for always in ["kim.lua", "max.lua"] {
        assert_eq!(col(always, "status"), "faulted", "a fault in every match");
        assert_eq!(col(always, "matches"), "8");
    }
    assert!(col("ivy.lua", "status").starts_with("load error: "));
    assert!(col("jon.lua", "status").contains("no function act: did you mean Act?"));
    // lists inside a cell: `;` between file names (which may hold commas and spaces)
    assert_eq!(col("ann.lua", "same_hash_as"), "fay.lua");
    assert_eq!(col("ann.lua", "same_replies_as"), "fay.lua;gus.lua");
    assert_eq!(col("ben.lua", "same_replies_as"), "nia, the late one.lua");
    assert_eq!(col("cat.lua", "same_replies_as"), "hal.lua");
    for apart in ["dan.lua", "eve.lua", "quinn.lua", "oli.wat", "pam.lua"] {
        assert_eq!(col(apart, "same_replies_as"), "", "{apart}");
        assert_eq!(col(apart, "same_hash_as"), "", "{apart}");
    }
    // wins, draws and losses per reference bot in columns of their own, whole numbers: a
    // spreadsheet turns no cell into a date
    for r in ["random", "greedy"] {
        let n: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|c| col("ann.lua", &format!("vs_{r}_{c}")).parse::<u64>().unwrap())
            .sum();
        assert_eq!(n, 4, "2 deals × 2 seats against {r}");
    }
    let date_like = |v: &str| {
        let parts: Vec<&str> = v.split(['-', '/']).collect();
        parts.len() >= 2 && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    for row in &rows {
        for v in row {
            assert!(!date_like(v), "{v:?} would read as a date");
        }
    }

    // ---- the page
    let page = std::fs::read_to_string(&html).unwrap();
    for fetch in ["http:", "https:", "<script", "<link", "src="] {
        assert!(!page.contains(fetch), "the report fetches something ({fetch})");
    }
    assert!(!page.contains("auntlet"), "no jargon");
    let Some(_) = chromium() else {
        testkit::skip_without_tool("the browser half: Chromium is not installed");
        return;
    };
    browser::runtime().block_on(async {
        let Some(b) = browser::Browser::start().await else { return };
        b.client.set_window_size(1400, 1000).await.unwrap();
        b.client.goto(&format!("file://{}", html.display())).await.unwrap();
        // the ranking: every file, the 15 that loaded ranked by score, the 2 that did not last
        let ranked = b.texts("table.ranking tr.graded td:nth-child(2)").await;
        assert_eq!(ranked.len(), 15, "{ranked:?}");
        let ranking_rows = b.texts("table.ranking tr").await;
        assert_eq!(ranking_rows.len(), 18, "a header and 17 rows: {ranking_rows:?}");
        assert!(ranking_rows[16].starts_with("– ivy.lua did not load: "), "{ranking_rows:?}");
        assert!(ranking_rows[17].starts_with("– jon.lua did not load: no function act"), "{ranking_rows:?}");
        // the two that fault in every match come just before them, said so
        for (row, file) in [(14, "kim.lua"), (15, "max.lua")] {
            assert!(ranking_rows[row].contains(file) && ranking_rows[row].contains("faulted in every match"), "{ranking_rows:?}");
        }
        // ranked by score, the reference bots not among them, ranks from 1
        let scores: Vec<f64> = b
            .texts("table.ranking tr.graded td:nth-child(3)")
            .await
            .iter()
            .map(|t| t.split('%').next().unwrap().parse().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert_eq!(b.text("table.ranking tr.graded td").await, "1");
        assert!(!ranked.iter().any(|f| f == "random" || f == "greedy"), "{ranked:?}");
        assert_eq!(b.texts("table.references tr.reference").await.len(), 2);
        assert!(b.text("#ranking p.how").await.contains("ranked by their score against the reference bots"));
        // the copies, on the page
        let copies = b.texts("ul.copies li").await;
        for pair in [
            "ann.lua and fay.lua: the same file",
            "ann.lua and gus.lua: the same reply at every decision",
            "ben.lua and nia, the late one.lua: the same reply at every decision",
            "cat.lua and hal.lua: the same reply at every decision",
        ] {
            assert!(copies.iter().any(|c| c.starts_with(pair)), "{pair}: {copies:?}");
        }
        assert!(!copies.iter().any(|c| c.contains("dan.lua") || c.contains("eve.lua") || c.contains("quinn.lua")), "{copies:?}");
        // matches not played: `–`, never `0`
        let jon: Vec<String> = b.texts("table.matrix tr:last-child td").await;
        assert_eq!(jon.len(), 2 + 17, "{jon:?}");
        assert!(jon.iter().all(|c| c == "–"), "{jon:?}");
        let cells = b.texts("table.matrix td").await;
        assert!(cells.iter().all(|c| c == "–" || c.split('–').count() == 3), "{cells:?}");
        // the wide table scrolls inside its box, the page does not
        let client = &b.client;
        let widths = |css: &'static str| async move {
            let v = client.execute(&format!("const e = document.querySelector('{css}'); return [e.scrollWidth, e.clientWidth, document.documentElement.scrollWidth, window.innerWidth];"), vec![]).await.unwrap();
            v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect::<Vec<f64>>()
        };
        let w = widths("#results .scroll").await;
        assert!(w[0] > w[1], "the 19-column table overflows its box, which scrolls: {w:?}");
        assert!(w[2] <= w[3], "the page itself does not scroll sideways: {w:?}");
        for (css, name) in [
            ("body", "grade-class17-1400"),
            ("#references", "grade-class17-1400-references"),
            ("#results", "grade-class17-1400-results"),
            ("#copies", "grade-class17-1400-copies"),
            ("#faults", "grade-class17-1400-faults"),
        ] {
            let shot = b.screenshot_of(css, name).await;
            eprintln!("screenshot: {}", shot.display());
        }
        // a phone's width: still nothing wider than the screen; the long fault message wraps
        b.client.set_window_size(390, 844).await.unwrap();
        let w = widths("#faults .scroll").await;
        assert!(w[2] <= w[3], "the page does not scroll sideways on a phone: {w:?}");
        let kim = b.client.execute("const c = [...document.querySelectorAll('#faults td.wrap')].find(c => c.textContent.includes('not finished yet')); return [c.getBoundingClientRect().height, c.getBoundingClientRect().width];", vec![]).await.unwrap();
        let kim: Vec<f64> = kim.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!(kim[0] > 3.0 * 20.0, "the long message wraps onto several lines: {kim:?}");
        for (css, name) in [("#ranking", "grade-class17-phone"), ("#faults", "grade-class17-phone-faults")] {
            let shot = b.screenshot_of(css, name).await;
            eprintln!("screenshot: {}", shot.display());
        }
        b.close().await;
    });
}
