//! The job queue through the `arena` binary (docs/scale-out.md): tournaments through a queue
//! give the standings of a local run, shards merge into them, a worker refuses other arena
//! versions, a rerun with another result raises the determinism alarm; and, with the feature
//! `postgres`, the same against a throwaway PostgreSQL that the test starts and stops itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-queue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let out = arena().args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "arena {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A small tournament of every format: a Lua bot, built-ins, a Swiss event, tables of four.
const MIXED: &str = r#"
[[event]]
name = "b"
game = "blade"
bots = ["first.lua", "greedy", "random"]
deals = 3

[[event]]
name = "i"
game = "intensity"
bots = ["greedy", "random", "last.lua", "strong:1", "first.lua"]
deals = 1

[[event]]
name = "s"
game = "ecard"
format = "swiss"
rounds = 2
deals = 2
bots = ["first.lua", "greedy", "random", "nash"]
"#;

fn mixed(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("arena.toml"), MIXED).unwrap();
    std::fs::write(dir.join("first.lua"), "function act(obs) return obs.legal[1] end\n").unwrap();
    std::fs::write(dir.join("last.lua"), "function act(obs) return obs.legal[#obs.legal] end\n").unwrap();
    dir
}

fn local_standings(dir: &Path) -> Vec<u8> {
    run(dir, &["tournament", "arena.toml", "--quiet", "--db", "local.db", "--json", "local.json"]);
    std::fs::read(dir.join("local.json")).unwrap()
}

/// Plans the tournament into `url`, has two `arena worker` processes play it, then prints the
/// standings with no local worker (`--threads 0`) and returns their JSON.
fn standings_through_workers(dir: &Path, url: &str) -> Vec<u8> {
    run(dir, &["tournament", "arena.toml", "--db", url, "--enqueue"]);
    let workers: Vec<_> = (0..2)
        .map(|k| {
            arena()
                .args(["worker", "--db", url, "--until-empty", "--name", &format!("w{k}")])
                .current_dir(dir)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut w in workers {
        assert!(w.wait().unwrap().success());
    }
    // The Swiss event's second round is planned now (it depends on the first): played here.
    run(dir, &["tournament", "arena.toml", "--quiet", "--db", url, "--threads", "1", "--json", "queue.json"]);
    std::fs::read(dir.join("queue.json")).unwrap()
}

/// Standings through a queue are byte-identical to a local run's.
#[test]
fn a_tournament_through_a_sqlite_queue_has_the_standings_of_a_local_run() {
    let dir = mixed("sqlite");
    let local = local_standings(&dir);
    assert_eq!(
        String::from_utf8(standings_through_workers(&dir, "sqlite:q.db")).unwrap(),
        String::from_utf8(local).unwrap()
    );
    let status = run(&dir, &["tournament", "--status", "--db", "sqlite:q.db"]);
    let text = String::from_utf8(status.stdout).unwrap();
    assert!(text.contains("0 queued, 0 running") && text.contains("0 failed, 0 alarm(s)"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn shards_merged_give_the_standings_of_a_local_run_and_swiss_is_refused() {
    let dir = mixed("shards");
    let out = arena()
        .args(["tournament", "arena.toml", "--shard", "0/2", "--db", "s0.db"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Swiss"));
    let out = arena()
        .args(["tournament", "arena.toml", "--shard", "0/2", "--db", "sqlite:q.db"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a job queue needs no shards"));
    let text = MIXED.replace("format = \"swiss\"\nrounds = 2\n", "");
    std::fs::write(dir.join("arena.toml"), text).unwrap();
    let local = local_standings(&dir);
    for i in 0..3 {
        run(
            &dir,
            &[
                "tournament",
                "arena.toml",
                "--quiet",
                "--shard",
                &format!("{i}/3"),
                "--db",
                &format!("s{i}.db"),
            ],
        );
    }
    run(&dir, &["merge", "all.db", "s0.db", "s1.db", "s2.db"]);
    let out = run(&dir, &["tournament", "arena.toml", "--quiet", "--db", "all.db", "--json", "-"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 matches played now"));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), String::from_utf8(local).unwrap());
    std::fs::remove_dir_all(dir).ok();
}

/// An E-card event with one job whose bot spins until the wall-clock backstop stops it: the
/// fuel it had used by then, recorded in the replay, depends on the machine's speed at that
/// moment, so two runs of the job give two replays (the one way to make a sandboxed bot
/// nondeterministic: a fuel limit too high for the backstop).
const SPIN: &str = r#"
[[event]]
name = "nd"
game = "ecard"
bots = ["spin.lua", "greedy"]
deals = 1
duplicate = false
[event.limits]
fuel_per_decision = 1000000000000
fuel_per_match = 1000000000000
"#;

fn spin(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("arena.toml"), SPIN).unwrap();
    std::fs::write(dir.join("spin.lua"), "function act(obs) local x = 0 while true do x = x + 1 end end\n")
        .unwrap();
    dir
}

/// A job delivered twice whose second result differs raises the alarm: the
/// worker and `--status` exit with 3 and name the job.
fn alarm_on(dir: &Path, url: &str, requeue: &dyn Fn()) {
    run(dir, &["tournament", "arena.toml", "--db", url, "--enqueue"]);
    run(dir, &["worker", "--db", url, "--until-empty"]);
    requeue(); // a second delivery, as after a lease that expired
    let out = arena().args(["worker", "--db", url, "--until-empty"]).current_dir(dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("determinism alarm: 1 job(s)"), "{err}");
    let out = arena().args(["tournament", "--status", "--db", url]).current_dir(dir).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 done, 0 failed, 1 alarm(s)") && text.contains("alarms:"), "{text}");
}

#[test]
fn a_nondeterministic_bot_raises_the_determinism_alarm_on_sqlite() {
    let dir = spin("alarm");
    let db = dir.join("q.db");
    alarm_on(&dir, "sqlite:q.db", &|| {
        let conn = rusqlite::Connection::open(&db).unwrap();
        assert_eq!(conn.execute("UPDATE queue_jobs SET state = 'queued'", []).unwrap(), 1);
    });
    std::fs::remove_dir_all(dir).ok();
}

/// A bot whose bytes do not load (a Lua file without `act`, a `.wasm` that is no module) is
/// loaded by the worker as a local tournament loads it, through the play layer's `Loader`: its
/// match is stored at the first attempt with the bot's verdict `load` and the loader's message,
/// never reported as a host failure and tried again.
#[test]
fn a_bot_that_does_not_load_is_its_verdict_at_the_first_attempt() {
    use cardarena::tournament::queue::{JobSpec, NewJob, SeatSpec};
    let dir = temp_dir("noload");
    let url = "sqlite:q.db";
    let mut q =
        cardarena::tournament::queue::open(&format!("sqlite:{}", dir.join("q.db").display())).unwrap();
    let no_act = b"function Act(obs) return obs.legal[1] end\n".to_vec();
    let not_wasm = b"\0asm\x01\0\0\0 then nothing a module holds".to_vec();
    let seats = [SeatSpec::program("noact.lua", &no_act), SeatSpec::program("broken.wasm", &not_wasm)];
    q.put_bots(&[(seats[0].hash.clone(), no_act), (seats[1].hash.clone(), not_wasm)]).unwrap();
    let jobs: Vec<NewJob> = seats
        .iter()
        .map(|bot| {
            let spec = JobSpec {
                game: "blade".into(),
                variant: "readme".into(),
                seed: 1,
                seats: vec![bot.clone(), SeatSpec::builtin("random")],
                limits: Default::default(),
            };
            NewJob::new("test", spec)
        })
        .collect();
    q.enqueue(&jobs).unwrap();
    run(&dir, &["worker", "--db", url, "--until-empty", "--name", "w"]);
    let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
    let results = q.results(&keys).unwrap();
    let states = q.states(&keys).unwrap();
    for (key, expected) in
        keys.iter().zip(["no function act: did you mean Act?", "malformed WebAssembly module"])
    {
        assert_eq!(states[key], ("done".to_string(), None), "stored at once, no host failure");
        let summary: cardarena::tournament::MatchSummary =
            serde_json::from_str(&results[key].summary).unwrap();
        let verdicts: Vec<&str> = summary.faults[0].iter().map(|v| v.name()).collect();
        assert_eq!(verdicts, ["load"], "the bot's verdict");
        assert!(summary.faults[1].is_empty());
        let text = cardarena::tournament::store::unpack(&q.replay(key).unwrap().unwrap()).unwrap();
        let replay: cardarena::play::runner::Replay = serde_json::from_str(&text).unwrap();
        assert!(replay.faults[0][0].message.contains(expected), "{}", replay.faults[0][0].message);
    }
    let attempts = rusqlite::Connection::open(dir.join("q.db"))
        .unwrap()
        .query_row("SELECT max(attempts) FROM queue_jobs", [], |r| r.get::<_, i64>(0))
        .unwrap();
    assert_eq!(attempts, 1);
    std::fs::remove_dir_all(dir).ok();
}

/// Jobs planned by another arena version are refused, with the version named.
fn refusal_on(dir: &Path, url: &str, age: &dyn Fn()) {
    std::fs::write(
        dir.join("arena.toml"),
        "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 1\n",
    )
    .unwrap();
    run(dir, &["tournament", "arena.toml", "--db", url, "--enqueue"]);
    age(); // as if planned by an older arena
    let out = arena().args(["worker", "--db", url, "--until-empty"]).current_dir(dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("refuses the queue's remaining jobs: 2 planned by arena 0.1.0+old"), "{err}");
    let text = String::from_utf8(run(dir, &["tournament", "--status", "--db", url]).stdout).unwrap();
    assert!(text.contains("0 queued") && text.contains("2 job(s) planned by arena 0.1.0+old"), "{text}");
}

#[test]
fn a_worker_refuses_jobs_planned_by_another_arena_version_on_sqlite() {
    let dir = temp_dir("version");
    let db = dir.join("q.db");
    refusal_on(&dir, "sqlite:q.db", &|| {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute("UPDATE queue_jobs SET version = '0.1.0+old'", []).unwrap();
    });
    std::fs::remove_dir_all(dir).ok();
}

/// A quick tournament: 10 Blade matches of built-ins.
const QUICK: &str = "[[event]]\nname = \"q\"\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 5\n";

/// Lines of `text` containing `what`.
fn lines_with(text: &str, what: &str) -> usize {
    text.lines().filter(|l| l.contains(what)).count()
}

/// A SQLite queue whose file another process keeps locked (an EXCLUSIVE transaction) for
/// seconds: the worker waits, says so once, and plays every job once when the lock is gone; with
/// `--give-up-after` shorter than the lock it stops after that long, saying why.
#[test]
fn a_worker_rides_out_a_sqlite_queue_locked_for_seconds() {
    use std::time::{Duration, Instant};
    let dir = temp_dir("locked");
    std::fs::write(dir.join("arena.toml"), QUICK).unwrap();
    let local = local_standings(&dir);
    for db in ["q.db", "q2.db"] {
        run(&dir, &["tournament", "arena.toml", "--db", &format!("sqlite:{db}"), "--enqueue"]);
    }
    let lock = |db: &str| {
        let conn = rusqlite::Connection::open(dir.join(db)).unwrap();
        conn.execute_batch("BEGIN EXCLUSIVE; UPDATE queue_jobs SET error = NULL WHERE id = 0;").unwrap();
        conn
    };

    let held = lock("q.db");
    let started = Instant::now();
    let worker = arena()
        .args(["worker", "--db", "sqlite:q.db", "--until-empty", "--name", "w"])
        .current_dir(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(4));
    held.execute_batch("COMMIT").unwrap();
    let out = worker.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(started.elapsed() >= Duration::from_secs(4), "the worker waited for the lock");
    assert_eq!(lines_with(&err, "database is locked; retrying for up to 300 s"), 1, "said once: {err}");
    assert_eq!(lines_with(&err, "job queue: reachable again after"), 1, "{err}");
    assert!(err.contains("10 result(s) stored"), "{err}");
    let conn = rusqlite::Connection::open(dir.join("q.db")).unwrap();
    let (results, keys, attempts): (i64, i64, i64) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM queue_results), (SELECT count(DISTINCT key) FROM queue_results),
                    (SELECT sum(attempts) FROM queue_jobs WHERE state = 'done')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((results, keys, attempts), (10, 10, 10), "every job played once, stored once");
    let out = run(
        &dir,
        &["tournament", "arena.toml", "--quiet", "--db", "sqlite:q.db", "--threads", "0", "--json", "-"],
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), String::from_utf8(local).unwrap());

    // A give-up time shorter than the lock: exit 2 after about that long, naming the lock.
    let held = lock("q2.db");
    let started = Instant::now();
    let out = arena()
        .args(["worker", "--db", "sqlite:q2.db", "--until-empty", "--give-up-after", "1500ms"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let waited = started.elapsed();
    held.execute_batch("ROLLBACK").unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("database is locked (gave up after "), "{err}");
    assert!(waited >= Duration::from_millis(1500) && waited < Duration::from_secs(4), "{waited:?}");
    std::fs::remove_dir_all(dir).ok();
}

/// SIGTERM stops a worker that is waiting for its database too, soon, saying so.
#[test]
fn sigterm_stops_a_worker_waiting_for_a_locked_queue() {
    use std::time::{Duration, Instant};
    let dir = temp_dir("termlocked");
    std::fs::write(dir.join("arena.toml"), QUICK).unwrap();
    run(&dir, &["tournament", "arena.toml", "--db", "sqlite:q.db", "--enqueue"]);
    let held = rusqlite::Connection::open(dir.join("q.db")).unwrap();
    held.execute_batch("BEGIN EXCLUSIVE; UPDATE queue_jobs SET error = NULL WHERE id = 0;").unwrap();
    let worker = arena()
        .args(["worker", "--db", "sqlite:q.db"])
        .current_dir(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let signalled = Instant::now();
    // SAFETY: kill has no memory preconditions; the pid is our child's, not yet waited for.
    assert_eq!(unsafe { libc::kill(worker.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let out = worker.wait_with_output().unwrap();
    let stopped = signalled.elapsed();
    held.execute_batch("ROLLBACK").unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("database is locked (stopped while retrying, after "), "{err}");
    assert!(stopped < Duration::from_millis(2500), "stopped {stopped:?} after SIGTERM");
    std::fs::remove_dir_all(dir).ok();
}

/// A file that is no database is an error at once, not something to wait for.
#[test]
fn a_queue_file_that_is_no_database_is_an_error_at_once() {
    let dir = temp_dir("notdb");
    std::fs::write(dir.join("bad.db"), vec![b'x'; 4096]).unwrap();
    let started = std::time::Instant::now();
    let out = arena().args(["worker", "--db", "sqlite:bad.db"]).current_dir(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("file is not a database"), "{err}");
    assert!(!err.contains("retrying"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    std::fs::remove_dir_all(dir).ok();
}

/// A slow E-card match: a Lua bot that counts to ten million at every decision.
fn slow(dir: &Path) {
    std::fs::write(
        dir.join("slow.lua"),
        "function act(obs) local x = 0 for i = 1, 10000000 do x = x + i end return obs.legal[1] end\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("arena.toml"),
        "[[event]]\ngame = \"ecard\"\nbots = [\"slow.lua\", \"greedy\"]\ndeals = 1\nduplicate = false\n[event.limits]\nfuel_per_decision = 1000000000\nfuel_per_match = 100000000000\n",
    )
    .unwrap();
}

/// SIGTERM (how Kubernetes and systemd stop a process) stops a worker as Ctrl-C does: it
/// finishes the match in play, stores its result and exits with 0.
#[test]
fn sigterm_stops_a_worker_after_the_match_in_play() {
    use std::time::{Duration, Instant};
    let dir = temp_dir("sigterm");
    slow(&dir);
    run(&dir, &["tournament", "arena.toml", "--db", "sqlite:q.db", "--enqueue"]);
    let worker = arena()
        .args(["worker", "--db", "sqlite:q.db", "--name", "w"])
        .current_dir(&dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let conn = rusqlite::Connection::open(dir.join("q.db")).unwrap();
    let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    let started = Instant::now();
    while count("SELECT count(*) FROM queue_jobs WHERE state = 'running'") == 0 {
        assert!(started.elapsed() < Duration::from_secs(30), "the worker never claimed the job");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(count("SELECT count(*) FROM queue_results"), 0, "signalled mid-match");
    // SAFETY: kill has no memory preconditions; the pid is our child's, not yet waited for.
    assert_eq!(unsafe { libc::kill(worker.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let out = worker.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("stopping after the matches in play"), "{err}");
    assert!(err.contains("1 result(s) stored"), "{err}");
    assert_eq!(count("SELECT count(*) FROM queue_results"), 1);
    assert_eq!(count("SELECT count(*) FROM queue_jobs WHERE state = 'done'"), 1);
    std::fs::remove_dir_all(dir).ok();
}

#[cfg(feature = "postgres")]
mod pg {
    use super::*;
    use std::time::{Duration, Instant};
    use testkit::postgres::cluster;

    /// In one cluster (started once): 2 worker processes × 200 jobs
    /// → 200 results; the same tournament on SQLite and PostgreSQL → identical standings; kill -9
    /// of a worker mid-match → the job runs again, one row, the same hash; a nondeterministic bot
    /// → the alarm; a worker of another version → refused.
    #[test]
    fn a_throwaway_postgresql_runs_the_queue_through_every_failure() {
        let Some(pg) = cluster("all") else { return };

        // 200 jobs, two worker processes: exactly 200 results, every job done once.
        let dir = temp_dir("pg200");
        std::fs::write(
            dir.join("arena.toml"),
            "[[event]]\nname = \"many\"\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 100\n",
        )
        .unwrap();
        let url = pg.database("many");
        let local = local_standings(&dir);
        let through_pg = standings_through_workers(&dir, &url);
        let mut c = pg.client("many");
        let row = c.query_one("SELECT count(*), count(DISTINCT key) FROM queue_results", &[]).unwrap();
        assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (200, 200));
        let row = c
            .query_one("SELECT count(*), sum(attempts)::bigint FROM queue_jobs WHERE state = 'done'", &[])
            .unwrap();
        assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (200, 200), "each job claimed once");
        let row = c.query_one("SELECT count(DISTINCT worker) FROM queue_results", &[]).unwrap();
        assert_eq!(row.get::<_, i64>(0), 2, "both workers played");
        assert_eq!(through_pg, local);

        // The same mixed tournament on SQLite and PostgreSQL: identical standings JSON.
        let dir = mixed("pgmixed");
        let local = local_standings(&dir);
        let sqlite = standings_through_workers(&dir, "sqlite:q.db");
        let postgres = standings_through_workers(&dir, &pg.database("mixed"));
        assert_eq!(sqlite, local);
        assert_eq!(postgres, sqlite);

        // kill -9 mid-match: the lease expires, another worker plays the job again; one row,
        // with the hash of an undisturbed run.
        let dir = temp_dir("pgkill");
        std::fs::write(
            dir.join("slow.lua"),
            "function act(obs) local x = 0 for i = 1, 10000000 do x = x + i end return obs.legal[1] end\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("arena.toml"),
            "[[event]]\ngame = \"ecard\"\nbots = [\"slow.lua\", \"greedy\"]\ndeals = 1\nduplicate = false\n[event.limits]\nfuel_per_decision = 1000000000\nfuel_per_match = 100000000000\n",
        )
        .unwrap();
        let url = pg.database("killed");
        run(&dir, &["tournament", "arena.toml", "--db", &url, "--enqueue"]);
        let mut victim = arena()
            .args(["worker", "--db", &url, "--lease", "1", "--name", "victim"])
            .current_dir(&dir)
            .spawn()
            .unwrap();
        let mut c = pg.client("killed");
        let started = Instant::now();
        while c
            .query_one("SELECT count(*) FROM queue_jobs WHERE state = 'running'", &[])
            .unwrap()
            .get::<_, i64>(0)
            == 0
        {
            assert!(started.elapsed() < Duration::from_secs(30), "the worker never claimed the job");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        victim.kill().unwrap(); // SIGKILL
        victim.wait().unwrap();
        assert_eq!(
            c.query_one("SELECT count(*) FROM queue_results", &[]).unwrap().get::<_, i64>(0),
            0,
            "killed mid-match"
        );
        // waits for the lease to expire, then plays the job itself
        let again = run(
            &dir,
            &[
                "tournament",
                "arena.toml",
                "--quiet",
                "--db",
                &url,
                "--threads",
                "1",
                "--lease",
                "1",
                "--json",
                "pg.json",
            ],
        );
        assert!(again.status.success());
        let row = c.query_one("SELECT j.attempts, r.replay_hash, r.worker FROM queue_jobs j JOIN queue_results r USING (key)", &[]).unwrap();
        assert_eq!(row.get::<_, i32>(0), 2, "claimed again after the lease expired");
        assert_ne!(row.get::<_, String>(2), "victim");
        assert_eq!(c.query_one("SELECT count(*) FROM queue_results", &[]).unwrap().get::<_, i64>(0), 1);
        let pg_hash: String = row.get(1);
        run(
            &dir,
            &[
                "tournament",
                "arena.toml",
                "--quiet",
                "--db",
                "sqlite:undisturbed.db",
                "--json",
                "sqlite.json",
            ],
        );
        let conn = rusqlite::Connection::open(dir.join("undisturbed.db")).unwrap();
        let hash: String = conn.query_row("SELECT replay_hash FROM queue_results", [], |r| r.get(0)).unwrap();
        assert_eq!(pg_hash, hash);
        assert_eq!(
            std::fs::read(dir.join("pg.json")).unwrap(),
            std::fs::read(dir.join("sqlite.json")).unwrap()
        );

        // a nondeterministic bot: the alarm
        let dir = spin("pgalarm");
        let url = pg.database("alarm");
        alarm_on(&dir, &url, &|| {
            let n = pg.client("alarm").execute("UPDATE queue_jobs SET state = 'queued'", &[]).unwrap();
            assert_eq!(n, 1);
        });

        // another arena version: refused
        let dir = temp_dir("pgversion");
        let url = pg.database("version");
        refusal_on(&dir, &url, &|| {
            pg.client("version").execute("UPDATE queue_jobs SET version = '0.1.0+old'", &[]).unwrap();
        });
    }

    /// PostgreSQL stopped at once mid-run (`pg_ctl stop -m immediate`) and started again 5 s
    /// later, on the same port and data: two workers and the tournament waiting for them retry,
    /// each saying so once, and finish with the standings of a local run; every result stored
    /// before the stop is still there, unchanged, and every job has one result.
    #[test]
    fn workers_and_a_waiting_tournament_outlive_a_postgresql_restart() {
        let Some(pg) = cluster("restart") else { return };
        let dir = temp_dir("pgrestart");
        // 40 E-card matches of a Lua bot that counts to 300,000 at each decision: long enough
        // to be mid-run when the server stops.
        std::fs::write(
            dir.join("count.lua"),
            "function act(obs) local x = 0 for i = 1, 300000 do x = x + i end return obs.legal[#obs.legal] end\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("arena.toml"),
            "[[event]]\nname = \"r\"\ngame = \"ecard\"\nbots = [\"count.lua\", \"greedy\", \"random\"]\ndeals = 7\n",
        )
        .unwrap();
        let local = local_standings(&dir);
        let url = pg.database("restart");
        run(&dir, &["tournament", "arena.toml", "--db", &url, "--enqueue"]);
        let mut c = pg.client("restart");
        let jobs: i64 = c.query_one("SELECT count(*) FROM queue_jobs", &[]).unwrap().get(0);
        let spawn = |args: &[&str]| {
            arena()
                .args(args)
                .current_dir(&dir)
                .stderr(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let workers: Vec<_> = (0..2)
            .map(|k| {
                spawn(&["worker", "--db", &url, "--until-empty", "--lease", "3", "--name", &format!("w{k}")])
            })
            .collect();
        let waiting = spawn(&[
            "tournament",
            "arena.toml",
            "--quiet",
            "--db",
            &url,
            "--threads",
            "0",
            "--json",
            "queue.json",
        ]);
        // Mid-run: some results stored, not all.
        let started = Instant::now();
        let before = loop {
            let rows = c.query("SELECT key, replay_hash FROM queue_results", &[]).unwrap();
            if rows.len() >= 3 {
                break rows
                    .iter()
                    .map(|r| (r.get::<_, String>(0), r.get::<_, String>(1)))
                    .collect::<Vec<_>>();
            }
            assert!(started.elapsed() < Duration::from_secs(60), "no results after a minute");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!((before.len() as i64) < jobs / 2, "stopped too late: {} of {jobs} done", before.len());
        drop(c);
        pg.stop_now();
        let stopped = Instant::now();
        std::thread::sleep(Duration::from_secs(5));
        pg.start_again();
        let outage = stopped.elapsed();
        let mut logs = Vec::new();
        for child in workers.into_iter().chain([waiting]) {
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "{err}");
            logs.push(err);
        }
        let finished = stopped.elapsed();
        for err in &logs {
            assert_eq!(
                lines_with(err, "; retrying for up to 300 s (--give-up-after)"),
                1,
                "said once: {err}"
            );
            assert_eq!(lines_with(err, "job queue: reachable again after"), 1, "{err}");
        }
        eprintln!(
            "outage {outage:?}, all done {finished:?} after the stop; the logs:\n{}",
            logs.iter()
                .flat_map(|l| l.lines().filter(|l| l.contains("retrying") || l.contains("reachable")))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(
            String::from_utf8(std::fs::read(dir.join("queue.json")).unwrap()).unwrap(),
            String::from_utf8(local).unwrap(),
            "the standings of a local run"
        );
        let mut c = pg.client("restart");
        let row = c
            .query_one(
                "SELECT (SELECT count(*) FROM queue_results), (SELECT count(DISTINCT key) FROM queue_results),
                        (SELECT count(*) FROM queue_jobs WHERE state = 'done'),
                        (SELECT count(*) FROM queue_jobs j WHERE NOT EXISTS (SELECT 1 FROM queue_results r WHERE r.key = j.key))",
                &[],
            )
            .unwrap();
        let counts: (i64, i64, i64, i64) = (row.get(0), row.get(1), row.get(2), row.get(3));
        assert_eq!(counts, (jobs, jobs, jobs, 0), "one result per job, every job done");
        for (key, hash) in &before {
            let now: String =
                c.query_one("SELECT replay_hash FROM queue_results WHERE key = $1", &[key]).unwrap().get(0);
            assert_eq!(&now, hash, "a result stored before the stop is kept as it was");
        }
        assert_eq!(c.query_one("SELECT count(*) FROM queue_alarms", &[]).unwrap().get::<_, i64>(0), 0);
        std::fs::remove_dir_all(dir).ok();
    }

    /// A worker pointed at a database that does not exist says so and exits at once; one
    /// pointed at a server that is not there retries until its give-up time, then says why.
    #[test]
    fn a_worker_pointed_at_a_missing_database_says_so_at_once() {
        let Some(pg) = cluster("missing") else { return };
        let dir = temp_dir("pgmissing");
        let started = Instant::now();
        let url = format!("postgres://postgres@127.0.0.1:{}/nosuchdb", pg.port);
        let out = arena().args(["worker", "--db", &url]).current_dir(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("database \"nosuchdb\" does not exist"), "{err}");
        assert!(!err.contains("retrying"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5), "at once");

        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("postgres://postgres@127.0.0.1:{free}/db");
        let started = Instant::now();
        let out = arena()
            .args(["worker", "--db", &url, "--give-up-after", "2s"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let waited = started.elapsed();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(
            lines_with(&err, "Connection refused (os error 111); retrying for up to 2.0 s"),
            1,
            "{err}"
        );
        assert!(err.contains("Connection refused (os error 111) (gave up after 2."), "{err}");
        assert!(waited >= Duration::from_secs(2) && waited < Duration::from_secs(5), "{waited:?}");
        std::fs::remove_dir_all(dir).ok();
    }

    /// `--status`'s count of running jobs is the length of its list of them while another
    /// connection claims and releases jobs as fast as it can: both are read from one snapshot.
    #[test]
    fn the_running_count_agrees_with_the_running_list_on_postgresql() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let Some(pg) = cluster("snapshot") else { return };
        let dir = temp_dir("pgsnapshot");
        std::fs::write(
            dir.join("arena.toml"),
            "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 4\n",
        )
        .unwrap();
        let url = pg.database("snapshot");
        run(&dir, &["tournament", "arena.toml", "--db", &url, "--enqueue"]);
        let stop = AtomicBool::new(false);
        let version = cardarena::tournament::queue::arena_version();
        let mut q = cardarena::tournament::queue::open(&url).unwrap();
        let (flips, looks, differ) = std::thread::scope(|scope| {
            let flipper = scope.spawn(|| {
                let mut c = pg.client("snapshot");
                let flip = c
                    .prepare(
                        "UPDATE queue_jobs SET state = CASE state WHEN 'queued' THEN 'running' ELSE 'queued' END,
                             lease_owner = 'flipper', lease_until = now() WHERE id = 1 + $1::bigint % 8",
                    )
                    .unwrap();
                let mut flips = 0i64;
                while !stop.load(Ordering::SeqCst) {
                    c.execute(&flip, &[&flips]).unwrap();
                    flips += 1;
                }
                flips
            });
            let started = Instant::now();
            let (mut looks, mut differ) = (0, Vec::new());
            while started.elapsed() < Duration::from_secs(2) {
                let st = q.status(&version).unwrap();
                if st.running as usize != st.leases.len() {
                    differ.push((st.running, st.leases.len()));
                }
                looks += 1;
            }
            stop.store(true, Ordering::SeqCst);
            (flipper.join().unwrap(), looks, differ)
        });
        assert!(flips > 100 && looks > 10, "{flips} flips, {looks} looks");
        assert!(differ.is_empty(), "{} of {looks} looks disagree, e.g. {:?}", differ.len(), differ.first());
        std::fs::remove_dir_all(dir).ok();
    }
}
