//! Play in the browser (`ladder::play`) through the router: a worker thread plays the people's
//! games as `arena worker --group ladder` does, the test is the person at the page.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::*;
use cardarena::games::ecard::Ecard;
use cardarena::play::runner::Replay;
use cardarena::replay::verify::{verify, VerifyOptions};

fn ecard_site(tag: &str, move_seconds: u64) -> Site {
    let text = format!(
        "[[board]]\ngame = \"ecard\"\n[upload]\nper_minute = 100\n[play]\nmove_seconds = {move_seconds}\n"
    );
    site_with(tag, config::parse(&text, Path::new("ladder.toml")).unwrap())
}

/// A worker process's loop in a thread, people's games included, until dropped.
struct BackgroundWorker {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BackgroundWorker {
    fn start(s: &Site) -> BackgroundWorker {
        let mut queue =
            cardarena::tournament::queue::open(&format!("sqlite:{}", s.db.path().display())).unwrap();
        let mut opts = WorkerOptions::new("test-worker", std::sync::Arc::new(cardarena::Games::builtin()));
        opts.poll = Duration::from_millis(50);
        opts.people = Some(crate::play::people(s.db.clone()));
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            worker::run(queue.as_mut(), &opts, None, &flag).unwrap();
        });
        BackgroundWorker { stop, thread: Some(thread) }
    }
}

impl Drop for BackgroundWorker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A player with a ready E-card bot, and the `opponent` value of the Play page's form for it.
async fn with_ready_bot(s: &Site) -> (Browser, Browser, String) {
    let mut admin = admin(s).await;
    let mut owner = player(s, &mut admin, "owner").await;
    let r = owner.upload(&s.app, "ecard", "crafty", "crafty.lua", &lua("ecard_greedy.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    run_jobs(s);
    let ann = player(s, &mut admin, "ann").await;
    let mut look = ann.clone();
    let r = look.get(&s.app, "/play").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("crafty@v1.lua"), "{}", r.body);
    let opponent = between(&r.body, "<option value=\"", "\"").unwrap();
    (look, owner, opponent)
}

async fn state(s: &Site, b: &mut Browser, id: i64) -> serde_json::Value {
    let r = b.get(&s.app, &format!("/play/{id}/state")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

/// Polls the game's state until `want(state)` (20 s at most).
async fn wait_for(s: &Site, b: &mut Browser, id: i64, what: &str) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let st = state(s, b, id).await;
        if st["waiting"] == what {
            return st;
        }
        assert!(Instant::now() < until, "waited 20 s for {what}, the game is {st}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn game_id(r: &Answer) -> i64 {
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let to = r.headers[header::LOCATION].to_str().unwrap();
    to.strip_prefix("/play/").unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_bot_to_the_end_and_the_match_verifies() {
    let s = ecard_site("play", 300);
    let (mut ann, mut bob, opponent) = with_ready_bot(&s).await;
    let id = game_id(&ann.post(&s.app, "/play", &[("opponent", &opponent), ("seat", "0")]).await);
    // Before a worker takes it: waiting for one; a second game is refused until this one ends.
    assert_eq!(state(&s, &mut ann, id).await["waiting"], "worker");
    let r = ann.post(&s.app, "/play", &[("opponent", &opponent), ("seat", "1")]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    // Nobody else sees the live game or moves in it.
    assert_eq!(bob.get(&s.app, &format!("/play/{id}")).await.status, StatusCode::FORBIDDEN);
    assert_eq!(bob.get(&s.app, &format!("/play/{id}/state")).await.status, StatusCode::FORBIDDEN);

    let _worker = BackgroundWorker::start(&s);
    let mut made = Vec::new();
    let mut first = true;
    loop {
        let st = state(&s, &mut ann, id).await;
        if st["waiting"] == "over" {
            break;
        }
        if st["waiting"] != "you" {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        }
        let n = st["turn"]["n"].as_i64().unwrap().to_string();
        let legal: Vec<String> = serde_json::from_value(st["turn"]["legal"].clone()).unwrap();
        assert!(st["turn"]["view"].as_str().unwrap().contains("<- you"), "{st}");
        // The seat's hand and moves as the viewer's card spans: E-card's moves are cards of
        // the hand (rules: each player plays one card of their hand).
        let hand: Vec<&str> =
            st["turn"]["hand"].as_array().unwrap().iter().map(|c| c["text"].as_str().unwrap()).collect();
        assert!(legal.iter().all(|a| hand.contains(&a.as_str())), "{st}");
        let moves: Vec<&str> =
            st["turn"]["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
        assert_eq!(moves, legal.iter().map(String::as_str).collect::<Vec<_>>());
        if first {
            first = false;
            // The page shows the decision with its moves as buttons.
            let page = ann.get(&s.app, &format!("/play/{id}")).await;
            assert!(
                page.body.contains("Your move.") && page.body.contains("name=\"action\""),
                "{}",
                page.body
            );
            // An illegal move, a decision that is not open, another user, no CSRF token: refused.
            let r = ann.post(&s.app, &format!("/play/{id}/move"), &[("n", &n), ("action", "K")]).await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
            assert!(r.body.contains("not a legal move now"), "{}", r.body);
            let later = (n.parse::<i64>().unwrap() + 1).to_string();
            let r =
                ann.post(&s.app, &format!("/play/{id}/move"), &[("n", &later), ("action", &legal[0])]).await;
            assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
            let r = bob.post(&s.app, &format!("/play/{id}/move"), &[("n", &n), ("action", &legal[0])]).await;
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
            let r =
                ann.post_raw(&s.app, &format!("/play/{id}/move"), &[("n", &n), ("action", &legal[0])]).await;
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
        }
        // The last legal move each time (not what `random` or the first-move default would do).
        let action = legal.last().unwrap().clone();
        let r = ann.post(&s.app, &format!("/play/{id}/move"), &[("n", &n), ("action", &action)]).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        made.push(action);
    }
    assert!(made.len() >= 4, "an E-card match has at least four decisions per seat: {made:?}");

    // The finished match: its page, its replay with the person's moves, public now.
    let page = bob.get(&s.app, &format!("/play/{id}")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("human:ann") && page.body.contains("id=\"viewer\""), "{}", page.body);
    assert!(page.body.contains(&format!("arena replay play-{id}.json --verify")), "{}", page.body);
    let r = bob.get(&s.app, &format!("/play/{id}/replay.json")).await;
    assert_eq!(r.status, StatusCode::OK);
    let replay: Replay = serde_json::from_str(&r.body).unwrap();
    assert_eq!(replay.bots[0].name, "human:ann");
    assert_eq!(replay.bots[1].name, "crafty@v1.lua");
    let mine: Vec<String> =
        replay.decisions.iter().filter(|d| d.seat == 0).map(|d| d.played.clone().unwrap()).collect();
    assert_eq!(mine, made);
    assert!(replay.faults.iter().all(Vec::is_empty), "{:?}", replay.faults);

    // `arena replay --verify` with the bot's file accepts it; a changed move does not pass.
    let dir = tempdir::Dir::new("play-verify");
    std::fs::write(dir.path().join("crafty@v1.lua"), lua("ecard_greedy.lua")).unwrap();
    let opts = VerifyOptions { base: Some(dir.path().to_path_buf()), overrides: Vec::new() };
    let v = verify::<Ecard>(&replay, "play.json", &opts).unwrap();
    assert!(v.identical, "{}", v.report);
    assert!(v.report.contains("seat 0 (human:ann) is a person"), "{}", v.report);
    let mut tampered = replay.clone();
    let k = tampered.decisions.iter().position(|d| d.seat == 1).unwrap();
    let other = tampered.decisions[k].legal.iter().find(|a| Some(*a) != tampered.decisions[k].reply.as_ref());
    if let Some(other) = other.cloned() {
        tampered.decisions[k].reply = Some(other.clone());
        tampered.decisions[k].played = Some(other);
        assert!(!verify::<Ecard>(&tampered, "play.json", &opts).map(|v| v.identical).unwrap_or(false));
    }

    // Off the leaderboard: no ladder match was stored, the board does not name the person.
    assert!(s.db.match_row(1).unwrap().is_none());
    let board = ann.get(&s.app, "/board/ecard/readme").await;
    assert!(!board.body.contains("human:ann"), "{}", board.body);
    // The Play page lists the game with its result; moving in it now is refused.
    let list = ann.get(&s.app, "/play").await;
    assert!(list.body.contains(&format!("/play/{id}\"")) && list.body.contains("done"), "{}", list.body);
    let r = ann.post(&s.app, &format!("/play/{id}/move"), &[("n", "0"), ("action", &made[0])]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_stops_moving_or_resigns_forfeits_with_a_verdict() {
    let s = ecard_site("forfeit", 1);
    let (mut ann, _, opponent) = with_ready_bot(&s).await;
    // Bad requests: not signed in, no CSRF token, an unknown opponent, a seat the game lacks.
    let mut nobody = Browser::default();
    let r = nobody.post(&s.app, "/play", &[("opponent", &opponent)]).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
    let r = ann.post_raw(&s.app, "/play", &[("opponent", &opponent)]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    for (opp, seat) in [("999/readme", "0"), ("x", "0"), (opponent.as_str(), "2")] {
        let r = ann.post(&s.app, "/play", &[("opponent", opp), ("seat", seat)]).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{opp} {seat}: {}", r.body);
    }
    let _worker = BackgroundWorker::start(&s);
    // No move within `move_seconds` (1 s): the seat faults and the match ends.
    let id = game_id(&ann.post(&s.app, "/play", &[("opponent", &opponent), ("seat", "1")]).await);
    wait_for(&s, &mut ann, id, "you").await;
    wait_for(&s, &mut ann, id, "over").await;
    let replay: Replay =
        serde_json::from_str(&ann.get(&s.app, &format!("/play/{id}/replay.json")).await.body).unwrap();
    let fault = &replay.faults[1][0];
    assert_eq!(fault.verdict.name(), "invalid");
    assert_eq!(fault.message, "the player left the match: no move in 1 s");
    // Resigning: the same, with its own message.
    let id = game_id(&ann.post(&s.app, "/play", &[("opponent", &opponent), ("seat", "0")]).await);
    wait_for(&s, &mut ann, id, "you").await;
    let r = ann.post(&s.app, &format!("/play/{id}/resign"), &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    wait_for(&s, &mut ann, id, "over").await;
    let replay: Replay =
        serde_json::from_str(&ann.get(&s.app, &format!("/play/{id}/replay.json")).await.body).unwrap();
    assert_eq!(replay.faults[0][0].message, "the player resigned");
    let page = ann.get(&s.app, &format!("/play/{id}")).await;
    assert!(page.body.contains("invalid"), "{}", page.body);
}

#[test]
fn move_seconds_is_checked_with_its_line() {
    let p = Path::new("ladder.toml");
    let e = config::parse("title = \"x\"\n[play]\nmove_seconds = 0\n", p).unwrap_err().to_string();
    assert!(
        e.starts_with("ladder.toml:3:") && e.contains("`move_seconds` must be between 1 and 86400"),
        "{e}"
    );
    let e = config::parse("[play]\nmove_secs = 5\n", p).unwrap_err().to_string();
    assert!(e.contains("unknown field `move_secs`"), "{e}");
    assert_eq!(config::parse("", p).unwrap().move_seconds, 300);
}
