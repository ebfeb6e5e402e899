//! The web ladder end to end: the real `arena serve` (with its worker process) driven by headless
//! Chromium as its users would drive it, then audited from the outside as anyone may.
//!
//! One test, because a ladder takes a while to fill: the admin registers with the invite link
//! the server printed, invites a second player, both upload bots through the upload form (Lua
//! and WASM, example_bots/; the WASM ones are built by scripts/build-example-bots.sh, which
//! scripts/test.sh runs; and a WebAssembly text module), a refused upload shows the form again
//! with its reason, the worker validates the bots and plays their matches, the leaderboard
//! fills, a bot page shows its results and leads back to the board, and a match's replay is
//! stepped and seen from one seat, and one seat's analysis is asked for and drawn. Then the public audit (issue
//! 21 item 9): the match page's replay, arena version, hashes and published bot files, downloaded
//! without an account, verify with `arena replay --verify`, and a tampered replay does not.
//! Last, the server is killed and its worker stops with it. Screenshots of every stage go to
//! target/screenshots/ladder-*.png; `ladder-board.png` is the README's (scripts/readme-screenshot.sh).

use testkit::browser;
use testkit::ladder;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use browser::{Browser, Locator};
use fantoccini::key::Key;
use ladder::Server;

/// One board; a matchmaking tick every second so matches start as soon as two bots are ready.
const LADDER: &str = r#"
title = "Room 101 ladder"

[[board]]
game = "blade"

[matchmaking]
tick_seconds = 1
jobs_per_tick = 2

# The match page's analyses, at a budget an unoptimised build computes in a few seconds.
[analysis]
budget = 100
"#;

const PASSWORD: &str = "correct horse battery";

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Waits (up to `secs`) for the page to be at `path` (or, ending in `/` as `/bots/`, under it;
/// `/` is the front page only).
async fn wait_path(b: &Browser, path: &str, secs: u64) -> String {
    let started = Instant::now();
    loop {
        let now = b.client.current_url().await.unwrap();
        let at = now.path().to_string();
        if at == path || (path.len() > 1 && path.ends_with('/') && at.starts_with(path)) {
            return at;
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let text = b.text("body").await;
            panic!("the browser is at {now}, not {path}, after {secs} s:\n{text}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (up to `secs`) for an element matching a CSS selector, e.g. on the page a click opens.
async fn wait_for(b: &Browser, css: &str, secs: u64) {
    let started = Instant::now();
    while b.client.find(Locator::Css(css)).await.is_err() {
        if started.elapsed() > Duration::from_secs(secs) {
            panic!("no {css} after {secs} s:\n{}", b.text("body").await);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn fill(b: &Browser, css: &str, text: &str) {
    let field = b.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
    field.send_keys(text).await.unwrap();
}

async fn click(b: &Browser, css: &str) {
    b.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}")).click().await.unwrap();
}

/// No script error or failed load on the pages opened since the last look.
async fn no_console_errors(b: &Browser, stage: &str) {
    let errors = b.console_errors().await;
    assert!(errors.is_empty(), "the browser's console at {stage}: {errors:#?}");
}

/// Opens an invite link and creates the account `name`; the browser is then signed in.
async fn register(b: &Browser, link: &str, name: &str) {
    b.client.goto(link).await.unwrap();
    wait_for(b, "input[name=invite]", 20).await;
    let code = b.client.find(Locator::Css("input[name=invite]")).await.unwrap().prop("value").await.unwrap();
    assert!(link.ends_with(&format!("invite={}", code.unwrap_or_default())), "the link fills the code in");
    // The form checks a name as the server does, before sending it.
    let valid = "return document.querySelector('input[name=name]').checkValidity()";
    fill(b, "input[name=name]", "no spaces").await;
    assert_eq!(b.client.execute(valid, vec![]).await.unwrap(), false, "a name with a space is refused");
    b.client.find(Locator::Css("input[name=name]")).await.unwrap().clear().await.unwrap();
    fill(b, "input[name=name]", name).await;
    assert_eq!(b.client.execute(valid, vec![]).await.unwrap(), true, "{name} is a good name");
    fill(b, "input[name=password]", PASSWORD).await;
    click(b, "form[action='/register'] button").await;
    wait_path(b, "/account", 20).await;
    assert!(b.text("header nav").await.contains(name), "signed in as {name}");
}

/// Uploads a bot file through the upload form and publishes its source; returns its page.
async fn upload(b: &Browser, name: &str, file: &str) -> String {
    b.client.goto(&format!("{}/upload", base(b).await)).await.unwrap();
    b.client.find(Locator::Css("select[name=game]")).await.unwrap().select_by_value("blade").await.unwrap();
    fill(b, "input[name=name]", name).await;
    fill(b, "input[name=file]", repo(file).to_str().unwrap()).await;
    click(b, "form[action='/upload'] button").await;
    let page = wait_path(b, "/bots/", 30).await;
    assert_eq!(b.text("h1").await.split_whitespace().next(), Some(name));
    // Published: anyone may fetch the file to check a match (the audit below).
    let button = format!("form[action='{page}/publish'] button");
    assert_eq!(b.text(&button).await, "Publish the source");
    click(b, &button).await;
    let started = Instant::now();
    loop {
        let now = match b.client.find(Locator::Css(&button)).await {
            Ok(el) => el.text().await.ok(),
            Err(_) => None,
        };
        if now.as_deref() == Some("Hide the source") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{page} is not published");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    page
}

/// A refused upload (a language the ladder does not take: Ruby): the upload form again, inside the
/// ladder's layout, with the reason, the name as it was and the rate limit's rule.
async fn refused_upload(b: &Browser, dir: &Path) {
    let file = dir.join("snake.rb");
    std::fs::write(&file, "puts 'a bot in Ruby'\n").unwrap();
    b.client.goto(&format!("{}/upload", base(b).await)).await.unwrap();
    b.client.find(Locator::Css("select[name=game]")).await.unwrap().select_by_value("blade").await.unwrap();
    fill(b, "input[name=name]", "snake").await;
    fill(b, "input[name=file]", file.to_str().unwrap()).await;
    click(b, "form[action='/upload'] button").await;
    wait_for(b, ".refused", 20).await;
    let reason = b.text(".refused").await;
    assert!(reason.starts_with("Not uploaded: ") && reason.contains("not .rb"), "{reason}");
    assert!(b.text(".limit").await.contains("refused ones too"));
    let name = b.client.find(Locator::Css("input[name=name]")).await.unwrap().prop("value").await.unwrap();
    assert_eq!(name.as_deref(), Some("snake"), "the name is kept");
    // The ladder's own page: its bar (signed in) and its style sheet.
    assert!(b.text("body > header nav").await.contains("Sign out"));
    let bar = "return getComputedStyle(document.querySelector('body > header')).display";
    assert_eq!(b.client.execute(bar, vec![]).await.unwrap(), "flex", "the ladder's style sheet applies");
    b.screenshot("ladder-refused").await;
    // The browser notes the 422 answer; nothing else went wrong.
    let errors: Vec<String> = b.console_errors().await.into_iter().filter(|e| !e.contains("422")).collect();
    assert!(errors.is_empty(), "the refused upload's page: {errors:#?}");
}

async fn base(b: &Browser) -> String {
    let url = b.client.current_url().await.unwrap();
    url.origin().ascii_serialization()
}

/// Reloads a bot page until its newest version is validated; it must be ready.
async fn wait_ready(b: &Browser, page: &str, secs: u64) {
    let started = Instant::now();
    loop {
        b.client.goto(&format!("{}{page}", base(b).await)).await.unwrap();
        let state = b.text("tbody tr td:nth-child(2)").await;
        match state.as_str() {
            "ready" => return,
            "pending" if started.elapsed() < Duration::from_secs(secs) => {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            other => panic!("{page} is {other} after {:?}:\n{}", started.elapsed(), b.text("main").await),
        }
    }
}

/// Whether process `pid` runs (exists and is not a zombie waiting for its parent).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit(')').next().map(|s| !s.trim_start().starts_with('Z')))
        .unwrap_or(false)
}

fn arena(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).current_dir(cwd).output().expect("arena runs")
}

/// GET `url` without a session (as anyone on the internet): its status and body.
fn fetch(url: &str) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut r = agent.get(url).call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
    (r.status().as_u16(), r.body_mut().read_to_vec().unwrap())
}

/// Every `<tag attr="…">` value of `attr` after `marker` in `html` (a test's look at its own
/// server's markup, not a parser).
fn values_after(html: &str, marker: &str, attr: &str) -> Vec<String> {
    html.match_indices(marker)
        .filter_map(|(i, _)| {
            let rest = &html[i..];
            let start = rest.find(&format!("{attr}=\""))? + attr.len() + 2;
            let end = rest[start..].find('"')?;
            Some(unescape(&rest[start..start + end]))
        })
        .collect()
}

/// The text of an attribute value as the server's templates escape it (minijinja's HTML
/// escaping).
fn unescape(value: &str) -> String {
    value
        .replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn text_between<'a>(html: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    html.match_indices(start)
        .filter_map(|(i, _)| {
            let rest = &html[i + start.len()..];
            rest.find(end).map(|j| &rest[..j])
        })
        .collect()
}

#[test]
fn a_ladder_in_the_browser_from_invite_to_replay_then_audited_and_stopped() {
    for wasm in ["example_bots/wasm/blade_rust.wasm"] {
        if !repo(wasm).is_file() {
            testkit::skip_without_tool(&format!(
                "the ladder test: {wasm} is not built (bash scripts/build-example-bots.sh)"
            ));
            return;
        }
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ladder-e2e");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();
    let server = Server::start(Path::new(env!("CARGO_BIN_EXE_arena")), &dir, 1, 60.0);
    let url = server.url.clone();
    let admin_invite = server.invite.clone().expect("the first start prints the admin's invite link");
    let workers: Vec<u32> = ladder::workers_of(server.pid()).into_iter().map(|(pid, _)| pid).collect();
    assert_eq!(workers.len(), 1, "--workers 1 starts one worker process: {workers:?}");

    let match_id = browser::runtime().block_on(async {
        let b = Browser::start().await?;
        // The admin, by the one-time link the server printed.
        register(&b, &admin_invite, "teacher").await;
        b.screenshot("ladder-1-account").await;
        no_console_errors(&b, "the account page").await;
        // An address that is no page (a bot id that is not a number): a page in the layout.
        b.client.goto(&format!("{url}/bots/abc")).await.unwrap();
        assert_eq!(b.text("main h1").await, "404 Not Found");
        assert!(b.text("main .error").await.contains("no page at /bots/abc"));
        assert!(b.text("header").await.contains("teacher"), "signed in, in the ladder's header");
        b.screenshot("ladder-404").await;
        // (Chromium logs the page's own 404; nothing else: its style sheet loads, no CSP report.)
        let errors = b.console_errors().await;
        assert!(errors.iter().all(|e| e.contains("/bots/abc - Failed to load resource")), "{errors:#?}");

        // An invite for a player.
        b.client.goto(&format!("{url}/admin")).await.unwrap();
        click(&b, "form[action='/admin/invites'] button").await;
        wait_for(&b, "#invite", 20).await;
        let invite = b.text("#invite").await;
        assert!(invite.starts_with(&format!("{url}/register?invite=")), "{invite}");
        b.screenshot("ladder-2-invite").await;

        // The admin's bots, in Lua.
        let greedy = upload(&b, "greedy", "example_bots/lua/blade_greedy.lua").await;
        let random = upload(&b, "dice", "example_bots/lua/blade_random.lua").await;
        b.screenshot("ladder-3-uploaded").await;
        no_console_errors(&b, "the upload").await;
        refused_upload(&b, &dir).await;
        // A WebAssembly text module, as `arena new --lang wat` makes: the ladder compiles it.
        let texty = upload(&b, "texty", "example_bots/wat/first_legal.wat").await;
        click(&b, "header form[action='/logout'] button").await;
        wait_path(&b, "/", 20).await;

        // The player, by their invite, with a WASM bot (Rust) and a Lua one.
        register(&b, &invite, "pupil").await;
        let rusty = upload(&b, "rusty", "example_bots/wasm/blade_rust.wasm").await;
        let carlo = upload(&b, "carlo", "example_bots/lua/blade_montecarlo.lua").await;
        for page in [&greedy, &random, &rusty, &carlo, &texty] {
            wait_ready(&b, page, 180).await;
        }
        b.client.goto(&format!("{url}{texty}")).await.unwrap();
        let versions = b.text("main table").await;
        assert!(versions.contains("v1 (wat)") && versions.contains("ready"), "{versions}");
        b.screenshot("ladder-wat-ready").await;
        b.client.goto(&format!("{url}{rusty}")).await.unwrap();
        let versions = b.text("main table").await;
        assert!(versions.contains("v1 (wasm)") && versions.contains("ready"), "{versions}");
        b.screenshot("ladder-4-ready").await;
        no_console_errors(&b, "the bot pages").await;

        // Matches: every bot on the leaderboard (bots of one owner do not meet, the others do).
        let started = Instant::now();
        loop {
            b.client.goto(&format!("{url}/board/blade/readme")).await.unwrap();
            let rows = b.texts("table.board tbody tr").await;
            let on_board = ["greedy@v1", "dice@v1", "rusty@v1", "carlo@v1"]
                .iter()
                .filter(|n| rows.iter().any(|r| r.contains(*n)))
                .count();
            if on_board == 4 {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(240), "not every bot has played: {rows:#?}");
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        assert!(!b.texts("main svg").await.is_empty(), "the win matrix is drawn");
        b.screenshot("ladder-5-board").await;
        // The README's picture: the page without the window's empty bottom.
        b.screenshot_of("body", "ladder-board").await;
        no_console_errors(&b, "the leaderboard").await;

        // The WASM bot's page: each recent match with its result for the bot, and the way back
        // to the leaderboard.
        b.client.goto(&format!("{url}{rusty}")).await.unwrap();
        let results = b.texts("ul.recent .result").await;
        assert!(!results.is_empty(), "{}", b.text("main").await);
        assert!(results.iter().all(|r| ["win", "draw", "loss"].contains(&r.as_str())), "{results:?}");
        let recent = "document.querySelector('ul.recent').previousElementSibling.scrollIntoView()";
        b.client.execute(recent, vec![]).await.unwrap();
        b.screenshot("ladder-bot-results").await;
        click(&b, ".leaderboards a[href='/board/blade/readme']").await;
        wait_path(&b, "/board/blade/readme", 20).await;
        no_console_errors(&b, "the bot page and back").await;

        // A match of the WASM bot, from its page: the first with a few decisions to step through
        // (a deal of Blade may end at the first card).
        b.client.goto(&format!("{url}{rusty}")).await.unwrap();
        let links = b.client.find_all(Locator::Css("main ul li a[href^='/matches/']")).await.unwrap();
        assert!(!links.is_empty(), "rusty's page lists its matches");
        let count = links.len();
        let (mut id, mut last) = (0, 0);
        for k in 0..count {
            b.client.goto(&format!("{url}{rusty}")).await.unwrap();
            let links = b.client.find_all(Locator::Css("main ul li a[href^='/matches/']")).await.unwrap();
            links[k].click().await.unwrap();
            let at = wait_path(&b, "/matches/", 20).await;
            wait_for(&b, ".rv-counter", 20).await;
            let counter = b.text(".rv-counter").await;
            assert!(counter.starts_with("step 0 / "), "{counter}");
            id = at.trim_start_matches("/matches/").parse::<i64>().unwrap();
            last = counter.trim_start_matches("step 0 / ").parse::<usize>().unwrap();
            if last >= 3 {
                break;
            }
        }
        assert!(last >= 3, "none of rusty's {count} matches has 3 decisions");
        b.screenshot("ladder-6-match").await;

        // The keyboard steps the replay.
        b.press(Key::Right).await;
        b.press(Key::Right).await;
        assert_eq!(b.text(".rv-counter").await, format!("step 2 / {last}"));
        b.press(Key::Left).await;
        assert_eq!(b.text(".rv-counter").await, format!("step 1 / {last}"));
        let spectator = b.texts(".rv-hand").await;
        assert_eq!(spectator.len(), 2, "a spectator sees both hands: {spectator:?}");
        let hand0 = b.texts(".rv-hand[data-seat='0'] .card").await;
        assert!(!hand0.is_empty());
        b.screenshot("ladder-7-step").await;

        // Seat 1's point of view: seat 0's hand is gone.
        b.client.find(Locator::Css(".rv-pov")).await.unwrap().select_by_value("1").await.unwrap();
        let hands = b.texts(".rv-hand").await;
        assert_eq!(hands.len(), 1, "{hands:?}");
        assert!(b.texts(".rv-hand[data-seat='0']").await.is_empty());
        let shown = b.text(".rv").await;
        assert!(!shown.contains(&hand0.join(" ")), "seat 0's hand {hand0:?} is shown to seat 1:\n{shown}");
        assert_eq!(b.text(".rv-counter").await, format!("step 1 / {last}"), "the step stays");
        b.screenshot("ladder-8-seat1").await;
        no_console_errors(&b, "the match page").await;

        // Seat 0's analysis, asked for on the page: pending until the worker (busy with the
        // ladder's matches) takes it, then drawn by the viewer as its strip under the slider,
        // and an analysed step's actions with their values.
        click(&b, &format!("form[action='/matches/{id}/analyse'] button.analyse-seat")).await;
        wait_path(&b, &format!("/matches/{id}"), 20).await;
        let asked = Instant::now();
        loop {
            wait_for(&b, ".rv-counter", 20).await;
            if b.client.find(Locator::Css(".rv-strip")).await.is_ok() {
                break;
            }
            let section = b.text("#analysis").await;
            assert!(section.contains("seat 0 is pending"), "{section}");
            assert!(asked.elapsed() < Duration::from_secs(240), "no analysis after 240 s: {section}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            b.client.goto(&format!("{url}/matches/{id}?analysis=0")).await.unwrap();
        }
        let cells = b.texts(".rv-strip .rv-analysed").await;
        assert!(!cells.is_empty(), "seat 0's decisions are on the strip");
        click(&b, ".rv-strip .rv-analysed").await;
        wait_for(&b, ".rv-analysis table", 10).await;
        let rows = b.texts(".rv-analysis table tr").await;
        assert!(rows.len() >= 3, "the step's actions with their values: {rows:?}");
        assert!(b.text(".rv-analysis").await.starts_with("analysis: "), "{}", b.text(".rv-analysis").await);
        b.screenshot("ladder-9-analysis").await;
        no_console_errors(&b, "the match page's analysis").await;
        b.close().await;
        Some(id)
    });
    let Some(id) = match_id else { return };

    // The match page's viewer ran above under the ladder's Content-Security-Policy (no console
    // error: a blocked script is one), which allows no inline script but the viewer's.
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let r = agent.get(&format!("{url}/matches/{id}")).call().unwrap();
    let csp = r.headers().get("content-security-policy").map(|v| v.to_str().unwrap().to_string());
    let csp = csp.expect("the match page has a Content-Security-Policy");
    assert!(csp.contains("script-src 'self' 'sha256-") && !csp.contains("unsafe-inline"), "{csp}");

    // The public audit: the match page and what it links to, fetched without an account.
    let (status, page) = fetch(&format!("{url}/matches/{id}"));
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    let version = text_between(&page, "<span class=\"arena-version\">", "</span>");
    let arena_version = String::from_utf8(arena(&["--version"], &dir).stdout).unwrap();
    assert_eq!(version.len(), 1, "the page names the arena version");
    assert_eq!(
        arena_version.trim(),
        format!("arena {}", version[0]),
        "the version that played it is this arena"
    );
    let hashes: Vec<&str> = text_between(&page, "<code class=\"hash\">", "</code>");
    let names = values_after(&page, "class=\"bot-file\"", "download");
    let links = values_after(&page, "class=\"bot-file\"", "href");
    assert_eq!(
        (hashes.len(), names.len(), links.len()),
        (2, 2, 2),
        "a hash and a published file per seat:\n{page}"
    );
    let replay_link = values_after(&page, "class=\"replay-download\"", "href");
    assert_eq!(replay_link, [format!("/matches/{id}/replay.json")]);

    let audit = dir.join("audit");
    std::fs::create_dir_all(&audit).unwrap();
    let (status, replay) = fetch(&format!("{url}{}", replay_link[0]));
    assert_eq!(status, 200);
    let replay_file = audit.join(format!("match-{id}.json"));
    std::fs::write(&replay_file, &replay).unwrap();
    let recorded: serde_json::Value = serde_json::from_slice(&replay).unwrap();
    for (k, (name, link)) in names.iter().zip(&links).enumerate() {
        let (status, bytes) = fetch(&format!("{url}{link}"));
        assert_eq!(status, 200, "{link}");
        assert_eq!(
            cardarena::bots::bot::content_hash(&bytes),
            hashes[k],
            "seat {k}: the file is the one hashed"
        );
        assert_eq!(recorded["bots"][k]["hash"], hashes[k], "seat {k}: the page's hash is the replay's");
        assert_eq!(recorded["bots"][k]["name"], name.as_str(), "seat {k}: saved under the replay's name");
        std::fs::write(audit.join(name), bytes).unwrap();
    }
    // Played again from those files alone (from another folder: the files are found beside the
    // replay), every decision is the same.
    let out = arena(&["replay", replay_file.to_str().unwrap(), "--verify"], &dir);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("verified: ") && report.contains("identical"), "{report}");

    // One fuel count changed: verification fails, naming the decision.
    let mut tampered = recorded.clone();
    let decision = tampered["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|d| d["fuel"].is_u64())
        .expect("a metered decision");
    let fuel = tampered["decisions"][decision]["fuel"].as_u64().unwrap();
    tampered["decisions"][decision]["fuel"] = (fuel + 1).into();
    let tampered_file = audit.join("tampered.json");
    std::fs::write(&tampered_file, serde_json::to_string_pretty(&tampered).unwrap()).unwrap();
    let out = arena(&["replay", tampered_file.to_str().unwrap(), "--verify"], &dir);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "a replay that differs exits 1:\n{said}");
    assert!(said.contains(&format!("DIFFERS at decision #{decision}")) && said.contains("fuel"), "{said}");
    assert!(said.contains("does not verify"), "{said}");

    // Killed without warning (SIGKILL), the server takes its worker with it.
    assert!(alive(workers[0]));
    server.kill();
    let started = Instant::now();
    while alive(workers[0]) {
        if started.elapsed() > Duration::from_secs(20) {
            let pid = i32::try_from(workers[0]).unwrap();
            // SAFETY: kill(2) of the worker this test's server started, so no test leaves it behind.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("worker {pid} outlived its server by 20 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}
