//! Play in the browser, end to end: the real `arena serve` (one worker process), a person who
//! registers by the printed invite link, uploads an E-card bot, plays it to the end of a match
//! by clicking (and by the keys 1–9) in headless Chromium, with the worker playing it killed
//! midway (another one resumes the match), then checks the match's replay with
//! `arena replay --verify`. Screenshots go to target/screenshots/ (play-*.png).

use testkit::browser;
use testkit::ladder;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use browser::{Browser, Locator};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ladder-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bot_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("example_bots/lua/ecard_greedy.lua")
}

async fn fill(b: &Browser, css: &str, text: &str) {
    b.client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .send_keys(text)
        .await
        .unwrap();
}

async fn click(b: &Browser, css: &str) {
    b.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}")).click().await.unwrap();
}

/// Waits (30 s at most) until `css` matches something on the page.
async fn wait_for(b: &Browser, css: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while b.client.find(Locator::Css(css)).await.is_err() {
        assert!(Instant::now() < until, "waited 30 s for {css}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[test]
fn a_person_plays_a_whole_match_against_a_bot_in_the_browser() {
    let dir = scratch("play");
    browser::runtime().block_on(async {
        let Some(b) = Browser::start().await else { return };
        std::fs::write(
            dir.join("ladder.toml"),
            "title = \"Play test\"\n[[board]]\ngame = \"ecard\"\n[matchmaking]\ntick_seconds = 3600\n",
        )
        .unwrap();
        let server = ladder::Server::start(Path::new(env!("CARGO_BIN_EXE_arena")), &dir, 1, 2.0);

        // Register by the printed invite link, upload an E-card bot, wait until it is ready.
        b.client.goto(server.invite.as_deref().expect("the first start prints the admin invite link")).await.unwrap();
        fill(&b, "input[name=name]", "ann").await;
        fill(&b, "input[name=password]", "password123").await;
        click(&b, "form[action='/register'] button").await;
        b.client.goto(&format!("{}/upload", server.url)).await.unwrap();
        b.client.find(Locator::Css("select[name=game]")).await.unwrap().select_by_label("ecard").await.unwrap();
        fill(&b, "input[name=name]", "crafty").await;
        fill(&b, "input[type=file]", bot_file().to_str().unwrap()).await;
        click(&b, "form[action='/upload'] button").await;
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let page = b.client.source().await.unwrap();
            if page.contains("class=\"state-ready\"") {
                break;
            }
            assert!(!page.contains("class=\"state-failed\""), "the bot failed validation:\n{page}");
            assert!(Instant::now() < until, "the bot was not validated within 60 s:\n{page}");
            tokio::time::sleep(Duration::from_millis(300)).await;
            b.client.refresh().await.unwrap();
        }

        // Start a match against it, in seat 0.
        click(&b, "header a[href='/play']").await;
        let options = b.texts("select[name=opponent] option").await;
        assert_eq!(options.len(), 1, "{options:?}");
        assert!(options[0].contains("crafty@v1.lua"), "{options:?}");
        b.client.find(Locator::Css("select[name=seat]")).await.unwrap().select_by_value("0").await.unwrap();
        b.screenshot("play-choose").await;
        click(&b, "#start button").await;

        // Play every decision: click the first move, or press its key, until the match ends.
        // Midway the worker playing the match is killed (SIGKILL): `arena serve` starts another,
        // which claims the job once its lease (2 s) expires and plays the match again from the
        // start, taking the moves already made from the database.
        let mut moves = 0;
        let mut made: Vec<String> = Vec::new();
        let mut killed = None;
        let until = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(Instant::now() < until, "the match did not end within 120 s ({moves} moves made)");
            if b.client.find(Locator::Css("#result")).await.is_ok() {
                break;
            }
            let buttons = b.client.find_all(Locator::Css("#moves button")).await.unwrap();
            if buttons.is_empty() {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            let board = b.text("#board").await;
            assert!(board.contains("<- you") && board.contains("ecard"), "{board}");
            if moves == 0 {
                assert_eq!(b.text("#status").await, "Your move.");
                let hand = b.texts("#hand .card").await;
                assert_eq!(hand.len(), 5, "E-card: five cards in hand at the start: {hand:?}");
                b.screenshot("play-move").await;
            }
            // (If the page changed under us, the poll redrew the moves: look again.)
            let Ok(card) = buttons[0].find(Locator::Css(".card")).await else { continue };
            let Ok(action) = card.text().await else { continue };
            if moves == 3 && killed.is_none() {
                let workers = ladder::workers_of(server.pid());
                assert_eq!(workers.len(), 1, "{workers:?}");
                // SAFETY: kill(2) on the worker process this test's server started.
                assert_eq!(unsafe { libc::kill(workers[0].0 as i32, libc::SIGKILL) }, 0);
                killed = Some(workers[0].0);
            }
            if moves % 2 == 1 {
                b.press('1').await;
            } else if buttons[0].click().await.is_err() {
                continue;
            }
            moves += 1;
            made.push(action);
            let error = b.text("#error").await;
            assert!(error.is_empty(), "the move was refused: {error}");
            // Wait until the move was taken (the buttons go) before looking again.
            let sent = Instant::now();
            while sent.elapsed() < Duration::from_secs(5)
                && b.client.find(Locator::Css("#moves button")).await.is_ok()
                && b.client.find(Locator::Css("#result")).await.is_err()
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        assert!(moves >= 4, "an E-card match has at least four decisions per seat; {moves} made");
        wait_for(&b, "#viewer").await;
        let result = b.text("#result").await;
        assert!(result.contains("human:ann") && result.contains("crafty@v1.lua"), "{result}");
        b.screenshot("play-end").await;
        // The game page's script (a file) and the viewer ran under the ladder's
        // Content-Security-Policy: a script it blocked would be an error in the console.
        let errors = b.console_errors().await;
        assert!(errors.is_empty(), "the browser's console: {errors:#?}");

        // The replay from the page, verified by `arena replay --verify` with the bot's file.
        let text = b
            .client
            .execute_async(
                "const done = arguments[0]; fetch(document.querySelector('a[download]').href).then(r => r.text()).then(done)",
                vec![],
            )
            .await
            .unwrap();
        let replay_file = dir.join("play-1.json");
        std::fs::write(&replay_file, text.as_str().unwrap()).unwrap();
        let replay: serde_json::Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        let played: Vec<&str> = replay["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["seat"] == 0)
            .map(|d| d["played"].as_str().unwrap())
            .collect();
        assert_eq!(played, made, "the replay holds the moves made on the page, across the two workers");
        let c = ladder::db(&dir);
        let attempts = ladder::count(
            &c,
            "SELECT attempts FROM queue_jobs WHERE key = (SELECT key FROM play_games WHERE id = 1)",
        );
        assert_eq!(attempts, 2, "the killed worker's claim and the new worker's");
        assert!(killed.is_some_and(|pid| ladder::workers_of(server.pid()).iter().all(|(p, _)| *p != pid)));
        std::fs::copy(bot_file(), dir.join("crafty@v1.lua")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("replay")
            .arg(&replay_file)
            .arg("--verify")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
        assert!(said.contains("seat 0 (human:ann) is a person") && said.contains("verified:"), "{said}");
        b.close().await;
        drop(server);
    });
}
