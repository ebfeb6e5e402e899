//! The web ladder's reliability, process by process: `arena serve --workers N` on a free port
//! with a throwaway database, driven over HTTP (register, token, `POST /api/bots`) and watched
//! through its database. A worker killed with SIGKILL mid-match is started again and its match
//! is played again after its lease and stored once; a server stopped and started again plays
//! the jobs queued before; `--backup` while workers write copies a consistent database.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Long enough for a loaded machine (every worker is a process compiling nothing, but the
/// machine may be shared).
const PATIENCE: Duration = Duration::from_secs(240);

/// A Lua bot whose every decision takes a while (a few million instructions, under the
/// decision's fuel): its matches last seconds, so that a worker can be killed in the middle.
const SLOW: &str = "function act(obs)\n  local x = 0\n  for i = 1, 1500000 do x = x + i end\n  return obs.legal[1]\nend\n";
const QUICK: &str = "function act(obs) return obs.legal[#obs.legal] end\n";

const LADDER: &str = "title = \"ops\"\nsame_owner = true\n[[board]]\ngame = \"blade\"\n\
[matchmaking]\ntick_seconds = 1\njobs_per_tick = 1\n[limits]\nfuel_per_match = 2000000000\n";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-ladder-ops-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running `arena serve`, stopped (SIGKILL, with its workers) when dropped.
struct Server {
    child: Child,
    url: String,
    /// The first start's admin invite link, if this start printed one.
    invite: Option<String>,
    _lines: Receiver<String>,
}

impl Server {
    fn start(dir: &Path, workers: usize, lease: f64) -> Server {
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["serve", "ladder.toml", "--db", "ladder.db", "--bind", &format!("127.0.0.1:{port}")])
            .args(["--workers", &workers.to_string(), "--lease", &lease.to_string()])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let (send, lines) = channel();
        let out = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        let mut invite = None;
        let until = Instant::now() + PATIENCE;
        loop {
            let line = lines.recv_timeout(until.saturating_duration_since(Instant::now())).expect("arena serve starts");
            if line.contains("register?invite=") {
                invite = Some(line.trim().to_string());
            }
            if line.starts_with("Serving the ladder at") {
                break;
            }
        }
        Server { child, url: format!("http://127.0.0.1:{port}"), invite, _lines: lines }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ctrl-C: the server stops its workers and exits.
    fn interrupt(mut self) {
        let workers = workers_of(self.child.id());
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) }, 0);
        let until = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "arena serve after Ctrl-C: {status}");
                break;
            }
            assert!(Instant::now() < until, "arena serve did not stop after Ctrl-C");
            std::thread::sleep(Duration::from_millis(50));
        }
        for (pid, _) in workers {
            wait_for("the workers to stop with their server", || {
                (!Path::new(&format!("/proc/{pid}")).exists()).then_some(())
            });
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let workers = workers_of(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        for (pid, _) in workers {
            // SAFETY: kill(2) on a worker this test's server started.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
    }
}

/// The worker processes of server `parent`: pid and the `--name` they were given.
fn workers_of(parent: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // pid (comm) state ppid ...: the command may hold spaces, so read after the last ')'.
        let Some(ppid) = stat.rsplit(')').next().and_then(|s| s.split_whitespace().nth(1)) else { continue };
        if ppid.parse::<u32>().ok() != Some(parent) || stat.rsplit(')').next().is_some_and(|s| s.trim_start().starts_with('Z')) {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let args: Vec<String> = cmdline.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        if args.iter().any(|a| a == "worker") {
            let name = args.iter().skip_while(|a| *a != "--name").nth(1).cloned().unwrap_or_default();
            found.push((pid, name));
        }
    }
    found
}

/// A browser over HTTP: the session cookie and the last page's CSRF token.
struct Client {
    agent: ureq::Agent,
    base: String,
    cookie: Option<String>,
    csrf: Option<String>,
}

struct Answer {
    status: u16,
    body: String,
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let at = text.find(start)? + start.len();
    Some(text[at..].split(end).next()?.to_string())
}

impl Client {
    fn new(base: &str) -> Client {
        let agent = ureq::Agent::config_builder().http_status_as_error(false).max_redirects(0).build().into();
        Client { agent, base: base.to_string(), cookie: None, csrf: None }
    }

    fn answer(&mut self, mut r: ureq::http::Response<ureq::Body>) -> Answer {
        if let Some(c) = r.headers().get("set-cookie").and_then(|c| c.to_str().ok()) {
            self.cookie = c.split(';').next().map(str::to_string);
        }
        let status = r.status().as_u16();
        let body = r.body_mut().read_to_string().unwrap_or_default();
        if let Some(t) = between(&body, "name=\"csrf\" value=\"", "\"") {
            self.csrf = Some(t);
        }
        Answer { status, body }
    }

    fn get(&mut self, path: &str) -> Answer {
        let mut req = self.agent.get(&format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("Cookie", c);
        }
        let r = req.call().unwrap();
        self.answer(r)
    }

    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let csrf = self.csrf.clone().expect("a page with a form first");
        let mut body = format!("csrf={}", encode(&csrf));
        for (k, v) in fields {
            body.push_str(&format!("&{k}={}", encode(v)));
        }
        let mut req = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("Content-Type", "application/x-www-form-urlencoded");
        if let Some(c) = &self.cookie {
            req = req.header("Cookie", c);
        }
        let r = req.send(body.as_str()).unwrap();
        self.answer(r)
    }

    /// Registers the admin by the first start's invite and makes an API token.
    fn admin_token(&mut self, invite: &str) -> String {
        let code = invite.split("invite=").nth(1).unwrap().to_string();
        self.get(&format!("/register?invite={code}"));
        let r = self.post("/register", &[("invite", &code), ("name", "teacher"), ("password", "correct horse")]);
        assert_eq!(r.status, 303, "{}", r.body);
        self.get("/account");
        let r = self.post("/account/tokens", &[("label", "ops")]);
        assert_eq!(r.status, 200, "{}", r.body);
        between(&r.body, "<code id=\"token\">", "<").expect("the new token on the page")
    }

    fn upload(&self, token: &str, name: &str, source: &str) {
        let mut r = self
            .agent
            .post(&format!("{}/api/bots", self.base))
            .query("game", "blade")
            .query("name", name)
            .query("file", &format!("{name}.lua"))
            .header("Authorization", &format!("Bearer {token}"))
            .send(source.as_bytes())
            .unwrap();
        let status = r.status().as_u16();
        assert_eq!(status, 201, "{}", r.body_mut().read_to_string().unwrap_or_default());
    }
}

/// The ladder database, read beside the server (WAL: readers do not wait).
fn db(dir: &Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open_with_flags(dir.join("ladder.db"), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap();
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c
}

fn count(c: &rusqlite::Connection, sql: &str) -> i64 {
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Waits until `what` holds, checking every 50 ms.
fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let until = Instant::now() + PATIENCE;
    loop {
        if let Some(t) = f() {
            return t;
        }
        assert!(Instant::now() < until, "waited {PATIENCE:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
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
    let server = Server::start(&dir, 1, 2.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().expect("a first start prints the admin invite"));
    client.upload(&token, "slow", SLOW);
    client.upload(&token, "quick", QUICK);
    let c = db(&dir);
    let (key, owner, attempt) = wait_for("a running match", || running(&c));
    assert_eq!(attempt, 1);
    let workers = workers_of(server.pid());
    let (victim, _) = workers.iter().find(|(_, name)| *name == owner).cloned().expect("the lease holder is a worker");
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
    assert_eq!(count(&c, &format!("SELECT count(*) FROM matches WHERE key = '{key}'")), 1, "on the board once");
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
    let server = Server::start(&dir, 0, 2.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().unwrap());
    client.upload(&token, "first", QUICK);
    client.upload(&token, "second", "function act(obs) return obs.legal[1] end\n");
    let c = db(&dir);
    let queued = count(&c, "SELECT count(*) FROM queue_jobs WHERE grp = 'ladder' AND state = 'queued'");
    assert!(queued >= 4, "two smoke matches per version are queued, {queued} found");
    assert_eq!(count(&c, "SELECT count(*) FROM versions WHERE state = 'pending'"), 2);
    server.interrupt();
    let server = Server::start(&dir, 2, 2.0);
    assert!(server.invite.is_none(), "the admin exists: no second invite");
    wait_for("both versions validated after the restart", || {
        (count(&c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 2).then_some(())
    });
    wait_for("a duplicate set on the board", || (count(&c, "SELECT count(*) FROM matches") > 0).then_some(()));
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
    let server = Server::start(&dir, 2, 5.0);
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
        let orphans: i64 = b
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0))
            .unwrap();
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
    let server = Server::start(&restored, 0, 5.0);
    let mut client = Client::new(&server.url);
    let r = client.get("/board/blade/readme");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("first@v1.lua") || r.body.contains("second@v1.lua"), "{}", r.body);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(restored);
}
