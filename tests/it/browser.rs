//! The web replay viewer (`arena replay --html`) in headless Chromium: stepping, deep links, a
//! seat's point of view that hides the other seats' cards, fault badges, the replay download.
//! Screenshots go to target/screenshots/.

use testkit::browser;

use std::path::{Path, PathBuf};
use std::process::Command;

use browser::{Browser, Locator};
use cardarena::play::resim;
use cardarena::replay::viewer::Frames;
use fantoccini::key::Key;

fn arena(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs");
    assert!(o.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).to_string_lossy().into_owned()
}

fn card_texts(f: &Frames, step: usize, seat: usize) -> Vec<String> {
    f.frames[step].hands[seat].iter().map(|c| c.text.clone()).collect()
}

#[test]
fn the_replay_page_steps_links_hides_other_hands_and_shows_faults() {
    // Intensity (seed-games.md §4) with a Lua bot in seat 0 that raises an error at every
    // seventh decision: the match plays on after it with +5 and a random card.
    let dir = scratch("intensity");
    let replay_file = dir.join("m.json");
    let page = dir.join("m.html");
    let crashes = repo("tests/data/bots/crashes_sometimes.lua");
    arena(&[
        "play",
        "--game",
        "intensity",
        "--seed",
        "5",
        "--bots",
        &format!("{crashes},greedy,random,greedy"),
        "--replay",
        replay_file.to_str().unwrap(),
    ]);
    arena(&["replay", replay_file.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    let replay = resim::load_file(&replay_file).unwrap();
    let f = cardarena::Games::builtin().frames(&replay, "m.json").unwrap();
    let last = f.frames.len() - 1;
    let fault = f.frames.iter().find(|fr| !fr.badges.is_empty()).expect("a step with a fault").step;
    // A page for seat 1 alone does not even hold seat 0's hand.
    let seat1_page = dir.join("seat1.html");
    arena(&[
        "replay",
        replay_file.to_str().unwrap(),
        "--html",
        seat1_page.to_str().unwrap(),
        "--as-seat",
        "1",
    ]);
    let hand0 = format!("seat 0: {}", card_texts(&f, fault, 0).join(" "));
    assert!(std::fs::read_to_string(&page).unwrap().contains(&hand0));
    assert!(!std::fs::read_to_string(&seat1_page).unwrap().contains(&hand0));

    browser::runtime().block_on(async {
        let Some(b) = Browser::start().await else { return };
        let url = format!("file://{}", page.display());
        b.client.goto(&url).await.unwrap();
        assert_eq!(b.text(".rv-counter").await, format!("step 0 / {last}"));
        assert_eq!(b.texts(".rv-badge").await.len(), 0, "no fault at the start");
        // spectator: every seat's hand, each card a span
        assert_eq!(b.texts(".rv-hand").await.len(), 4);
        assert_eq!(b.texts(".card").await.len(), 40, "seed-games.md §4: ten cards each");
        assert!(!b.text(".rv-step").await.contains("null"), "nothing missing is drawn as null");
        b.screenshot("viewer-start").await;

        // the keyboard steps, and the address follows
        b.press(Key::Right).await;
        b.press(Key::Right).await;
        b.press(Key::Right).await;
        b.press(Key::Left).await;
        assert_eq!(b.text(".rv-counter").await, format!("step 2 / {last}"));
        assert_eq!(b.client.execute("return location.hash", vec![]).await.unwrap(), "#step=2");
        let first = f.frames[2].decision.as_ref().unwrap();
        assert!(b.text(".rv-move").await.starts_with(&format!("#2 seat {}", first.seat)));

        // a deep link to the faulting step shows its badge
        b.client.goto(&format!("{url}#step={fault}")).await.unwrap();
        assert_eq!(b.text(".rv-counter").await, format!("step {fault} / {last}"));
        let badges = b.texts(".rv-badge").await;
        assert_eq!(badges.len(), 1, "{badges:?}");
        assert!(badges[0].starts_with("CRASH seat 0"), "{badges:?}");
        assert!(badges[0].contains(&format!("at decision #{fault}: ")), "{badges:?}");
        assert!(badges[0].contains("deliberate crash at decision 7"), "its message: {badges:?}");
        b.screenshot("viewer-fault").await;

        // seat 1's point of view: its own hand only, its own board, no other seat's cards
        b.client.find(Locator::Css(".rv-pov")).await.unwrap().select_by_value("1").await.unwrap();
        assert_eq!(b.client.execute("return location.hash", vec![]).await.unwrap(), format!("#step={fault}&pov=1"));
        assert_eq!(b.texts(".rv-hand").await.len(), 1);
        assert_eq!(b.texts(".card").await, card_texts(&f, fault, 1));
        assert_eq!(b.text(".rv-board").await, f.frames[fault].seats[1].view.trim_end());
        let page_text = b.text(".rv").await;
        for other in [0, 2, 3] {
            let hand = card_texts(&f, fault, other).join(" ");
            assert!(!page_text.contains(&hand), "seat {other}'s hand {hand} is shown to seat 1:\n{page_text}");
        }
        assert!(b.texts(".rv-badge").await.is_empty(), "seat 0's fault is not seat 1's");
        assert!(b.text(".rv-move").await.contains("seat 0"), "seat 0's move, as seat 1 learns it");
        assert!(!page_text.contains("null"), "{page_text}");
        b.screenshot("viewer-seat1").await;

        // the end: the result table; the download is the replay file with the bots' hashes
        b.client.goto(&format!("{url}#step={last}")).await.unwrap();
        assert_eq!(b.text(".rv-counter").await, format!("step {last} / {last}"));
        let result = b.text(".rv-result").await;
        assert!(result.contains(&replay.outcome.points[1].to_string()), "{result}");
        let link = b.client.find(Locator::Css(".rv-download")).await.unwrap();
        assert_eq!(link.attr("download").await.unwrap().as_deref(), Some("intensity-5.json"));
        let downloaded = b
            .client
            .execute_async(
                "const done = arguments[0]; fetch(document.querySelector('.rv-download').href).then(r => r.text()).then(done)",
                vec![],
            )
            .await
            .unwrap();
        let downloaded = downloaded.as_str().unwrap();
        assert_eq!(downloaded, std::fs::read_to_string(&replay_file).unwrap());
        assert!(downloaded.contains(&replay.bots[0].hash));
        b.screenshot("viewer-end").await;
        let errors = b.console_errors().await;
        assert!(errors.is_empty(), "the page's console: {errors:#?}");

        // the page made for seat 1: its point of view only, no replay to download
        b.client.goto(&format!("file://{}#step={fault}", seat1_page.display())).await.unwrap();
        assert_eq!(b.text(".rv-counter").await, format!("step {fault} / {last}"));
        assert_eq!(b.texts(".rv-pov option").await, vec!["seat 1: greedy".to_string()]);
        assert_eq!(b.texts(".card").await, card_texts(&f, fault, 1));
        assert!(b.texts(".rv-badge").await.is_empty() && b.texts(".rv-download").await.is_empty());
        b.close().await;
    });
}

#[test]
fn the_lost_cities_board_is_drawn_as_cards() {
    let dir = scratch("lost-cities");
    let replay_file = dir.join("m.json");
    let page = dir.join("m.html");
    arena(&[
        "play",
        "--game",
        "lost-cities",
        "--seed",
        "4",
        "--bots",
        "greedy,random",
        "--replay",
        replay_file.to_str().unwrap(),
    ]);
    arena(&["replay", replay_file.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    // In the terminal, `arena replay` still prints the text board.
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["replay", replay_file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("suit  seat 1") && text.contains("deck: "), "{text}");
    let replay = resim::load_file(&replay_file).unwrap();
    let f = cardarena::Games::builtin().frames(&replay, "m.json").unwrap();
    // A step with a few expeditions laid.
    let laid = |step: usize| -> usize {
        let t = f.frames[step].table.as_ref().unwrap();
        t.rows.iter().map(|r| r.cells[0].cards.len() + r.cells[2].cards.len()).sum()
    };
    let step = (0..f.frames.len()).find(|&k| laid(k) >= 6).expect("a step with six cards laid");
    let table_cards = |t: &cardarena::replay::viewer::frames::Table| -> Vec<String> {
        t.rows
            .iter()
            .flat_map(|r| r.cells.iter().flat_map(|c| c.cards.iter().map(|c| c.text.clone())))
            .collect()
    };

    browser::runtime().block_on(async {
        let Some(b) = Browser::start().await else { return };
        b.client.goto(&format!("file://{}#step={step}", page.display())).await.unwrap();
        assert_eq!(b.text(".rv-counter").await, format!("step {step} / {}", f.frames.len() - 1));
        // The expeditions and piles as cards in a grid, a row per suit; no text block.
        assert!(b.texts("pre.rv-board").await.is_empty(), "the ASCII board is gone");
        let spectator = f.frames[step].table.as_ref().unwrap();
        assert_eq!(b.texts(".rv-table tbody tr").await.len(), spectator.rows.len());
        assert_eq!(b.texts(".rv-table thead th").await, ["suit", "seat 1", "discard pile", "seat 0"]);
        assert_eq!(b.texts(".rv-table td .card").await, table_cards(spectator));
        let classes = "return [...document.querySelectorAll('.rv-table td .card')].map(c => c.className)";
        let classes = b.client.execute(classes, vec![]).await.unwrap();
        let classes: Vec<String> = serde_json::from_value(classes).unwrap();
        assert!(classes.iter().all(|c| c.starts_with("card suit-")), "{classes:?}");
        // Coloured as the hands' cards are (viewer.css), not plain text.
        let colour = "return getComputedStyle(document.querySelector('.rv-table td .card')).backgroundColor";
        assert_ne!(b.client.execute(colour, vec![]).await.unwrap(), "rgba(0, 0, 0, 0)");
        assert!(b.text(".rv-table").await.contains(&spectator.head[0]));
        b.screenshot("viewer-lost-cities").await;

        // Seat 1's point of view: its expeditions at the bottom, the other hand by its size.
        b.client.find(Locator::Css(".rv-pov")).await.unwrap().select_by_value("1").await.unwrap();
        let mine = f.frames[step].seats[1].table.as_ref().unwrap();
        assert_eq!(b.texts(".rv-table thead th").await, ["suit", "seat 0", "discard pile", "seat 1 (you)"]);
        assert_eq!(b.texts(".rv-table td .card").await, table_cards(mine));
        assert!(b.text(".rv-table").await.contains("seat 0 hand: "), "{}", b.text(".rv-table").await);
        b.screenshot("viewer-lost-cities-seat1").await;
        let errors = b.console_errors().await;
        assert!(errors.is_empty(), "the page's console: {errors:#?}");
        b.close().await;
    });
}

/// `arena replay --html --analyse 0`: the analysis strip has a bar per analysed decision of seat
/// 0, a click on one goes to its step, which lists the actions with their values, the one played
/// highlighted.
#[test]
fn the_analysis_strip_marks_the_decisions_and_shows_their_values() {
    let dir = scratch("analysis");
    let replay_file = dir.join("m.json");
    let page = dir.join("m.html");
    arena(&[
        "play",
        "--game",
        "blade",
        "--seed",
        "1",
        "--bots",
        "greedy,strong",
        "--replay",
        replay_file.to_str().unwrap(),
    ]);
    arena(&["replay", replay_file.to_str().unwrap(), "--html", page.to_str().unwrap(), "--analyse", "0"]);
    let replay = resim::load_file(&replay_file).unwrap();
    let analysis =
        cardarena::analyse::analyse::<cardarena::games::blade::Blade>(&replay, "m.json", 0, None).unwrap();
    let worst = analysis.worst(1).first().map_or(analysis.decisions[0].decision, |d| d.decision);
    let d = analysis.decisions.iter().find(|d| d.decision == worst).unwrap();

    browser::runtime().block_on(async {
        let Some(b) = Browser::start().await else { return };
        b.client.goto(&format!("file://{}", page.display())).await.unwrap();
        assert_eq!(b.texts(".rv-analysed").await.len(), analysis.decisions.len());
        let marks = b.texts(".rv-mark").await;
        assert_eq!(marks.len(), analysis.decisions.iter().filter(|d| d.mark.is_some()).count(), "{marks:?}");
        b.client
            .find(Locator::Css(&format!(".rv-analysed[data-step=\"{worst}\"]")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert!(b.text(".rv-counter").await.starts_with(&format!("step {worst} /")));
        let shown = b.text(".rv-analysis").await;
        assert!(shown.contains(&format!("analysis: {}", d.chosen)), "{shown}");
        assert_eq!(b.texts(".rv-analysis tr").await.len(), d.values.len() + 1, "a row per valued action");
        assert_eq!(b.text(".rv-chosen").await.split_whitespace().next(), Some(d.chosen.as_str()));
        b.screenshot("viewer-analysis").await;
    });
}
