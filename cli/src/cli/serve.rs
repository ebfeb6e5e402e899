//! `arena serve` (the web ladder) and `arena submit` (upload a bot to one).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context};

use cardarena_ladder::{self as ladder, Jobs, LadderConfig, SqliteStore};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The ladder's settings (games, limits, matchmaking, registration); default: every game,
    /// invite-only (docs/ladder.md).
    ladder: Option<PathBuf>,
    /// The ladder database: a SQLite file (created on first start), or, in a build with the
    /// feature `postgres`, postgres://USER@HOST:PORT/DB (one ladder served with workers on
    /// other machines; its tables are created on first start).
    #[arg(long, value_name = "FILE|URL", default_value = "ladder.db")]
    db: String,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// How people reach the server, for invite links; https makes the session cookie Secure
    /// (default: ladder.toml's `public_url`, else http://BIND).
    #[arg(long)]
    url: Option<String>,
    /// Worker processes that play the matches (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// The workers' lease of a claimed match, in seconds: a worker that dies mid-match (killed,
    /// out of memory, the machine rebooted) has its match played again by another once the lease
    /// runs out. A heartbeat renews it every third of it while the match plays.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    lease: f64,
    /// Copy the database (while a server may be using it) to FILE and exit (SQLite; back a
    /// PostgreSQL ladder up with pg_dump).
    #[arg(long, value_name = "FILE")]
    backup: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct SubmitArgs {
    /// The bot file (.lua, .js, .py, .wasm or .wat).
    pub(crate) bot: PathBuf,
    /// The game it plays.
    #[arg(long)]
    pub(crate) game: String,
    /// The ladder's address, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    pub(crate) server: String,
    /// The bot's name on the ladder (default: the file name without its extension).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// A file holding the API token (default: the ARENA_TOKEN variable, else
    /// ~/.config/cardarena/token).
    #[arg(long, value_name = "FILE")]
    pub(crate) token_file: Option<PathBuf>,
}

pub fn serve_cmd(args: ServeArgs, games: &super::GameSet) -> anyhow::Result<()> {
    let config = match &args.ladder {
        Some(path) => ladder::config::load(path, games.lib())?,
        None => LadderConfig::of(games.lib()),
    };
    let postgres = ladder::db::is_postgres(&args.db);
    if let Some(to) = &args.backup {
        if postgres {
            bail!(
                "--backup copies a SQLite ladder; back up a PostgreSQL ladder with its own tools, e.g. `pg_dump --format=custom --file=ladder.dump DB` (docs/deploy.md)"
            );
        }
        if to.exists() {
            bail!("{} exists; name a new file for the backup", to.display());
        }
        SqliteStore::open(std::path::Path::new(&args.db))?.backup(to)?;
        println!("copied {} to {}", args.db, to.display());
        return Ok(());
    }
    let db = ladder::db::open(&args.db)?;
    let url = args
        .url
        .clone()
        .or_else(|| config.public_url.clone())
        .unwrap_or_else(|| format!("http://{}", args.bind));
    if let Some(code) = db.first_admin_invite()? {
        println!(
            "First start: open this one-time link to create the admin account:\n  {}",
            ladder::server::invite_link(&url, &code)
        );
    }
    // The queue lives in the ladder's own database (its tables are `queue_*`); its workers fetch
    // the bots from it by content hash.
    let queue_url = if postgres { args.db.clone() } else { format!("sqlite:{}", args.db) };
    let queue = cardarena::tournament::queue::open(&queue_url)?;
    let jobs = Arc::new(Jobs::new(queue, config.clone()));
    let workers = args.workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if !(args.lease.is_finite() && args.lease > 0.0) {
        bail!("--lease must be a number of seconds above 0, not {}", args.lease);
    }
    let supervisor = supervise(&queue_url, workers, args.lease, stop.clone())?;
    let served = ladder::serve::serve(db, config, jobs, &args.bind, &url, || {
        println!("Serving the ladder at {url} with {workers} worker process(es) (Ctrl-C stops)");
    });
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = supervisor.join();
    Ok(served?)
}

/// Keeps `n` worker processes (`arena worker --db QUEUE --group ladder --lease SECS --poll
/// 0.2`: an idle worker looks for the next matches five times a second) running: one that exits
/// or is killed is started again, and its match is played again once its lease runs out.
fn supervise(
    queue_url: &str,
    n: usize,
    lease: f64,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<std::thread::JoinHandle<()>> {
    use std::sync::atomic::Ordering;
    let exe = std::env::current_exe().context("cannot find the arena program to start workers")?;
    let url = queue_url.to_string();
    let lease = lease.to_string();
    let start = move |k: usize| {
        let mut worker = std::process::Command::new(&exe);
        worker
            .args(["worker", "--db", &url, "--group", "ladder", "--lease", &lease, "--poll", "0.2"])
            .args(["--name", &format!("ladder-worker-{k}")])
            .stdin(std::process::Stdio::null());
        die_with_server(&mut worker);
        worker.spawn()
    };
    let mut children = Vec::new();
    for k in 0..n {
        children.push(start(k).context("cannot start a worker process")?);
    }
    Ok(std::thread::spawn(move || {
        while !stop.load(Ordering::SeqCst) {
            for (k, child) in children.iter_mut().enumerate() {
                if let Ok(Some(status)) = child.try_wait() {
                    eprintln!("worker {k} stopped ({status}); starting another");
                    match start(k) {
                        Ok(c) => *child = c,
                        Err(e) => eprintln!("cannot start worker {k}: {e}"),
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        for child in &mut children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }))
}

/// A worker dies with the server, even one killed with SIGKILL (Linux's parent-death signal):
/// no orphan keeps playing on a database whose server is gone, and a restarted server starts
/// its own. The thread that starts a worker lives as long as the server (the main thread, or
/// the supervisor, which stops the workers itself when it ends).
#[cfg(target_os = "linux")]
fn die_with_server(worker: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    let server = std::process::id();
    // SAFETY: between fork and exec the closure calls only prctl, getppid and _exit, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        worker.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            // The server died before the signal was set: go now.
            if libc::getppid() as u32 != server {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_server(_worker: &mut std::process::Command) {}

pub fn submit_cmd(args: SubmitArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.bot).with_context(|| format!("cannot read bot file {}", args.bot.display()))?;
    let token =
        token(args.token_file.as_deref(), std::env::var("ARENA_TOKEN").ok(), std::env::var_os("HOME"))?;
    let file = args.bot.file_name().and_then(|f| f.to_str()).unwrap_or("bot").to_string();
    let name = match args.name {
        Some(n) => n,
        None => args.bot.file_stem().and_then(|s| s.to_str()).unwrap_or("bot").to_string(),
    };
    let url = format!("{}/api/bots", args.server.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut response = agent
        .post(&url)
        .query("game", &args.game)
        .query("name", &name)
        .query("file", &file)
        .header("Authorization", &format!("Bearer {token}"))
        .send(&bytes[..])
        .with_context(|| {
            format!("cannot reach the ladder at {} (is `arena serve` running there?)", args.server)
        })?;
    let status = response.status();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    let body: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    if !status.is_success() {
        let message = body.get("error").and_then(|e| e.as_str()).unwrap_or("no message");
        bail!("the ladder refused the upload ({status}): {message}");
    }
    println!(
        "uploaded {} v{} ({}); validation runs now, see {}",
        body["bot"].as_str().unwrap_or(&name),
        body["version"],
        body["state"].as_str().unwrap_or("pending"),
        body["page"].as_str().unwrap_or(&args.server)
    );
    Ok(())
}

/// The API token: `--token-file`, else `ARENA_TOKEN` (`env`), else `~/.config/cardarena/token`
/// under `home`.
pub(crate) fn token(
    file: Option<&std::path::Path>,
    env: Option<String>,
    home: Option<std::ffi::OsString>,
) -> anyhow::Result<String> {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .map(|t| t.trim().to_string())
            .with_context(|| format!("cannot read the token file {}", p.display()))
    };
    if let Some(p) = file {
        return read(p);
    }
    if let Some(t) = env {
        return Ok(t.trim().to_string());
    }
    let default = home.map(|h| PathBuf::from(h).join(".config/cardarena/token"));
    match default {
        Some(p) if p.is_file() => read(&p),
        _ => bail!("no API token: make one on your account page of the ladder, then set ARENA_TOKEN or write it to ~/.config/cardarena/token"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};

    /// A request as the server below received it: its first line, its headers (lower case),
    /// its body.
    type Received = (String, Vec<String>, Vec<u8>);

    /// A one-request HTTP server on a free port: answers `status` with the JSON `body` and
    /// hands back the request it received.
    fn one_answer(status: &str, body: &str) -> (String, std::thread::JoinHandle<Received>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let answer = format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let served = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let mut headers = Vec::new();
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                if h.trim().is_empty() {
                    break;
                }
                headers.push(h.trim().to_ascii_lowercase());
            }
            let length: usize = headers
                .iter()
                .find_map(|h| h.strip_prefix("content-length: "))
                .map_or(0, |n| n.parse().unwrap());
            let mut bytes = vec![0; length];
            reader.read_exact(&mut bytes).unwrap();
            (&stream).write_all(answer.as_bytes()).unwrap();
            (line, headers, bytes)
        });
        (url, served)
    }

    #[test]
    fn arena_submit_posts_the_file_with_its_token_and_reports_refusals() {
        let dir = std::env::temp_dir().join(format!("arena-submit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bot = dir.join("dice.lua");
        std::fs::write(&bot, "function act(o) return o.legal[1] end").unwrap();
        let token_file = dir.join("token");
        std::fs::write(&token_file, "secret-token\n").unwrap();
        let args = |server: String| SubmitArgs {
            bot: bot.clone(),
            game: "blade".into(),
            server,
            name: None,
            token_file: Some(token_file.clone()),
        };
        let (url, served) = one_answer(
            "201 Created",
            r#"{"bot":"dice","version":1,"state":"pending","page":"http://x/bots/1"}"#,
        );
        submit_cmd(args(url)).unwrap();
        let (line, headers, body) = served.join().unwrap();
        assert!(line.starts_with("POST /api/bots?game=blade&name=dice&file=dice.lua "), "{line}");
        assert!(headers.contains(&"authorization: bearer secret-token".to_string()), "{headers:?}");
        assert_eq!(body, std::fs::read(&bot).unwrap());
        // A refusal: its status and the server's message.
        let (url, served) = one_answer("409 Conflict", r#"{"error":"this file is identical to dice v1"}"#);
        let e = format!("{:#}", submit_cmd(args(url)).unwrap_err());
        served.join().unwrap();
        assert!(e.contains("409") && e.contains("identical to dice v1"), "{e}");
        // No token anywhere: what to do.
        let e = format!("{:#}", token(None, None, Some("/nonexistent".into())).unwrap_err());
        assert!(e.contains("set ARENA_TOKEN"), "{e}");
        // The variable, trimmed, when there is no file.
        assert_eq!(token(None, Some(" abc\n".into()), None).unwrap(), "abc");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
