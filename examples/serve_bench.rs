//! The web ladder under load (not a test; results in BENCHMARKS.md, "The web ladder"). Starts
//! `arena serve --workers W` on a free loopback port with a throwaway database and a Blade board
//! of four bots (the example Lua random and greedy Blade bots, the example Rust WASM one, and
//! `benches/bots/trivial.lua`), uploaded over the API, then measures
//!
//! 1. **ladder throughput**: results the worker processes store per second over a window, with
//!    matchmaking keeping them fed, against `arena tournament --threads W` on the same four
//!    bots, one event per pair in the proportions the ladder's matchmaking played them (duplicate
//!    deals), on the same machine after the ladder has stopped;
//! 2. **page latency** p50/p99 of the leaderboard and of a match page (the replay viewer) at
//!    50 and 200 concurrent loopback clients (tokio tasks, each on a keep-alive connection of
//!    hyper's client and with its own session cookie, as a browser, asking for the two pages in
//!    turn) while the workers play.
//!
//! ```sh
//! cargo build --release --bin arena
//! cargo run --release --example serve_bench -- [--workers 2] [--seconds 15] [--clients 50,200] [--matches N]
//! ```
//!
//! It uses the `arena` of its own profile (target/release/arena for a --release run; or
//! `--arena PATH`). The machine is shared: print `uptime` before and after a run.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use axum::body::Body;
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::rt::TokioExecutor;
use testkit::ladder::{count, db, wait_for, Client, Server};

const BOTS: [(&str, &str); 4] = [
    ("random", "example_bots/lua/blade_random.lua"),
    ("greedy", "example_bots/lua/blade_greedy.lua"),
    ("rust", "example_bots/wasm/blade_rust.wasm"),
    ("first", "benches/bots/trivial.lua"),
];

struct Options {
    arena: PathBuf,
    workers: usize,
    seconds: f64,
    clients: Vec<usize>,
    /// Matches of the tournament (default: as many as the ladder played in its window).
    matches: Option<u64>,
}

fn options() -> Options {
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    let mut o = Options {
        arena: Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join(profile).join("arena"),
        workers: 2,
        seconds: 15.0,
        clients: vec![50, 200],
        matches: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        fn num<T: std::str::FromStr>(flag: &str, value: &str) -> T {
            value.trim().parse().unwrap_or_else(|_| panic!("{flag} {value}: not a number"))
        }
        match flag.as_str() {
            "--arena" => o.arena = PathBuf::from(&value),
            "--workers" => o.workers = num(&flag, &value),
            "--seconds" => o.seconds = num(&flag, &value),
            "--matches" => o.matches = Some(num(&flag, &value)),
            "--clients" => o.clients = value.split(',').map(|c| num(&flag, c)).collect(),
            _ => {
                panic!(
                    "unknown flag {flag}: --arena PATH --workers N --seconds S --clients 50,200 --matches N"
                )
            }
        }
    }
    assert!(
        o.arena.is_file(),
        "{} is not there: build it first (cargo build --release --bin arena), or name one with --arena",
        o.arena.display()
    );
    o
}

/// The ladder's board: matchmaking every second, enough duplicate sets per tick to keep the
/// workers busy, no rate limit in the way of the bench's own uploads.
const LADDER: &str = "title = \"bench\"\nsame_owner = true\n[[board]]\ngame = \"blade\"\n\
[matchmaking]\ntick_seconds = 1\njobs_per_tick = 4000\n[upload]\nper_minute = 100\n[api]\nper_minute = 100000\n";

fn main() {
    let o = options();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("cardarena-serve-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();
    println!("arena: {}\nload before: {}", o.arena.display(), uptime());

    let server = Server::start(&o.arena, &dir, o.workers, 60.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().expect("a first start prints the admin invite"));
    for (name, file) in BOTS {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let file_name = Path::new(file).file_name().unwrap().to_str().unwrap();
        client.upload_file(&token, "blade", name, file_name, &bytes);
    }
    let c = db(&dir);
    wait_for("the four versions validated", || {
        (count(&c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 4).then_some(())
    });
    wait_for("matches on the board", || (count(&c, "SELECT count(*) FROM matches") >= 10).then_some(()));

    // 1. Throughput: results stored by the workers (the queue's, whether or not the ladder
    // has taken them in yet) over the window.
    let results = || count(&c, "SELECT count(*) FROM queue_results");
    let play_ms = || count(&c, "SELECT coalesce(sum(play_ms), 0) FROM queue_results");
    let (n0, p0, t0) = (results(), play_ms(), Instant::now());
    std::thread::sleep(Duration::from_secs_f64(o.seconds));
    let played = results() - n0;
    let window = t0.elapsed().as_secs_f64();
    let ladder_rate = played as f64 / window;
    // The workers' time inside matches (`Match::play` and packing), against their wall time.
    let playing = (play_ms() - p0) as f64 / 1000.0;
    let busy = playing / (window * o.workers as f64);

    // 2. Latency at each client count, while the workers play.
    let match_id: i64 = c.query_row("SELECT min(id) FROM matches", [], |r| r.get(0)).unwrap();
    let pages =
        [("leaderboard", "/board/blade/readme".to_string()), ("match page", format!("/matches/{match_id}"))];
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let mut rows = Vec::new();
    for &n in &o.clients {
        let (r0, t0) = (results(), Instant::now());
        let samples = runtime.block_on(load(&server.url, &pages, n, Duration::from_secs_f64(o.seconds)));
        let during = (results() - r0) as f64 / t0.elapsed().as_secs_f64();
        rows.push((n, samples, during));
    }
    let load_after = uptime();
    let total_matches = count(&c, "SELECT count(*) FROM matches");
    let pairs = pairs_played(&c);
    drop(server);
    // The tournament after the server and its workers have stopped, so that it has the cores to
    // itself as the ladder had, and on the ladder's mix of pairs: matchmaking pairs bots near
    // in rating, so some pairs play more often than in a round robin, and pairs differ in cost.
    let tournament_matches = o.matches.unwrap_or(played as u64).max(120);
    let (tournament_rate, tournament_played) = tournament(&o, root, &dir, &pairs, tournament_matches);

    println!("\n| measure | value |\n|---|---|");
    println!("| workers | {} processes |", o.workers);
    println!("| ladder throughput (idle site) | {ladder_rate:.1} matches/s |");
    println!("| ladder matches in the window | {played} in {:.0} s |", o.seconds);
    println!(
        "| workers' time inside matches | {:.0}% ({:.2} ms a match) |",
        100.0 * busy,
        1000.0 * playing / played.max(1) as f64
    );
    println!(
        "| `arena tournament --threads {}` on the same bots and the ladder's mix of pairs ({tournament_played} matches) | {tournament_rate:.1} matches/s |",
        o.workers
    );
    println!("| ladder / tournament | {:.0}% |", 100.0 * ladder_rate / tournament_rate);
    println!(
        "\n| clients | page | requests | errors | p50 ms | p99 ms | pages/s | ladder matches/s meanwhile |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (n, samples, during) in &rows {
        for (k, (page, _)) in pages.iter().enumerate() {
            let mut ms: Vec<f64> = samples.iter().filter(|s| s.0 == k && s.2).map(|s| s.1).collect();
            let errors = samples.iter().filter(|s| s.0 == k && !s.2).count();
            ms.sort_by(f64::total_cmp);
            let at =
                |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(f64::NAN);
            println!(
                "| {n} | {page} | {} | {errors} | {:.1} | {:.1} | {:.0} | {during:.1} |",
                ms.len(),
                at(0.5),
                at(0.99),
                ms.len() as f64 / o.seconds
            );
        }
    }
    println!("\nmatches on the board at the end: {total_matches}\nload after: {load_after}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn uptime() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "?".into(),
        |l| {
            let f: Vec<&str> = l.split_whitespace().take(3).collect();
            format!("load average {}", f.join(", "))
        },
    )
}

/// How many matches the ladder played of each pair of the bench's bots (indices into `BOTS`).
fn pairs_played(c: &rusqlite::Connection) -> std::collections::BTreeMap<(usize, usize), u64> {
    let index = |name: &str| BOTS.iter().position(|(n, _)| *n == name);
    let mut bot_of = std::collections::BTreeMap::new();
    let mut st =
        c.prepare("SELECT versions.id, bots.name FROM versions JOIN bots ON bots.id = versions.bot").unwrap();
    for row in st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))).unwrap() {
        let (v, name) = row.unwrap();
        bot_of.insert(v, index(&name).unwrap_or_else(|| panic!("a bot the bench did not upload: {name}")));
    }
    let mut pairs = std::collections::BTreeMap::new();
    let mut st = c.prepare("SELECT seats FROM matches").unwrap();
    for row in st.query_map([], |r| r.get::<_, String>(0)).unwrap() {
        let seats: Vec<i64> = serde_json::from_str(&row.unwrap()).unwrap();
        let (a, b) = (bot_of[&seats[0]], bot_of[&seats[1]]);
        *pairs.entry((a.min(b), a.max(b))).or_insert(0) += 1;
    }
    pairs
}

/// `arena tournament --threads W` on the ladder's bots, one event per pair with deals in the
/// proportions of `pairs` (a deal: both seatings), about `total` matches in all: matches per
/// second as it reports them, and how many it played.
fn tournament(
    o: &Options,
    root: &Path,
    dir: &Path,
    pairs: &std::collections::BTreeMap<(usize, usize), u64>,
    total: u64,
) -> (f64, u64) {
    let file = |k: usize| format!("{:?}", root.join(BOTS[k].1).display().to_string());
    let all: u64 = pairs.values().sum::<u64>().max(1);
    let mut toml = String::new();
    for (&(a, b), &n) in pairs {
        let deals = (total * n).div_ceil(all * 2).max(1);
        toml += &format!(
            "[[event]]\nname = \"{a}-{b}\"\ngame = \"blade\"\nbots = [{}, {}]\ndeals = {deals}\n",
            file(a),
            file(b)
        );
    }
    std::fs::write(dir.join("arena.toml"), toml).unwrap();
    let out = std::process::Command::new(&o.arena)
        .args(["tournament", "arena.toml", "--quiet", "--db", "t.db", "--threads", &o.workers.to_string()])
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "arena tournament: {err}");
    // "N matches played now, 0 found in t.db (S s, W threads)"
    let line = err.lines().find(|l| l.contains("matches played now")).unwrap_or_else(|| panic!("{err}"));
    let played: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
    let secs: f64 = line.split('(').nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    (played / secs, played as u64)
}

/// `clients` tasks asking for `pages` in turn for `time`: (page, milliseconds, ok) per request.
async fn load(
    base: &str,
    pages: &[(&str, String)],
    clients: usize,
    time: Duration,
) -> Vec<(usize, f64, bool)> {
    let http: HttpClient<_, Body> = HttpClient::builder(TokioExecutor::new()).build_http();
    let until = Instant::now() + time;
    let tasks: Vec<_> = (0..clients)
        .map(|k| {
            let http = http.clone();
            let uris: Vec<String> = pages.iter().map(|(_, p)| format!("{base}{p}")).collect();
            tokio::spawn(async move {
                let mut samples = Vec::new();
                let mut i = k;
                // A browser keeps its session cookie (else every page view makes a session).
                let mut cookie: Option<String> = None;
                while Instant::now() < until {
                    let page = i % uris.len();
                    i += 1;
                    let mut req = axum::http::Request::get(uris[page].as_str());
                    if let Some(c) = &cookie {
                        req = req.header("cookie", c);
                    }
                    let req = req.body(Body::empty()).unwrap();
                    let start = Instant::now();
                    let ok = match http.request(req).await {
                        Ok(r) => {
                            let status = r.status();
                            if let Some(c) = r.headers().get("set-cookie").and_then(|c| c.to_str().ok()) {
                                cookie = c.split(';').next().map(str::to_string);
                            }
                            axum::body::to_bytes(Body::new(r.into_body()), usize::MAX).await.is_ok()
                                && status.is_success()
                        }
                        Err(_) => false,
                    };
                    samples.push((page, start.elapsed().as_secs_f64() * 1000.0, ok));
                }
                samples
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all
}
