//! Class mode through the router: an admin creates an event, the deadline passes (the tick is
//! given the time), the newest ready versions are frozen, the grade's matches run on a worker
//! and the results page and CSV are what `cardarena::tournament::grade` gives for the same
//! matches played through the library façade.

use super::*;
use crate::class;
use cardarena::games::blade::Blade;
use cardarena::play::registry::{self, Loader};
use cardarena::play::runner::BotEntry;
use cardarena::play::Match;
use cardarena::tournament::grade::{self, GradeRow, GradeSetup, Played};

/// `YYYY-MM-DDTHH:MM` of `t` seconds since 1970 (UTC), as a browser's datetime-local sends it.
fn form_time(t: i64) -> String {
    let days = t.div_euclid(86_400);
    // the server's own calendar, as it reads the field back
    let (y, m, d) = crate::time::civil_from_days(days);
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}", s / 3600, (s % 3600) / 60)
}

/// The event page's state line.
async fn state_of(b: &mut Browser, s: &Site, id: i64) -> String {
    let r = b.get(&s.app, &format!("/class/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    between(&r.body, "<p id=\"state\" class=\"notice\">", "</p>").unwrap().trim().to_string()
}

/// Creates an event (deadline in an hour, whole minutes) and returns its id and deadline.
async fn create_event(s: &Site, teacher: &mut Browser, deals: &str, against: &str) -> (i64, i64) {
    let deadline = (crate::db::now() / 60 + 61) * 60;
    teacher.get(&s.app, "/admin/class").await;
    let r = teacher
        .post(
            &s.app,
            "/admin/class",
            &[
                ("name", "Week 1"),
                ("board", "blade readme"),
                ("deals", deals),
                ("against", against),
                ("deadline", &form_time(deadline)),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let to = r.headers.get(header::LOCATION).unwrap().to_str().unwrap();
    (to.strip_prefix("/class/").unwrap().parse().unwrap(), deadline)
}

#[tokio::test]
async fn only_an_admin_creates_events_and_bad_forms_are_refused() {
    let s = site("class-admin");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    // A player: refused, page and form alike.
    assert_eq!(alice.get(&s.app, "/admin/class").await.status, StatusCode::FORBIDDEN);
    let fields = [
        ("name", "mine"),
        ("board", "blade readme"),
        ("deals", "2"),
        ("against", "random"),
        ("deadline", "2999-01-01T00:00"),
    ];
    assert_eq!(alice.post(&s.app, "/admin/class", &fields).await.status, StatusCode::FORBIDDEN);
    // Nobody signed in, and an admin without the CSRF token: refused too.
    assert_eq!(
        Browser::default().post(&s.app, "/admin/class", &fields).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(teacher.post_raw(&s.app, "/admin/class", &fields).await.status, StatusCode::FORBIDDEN);
    assert!(s.db.class_events().unwrap().is_empty());
    // Bad fields: 422 with what is wrong.
    let past = form_time(crate::db::now() - 3600);
    for (field, value, says) in [
        ("name", "", "name the event"),
        ("board", "blade nope", "not a board of this ladder"),
        ("board", "chess readme", "not a board of this ladder"),
        ("deals", "0", "deals must be a whole number from 1 to 1000"),
        ("deals", "many", "deals must be a whole number"),
        ("against", "random,shark", "\"shark\" is not a built-in bot of blade"),
        ("against", " ", "name at least one reference bot"),
        ("deadline", "next friday", "the deadline must be a date and time"),
        ("deadline", &past, "has passed already"),
    ] {
        let mut f = fields.to_vec();
        f.retain(|(k, _)| *k != field);
        f.push((field, value));
        teacher.get(&s.app, "/admin/class").await;
        let r = teacher.post(&s.app, "/admin/class", &f).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}={value}: {}", r.body);
        assert!(
            between(&r.body, "<p class=\"error\">", "</p>").unwrap().contains(says),
            "{field}: {}",
            r.body
        );
    }
    assert!(s.db.class_events().unwrap().is_empty());
    let (id, deadline) = create_event(&s, &mut teacher, "2", "random").await;
    let e = s.db.class_event(id).unwrap().unwrap();
    assert_eq!((e.state.as_str(), e.deadline, e.deals), ("open", deadline, 2));
    assert!(state_of(&mut alice, &s, id).await.starts_with("Open"));
    // The seed follows from the ladder's seed and the event: the same on every server.
    assert_eq!(e.seed, cardarena::games::rng::derive_seed(&[s.config.seed, id as u64]));
    let list = Browser::default().get(&s.app, "/class").await;
    assert!(list.body.contains("Week 1") && list.body.contains(&format!("/class/{id}")), "{}", list.body);
    assert_eq!(Browser::default().get(&s.app, "/class/99").await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        Browser::default().get(&s.app, &format!("/class/{id}/grades.csv")).await.status,
        StatusCode::CONFLICT
    );
}

/// Plays `plans` through the library façade (the bots from `dir`, named by file, as `arena
/// grade` names them) and grades them with the library's function.
fn graded_locally(
    setup: &GradeSetup,
    dir: &Path,
    files: &[(String, String)],
    limits: &cardarena::play::limits::LimitsConfig,
) -> String {
    let loader = Loader::new();
    let mut sources = Vec::new();
    let mut entries = Vec::new();
    for (file, _) in files {
        sources.push(loader.resolve::<Blade>(dir.join(file).to_str().unwrap()).unwrap());
        entries.push(BotEntry { name: file.clone(), hash: sources.last().unwrap().entry().hash });
    }
    for r in &setup.against {
        sources.push(loader.resolve::<Blade>(r).unwrap());
        entries.push(BotEntry { name: r.clone(), hash: cardarena::bots::bot::builtin_hash(r) });
    }
    let variant = registry::variant::<Blade>(Some(&setup.variant)).unwrap();
    let (plans, against_refs) = setup.plans(files.len());
    let played: Vec<Played> = plans
        .iter()
        .map(|p| {
            let replay = p
                .seats
                .iter()
                .fold(Match::<Blade>::new(variant, p.seed), |m, &e| {
                    m.seat_with(entries[e].clone(), &sources[e], sources[e].limits(limits).as_ref())
                })
                .play();
            Played::of(p, &replay, Vec::new(), Vec::new())
        })
        .collect();
    let rows: Vec<GradeRow> = files.iter().map(|(f, h)| GradeRow::new(f.clone(), h.clone(), None)).collect();
    let row_entrant: Vec<Option<usize>> = (0..files.len()).map(Some).collect();
    let grades = grade::grade(setup, rows, &row_entrant, &entries, &played, against_refs, "");
    grade::grade_csv(&grades.rows, &setup.against, true)
}

#[tokio::test]
async fn at_the_deadline_the_newest_ready_versions_are_frozen_and_graded() {
    let s = site("class-run");
    let mut teacher = admin(&s).await;
    let wasm = std::fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("example_bots/wasm/blade_rust.wasm"),
    )
    .unwrap();
    let mut players = Vec::new();
    for (who, bot, file, bytes) in [
        ("alice", "greedy", "a.lua", lua("blade_greedy.lua")),
        ("bob", "rando", "b.lua", lua("blade_random.lua")),
        ("carol", "rusty", "c.wasm", wasm),
    ] {
        let mut p = player(&s, &mut teacher, who).await;
        p.get(&s.app, "/upload").await;
        let r = p.upload(&s.app, "blade", bot, file, &bytes, true).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        players.push(p);
    }
    // bob's second version fails validation: his first, ready one is graded.
    players[1].get(&s.app, "/upload").await;
    let r = players[1].upload(&s.app, "blade", "rando", "b.lua", &hostile("lua_missing_act.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let (id, deadline) = create_event(&s, &mut teacher, "2", "random,greedy").await;
    // Before the deadline, and while uploads of before it are being validated: nothing moves.
    assert_eq!(class::tick(&s.ladder, deadline - 1).unwrap(), 0);
    assert_eq!(class::tick(&s.ladder, deadline).unwrap(), 0, "validations are pending");
    assert_eq!(s.db.class_event(id).unwrap().unwrap().state, "open");
    run_jobs(&s);
    assert_eq!(class::tick(&s.ladder, deadline).unwrap(), 1);

    // Frozen: the newest ready version of each bot, by file name, with its hash.
    let e = s.db.class_event(id).unwrap().unwrap();
    assert_eq!(e.state, "running");
    let entries = s.db.class_entries(id).unwrap();
    let files: Vec<&str> = entries.iter().map(|e| e.file.as_str()).collect();
    assert_eq!(files, ["greedy@v1.lua", "rando@v1.lua", "rusty@v1.wasm"]);
    for entry in &entries {
        let v = s.db.version(entry.version).unwrap().unwrap();
        assert_eq!((v.state.as_str(), &v.hash), ("ready", &entry.hash));
        assert_eq!(cardarena::bots::bot::content_hash(&s.db.file(&v.hash).unwrap().unwrap()), entry.hash);
    }
    let page = teacher.get(&s.app, &format!("/class/{id}")).await;
    assert!(
        page.body.contains("Frozen at the deadline; 0 of ") && page.body.contains(&entries[2].hash),
        "{}",
        page.body
    );
    // Queued: 3 bots × 2 references × 2 deals × 2 seatings, and 3 pairs × 2 deals × 2 seatings.
    let keys = s.db.class_match_keys(id).unwrap();
    assert_eq!(keys.len(), 24 + 12);

    // A late upload (after the freeze) changes nothing.
    players[0].get(&s.app, "/upload").await;
    let late = format!("-- v2, late\n{}", String::from_utf8(lua("blade_greedy.lua")).unwrap());
    let r = players[0].upload(&s.app, "blade", "greedy", "a.lua", late.as_bytes(), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);

    // A restarted server (a new state on the same database and queue) carries on.
    let db = Arc::new(SqliteStore::open(&db_path(&s)).unwrap());
    let queue = cardarena::tournament::queue::open(&format!("sqlite:{}", db_path(&s).display())).unwrap();
    let restarted = Ladder::new(
        db.clone(),
        s.config.clone(),
        Arc::new(Jobs::new(queue, s.config.clone())),
        "http://ladder.test",
    );
    let app = router(restarted.clone());
    // The worker plays the class's matches (and the late version's validation).
    run_jobs(&s);
    assert_eq!(class::tick(&restarted, deadline + 600).unwrap(), 1);
    let e = db.class_event(id).unwrap().unwrap();
    assert_eq!((e.state.as_str(), e.done), ("done", 36), "{}", e.message);
    assert_eq!(
        db.class_entries(id).unwrap().iter().map(|e| e.version).collect::<Vec<_>>(),
        entries.iter().map(|e| e.version).collect::<Vec<_>>()
    );

    let mut visitor = Browser::default();
    let page = visitor.get(&app, &format!("/class/{id}")).await;
    assert!(
        page.body.contains("Graded: 36 matches") && page.body.contains("id=\"results\""),
        "{}",
        page.body
    );
    for (f, owner) in [("greedy@v1.lua", "alice"), ("rando@v1.lua", "bob"), ("rusty@v1.wasm", "carol")] {
        assert!(page.body.contains(&format!("<td>{f}</td><td>{owner}</td>")), "{f}: {}", page.body);
    }
    assert!(page.body.contains("reference greedy: rating"), "{}", page.body);
    let r = visitor.get(&app, &format!("/class/{id}/grades.csv")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers.get(header::CONTENT_TYPE).unwrap(), "text/csv; charset=utf-8");
    let csv = r.body;
    assert!(csv.starts_with("file,hash,status,matches,points,wins,draws,losses,score,"), "{csv}");
    assert!(csv.lines().next().unwrap().ends_with(",vs_random_wins,vs_random_draws,vs_random_losses,vs_greedy_wins,vs_greedy_draws,vs_greedy_losses,first_fault_verdict,first_fault_decision,first_fault_message,replay_command,first_fault_capsule,same_hash_as,same_replies_as,mostly_same_replies_as,rr_matches,rr_wins,rr_draws,rr_losses,rr_score,rr_score_low,rr_score_high"), "{csv}");
    assert_eq!(csv.lines().count(), 4, "{csv}");

    // The same CSV as the library's grade of the same bots and deals played through the façade.
    let dir = tempdir::Dir::new("class-files");
    let mut files = Vec::new();
    for entry in &entries {
        std::fs::write(dir.path().join(&entry.file), db.file(&entry.hash).unwrap().unwrap()).unwrap();
        files.push((entry.file.clone(), entry.hash.clone()));
    }
    let setup = GradeSetup {
        game: cardarena::GameId::of::<cardarena::games::blade::Blade>(),
        variant: "readme".into(),
        players: 2,
        against: vec!["random".into(), "greedy".into()],
        deals: 2,
        seed: e.seed,
        round_robin: true,
    };
    assert_eq!(csv, graded_locally(&setup, dir.path(), &files, &s.config.limits));
    // More ticks and more uploads do not change a graded event.
    assert_eq!(class::tick(&restarted, deadline + 1200).unwrap(), 0);
    assert_eq!(visitor.get(&app, &format!("/class/{id}/grades.csv")).await.body, csv);
}

#[tokio::test]
async fn an_event_with_fewer_than_two_ready_bots_ends_with_a_message() {
    let s = site("class-few");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    alice.get(&s.app, "/upload").await;
    let r = alice.upload(&s.app, "blade", "solo", "a.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    run_jobs(&s);
    let (id, deadline) = create_event(&s, &mut teacher, "1", "random").await;
    assert_eq!(class::tick(&s.ladder, deadline + 1).unwrap(), 1);
    let e = s.db.class_event(id).unwrap().unwrap();
    assert_eq!(e.state, "ended");
    let state = state_of(&mut alice, &s, id).await;
    assert!(
        state.contains(
            "only 1 bot(s) of blade had a ready version at the deadline; a class event needs at least 2"
        ),
        "{state}"
    );
    assert!(s.db.class_match_keys(id).unwrap().is_empty());
    assert_eq!(alice.get(&s.app, &format!("/class/{id}/grades.csv")).await.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn an_upload_after_the_deadline_is_not_frozen_and_a_failed_match_ends_the_event() {
    let s = site("class-late");
    let mut teacher = admin(&s).await;
    let mut players = Vec::new();
    for (who, bot, file) in [("alice", "greedy", "blade_greedy.lua"), ("bob", "rando", "blade_random.lua")] {
        let mut p = player(&s, &mut teacher, who).await;
        p.get(&s.app, "/upload").await;
        let r = p.upload(&s.app, "blade", bot, "a.lua", &lua(file), true).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        players.push(p);
    }
    let (id, deadline) = create_event(&s, &mut teacher, "1", "random").await;
    // alice's v2 arrives after the deadline, before the server's tick saw it pass.
    players[0].get(&s.app, "/upload").await;
    let v2 = format!("-- v2\n{}", String::from_utf8(lua("blade_greedy.lua")).unwrap());
    let r = players[0].upload(&s.app, "blade", "greedy", "a.lua", v2.as_bytes(), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let bot = s.db.bot_named("blade", "greedy").unwrap().unwrap();
    let newest = s.db.versions(bot.id).unwrap().remove(0);
    s.db.raw(|c| {
        c.execute(
            "UPDATE versions SET created = ?1 WHERE id = ?2",
            rusqlite::params![deadline + 5, newest.id],
        )
    })
    .unwrap();
    run_jobs(&s);
    assert_eq!(s.db.versions(bot.id).unwrap()[0].state, "ready");
    assert_eq!(class::tick(&s.ladder, deadline + 10).unwrap(), 1);
    let files: Vec<String> = s.db.class_entries(id).unwrap().into_iter().map(|e| e.file).collect();
    assert_eq!(files, ["greedy@v1.lua", "rando@v1.lua"]);

    // A match the workers cannot play (its attempts used up) ends the event with the error.
    let mut q = cardarena::tournament::queue::open(&format!("sqlite:{}", db_path(&s).display())).unwrap();
    let version = cardarena::tournament::queue::arena_version();
    let lease = std::time::Duration::from_secs(60);
    for _ in 0..3 {
        let job = q.claim("broken-worker", lease, &version, None).unwrap().expect("a queued match");
        q.fail(job.id, "broken-worker", "the disk is on fire").unwrap();
    }
    assert_eq!(class::tick(&s.ladder, deadline + 20).unwrap(), 1);
    let e = s.db.class_event(id).unwrap().unwrap();
    assert_eq!(e.state, "ended");
    assert!(
        e.message.contains("could not be played by the workers") && e.message.contains("the disk is on fire"),
        "{}",
        e.message
    );
    let page = Browser::default().get(&s.app, &format!("/class/{id}")).await;
    assert!(
        page.body.contains("Ended without grades") && page.body.contains("the disk is on fire"),
        "{}",
        page.body
    );
}
