//! The match page's analyses: asked for by a signed-in visitor, pending, computed by a worker
//! between its matches, shown as the viewer's strip, kept (a second request is served from the
//! table); a bad seat, an unknown match, too many requests and a game without analysis are
//! clear refusals.

use super::*;
use crate::analysis;

/// A worker as `arena worker --group ladder` runs, with the ladder's analyses as its side work
/// (valued by `games`), until the queue is empty and no analysis is waiting.
fn run_worker(s: &Site, games: &cardarena::Games) {
    let mut queue = cardarena::tournament::queue::open(&format!("sqlite:{}", s.db.path().display())).unwrap();
    let mut opts = WorkerOptions::new("test-worker", std::sync::Arc::new(games.clone()));
    opts.until_empty = true;
    opts.side_work = Some(analysis::side_work(s.db.clone(), games.clone(), "test-worker"));
    worker::run(queue.as_mut(), &opts, None, &std::sync::atomic::AtomicBool::new(false)).unwrap();
    s.jobs.collect(&*s.db).unwrap();
}

/// A ladder of two Blade bots with a tick of matches played; the first match's id.
async fn played(s: &Site) -> (Browser, i64) {
    let (_teacher, mut players) =
        ladder_with_bots(s, &[("greedy1", "blade_greedy.lua"), ("random1", "blade_random.lua")]).await;
    queue_tick(s, 1);
    run_jobs(s);
    let id = s.db.board_matches("blade", "readme").unwrap()[0].id;
    (players.remove(0), id)
}

/// The viewer options' JSON on a page.
fn options(page: &str) -> serde_json::Value {
    let json = between(page, "<script type=\"application/json\" id=\"options\">", "</script>").unwrap();
    serde_json::from_str(&json).unwrap()
}

/// Whether two JSON values are the same but for floats' last bits (serde_json reads a float
/// to within its last bit).
fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, x), (l, y))| k == l && close(x, y))
        }
        _ => a == b,
    }
}

/// Samples per decision (the tests' builds are not optimised).
const BUDGET: u32 = 40;

fn allowing(per_minute: u32) -> LadderConfig {
    config::parse(
        &format!(
            "[[board]]\ngame = \"blade\"\n[upload]\nper_minute = 100\n[analysis]\nper_minute = {per_minute}\nbudget = {BUDGET}\n"
        ),
        Path::new("ladder.toml"),
    )
    .unwrap()
}

#[tokio::test]
async fn an_analysis_is_asked_for_computed_by_a_worker_shown_and_kept() {
    let config = allowing(100);
    assert_eq!((config.analyses_per_minute, config.analysis_budget), (100, Some(BUDGET)));
    let e = config::parse("[analysis]\nbudget = 0\n", Path::new("ladder.toml")).unwrap_err().to_string();
    assert!(e.starts_with("ladder.toml:2:") && e.contains("`budget` must be between 1 and"), "{e}");
    let s = site_with("analysis", config);
    let (mut alice, id) = played(&s).await;
    let page = format!("/matches/{id}");

    // A visitor sees the section, and must sign in to ask.
    let mut visitor = Browser::default();
    let r = visitor.get(&s.app, &page).await;
    assert!(r.body.contains("<h2>Analysis</h2>") && r.body.contains("to ask for it"), "{}", r.body);
    assert!(!r.body.contains("Analyse seat"));
    let r = visitor.post(&s.app, &format!("{page}/analyse"), &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);

    // A player asks for seat 1: queued, the page says it is pending, the viewer has no strip.
    let r = alice.get(&s.app, &page).await;
    assert!(r.body.contains("Analyse seat 0") && r.body.contains("Analyse seat 1"), "{}", r.body);
    let r = alice.post(&s.app, &format!("{page}/analyse"), &[("seat", "1")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let to = r.headers.get(header::LOCATION).unwrap().to_str().unwrap().to_string();
    assert_eq!(to, format!("/matches/{id}?analysis=1#analysis"));
    let r = alice.get(&s.app, &format!("/matches/{id}?analysis=1")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("The analysis of seat 1 is pending"), "{}", r.body);
    assert!(options(&r.body).get("analysis").is_none());
    assert!(!r.body.contains("Analyse seat 1"), "asked for already");

    // A busy worker leaves a fresh request to idle ones (ladder matches go first).
    let side = analysis::side_work(s.db.clone(), cardarena::Games::builtin(), "busy");
    assert!(!(side.0)(false), "a busy worker takes only requests older than the patience");
    assert_eq!(s.db.analysis(id, 1).unwrap().unwrap().state, "queued");

    // A worker with nothing else to do computes it; the page shows the strip's data: the
    // analysis `arena analyse` makes of the stored replay.
    run_worker(&s, &cardarena::Games::builtin());
    let row = s.db.analysis(id, 1).unwrap().unwrap();
    assert_eq!(row.state, "done", "{row:?}");
    let (_, blob) = s.db.match_row(id).unwrap().unwrap();
    let replay = crate::db::replay_of(&blob).unwrap();
    let direct = cardarena::Games::builtin()
        .get("blade")
        .unwrap()
        .analyse(&replay, &format!("match-{id}.json"), 1, Some(BUDGET))
        .unwrap();
    assert!(!direct.decisions.is_empty());
    let r = visitor.get(&s.app, &format!("/matches/{id}?analysis=1")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("shows the analysis of seat 1"), "{}", r.body);
    let shown = options(&r.body)["analysis"].clone();
    assert!(close(&shown, &serde_json::from_str(&direct.to_json()).unwrap()), "{shown}");
    assert_eq!(shown["seat"], 1);
    let first = &shown["decisions"][0];
    assert!(first["values"].as_object().unwrap().len() >= 2, "each legal action's value: {first}");
    // Anyone sees it listed once done.
    let r = visitor.get(&s.app, &page).await;
    assert!(r.body.contains(&format!("href=\"/matches/{id}?analysis=1#analysis\">show</a>")), "{}", r.body);

    // Asked again: served from the table at once, never computed again.
    let r = alice.post(&s.app, &format!("{page}/analyse"), &[("seat", "1")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(s.db.analysis(id, 1).unwrap().unwrap(), row);
    assert!(!analysis::run_one(&*s.db, &cardarena::Games::builtin(), "w", crate::db::now()).unwrap());
    let r = alice.get(&s.app, &format!("/matches/{id}?analysis=1")).await;
    assert_eq!(options(&r.body)["analysis"], shown);

    // Bad requests: clear 4xx pages.
    for (seat, status) in [("2", StatusCode::UNPROCESSABLE_ENTITY), ("x", StatusCode::UNPROCESSABLE_ENTITY)] {
        let r = alice.post(&s.app, &format!("{page}/analyse"), &[("seat", seat)]).await;
        assert_eq!(r.status, status, "{}", r.body);
        assert!(r.body.contains("is not a seat of this match: its seats are 0 to 1"), "{}", r.body);
    }
    let r = alice.post(&s.app, &format!("{page}/analyse"), &[]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let r = alice.get(&s.app, &format!("/matches/{id}?analysis=7")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("its seats are 0 to 1"), "{}", r.body);
    let r = alice.get(&s.app, &format!("/matches/{id}?analysis=-1")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = alice.post(&s.app, "/matches/999999/analyse", &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("no such match"), "{}", r.body);
    assert_eq!(alice.get(&s.app, "/matches/999999?analysis=0").await.status, StatusCode::NOT_FOUND);
    let r = alice.post(&s.app, "/matches/abc/analyse", &[("seat", "0")]).await;
    assert!(r.status.is_client_error(), "{}", r.status);

    // No account has more than MAX_WAITING analyses waiting.
    let others: Vec<i64> =
        s.db.board_matches("blade", "readme").unwrap().iter().map(|m| m.id).filter(|&m| m != id).collect();
    assert!(others.len() > analysis::MAX_WAITING as usize);
    for (k, m) in others.iter().enumerate() {
        let r = alice.post(&s.app, &format!("/matches/{m}/analyse"), &[("seat", "0")]).await;
        if k < analysis::MAX_WAITING as usize {
            assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        } else {
            assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
            assert!(r.body.contains("analyses waiting already"), "{}", r.body);
            break;
        }
    }
}

#[tokio::test]
async fn analyses_asked_for_are_rate_limited_per_account() {
    let s = site_with("analysis-rate", allowing(1));
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    alice.get(&s.app, "/").await;
    // No match 1: the first try reaches the page (404), the second is refused before it.
    let r = alice.post(&s.app, "/matches/1/analyse", &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let r = alice.post(&s.app, "/matches/1/analyse", &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.body.contains("[analysis] per_minute") && r.headers.contains_key(header::RETRY_AFTER));
    // Another account is not held back.
    let r = teacher.post(&s.app, "/matches/1/analyse", &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
}

#[tokio::test]
async fn a_game_without_analysis_says_so() {
    // Blade hosted without its `Analyse` (as an outside game such as Kuhn poker is).
    let mut config = allowing(100);
    config.games = cardarena::Games::builtin().with::<cardarena::games::blade::Blade>();
    assert!(!config.games.get("blade").unwrap().has_analysis());
    let s = site_with("analysis-none", config);
    let (mut alice, id) = played(&s).await;
    let r = alice.get(&s.app, &format!("/matches/{id}")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("analysis is not available for blade"), "{}", r.body);
    assert!(!r.body.contains("Analyse seat"));
    let r = alice.get(&s.app, &format!("/matches/{id}?analysis=0")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(options(&r.body).get("analysis").is_none());
    let r = alice.post(&s.app, &format!("/matches/{id}/analyse"), &[("seat", "0")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("analysis is not available for blade"), "{}", r.body);
    assert!(s.db.analyses_of(id).unwrap().is_empty());
}
