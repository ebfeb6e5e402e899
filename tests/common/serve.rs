//! A real `arena serve` for process-level ladder tests: the `arena` binary Cargo built, on a
//! free loopback port, with a database and a `ladder.toml` in a scratch folder of its own.
//!
//! A test includes this file with `#[path = "common/serve.rs"] mod serve;`, then
//! `let server = Server::start("name", LADDER_TOML, 1);` and opens `server.invite` (the one-time
//! admin invite link the server printed) to create the admin. Dropping the `Server` kills it.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running `arena serve`.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The one-time admin invite link printed on the first start.
    pub invite: String,
    /// The scratch folder: `ladder.toml`, `ladder.db`, the workers' WASM cache.
    pub dir: PathBuf,
}

impl Server {
    /// Starts `arena serve DIR/ladder.toml --db DIR/ladder.db --workers N` in a fresh scratch
    /// folder `target/tmp/serve-<tag>/` (`ladder_toml` is written there), and waits until it
    /// serves. The workers keep their compiled WASM under the folder, not in the home folder.
    /// Its stderr goes to the test's.
    ///
    /// # Panics
    /// The server does not print its invite link and start serving within 60 seconds.
    pub fn start(tag: &str, ladder_toml: &str, workers: usize) -> Server {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{tag}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("ladder.toml");
        std::fs::write(&config, ladder_toml).unwrap();
        // A port nobody holds now; the server binds it a moment later.
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("serve")
            .arg(&config)
            .arg("--db")
            .arg(dir.join("ladder.db"))
            .args(["--bind", &format!("127.0.0.1:{port}"), "--workers", &workers.to_string()])
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("arena serve starts");
        let (lines, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            // Read to the end even when nobody listens any more: a server writing into a
            // closed pipe would fail.
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let started = Instant::now();
        let mut invite = None;
        loop {
            let left = Duration::from_secs(60).saturating_sub(started.elapsed());
            match rx.recv_timeout(left) {
                Ok(line) if line.trim_start().starts_with(&format!("{url}/register?invite=")) => {
                    invite = Some(line.trim().to_string());
                }
                Ok(line) if line.starts_with("Serving the ladder at") => break,
                Ok(_) => {}
                Err(e) => {
                    let _ = child.kill();
                    panic!("arena serve did not start serving within 60 s ({e}); see its stderr above");
                }
            }
        }
        let invite = invite.expect("the first start prints the one-time admin invite link");
        // The listener is bound before the line is printed; wait for the port all the same.
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(60), "nothing listens on {url}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Server { child, url, invite, dir }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the server with SIGKILL (no chance to clean up) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The live (not zombie) processes whose parent is `pid`, from /proc.
pub fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(id) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let mut fields = rest.split_whitespace();
        let state = fields.next();
        if state != Some("Z") && fields.next().and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            out.push(id);
        }
    }
    out
}

/// Whether process `pid` is alive (exists and is not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rfind(')').map(|i| stat[i + 1..].split_whitespace().next() != Some("Z")))
        .unwrap_or(false)
}
