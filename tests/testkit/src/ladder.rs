//! A running `arena serve` and a browser for it over HTTP, for the ladder's tests
//! (tests/it/ladder_*.rs) and examples/serve_bench.rs.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Long enough for a loaded machine (every worker is a process compiling nothing, but the
/// machine may be shared).
pub const PATIENCE: Duration = Duration::from_secs(240);

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running `arena serve`, stopped (SIGKILL, with its workers) when dropped.
pub struct Server {
    child: Child,
    pub url: String,
    /// The first start's admin invite link, if this start printed one.
    pub invite: Option<String>,
    _lines: Receiver<String>,
}

impl Server {
    /// Starts `exe serve ladder.toml --db ladder.db` in `dir` on a free port with `workers`
    /// worker processes of lease `lease` seconds, and waits until it serves.
    pub fn start(exe: &Path, dir: &Path, workers: usize, lease: f64) -> Server {
        Server::start_on(exe, dir, "ladder.db", workers, lease)
    }

    /// As [`Server::start`], on the ladder database `db` (a file or a `postgres://` URL).
    pub fn start_on(exe: &Path, dir: &Path, db: &str, workers: usize, lease: f64) -> Server {
        let port = free_port();
        let mut child = Command::new(exe)
            .args(["serve", "ladder.toml", "--db", db, "--bind", &format!("127.0.0.1:{port}")])
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
            let line = lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
                .expect("arena serve starts");
            if line.contains("register?invite=") {
                invite = Some(line.trim().to_string());
            }
            if line.starts_with("Serving the ladder at") {
                break;
            }
        }
        Server { child, url: format!("http://127.0.0.1:{port}"), invite, _lines: lines }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL, to the server only (not its workers), and waits for it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ctrl-C: the server stops its workers and exits.
    pub fn interrupt(mut self) {
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
pub fn workers_of(parent: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // pid (comm) state ppid ...: the command may hold spaces, so read after the last ')'.
        let Some(ppid) = stat.rsplit(')').next().and_then(|s| s.split_whitespace().nth(1)) else { continue };
        if ppid.parse::<u32>().ok() != Some(parent)
            || stat.rsplit(')').next().is_some_and(|s| s.trim_start().starts_with('Z'))
        {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let args: Vec<String> =
            cmdline.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        if args.iter().any(|a| a == "worker") {
            let name = args.iter().skip_while(|a| *a != "--name").nth(1).cloned().unwrap_or_default();
            found.push((pid, name));
        }
    }
    found
}

/// A browser over HTTP: the session cookie and the last page's CSRF token.
pub struct Client {
    agent: ureq::Agent,
    base: String,
    cookie: Option<String>,
    csrf: Option<String>,
}

pub struct Answer {
    pub status: u16,
    pub body: String,
}

pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let at = text.find(start)? + start.len();
    Some(text[at..].split(end).next()?.to_string())
}

impl Client {
    pub fn new(base: &str) -> Client {
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

    pub fn get(&mut self, path: &str) -> Answer {
        let mut req = self.agent.get(&format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("Cookie", c);
        }
        let r = req.call().unwrap();
        self.answer(r)
    }

    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
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
    pub fn admin_token(&mut self, invite: &str) -> String {
        let code = invite.split("invite=").nth(1).unwrap().to_string();
        self.get(&format!("/register?invite={code}"));
        let r =
            self.post("/register", &[("invite", &code), ("name", "teacher"), ("password", "correct horse")]);
        assert_eq!(r.status, 303, "{}", r.body);
        self.get("/account");
        let r = self.post("/account/tokens", &[("label", "ops")]);
        assert_eq!(r.status, 200, "{}", r.body);
        between(&r.body, "<code id=\"token\">", "<").expect("the new token on the page")
    }

    /// Uploads a Lua bot for Blade called `name`.
    pub fn upload(&self, token: &str, name: &str, source: &str) {
        self.upload_file(token, "blade", name, &format!("{name}.lua"), source.as_bytes());
    }

    /// Uploads `bytes` as the file `file` of bot `name` for `game` (`POST /api/bots`).
    pub fn upload_file(&self, token: &str, game: &str, name: &str, file: &str, bytes: &[u8]) {
        let mut r = self
            .agent
            .post(&format!("{}/api/bots", self.base))
            .query("game", game)
            .query("name", name)
            .query("file", file)
            .header("Authorization", &format!("Bearer {token}"))
            .send(bytes)
            .unwrap();
        let status = r.status().as_u16();
        assert_eq!(status, 201, "{}", r.body_mut().read_to_string().unwrap_or_default());
    }
}

/// The ladder database, read beside the server (WAL: readers do not wait).
pub fn db(dir: &Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open_with_flags(
        dir.join("ladder.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c
}

pub fn count(c: &rusqlite::Connection, sql: &str) -> i64 {
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Waits until `what` holds, checking every 50 ms.
pub fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let until = Instant::now() + PATIENCE;
    loop {
        if let Some(t) = f() {
            return t;
        }
        assert!(Instant::now() < until, "waited {PATIENCE:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
