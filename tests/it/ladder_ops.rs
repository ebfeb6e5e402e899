//! The web ladder's reliability, process by process: `arena serve --workers N` on a free port
//! with a throwaway database, driven over HTTP (register, token, `POST /api/bots`) and watched
//! through its database. A worker killed with SIGKILL mid-match is started again and its match
//! is played again after its lease and stored once; a server stopped and started again plays
//! the jobs queued before; `--backup` while workers write copies a consistent database.

use testkit::ladder;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use ladder::{count, db, wait_for, workers_of, Client, Server};

fn arena() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

/// A Lua bot whose every decision takes a while (16M instructions, about 0.25 s here; the
/// ladder's limits below allow it) and which plays its last legal action (the longer Blade
/// matches): its matches last seconds, so that a worker can be killed in the middle of one.
const SLOW: &str =
    "function act(obs)\n  local x = 0\n  for i = 1, 8000000 do x = x + i end\n  return obs.legal[#obs.legal]\nend\n";
const QUICK: &str = "function act(obs) return obs.legal[#obs.legal] end\n";

const LADDER: &str = "title = \"ops\"\nsame_owner = true\n[[board]]\ngame = \"blade\"\n\
[matchmaking]\ntick_seconds = 1\njobs_per_tick = 1\n[limits]\nfuel_per_decision = 1000000000\nfuel_per_match = 100000000000\n";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-ladder-ops-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();
    dir
}

/// A running match of a duplicate set (not a validation): its key, the worker holding it, the
/// attempt.
fn running(c: &rusqlite::Connection) -> Option<(String, String, i64)> {
    c.query_row(
        "SELECT j.key, j.lease_owner, j.attempts FROM queue_jobs j JOIN pending p ON p.key = j.key
         WHERE j.state = 'running' AND p.version IS NULL ORDER BY j.id LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .ok()
}

/// (a) and (b): a worker killed with SIGKILL in the middle of a match is started again by the
/// server; the match is claimed again once the lease has run out and lands once, on the
/// board and in the queue; every job is played.
#[test]
fn a_worker_killed_mid_match_is_restarted_and_its_match_lands_once() {
    let dir = temp_dir("kill");
    let server = Server::start(arena(), &dir, 1, 2.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().expect("a first start prints the admin invite"));
    client.upload(&token, "slow", SLOW);
    client.upload(&token, "quick", QUICK);
    let c = db(&dir);
    let (key, owner, attempt) = wait_for("a running match", || running(&c));
    assert_eq!(attempt, 1);
    let workers = workers_of(server.pid());
    let (victim, _) =
        workers.iter().find(|(_, name)| *name == owner).cloned().expect("the lease holder is a worker");
    // SAFETY: kill(2) on a worker process of the server this test started.
    assert_eq!(unsafe { libc::kill(victim as i32, libc::SIGKILL) }, 0);
    let stored = |k: &str| count(&c, &format!("SELECT count(*) FROM queue_results WHERE key = '{k}'"));
    assert_eq!(stored(&key), 0, "the worker was killed before its match ended (make SLOW slower if not)");
    // (b) the server starts another worker under the same name
    let (again, _) = wait_for("a new worker", || {
        workers_of(server.pid()).into_iter().find(|(pid, name)| *name == owner && *pid != victim)
    });
    assert_ne!(again, victim);
    // (a) the match is played again after the lease, stored once, and taken onto the board once
    wait_for("the match played again", || (stored(&key) == 1).then_some(()));
    let attempts = count(&c, &format!("SELECT attempts FROM queue_jobs WHERE key = '{key}'"));
    assert_eq!(attempts, 2, "claimed again after the lease ran out");
    let state: String =
        c.query_row(&format!("SELECT state FROM queue_jobs WHERE key = '{key}'"), [], |r| r.get(0)).unwrap();
    assert_eq!(state, "done");
    wait_for("the results taken in", || {
        (count(&c, &format!("SELECT count(*) FROM pending WHERE key = '{key}'")) == 0).then_some(())
    });
    assert_eq!(
        count(&c, &format!("SELECT count(*) FROM matches WHERE key = '{key}'")),
        1,
        "on the board once"
    );
    assert_eq!(count(&c, "SELECT count(*) FROM queue_alarms"), 0, "no determinism alarm");
    assert_eq!(
        count(&c, "SELECT count(*) FROM matches m WHERE NOT EXISTS (SELECT 1 FROM queue_results r WHERE r.key = m.key)"),
        0
    );
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

/// (c): jobs queued while no worker runs are played after the server is stopped (Ctrl-C,
/// which stops its workers too) and started again.
#[test]
fn a_restarted_server_plays_the_jobs_queued_before() {
    let dir = temp_dir("restart");
    let server = Server::start(arena(), &dir, 0, 2.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().unwrap());
    client.upload(&token, "first", QUICK);
    client.upload(&token, "second", "function act(obs) return obs.legal[1] end\n");
    let c = db(&dir);
    let queued = count(&c, "SELECT count(*) FROM queue_jobs WHERE grp = 'ladder' AND state = 'queued'");
    assert!(queued >= 4, "two smoke matches per version are queued, {queued} found");
    assert_eq!(count(&c, "SELECT count(*) FROM versions WHERE state = 'pending'"), 2);
    server.interrupt();
    let server = Server::start(arena(), &dir, 2, 2.0);
    assert!(server.invite.is_none(), "the admin exists: no second invite");
    wait_for("both versions validated after the restart", || {
        (count(&c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 2).then_some(())
    });
    wait_for("a duplicate set on the board", || {
        (count(&c, "SELECT count(*) FROM matches") > 0).then_some(())
    });
    assert_eq!(count(&c, "SELECT count(*) FROM queue_jobs WHERE state = 'failed'"), 0);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

/// A server killed with SIGKILL takes its workers with it (none is left playing on its
/// database), and the next start plays what was queued, the match in play included once its
/// lease has run out.
#[test]
fn a_server_killed_with_sigkill_takes_its_workers_and_the_next_start_resumes() {
    let dir = temp_dir("sigkill");
    let server = Server::start(arena(), &dir, 1, 2.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().unwrap());
    client.upload(&token, "slow", SLOW);
    client.upload(&token, "quick", QUICK);
    let c = db(&dir);
    let validation = |c: &rusqlite::Connection| {
        c.query_row("SELECT lease_owner FROM queue_jobs WHERE state = 'running'", [], |r| {
            r.get::<_, String>(0)
        })
        .ok()
    };
    wait_for("a smoke match in play", || validation(&c));
    let workers = workers_of(server.pid());
    assert_eq!(workers.len(), 1);
    server.kill();
    for (pid, _) in &workers {
        wait_for("the worker to die with its server", || {
            (!Path::new(&format!("/proc/{pid}")).exists()).then_some(())
        });
    }
    assert_eq!(count(&c, "SELECT count(*) FROM versions WHERE state = 'ready'"), 0);
    let server = Server::start(arena(), &dir, 1, 2.0);
    wait_for("both versions validated after the restart", || {
        (count(&c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 2).then_some(())
    });
    assert_eq!(count(&c, "SELECT count(*) FROM queue_jobs WHERE state = 'failed'"), 0);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

/// (d): `arena serve --backup` while the server's workers store matches copies a database
/// that passes SQLite's integrity check, with every match the ladder took in backed by its
/// queue result, and that another server starts on.
#[test]
fn a_backup_while_workers_write_is_consistent() {
    let dir = temp_dir("backup");
    let server = Server::start(arena(), &dir, 2, 5.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().unwrap());
    client.upload(&token, "first", QUICK);
    client.upload(&token, "second", "function act(obs) return obs.legal[1] end\n");
    let c = db(&dir);
    wait_for("matches being stored", || (count(&c, "SELECT count(*) FROM matches") >= 2).then_some(()));
    let mut copies = Vec::new();
    for k in 0..3 {
        let to = dir.join(format!("copy{k}.db"));
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "ladder.toml", "--db", "ladder.db", "--backup", to.to_str().unwrap()])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        copies.push(to);
        std::thread::sleep(Duration::from_millis(700));
    }
    let live = count(&c, "SELECT count(*) FROM queue_results");
    assert!(live > 2, "the workers kept writing during the backups ({live} results)");
    for copy in &copies {
        let b = rusqlite::Connection::open(copy).unwrap();
        let check: String = b.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(check, "ok", "{}", copy.display());
        let orphans: i64 =
            b.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
        assert_eq!(orphans, 0, "{}", copy.display());
        assert_eq!(
            count(&b, "SELECT count(*) FROM matches m WHERE NOT EXISTS (SELECT 1 FROM queue_results r WHERE r.key = m.key)"),
            0,
            "{}: a match without its queue result",
            copy.display()
        );
        assert_eq!(count(&b, "SELECT count(*) FROM versions"), 2);
        assert_eq!(count(&b, "SELECT count(*) FROM users"), 1);
    }
    // A server starts on the last copy and shows its leaderboard.
    drop(server);
    let restored = temp_dir("backup-restored");
    std::fs::copy(copies.last().unwrap(), restored.join("ladder.db")).unwrap();
    let server = Server::start(arena(), &restored, 0, 5.0);
    let mut client = Client::new(&server.url);
    let r = client.get("/board/blade/readme");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("first@v1.lua") || r.body.contains("second@v1.lua"), "{}", r.body);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(restored);
}
