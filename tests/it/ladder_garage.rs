//! The garage end to end: the real `arena serve` (one worker process) and headless Chromium. A
//! student signs in, writes a Blade bot with a deliberate typo in the garage's editor (the
//! textarea; the editor script upgrades it where it is present), tries it and sees the line of
//! the verdict, fixes it, tries it against `greedy`, steps through the replay, checks it,
//! publishes it and finds it on the leaderboard. Screenshots go to target/screenshots/
//! (garage-*.png).

use testkit::browser;
use testkit::ladder;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use browser::{Browser, Locator};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ladder-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn fill(b: &Browser, css: &str, text: &str) {
    let el = b.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
    el.clear().await.unwrap();
    el.send_keys(text).await.unwrap();
}

/// Puts `code` into the editor as typing would: into the code editor the page's script made of
/// the textarea (which keeps the textarea's value in step), else into the textarea itself.
async fn set_code(b: &Browser, code: &str) {
    b.client
        .execute(
            "const t = document.querySelector('#code'); const v = t.editorView; \
             if (v) { v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: arguments[0] } }); } \
             t.value = arguments[0]; \
             t.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![serde_json::Value::String(code.to_string())],
        )
        .await
        .unwrap();
}

/// Presses the viewer's "next" button until it shows `step` (the viewer may still be loading
/// the replay when the page appears).
async fn step_to(b: &Browser, step: usize) {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        click(b, ".rv-next").await;
        let counter = b.text(".rv-counter").await;
        if counter.starts_with(&format!("step {step} / ")) {
            return;
        }
        assert!(Instant::now() < until, "the viewer stays at {counter}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn click(b: &Browser, css: &str) {
    b.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}")).click().await.unwrap();
}

/// Waits (60 s at most) until `css` matches something on the page (the result pages reload
/// themselves while they wait for a worker).
async fn wait_for(b: &Browser, css: &str) {
    let until = Instant::now() + Duration::from_secs(60);
    while b.client.find(Locator::Css(css)).await.is_err() {
        assert!(Instant::now() < until, "waited 60 s for {css}: {}", b.client.source().await.unwrap());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

const TYPO: &str = "-- my first bot\nfunction act(obs)\n  return obs.legl[1]\nend\n";
/// The fixed bot: the Lua greedy example (about 90% against `random`, so that the check's 20
/// matches against it, on a seed of its own, are all but sure to show more wins than losses),
/// its decisions logged.
const FIXED: &str = concat!(
    include_str!("../../example_bots/lua/blade_greedy.lua"),
    "\nlocal decide = act\nfunction act(obs)\n  print(\"legal: \" .. #obs.legal)\n  return decide(obs)\nend\n"
);

#[test]
fn a_student_writes_tries_checks_and_publishes_a_bot_in_the_browser() {
    let dir = scratch("garage");
    browser::runtime().block_on(async {
        let Some(b) = Browser::start().await else { return };
        std::fs::write(
            dir.join("ladder.toml"),
            "title = \"Garage test\"\n[[board]]\ngame = \"blade\"\n[matchmaking]\ntick_seconds = 1\n",
        )
        .unwrap();
        let server = ladder::Server::start(Path::new(env!("CARGO_BIN_EXE_arena")), &dir, 1, 10.0);
        let invite = server.invite.clone().expect("the first start prints the admin invite link");
        // The teacher's bot, so that the student's has someone to play on the board.
        let mut teacher = ladder::Client::new(&server.url);
        let token = teacher.admin_token(&invite);
        let greedy =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("example_bots/lua/blade_greedy.lua"))
                .unwrap();
        teacher.upload_file(&token, "blade", "house", "house.lua", &greedy);
        teacher.get("/admin");
        let r = teacher.post("/admin/invites", &[]);
        let link = ladder::between(&r.body, "<code id=\"invite\">", "<").unwrap().replace("&#x2f;", "/");

        // Sign up by the invite, open the garage.
        b.client.goto(&link).await.unwrap();
        fill(&b, "input[name=name]", "sam").await;
        fill(&b, "input[name=password]", "password123").await;
        click(&b, "form[action='/register'] button").await;
        click(&b, "header a[href='/garage']").await;
        click(&b, "a[href='/garage/blade']").await;
        assert!(b.text("#schema").await.contains("legal"), "the observation's fields are beside the editor");

        // A typo'd field: the try's result names the line, with the did-you-mean.
        set_code(&b, TYPO).await;
        b.client.find(Locator::Css("#opponent")).await.unwrap().select_by_value("greedy").await.unwrap();
        click(&b, "#try").await;
        wait_for(&b, ".verdict-line").await;
        assert_eq!(b.text(".verdict-line").await, "3");
        assert!(b.text(".verdict").await.contains("did you mean `legal`?"), "{}", b.text(".verdict").await);
        assert!(b.text(".listing .here").await.contains("return obs.legl[1]"));
        b.screenshot("garage-typo").await;

        // A syntax error is answered at once, in the editor's page, its line marked on the
        // editor (`data-highlight-line`) and shown as text.
        click(&b, "a[href='/garage/blade']").await;
        set_code(&b, "function act(obs)\n  return obs.legal[1\nend\n").await;
        let pressed = Instant::now();
        click(&b, "#try").await;
        wait_for(&b, "#verdict-line").await;
        assert!(pressed.elapsed() < Duration::from_secs(5), "a broken draft is answered at once");
        assert_eq!(b.text("#verdict-line").await, "3");
        let marked = b.client.find(Locator::Css("textarea[data-highlight-line='3']")).await;
        assert!(marked.is_ok(), "the editor is told the line");
        let shown = b.client.find(Locator::Css(".cm-editor .cm-verdict-line")).await;
        assert!(shown.is_ok(), "the code editor marks the line: {}", b.client.source().await.unwrap());
        assert_eq!(b.text(".cm-editor .cm-verdict-line").await.trim(), "end", "line 3 is marked");
        b.screenshot("garage-highlight").await;

        // Fixed: tried against greedy, the replay stepped through, the log read.
        set_code(&b, FIXED).await;
        click(&b, "#try").await;
        wait_for(&b, "#outcome").await;
        assert!(b.texts("#no-faults").await.len() == 1, "{}", b.client.source().await.unwrap());
        assert!(b.text("#log").await.contains("legal: "), "the bot's log");
        let counter = b.text(".rv-counter").await;
        assert!(counter.starts_with("step 0 / "), "{counter}");
        // Every step of the match, one press at a time (a Blade match may end at its first play).
        let last: usize = counter.trim_start_matches("step 0 / ").parse().unwrap();
        assert!(last >= 1, "{counter}");
        for step in 1..=last.min(3) {
            step_to(&b, step).await;
        }
        b.screenshot("garage-try").await;

        // The try's analysis: asked for, then drawn as the viewer's strip over the draft's
        // decisions, each analysed step with its actions' values.
        click(&b, "#analyse-try").await;
        wait_for(&b, ".analysis-shown").await;
        assert!(
            !b.texts(".rv-strip .rv-analysed").await.is_empty(),
            "the draft's decisions are on the strip"
        );
        click(&b, ".rv-strip .rv-analysed").await;
        wait_for(&b, ".rv-analysis table").await;
        assert!(b.text(".rv-analysis").await.starts_with("analysis: "), "{}", b.text(".rv-analysis").await);
        b.screenshot("garage-analysis").await;

        // Checked: the report against random and greedy.
        click(&b, "a[href='/garage/blade']").await;
        let draft = b.client.execute("return document.querySelector('#code').value", vec![]).await.unwrap();
        assert!(draft.as_str().unwrap_or("").contains("print(\"legal: \""), "the draft was saved: {draft}");
        click(&b, "#check").await;
        wait_for(&b, "#no-faults").await;
        let table = b.text("#check").await;
        assert!(table.contains("random") && table.contains("greedy") && table.contains("all"), "{table}");
        // Fuel and memory, as `arena check` reports them.
        assert!(b.text("#fuel").await.starts_with("fuel per decision: mean "), "{}", b.text("#fuel").await);
        let memory = b.text("#memory").await;
        assert!(memory.starts_with("memory peak: ") && memory.contains("% of the limit"), "{memory}");
        // The student's bot beats `random`: more wins than losses in the check's matches.
        let rows = b
            .client
            .execute(
                "return Array.from(document.querySelectorAll('#check tbody tr'))\
                 .map(r => Array.from(r.cells).map(c => c.textContent.trim()));",
                vec![],
            )
            .await
            .unwrap();
        let rows: Vec<Vec<String>> = serde_json::from_value(rows).unwrap();
        let random = rows.iter().find(|r| r[0] == "random").unwrap_or_else(|| panic!("{rows:?}"));
        let wdl: Vec<u32> = random[2].split('-').map(|n| n.parse().unwrap()).collect();
        assert!(wdl[0] > wdl[2], "the published bot beats random: {random:?}");
        b.screenshot("garage-check").await;

        // Autosaved: an edit reaches the draft with no button pressed.
        click(&b, "a[href='/garage/blade']").await;
        let edited = format!("-- autosaved\n{FIXED}");
        set_code(&b, &edited).await;
        wait_for(&b, "#autosave[data-saved]").await;
        b.client.goto(&format!("{}/garage/blade", server.url)).await.unwrap();
        let draft = b.client.execute("return document.querySelector('#code').value", vec![]).await.unwrap();
        assert!(draft.as_str().unwrap_or("").starts_with("-- autosaved\n"), "the edit was saved: {draft}");

        // Published, then on the leaderboard once it has played.
        fill(&b, "#name", "sams-bot").await;
        click(&b, "#publish").await;
        wait_for(&b, "#garage-link").await;
        let until = Instant::now() + Duration::from_secs(120);
        loop {
            b.client.goto(&format!("{}/board/blade/readme", server.url)).await.unwrap();
            if b.text(".board").await.contains("sams-bot@v1.lua") {
                break;
            }
            assert!(Instant::now() < until, "not on the leaderboard within 120 s");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        b.screenshot("garage-board").await;
        // The broken draft's answer is a 422 page on purpose; the browser logs its status.
        let errors: Vec<String> = b
            .console_errors()
            .await
            .into_iter()
            .filter(|e| {
                !e.contains(
                    "/garage/blade/try - Failed to load resource: the server responded with a status of 422",
                )
            })
            .collect();
        assert!(errors.is_empty(), "the browser's console: {errors:#?}");
        b.close().await;
        drop(server);
    });
}
