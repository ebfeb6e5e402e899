//! Every `Store` method, the same on each backend: SQLite always, PostgreSQL (feature
//! `postgres`) on a throwaway cluster started by the test.

use super::tempdir::Dir;
use crate::db::class::{Frozen, NewEvent};
use crate::db::play::NewPlayGame;
use crate::db::{Db, Pending, SqliteStore, Taken, UploadRefused};

fn pending(key: &str, version: Option<i64>, seats: &[i64], tick: i64) -> Pending {
    Pending {
        key: key.into(),
        version,
        game: "blade".into(),
        variant: "standard".into(),
        seed: u64::MAX - 7,
        seats: seats.to_vec(),
        tick,
    }
}

/// Accounts, tokens, sessions, uploads, the queue's bookkeeping, matches, play in the browser
/// and class mode on `db`, a fresh store.
fn store_behaves(db: &Db) {
    // Accounts: the first admin's invite, unique names by name_key, sign-in by any form.
    let invite = db.first_admin_invite().unwrap().expect("no user yet: an invite");
    let admin = db.register("alice", "h1", Some(&invite)).unwrap().expect("the invite is valid");
    assert!(admin.admin && !admin.disabled);
    assert!(db.register("bob", "h", Some(&invite)).unwrap().is_none(), "an invite is used once");
    assert!(db.first_admin_invite().unwrap().is_none(), "a user exists");
    for taken in ["alice", "ALICE", "ａｌｉｃｅ"] {
        assert!(db.register(taken, "h", None).unwrap().is_none(), "{taken} is alice's name");
    }
    let bob = db.register("bob", "h2", None).unwrap().unwrap();
    assert!(!bob.admin);
    let code = db.create_invite(admin.id, true).unwrap();
    let carol = db.register("carol", "h3", Some(&code)).unwrap().unwrap();
    assert!(carol.admin);
    let (found, hash) = db.login_row("ＡＬＩＣＥ").unwrap().unwrap();
    assert_eq!((found.id, hash.as_str()), (admin.id, "h1"));
    assert!(db.login_row("nobody").unwrap().is_none());
    let names: Vec<String> = db.users().unwrap().into_iter().map(|u| u.name).collect();
    assert_eq!(names, ["alice", "bob", "carol"]);
    assert_eq!(db.user(bob.id).unwrap().unwrap().name, "bob");
    assert_eq!(db.password_hash(bob.id).unwrap().as_deref(), Some("h2"));

    // Tokens: newest first, revoked only by their owner, stored hashed.
    let t1 = db.create_token(bob.id, "laptop").unwrap();
    let t2 = db.create_token(bob.id, "ci").unwrap();
    let listed = db.tokens(bob.id).unwrap();
    assert_eq!(listed.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(), ["ci", "laptop"]);
    assert_eq!(db.token_user(&t1).unwrap().unwrap().id, bob.id);
    assert!(!db.revoke_token(admin.id, listed[1].id).unwrap(), "not alice's token");
    assert!(db.revoke_token(bob.id, listed[1].id).unwrap());
    assert!(db.token_user(&t1).unwrap().is_none());
    assert_eq!(db.token_user(&t2).unwrap().unwrap().id, bob.id);

    // Sessions: kept until their expiry; ending a user's sessions drops theirs only.
    let far = crate::db::now() + 3600;
    let record = |user: i64| format!(r#"{{"id":"x","data":{{"user":{user}}},"expiry_date":"x"}}"#);
    db.save_session("s-bob", &record(bob.id), far).unwrap();
    db.save_session("s-bob", &record(bob.id), far + 1).unwrap();
    db.save_session("s-carol", &record(carol.id), far).unwrap();
    db.save_session("s-old", &record(carol.id), 1).unwrap();
    assert_eq!(db.load_session("s-bob").unwrap(), Some(record(bob.id)));
    assert!(db.load_session("s-old").unwrap().is_none(), "expired");
    assert_eq!(db.user_epoch(bob.id).unwrap().unwrap().1, 0);
    assert_eq!(db.set_password(bob.id, "h4").unwrap(), 1, "a new password ends the sessions");
    assert!(db.load_session("s-bob").unwrap().is_none());
    assert!(db.load_session("s-carol").unwrap().is_some());
    db.delete_session("s-carol").unwrap();
    assert!(db.load_session("s-carol").unwrap().is_none());
    assert!(db.set_user_disabled(carol.id, true).unwrap());
    assert_eq!(db.user_epoch(carol.id).unwrap().unwrap().1, 1);
    assert!(db.set_user_disabled(carol.id, false).unwrap());
    assert!(!db.set_user_disabled(9999, true).unwrap());

    // Uploads: versions numbered per bot, identical bytes and others' names refused.
    let (dice, v1) = db.upload(bob.id, "blade", "dice", "lua", b"one").unwrap();
    assert_eq!((v1.number, v1.state.as_str(), v1.verdicts.as_str()), (1, "pending", "[]"));
    let (same, v2) = db.upload(bob.id, "blade", "DICE", "lua", b"two").unwrap();
    assert_eq!((same.id, same.name.as_str(), v2.number), (dice.id, "dice", 2));
    assert!(
        matches!(db.upload(bob.id, "blade", "other", "lua", b"one"), Err(UploadRefused::Identical(w)) if w == "dice v1")
    );
    assert!(matches!(
        db.upload(admin.id, "blade", "Dice", "lua", b"three"),
        Err(UploadRefused::NameTaken(..))
    ));
    let (other_game, _) = db.upload(admin.id, "hearts", "dice", "lua", b"one").unwrap();
    assert_ne!(other_game.id, dice.id, "names are unique per game");
    let (rival, r1) = db.upload(admin.id, "blade", "rival", "wasm", b"\0asm").unwrap();
    assert_eq!(db.file(&v1.hash).unwrap().as_deref(), Some(&b"one"[..]));
    assert!(db.file("nope").unwrap().is_none());
    assert_eq!(db.versions(dice.id).unwrap().iter().map(|v| v.number).collect::<Vec<_>>(), [2, 1]);
    assert_eq!(db.bot_named("blade", "dice").unwrap().unwrap().owner_name, "bob");
    assert_eq!(db.bots().unwrap().len(), 3);
    // Players: the newest version of each enabled bot, when ready.
    db.set_validation(v1.id, true, "[1]").unwrap();
    db.set_validation(r1.id, true, "[]").unwrap();
    assert_eq!(db.players("blade").unwrap().len(), 1, "dice's newest version is not validated");
    db.set_validation(v2.id, true, "[]").unwrap();
    let players = db.players("blade").unwrap();
    assert_eq!(
        players.iter().map(|(b, v)| (b.id, v.id)).collect::<Vec<_>>(),
        [(dice.id, v2.id), (rival.id, r1.id)]
    );
    assert_eq!(db.version(v1.id).unwrap().unwrap().verdicts, "[1]");
    assert!(db.set_bot_published(dice.id, true).unwrap());
    assert!(db.bot(dice.id).unwrap().unwrap().published);
    assert!(db.set_bot_disabled(rival.id, true).unwrap());
    assert_eq!(db.players("blade").unwrap().len(), 1);
    assert!(matches!(db.upload(admin.id, "blade", "rival", "lua", b"four"), Err(UploadRefused::Disabled(_))));
    db.set_bot_disabled(rival.id, false).unwrap();

    // The ladder's record of queued jobs, and matches taken in once.
    let jobs = [pending("k2", None, &[v2.id, r1.id], 1), pending("k1", Some(v1.id), &[v1.id], 0)];
    db.add_pending(&jobs).unwrap();
    db.add_pending(&[pending("k2", None, &[1, 2, 3], 9)]).unwrap();
    assert_eq!(db.pending().unwrap(), jobs, "oldest first; a key already there is kept");
    let taken = |job| Taken { job, played: Some(("{\"s\":1}", vec![1, 2, 3])) };
    db.take_in(&[taken(&jobs[0]), Taken { job: &jobs[1], played: None }]).unwrap();
    db.take_in(&[taken(&jobs[0])]).unwrap();
    assert!(db.pending().unwrap().is_empty());
    let board = db.board_matches("blade", "standard").unwrap();
    assert_eq!(board.len(), 1, "a job taken in twice is one match");
    assert_eq!((board[0].seed, board[0].seats.clone(), board[0].tick), (u64::MAX - 7, vec![v2.id, r1.id], 1));
    assert_eq!(db.matches_of(&[r1.id, 12345], 10).unwrap().len(), 1);
    assert!(db.matches_of(&[v1.id], 10).unwrap().is_empty());
    let (row, replay) = db.match_row(board[0].id).unwrap().unwrap();
    assert_eq!((row.key.as_str(), replay), ("k2", vec![1, 2, 3]));
    // Analyses: one row per match and seat, kept; at most `max_waiting` waiting per account;
    // claimed oldest first (a busy worker only those asked for long enough ago); done once.
    let m = board[0].id;
    let a = db.request_analysis(m, 0, bob.id, None, 2).unwrap().unwrap();
    assert_eq!((a.state.as_str(), a.result.as_deref(), a.waiting()), ("queued", None, true));
    assert_eq!(db.request_analysis(m, 0, admin.id, None, 2).unwrap().unwrap(), a, "asked twice: one row");
    db.request_analysis(m, 1, bob.id, None, 2).unwrap().unwrap();
    assert!(db.request_analysis(m, 2, bob.id, None, 2).unwrap().is_none(), "bob has two waiting");
    assert!(db.claim_analysis("w", 600, a.requested - 1, 3).unwrap().is_none(), "none asked for that early");
    let c = db.claim_analysis("w", 600, crate::db::now(), 3).unwrap().unwrap();
    assert_eq!((c.match_id, c.seat, c.attempt, c.budget), (m, 0, 1, None));
    assert_eq!(db.claim_analysis("w", 600, crate::db::now(), 3).unwrap().unwrap().seat, 1);
    assert!(db.claim_analysis("w", 600, crate::db::now(), 3).unwrap().is_none(), "both leased");
    db.finish_analysis(m, 0, Ok("{\"x\":1}")).unwrap();
    db.finish_analysis(m, 0, Err("late")).unwrap();
    let done = db.analysis(m, 0).unwrap().unwrap();
    assert_eq!((done.state.as_str(), done.result.as_deref(), done.error), ("done", Some("{\"x\":1}"), None));
    db.finish_analysis(m, 1, Err("broken")).unwrap();
    let listed = db.analyses_of(m).unwrap();
    assert_eq!(
        listed.iter().map(|r| (r.seat, r.state.as_str(), r.result.is_none())).collect::<Vec<_>>(),
        [(0, "done", true), (1, "failed", true)],
        "listed without their results"
    );
    assert_eq!(listed[1].error.as_deref(), Some("broken"));
    assert!(db.analysis(m, 3).unwrap().is_none());
    // A lease that expires: claimed again, and failed once its attempts are spent.
    db.request_analysis(m, 2, bob.id, Some(7), 2).unwrap().unwrap();
    let c = db.claim_analysis("w1", -1, crate::db::now(), 2).unwrap().unwrap();
    assert_eq!((c.attempt, c.budget), (1, Some(7)));
    assert_eq!(db.claim_analysis("w2", -1, crate::db::now(), 2).unwrap().unwrap().attempt, 2);
    assert!(db.claim_analysis("w3", -1, crate::db::now(), 2).unwrap().is_none());
    let given_up = db.analysis(m, 2).unwrap().unwrap();
    assert_eq!(given_up.state, "failed");
    assert!(given_up.error.unwrap().contains("2 attempts"));

    db.add_pending(&[pending("k3", None, &[1], 2)]).unwrap();
    db.remove_pending("k3").unwrap();
    assert!(db.pending().unwrap().is_empty());
    assert_eq!((db.next_tick().unwrap(), db.next_tick().unwrap()), (1, 2));

    // Play in the browser: one live game per person, decisions put once, moves made once.
    let new = |key| NewPlayGame {
        user: bob.id,
        version: r1.id,
        game: "blade",
        variant: "standard",
        seat: 1,
        seed: u64::MAX,
        key,
        move_seconds: 30,
    };
    let g = db.start_play_game(&new("p1")).unwrap().expect("bob has no game in play");
    assert!(db.start_play_game(&new("p2")).unwrap().is_none(), "one game in play at a time");
    let game = db.play_game_by_key("p1").unwrap().unwrap();
    assert_eq!((game.id, game.state.as_str(), game.seed.clone()), (g, "queued", u64::MAX.to_string()));
    db.put_play_turn(g, 0, "view", "{}", r#"["a","b"]"#).unwrap();
    db.put_play_turn(g, 0, "other", "{}", "[]").unwrap();
    let turn = db.last_play_turn(g).unwrap().unwrap();
    assert_eq!(
        (turn.view.as_str(), turn.legal.clone(), turn.action.clone()),
        ("view", vec!["a".into(), "b".into()], None)
    );
    assert_eq!(db.play_turn_answer(g, 0).unwrap(), (None, "playing".to_string()));
    assert!(db.set_play_action(g, 0, "b").unwrap());
    assert!(!db.set_play_action(g, 0, "a").unwrap(), "a move is made once");
    assert_eq!(db.play_turn_answer(g, 0).unwrap(), (Some("b".into()), "playing".to_string()));
    assert!(!db.set_play_state(g, &["queued"], "resigned").unwrap());
    assert!(db.set_play_state(g, &["queued", "playing"], "resigned").unwrap());
    db.finish_play_game(g, "{}", &[9, 9]).unwrap();
    assert_eq!(db.play_replay(g).unwrap(), Some(vec![9, 9]));
    let g2 = db.start_play_game(&new("p2")).unwrap().expect("the first game is over");
    db.fail_play_game(g2, "no worker").unwrap();
    let games = db.play_games_of(bob.id).unwrap();
    assert_eq!(games.iter().map(|g| g.id).collect::<Vec<_>>(), [g2, g]);
    assert_eq!(games[0].error.as_deref(), Some("no worker"));
    assert!(db.play_replay(g2).unwrap().is_none());
    assert_eq!(db.play_game(g).unwrap().unwrap().summary.as_deref(), Some("{}"));

    // Class mode: an event's seed from its id, frozen entrants, matches, results.
    let event = NewEvent {
        name: "week 1".into(),
        game: "blade".into(),
        variant: "standard".into(),
        deals: 4,
        against: vec!["random".into(), "greedy".into()],
        deadline: crate::db::now() + 60,
    };
    let id = db.create_class_event(&event, admin.id, 7).unwrap();
    let e = db.class_event(id).unwrap().unwrap();
    assert_eq!((e.state.as_str(), e.deals, e.against.len()), ("open", 4, 2));
    assert_eq!(e.seed, cardarena::games::rng::derive_seed(&[7, id as u64]));
    assert_eq!(db.class_events().unwrap().len(), 1);
    match db.frozen_at("blade", e.deadline).unwrap() {
        Frozen::Ready(bots) => assert_eq!(bots.len(), 2),
        Frozen::Validating(n) => panic!("{n} validating"),
    }
    db.upload(bob.id, "blade", "late", "lua", b"five").unwrap();
    assert!(matches!(db.frozen_at("blade", e.deadline).unwrap(), Frozen::Validating(1)));
    let entries = [(v2.id, "dice@v2.lua".to_string(), v2.hash.clone()), (r1.id, "x".into(), r1.hash.clone())];
    db.freeze_class_event(id, &entries, &["m1".into(), "m0".into()]).unwrap();
    db.freeze_class_event(id, &entries, &["m1".into(), "m2".into()]).unwrap();
    assert_eq!(db.class_match_keys(id).unwrap(), ["m1", "m2"]);
    let frozen = db.class_entries(id).unwrap();
    assert_eq!((frozen[0].bot, frozen[0].owner.as_str(), frozen[1].version), (dice.id, "bob", r1.id));
    db.set_class_done(id, 1).unwrap();
    assert_eq!(db.class_event(id).unwrap().unwrap().done, 1);
    assert!(db.class_results(id).unwrap().is_none());
    db.finish_class_event(id, "csv", "report", "[]", 2).unwrap();
    assert_eq!(db.class_results(id).unwrap(), Some(("csv".into(), "report".into(), "[]".into())));
    db.set_class_state(id, "ended", "why").unwrap();
    assert_eq!(db.class_event(id).unwrap().unwrap().message, "why");

    super::garage::store_behaves(db, bob.id, carol.id);
}

#[test]
fn the_sqlite_store_keeps_what_the_ladder_asks() {
    let dir = Dir::new("store");
    let db = SqliteStore::open(&dir.path().join("ladder.db")).unwrap();
    store_behaves(&db);
}

#[cfg(feature = "postgres")]
#[test]
fn the_postgres_store_keeps_what_the_sqlite_store_keeps() {
    let Some(pg) = testkit::postgres::cluster("store") else { return };
    let url = pg.database("ladder");
    let db = crate::db::postgres::PgStore::connect(&url).unwrap();
    store_behaves(&db);
    // Opening it again (a worker beside the server) finds the tables as they are.
    let again = crate::db::postgres::PgStore::connect(&url).unwrap();
    assert_eq!(crate::Store::users(&again).unwrap().len(), 3);
    // A server that is gone is an error naming it, not a panic.
    drop(pg);
    let e = crate::Store::users(&again).unwrap_err().to_string();
    assert!(e.contains(&url), "{e}");
}
