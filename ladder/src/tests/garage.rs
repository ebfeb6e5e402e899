//! The garage (`ladder::garage`) through the router: drafts and who may read them, the size
//! cap and the CSRF check, a broken draft answered at once with its line, a try played by a
//! worker in the priority lane (never on a board), and publishing as an upload.

use super::*;

const GOOD: &str = "function act(obs)\n  print(\"deciding\")\n  return obs.legal[1]\nend\n";

/// The garage's `Store` methods on `db` (called by `store::store_behaves` on each backend),
/// with two accounts `a` and `b`.
pub(super) fn store_behaves(db: &Db, a: i64, b: i64) {
    use crate::db::garage::{Draft, NewTry};
    assert!(db.garage_draft(a, "blade").unwrap().is_none());
    let mut d = Draft {
        user: a,
        game: "blade".into(),
        lang: "lua".into(),
        code: "x".into(),
        name: "n".into(),
        updated: 0,
    };
    db.save_garage_draft(&d).unwrap();
    d.code = "y".into();
    d.lang = "python".into();
    db.save_garage_draft(&d).unwrap();
    let got = db.garage_draft(a, "blade").unwrap().unwrap();
    assert_eq!((got.code.as_str(), got.lang.as_str(), got.name.as_str()), ("y", "python", "n"));
    assert!(got.updated > 0);
    assert!(db.garage_draft(b, "blade").unwrap().is_none(), "one draft per user and game");
    db.save_garage_draft(&Draft { game: "ecard".into(), ..d.clone() }).unwrap();
    let games: Vec<String> = db.garage_drafts_of(a).unwrap().into_iter().map(|d| d.game).collect();
    assert_eq!(games, ["blade", "ecard"]);
    let t = |key: &'static str| NewTry {
        user: a,
        game: "blade",
        variant: "v",
        lang: "lua",
        opponent: "greedy",
        seat: 1,
        key,
    };
    let first = db.add_garage_try(&t("k1")).unwrap();
    let second = db.add_garage_try(&t("k2")).unwrap();
    let got = db.garage_try(first).unwrap().unwrap();
    assert_eq!((got.user, got.seat, got.key.as_str(), got.opponent.as_str()), (a, 1, "k1", "greedy"));
    let ids: Vec<i64> = db.garage_tries_of(a, "blade").unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(ids, [second, first], "newest first");
    assert!(db.garage_tries_of(b, "blade").unwrap().is_empty());
    assert!(db.garage_try(second + 1).unwrap().is_none());
    // A try's analysis: none, then kept; a second one does not replace it.
    assert!(db.garage_analysis(first).unwrap().is_none());
    db.save_garage_analysis(first, "{\"a\":1}").unwrap();
    db.save_garage_analysis(first, "{\"a\":2}").unwrap();
    assert_eq!(db.garage_analysis(first).unwrap().as_deref(), Some("{\"a\":1}"));
    assert!(db.garage_analysis(second).unwrap().is_none());
}

fn user_id(s: &Site, name: &str) -> i64 {
    s.db.raw(|c| c.query_row("SELECT id FROM users WHERE name = ?1", [name], |r| r.get(0))).unwrap()
}

#[tokio::test]
async fn drafts_are_saved_private_to_their_owner_and_read_only_to_an_admin() {
    let s = site("garage-drafts");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let mut bob = player(&s, &mut admin, "bob").await;

    let r = ann.get(&s.app, "/garage").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("href=\"/garage/blade\""), "{}", r.body);
    let r = ann.get(&s.app, "/garage/blade").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("<textarea name=\"code\" id=\"code\" data-editor=\"lua\""), "{}", r.body);
    assert!(r.body.contains("/static/vendor/editor.js"), "{}", r.body);
    // The observation's fields, as `arena schema --game blade --lua` prints them.
    let schema = cardarena::schema::lua_annotations(s.config.game("blade").unwrap());
    let first = schema.lines().find(|l| l.contains("---@field")).unwrap();
    assert!(between(&r.body, "<pre id=\"schema\">", "</pre>").unwrap().contains(first), "{first}");

    // The one CSRF check.
    let r = ann.post_raw(&s.app, "/garage/blade/save", &[("code", GOOD), ("lang", "lua")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = ann.post(&s.app, "/garage/blade/save", &[("code", GOOD), ("lang", "lua")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = ann.get(&s.app, "/garage/blade").await;
    assert!(r.body.contains("print(&quot;deciding&quot;)"), "{}", r.body);
    // A language the garage does not have.
    let r = ann.post(&s.app, "/garage/blade/save", &[("code", GOOD), ("lang", "ruby")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);

    // The size cap is the upload's.
    let big = "-".repeat(s.config.max_bytes + 1);
    let r = ann.post(&s.app, "/garage/blade/save", &[("code", &big), ("lang", "lua")]).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    assert!(r.body.contains(&format!("limit of {} bytes", s.config.max_bytes)), "{}", r.body);

    // Another player sees their own (empty) draft, and may not ask for ann's.
    let ann_id = user_id(&s, "ann");
    let r = bob.get(&s.app, "/garage/blade").await;
    assert!(!r.body.contains("deciding"), "{}", r.body);
    let r = bob.get(&s.app, &format!("/garage/blade?user={ann_id}")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(!r.body.contains("deciding"), "{}", r.body);

    // The teacher reads it, without a form to change it, from the admin page.
    let r = admin.get(&s.app, "/admin").await;
    assert!(r.body.contains(&format!("href=\"/garage?user={ann_id}\"")), "{}", r.body);
    let r = admin.get(&s.app, &format!("/garage?user={ann_id}")).await;
    assert!(r.body.contains(&format!("href=\"/garage/blade?user={ann_id}\"")), "{}", r.body);
    assert_eq!(bob.get(&s.app, &format!("/garage?user={ann_id}")).await.status, StatusCode::FORBIDDEN);
    let r = admin.get(&s.app, &format!("/garage/blade?user={ann_id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("ann’s draft (read-only)") && r.body.contains("deciding"), "{}", r.body);
    assert!(r.body.contains(" readonly>") && !r.body.contains("id=\"try\""), "{}", r.body);

    // Not signed in: 401.
    let r = Browser::default().get(&s.app, "/garage/blade").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = ann.get(&s.app, "/garage/poker").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_broken_draft_is_answered_at_once_with_its_line_and_nothing_is_queued() {
    let s = site("garage-broken");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let broken = "function act(obs)\n  local x = 1\n  return obs.legal[1\nend\n";
    let r = ann
        .post(&s.app, "/garage/blade/try", &[("code", broken), ("lang", "lua"), ("opponent", "greedy")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let line = between(&r.body, "<span id=\"verdict-line\">", "<").unwrap();
    assert_eq!(line, "4", "{}", r.body);
    assert!(r.body.contains("data-highlight-line=\"4\""), "{}", r.body);
    assert!(r.body.contains("<span class=\"here\">   4  end</span>"), "{}", r.body);
    // The draft is kept as typed, and nothing went to the queue.
    assert!(r.body.contains("return obs.legal[1\nend"), "{}", r.body);
    let queued: i64 = s.db.raw(|c| c.query_row("SELECT count(*) FROM queue_jobs", [], |r| r.get(0))).unwrap();
    assert_eq!(queued, 0);
}

/// Tries `code` against `greedy`, plays the queue as a worker, returns the result page.
async fn try_played(s: &Site, b: &mut Browser, code: &str) -> (String, Answer) {
    let r =
        b.post(&s.app, "/garage/blade/try", &[("code", code), ("lang", "lua"), ("opponent", "greedy")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let at = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let waiting = b.get(&s.app, &at).await;
    assert!(
        waiting.body.contains("id=\"waiting\"") && waiting.body.contains("http-equiv=\"refresh\""),
        "{}",
        waiting.body
    );
    run_jobs(s);
    let r = b.get(&s.app, &at).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    (at, r)
}

#[tokio::test]
async fn a_try_plays_in_the_priority_lane_shows_its_replay_and_log_and_never_reaches_a_board() {
    let s = site("garage-try");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    // Ladder work queued first: the try is still taken before it.
    let r = ann.upload(&s.app, "blade", "old", "old.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = ann
        .post(&s.app, "/garage/blade/try", &[("code", GOOD), ("lang", "lua"), ("opponent", "greedy")])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let mut queue = cardarena::tournament::queue::open(&format!("sqlite:{}", s.db.path().display())).unwrap();
    let first = queue
        .claim(
            "w",
            std::time::Duration::from_secs(60),
            &cardarena::tournament::queue::arena_version(),
            Some("ladder"),
        )
        .unwrap()
        .unwrap();
    let t = Store::garage_try(&*s.db, 1).unwrap().unwrap();
    assert_eq!(first.key, t.key, "the try is claimed before the older validation");
    queue.fail(first.id, "w", "given back").unwrap();
    drop(queue);

    let at = r.headers[header::LOCATION].to_str().unwrap().to_string();
    run_jobs(&s);
    let r = ann.get(&s.app, &at).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("id=\"outcome\"") && r.body.contains("id=\"no-faults\""), "{}", r.body);
    assert!(between(&r.body, "<pre id=\"log\">", "</pre>").unwrap().contains("deciding"), "{}", r.body);
    assert!(
        r.body.contains("/static/viewer.css") && r.body.contains(&format!("{at}/replay.json")),
        "{}",
        r.body
    );
    let json = ann.get(&s.app, &format!("{at}/replay.json")).await;
    assert_eq!(json.status, StatusCode::OK);
    let replay: cardarena::play::runner::Replay = serde_json::from_str(&json.body).unwrap();
    assert!(
        replay.bots.iter().any(|b| b.name == "greedy") && replay.bots.iter().any(|b| b.name == "draft.lua")
    );

    // Private: another player gets 404 for it; the teacher reads it.
    let mut bob = player(&s, &mut admin, "bob").await;
    assert_eq!(bob.get(&s.app, &at).await.status, StatusCode::NOT_FOUND);
    assert_eq!(bob.get(&s.app, &format!("{at}/replay.json")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(admin.get(&s.app, &at).await.status, StatusCode::OK);
    // Never on a board: no ladder match, nothing pending.
    let matches: i64 = s.db.raw(|c| c.query_row("SELECT count(*) FROM matches", [], |r| r.get(0))).unwrap();
    assert_eq!(matches, 0);
    assert!(s.db.pending().unwrap().is_empty());
    let r = ann.get(&s.app, "/garage/blade").await;
    assert!(r.body.contains(&format!("href=\"{at}\"")), "{}", r.body);
    assert!(r.body.contains("<script src=\"/static/garage.js\" defer></script>"), "{}", r.body);
    assert!(r.body.contains("<span id=\"autosave\"></span>"), "{}", r.body);
    let js = ann.get(&s.app, "/static/garage.js").await;
    assert_eq!(js.status, StatusCode::OK);
    assert!(js.body.contains("setInterval(save, 3000)"), "{}", js.body);
}

#[tokio::test]
async fn a_tries_analysis_is_made_once_on_request_and_drawn_as_the_viewers_strip() {
    let s = site("garage-analysis");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    // Asked for before the try is played: refused, nothing kept.
    let r = ann
        .post(&s.app, "/garage/blade/try", &[("code", GOOD), ("lang", "lua"), ("opponent", "greedy")])
        .await;
    let at = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let early = ann.post(&s.app, &format!("{at}/analyse"), &[]).await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", early.body);
    assert!(early.body.contains("the try has not been played yet"), "{}", early.body);
    run_jobs(&s);
    let r = ann.get(&s.app, &at).await;
    assert!(r.body.contains(&format!("action=\"{at}/analyse\"")) && r.body.contains("id=\"analyse-try\""));
    assert!(!r.body.contains("\"total_loss\""), "no analysis in the viewer before it is made");
    // The teacher reads the try but does not analyse it for the student.
    let r = admin.post(&s.app, &format!("{at}/analyse"), &[]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = admin.get(&s.app, &at).await;
    assert!(!r.body.contains("id=\"analyse-try\""), "{}", r.body);

    let r = ann.post(&s.app, &format!("{at}/analyse"), &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.headers[header::LOCATION].to_str().unwrap(), format!("{at}#replay"));
    let id: i64 = at.rsplit('/').next().unwrap().parse().unwrap();
    let kept = Store::garage_analysis(&*s.db, id).unwrap().expect("the analysis is kept");
    let analysis: cardarena::analyse::Analysis = serde_json::from_str(&kept).unwrap();
    let t = Store::garage_try(&*s.db, id).unwrap().unwrap();
    assert_eq!(analysis.seat, t.seat as usize, "the draft's seat is analysed");
    let r = ann.get(&s.app, &at).await;
    assert!(r.body.contains("class=\"analysis-shown\"") && r.body.contains("\"total_loss\""), "{}", r.body);
    // Asked again: the kept one is served, not made again.
    Store::save_garage_analysis(&*s.db, id, "not json").unwrap();
    let r = ann.post(&s.app, &format!("{at}/analyse"), &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(Store::garage_analysis(&*s.db, id).unwrap().unwrap(), kept);
}

#[tokio::test]
async fn a_crash_names_its_line_and_a_typod_field_gets_the_did_you_mean_of_check() {
    let s = site("garage-crash");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let typo = "function act(obs)\n  local n = #obs.legl\n  return obs.legal[n]\nend\n";
    let (_, r) = try_played(&s, &mut ann, typo).await;
    assert!(r.body.contains("<b>crash</b> at line <span class=\"verdict-line\">2</span>"), "{}", r.body);
    assert!(r.body.contains("did you mean `legal`?"), "{}", r.body);
    assert!(r.body.contains("<span class=\"here\">   2    local n = #obs.legl</span>"), "{}", r.body);
}

#[tokio::test]
async fn publish_makes_a_version_as_an_upload_does_and_identical_content_is_409() {
    let s = site("garage-publish");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let fields = [("code", GOOD), ("lang", "lua"), ("name", "garaged"), ("opponent", "greedy")];
    let r = ann.post(&s.app, "/garage/blade/publish", &fields).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let bot = s.db.bot_named("blade", "garaged").unwrap().unwrap();
    assert_eq!(page, format!("/bots/{}", bot.id));
    let versions = s.db.versions(bot.id).unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].lang, "lua");
    assert_eq!(s.db.file(&versions[0].hash).unwrap().unwrap(), GOOD.as_bytes());
    assert_eq!(pending_validations(&s), 1, "validated as an upload is");
    // The bot page links back to the draft.
    let r = ann.get(&s.app, &page).await;
    assert!(r.body.contains("href=\"/garage/blade\" id=\"garage-link\""), "{}", r.body);
    // The same bytes again: 409, the garage page with the reason.
    let r = ann.post(&s.app, "/garage/blade/publish", &fields).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("not published: this file is identical to"), "{}", r.body);
    assert_eq!(s.db.versions(bot.id).unwrap().len(), 1);
    run_jobs(&s);
    assert_eq!(s.db.players("blade").unwrap().len(), 1, "ready after its validation, it plays on the board");
}

#[tokio::test]
async fn check_reports_the_score_against_random_and_greedy_with_its_interval_and_the_first_fault() {
    let s = site("garage-check");
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let r = ann.post(&s.app, "/garage/blade/check", &[("code", GOOD), ("lang", "lua")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let at = r.headers[header::LOCATION].to_str().unwrap().to_string();
    let r = ann.get(&s.app, &at).await;
    assert!(r.body.contains("id=\"waiting\"") && r.body.contains("0 of 40 matches played"), "{}", r.body);
    run_jobs(&s);
    let r = ann.get(&s.app, &at).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let table = between(&r.body, "<table id=\"check\">", "</table>").unwrap();
    for opponent in ["random", "greedy", "all"] {
        assert!(table.contains(&format!("<tr><td>{opponent}</td><td>")), "{table}");
    }
    assert!(table.contains("<td>40</td>") && table.contains(" (0."), "{table}");
    assert!(r.body.contains("verdicts: no faults in 40 matches"), "{}", r.body);
    assert!(
        between(&r.body, "<p id=\"fuel\">", "</p>").unwrap().starts_with("fuel per decision: mean "),
        "{}",
        r.body
    );
    // The workers measured the draft's memory, as `arena check` does.
    let memory = between(&r.body, "<p id=\"memory\">", "</p>").unwrap();
    assert!(memory.starts_with("memory peak: ") && memory.contains(" KiB of 64.0 MiB ("), "{memory}");

    // A bot that faults now and then: the first fault with its line.
    let flaky = "local n = 0\nfunction act(obs)\n  n = n + 1\n  if n == 3 then error(\"third\") end\n  return obs.legal[1]\nend\n";
    let r = ann.post(&s.app, "/garage/blade/check", &[("code", flaky), ("lang", "lua")]).await;
    let at = r.headers[header::LOCATION].to_str().unwrap().to_string();
    run_jobs(&s);
    let r = ann.get(&s.app, &at).await;
    assert!(
        r.body.contains("first fault: <b>crash</b> at line <span class=\"verdict-line\">4</span>"),
        "{}",
        r.body
    );
    assert!(s.db.pending().unwrap().is_empty(), "a check never reaches a board");
}

/// Plays the queue on `threads` worker threads (as `arena worker` processes would) until
/// `stop` is set.
fn workers(
    s: &Site,
    threads: usize,
    stop: &Arc<std::sync::atomic::AtomicBool>,
) -> Vec<std::thread::JoinHandle<()>> {
    (0..threads)
        .map(|k| {
            let mut queue =
                cardarena::tournament::queue::open(&format!("sqlite:{}", s.db.path().display())).unwrap();
            let mut opts = WorkerOptions::new(&format!("bench-{k}"), Arc::new(cardarena::Games::builtin()));
            opts.poll = std::time::Duration::from_millis(20);
            let stop = stop.clone();
            std::thread::spawn(move || worker::run(queue.as_mut(), &opts, None, &stop).map(drop).unwrap())
        })
        .collect()
}

/// Whether every job of `keys` is done.
fn all_done(s: &Site, keys: &[String]) -> bool {
    s.jobs.with_queue(|q| q.results(keys).unwrap().len() == keys.len())
}

/// 30 accounts of one class press "try" together while the workers have a backlog of ladder
/// matches: how long each press takes to answer, how long until every try is played, and how
/// much later the ladder's backlog is done than without the tries. Numbers for BENCHMARKS.md:
/// `cargo test -p cardarena-ladder --lib thirty -- --ignored --nocapture` (BENCHMARKS.md, "The
/// garage: 30 tries at once").
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a measurement, not a test: run it by hand"]
async fn thirty_tries_at_once_against_a_ladder_backlog() {
    use std::time::Instant;
    let threads = 2;
    let sets = 60u64;
    let s = site("garage-bench");
    let mut admin = admin(&s).await;
    let mut owner = player(&s, &mut admin, "owner").await;
    for (k, file) in ["blade_greedy.lua", "blade_random.lua", "blade_montecarlo.lua"].iter().enumerate() {
        let r = owner.upload(&s.app, "blade", &format!("b{k}"), file, &lua(file), true).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    }
    run_jobs(&s);
    let versions: Vec<i64> = s.db.players("blade").unwrap().iter().map(|(_, v)| v.id).collect();
    let variant = s.config.boards[0].variant.clone();
    let backlog = |from: u64| -> Vec<String> {
        let jobs: Vec<crate::Job> = (from..from + sets)
            .map(|seed| crate::Job::Play {
                game: "blade".into(),
                variant: variant.clone(),
                seed,
                tick: 1,
                versions: vec![versions[(seed % 3) as usize], versions[((seed + 1) % 3) as usize]],
            })
            .collect();
        s.ladder.enqueue(&jobs).unwrap();
        s.db.pending().unwrap().into_iter().map(|p| p.key).collect()
    };
    let wait = |keys: &[String]| {
        let t = Instant::now();
        while !all_done(&s, keys) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        t.elapsed()
    };

    // Without tries.
    let keys = backlog(1000);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let t0 = Instant::now();
    let w = workers(&s, threads, &stop);
    wait(&keys);
    let base = t0.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    w.into_iter().for_each(|t| t.join().unwrap());
    s.jobs.collect(&*s.db).unwrap();

    // With 30 tries pressed together, a moment after the workers started on the backlog.
    let mut class = Vec::new();
    for k in 0..30 {
        class.push(player(&s, &mut admin, &format!("student{k}")).await);
    }
    for b in &mut class {
        b.get(&s.app, "/garage/blade").await;
    }
    let keys = backlog(2000);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let t0 = Instant::now();
    let w = workers(&s, threads, &stop);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let pressed = Instant::now();
    let mut answers = tokio::task::JoinSet::new();
    for (k, mut b) in class.into_iter().enumerate() {
        let app = s.app.clone();
        let code = format!("-- student {k}\n{GOOD}");
        answers.spawn(async move {
            let t = Instant::now();
            let r = b
                .post(&app, "/garage/blade/try", &[("code", &code), ("lang", "lua"), ("opponent", "greedy")])
                .await;
            assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
            t.elapsed()
        });
    }
    let mut answer_times = Vec::new();
    while let Some(t) = answers.join_next().await {
        answer_times.push(t.unwrap());
    }
    let answered = pressed.elapsed();
    let tries: Vec<String> = (1..=30).map(|id| Store::garage_try(&*s.db, id).unwrap().unwrap().key).collect();
    let tries_done = {
        while !all_done(&s, &tries) {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        pressed.elapsed()
    };
    while !all_done(&s, &keys) {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let with = t0.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    w.into_iter().for_each(|t| t.join().unwrap());
    answer_times.sort();
    println!(
        "garage: {} ladder matches on {threads} workers: {:.2} s alone, {:.2} s with 30 tries (+{:.2} s); \
         30 tries pressed together: answered in {:.2} s (slowest press {:.0} ms, median {:.0} ms), all played {:.2} s after the press",
        keys.len(),
        base.as_secs_f64(),
        with.as_secs_f64(),
        with.as_secs_f64() - base.as_secs_f64(),
        answered.as_secs_f64(),
        answer_times.last().unwrap().as_secs_f64() * 1000.0,
        answer_times[15].as_secs_f64() * 1000.0,
        tries_done.as_secs_f64(),
    );
}

#[tokio::test]
async fn tries_are_limited_per_account_and_for_the_whole_class() {
    let text = "[[board]]\ngame = \"blade\"\n[garage]\nper_minute = 2\nclass_per_minute = 3\n";
    let s = site_with("garage-rate", config::parse(text, Path::new("ladder.toml")).unwrap());
    let mut admin = admin(&s).await;
    let mut ann = player(&s, &mut admin, "ann").await;
    let mut bob = player(&s, &mut admin, "bob").await;
    // (A draft that does not load is answered at once: a try all the same.)
    let broken = [("code", "function act("), ("lang", "lua"), ("opponent", "greedy")];
    for _ in 0..2 {
        assert_eq!(
            ann.post(&s.app, "/garage/blade/try", &broken).await.status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    let r = ann.post(&s.app, "/garage/blade/check", &broken).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(
        r.body.contains("[garage] per_minute") && r.headers.contains_key(header::RETRY_AFTER),
        "{}",
        r.body
    );
    // Saving is no try.
    let r = ann.post(&s.app, "/garage/blade/save", &broken).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // The class had three: ann's two and bob's first.
    assert_eq!(bob.post(&s.app, "/garage/blade/try", &broken).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = bob.post(&s.app, "/garage/blade/try", &broken).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.body.contains("[garage] class_per_minute"), "{}", r.body);

    let e =
        config::parse("[garage]\nclass_per_minute = 0\n", Path::new("ladder.toml")).unwrap_err().to_string();
    assert!(
        e.starts_with("ladder.toml:2:") && e.contains("[garage] `class_per_minute` must be at least 1"),
        "{e}"
    );
}
