//! `arena tournament` and `arena sprt` as a user runs them: results, resume, thread counts, a
//! `kill -9` in the middle, and errors in arena.toml.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-tournament-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    arena().args(args).output().expect("arena runs")
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

const SMALL: &str = r#"
[defaults]
seed = 11
deals = 6

[[event]]
game = "blade"
bots = ["greedy", "random"]

[[event]]
game = "ecard"
variant = "manga"
format = "gauntlet"
champion = "greedy"
bots = ["random", "greedy"]

[[event]]
game = "lost-cities"
format = "swiss"
rounds = 2
bots = ["greedy", "random"]
"#;

fn write(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("arena.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn rows(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT COUNT(*) FROM matches", [], |r| r.get(0)).unwrap_or(0)
}

#[test]
fn prints_standings_then_resumes_without_playing_again() {
    let dir = scratch("resume");
    let file = write(&dir, SMALL);
    let f = file.to_str().unwrap();
    let first = run(&["tournament", f, "--threads", "2"]);
    let table = ok(&first);
    for needle in ["== blade", "== ecard", "== lost-cities", "greedy", "random", "rating (95% CI)"] {
        assert!(table.contains(needle), "{needle} missing in\n{table}");
    }
    let err = String::from_utf8_lossy(&first.stderr);
    // blade: 6 deals × 2 seat orders; ecard: 6 × 2; lost-cities: 2 rounds × 6 × 2
    assert!(err.contains("48 matches played now, 0 found"), "{err}");
    assert_eq!(rows(&dir.join("arena.db")), 48);
    let second = run(&["tournament", f, "--threads", "2"]);
    assert_eq!(ok(&second), table, "a resumed run prints the same standings");
    assert!(String::from_utf8_lossy(&second.stderr).contains("0 matches played now, 48 found"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The JSON and CSV standings of the tournament file `text`, played on `threads` threads in a
/// fresh folder.
fn results_on(threads: &str, name: &str, text: &str) -> (Vec<u8>, Vec<u8>) {
    let dir = scratch(&format!("{name}{threads}"));
    let file = write(&dir, text);
    let (json, csv) = (dir.join("out.json"), dir.join("out.csv"));
    let (f, j, c) = (file.to_str().unwrap(), json.to_str().unwrap(), csv.to_str().unwrap());
    ok(&run(&["tournament", f, "--threads", threads, "--json", j, "--csv", c]));
    let out = (std::fs::read(&json).unwrap(), std::fs::read(&csv).unwrap());
    std::fs::remove_dir_all(&dir).ok();
    out
}

#[test]
fn thread_counts_give_identical_json_and_csv() {
    let outputs: Vec<_> = ["1", "2"].iter().map(|t| results_on(t, "threads", SMALL)).collect();
    assert_eq!(outputs[0], outputs[1]);
    let v: serde_json::Value = serde_json::from_slice(&outputs[0].0).unwrap();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 3);
    for ev in events {
        let standings = ev["standings"].as_array().unwrap();
        for (i, s) in standings.iter().enumerate() {
            assert_eq!(s["rank"], i as u64 + 1);
            for key in ["bot", "hash", "matches", "points", "rating", "ci_low", "ci_high", "faults"] {
                assert!(!s[key].is_null(), "{key} in {s}");
            }
            assert!(s["ci_low"].as_f64().unwrap() <= s["rating"].as_f64().unwrap());
            // the difference to the leader, with its own interval; none on the leader's line
            let leader = standings[0]["rating"].as_f64().unwrap();
            let vs = &s["vs_leader"];
            if i == 0 {
                assert!(vs.is_null(), "{s}");
            } else {
                let (d, lo, hi) =
                    (vs["diff"].as_f64().unwrap(), vs["low"].as_f64().unwrap(), vs["high"].as_f64().unwrap());
                assert!((d - (s["rating"].as_f64().unwrap() - leader)).abs() < 1e-9, "{s}");
                assert!(lo < d && d < hi, "{s}");
            }
        }
    }
    let csv = String::from_utf8(outputs[0].1.clone()).unwrap();
    assert!(csv.starts_with("event,game,variant,rank,bot,hash,matches,score,points"));
    assert!(csv.lines().next().unwrap().contains(",ci_high,vs_leader,vs_leader_low,vs_leader_high,"));
    assert_eq!(csv.lines().count(), 1 + 6);
}

/// Lua and WASM bots on several worker threads (every worker but the first on a sandbox lane of
/// its own: docs/sandbox.md, "Lanes") give the same standings, fuel included, as on one thread.
#[test]
fn sandboxed_bots_give_identical_results_on_any_thread_count() {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = format!(
        "[defaults]\nseed = 5\ndeals = 12\n\n[[event]]\ngame = \"blade\"\nbots = [\"{root}/benches/bots/random.wat\", \"{root}/example_bots/wasm/blade_rust.wasm\", \"{root}/benches/bots/random.lua\", \"greedy\"]\n"
    );
    let outputs: Vec<_> = ["1", "3"].iter().map(|t| results_on(t, "lanes", &text)).collect();
    assert_eq!(outputs[0], outputs[1]);
    let v: serde_json::Value = serde_json::from_slice(&outputs[0].0).unwrap();
    let standings = v["events"][0]["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4);
    for name in ["random.wat", "blade_rust.wasm"] {
        let wasm = standings.iter().find(|s| s["bot"].as_str().unwrap().ends_with(name)).unwrap();
        assert!(wasm["mean_fuel_per_decision"].as_f64().unwrap() > 0.0, "{wasm}");
    }
}

#[test]
fn kill_dash_nine_loses_and_duplicates_nothing() {
    let text = "[[event]]\ngame = \"blade\"\nseed = 5\ndeals = 3000\nbots = [\"greedy\", \"random\"]\n";
    let dir = scratch("kill");
    let file = write(&dir, text);
    let db = dir.join("arena.db");
    let mut child = arena()
        .args(["tournament", file.to_str().unwrap(), "--threads", "2", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rows(&db) < 100 {
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let at_kill = rows(&db);
    assert!((100..6000).contains(&at_kill), "killed too late to test anything: {at_kill}");
    // The resumed run plays exactly what is missing.
    let json = dir.join("resumed.json");
    let out =
        run(&["tournament", file.to_str().unwrap(), "--threads", "2", "--json", json.to_str().unwrap()]);
    ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    let played_now = 6000 - at_kill;
    assert!(err.contains(&format!("{played_now} matches played now, {at_kill} found")), "{err}");
    assert_eq!(rows(&db), 6000);
    // And the results equal those of a run that was never interrupted.
    let fresh_dir = scratch("kill-fresh");
    let fresh_file = write(&fresh_dir, text);
    let fresh_json = fresh_dir.join("fresh.json");
    ok(&run(&[
        "tournament",
        fresh_file.to_str().unwrap(),
        "--threads",
        "1",
        "--json",
        fresh_json.to_str().unwrap(),
    ]));
    assert_eq!(std::fs::read(&json).unwrap(), std::fs::read(&fresh_json).unwrap());
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&fresh_dir).ok();
}

#[test]
fn a_changed_bot_is_a_new_entrant() {
    let dir = scratch("changed");
    std::fs::write(dir.join("a.lua"), "function act(obs) return obs.legal[1] end\n").unwrap();
    let text = "[[event]]\ngame = \"ecard\"\ndeals = 2\nbots = [\"a.lua\", \"random\"]\n";
    let file = write(&dir, text);
    let f = file.to_str().unwrap();
    ok(&run(&["tournament", f]));
    std::fs::write(dir.join("a.lua"), "function act(obs) return obs.legal[#obs.legal] end\n").unwrap();
    let out = run(&["tournament", f]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 matches played now, 0 found"));
    assert_eq!(rows(&dir.join("arena.db")), 8);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_in_the_file_name_the_line_and_the_key() {
    let dir = scratch("errors");
    let cases = [
        ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\ndeals = 0\n", "arena.toml:4"),
        ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"random\"]\nspeed = 3\n", "speed"),
        ("[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"nobot\"]\n", "nobot\": a bot is a built-in"),
    ];
    for (text, needle) in cases {
        let file = write(&dir, text);
        let out = run(&["tournament", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = run(&["tournament", dir.join("missing.toml").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read tournament file"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sprt_accepts_h1_for_greedy_over_random_and_is_reproducible() {
    let args = ["sprt", "--game", "blade", "--bots", "greedy,random", "--elo1", "50", "--threads", "2"];
    let a = ok(&run(&args));
    assert!(a.contains("H1 accepted"), "{a}");
    assert!(a.contains("LLR"), "{a}");
    assert!(a.contains("normalized Elo of greedy over random: +"), "{a}");
    let b =
        ok(&run(&["sprt", "--game", "blade", "--bots", "greedy,random", "--elo1", "50", "--threads", "1"]));
    assert_eq!(a.lines().skip(1).collect::<Vec<_>>(), b.lines().skip(1).collect::<Vec<_>>());
    let same = ok(&run(&[
        "sprt",
        "--game",
        "ecard",
        "--bots",
        "random,random",
        "--elo-model",
        "logistic",
        "--elo0",
        "0",
        "--elo1",
        "100",
    ]));
    assert!(same.contains("H0 accepted") && same.contains("logistic Elo of random over random"), "{same}");
    let out = run(&["sprt", "--game", "intensity", "--bots", "greedy,random"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Starts `arena tournament FILE` on 2 threads and returns once `db` holds `stored` matches.
fn tournament_until_stored(file: &Path, db: &Path, stored: i64) -> std::process::Child {
    let child = arena()
        .args(["tournament", file.to_str().unwrap(), "--threads", "2", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rows(db) < stored {
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// Sends SIGINT (Ctrl-C) to `child`.
fn interrupt(child: &std::process::Child) {
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
}

#[test]
fn ctrl_c_stops_cleanly_and_keeps_every_finished_match() {
    let text = "[[event]]\ngame = \"blade\"\nseed = 8\ndeals = 3000\nbots = [\"greedy\", \"random\"]\n";
    let dir = scratch("sigint");
    let file = write(&dir, text);
    let db = dir.join("arena.db");
    let child = tournament_until_stored(&file, &db, 100);
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped early; run the same command again to resume"), "{err}");
    let kept = rows(&db);
    assert!(err.contains(&format!("{kept} matches played now")), "{err}");
    // the table says what it covers: the finished prefix of the plan
    let stdout = String::from_utf8_lossy(&out.stdout);
    let counted = stdout.split("first ").nth(1).and_then(|t| t.split(' ').next()).expect(&stdout);
    assert!(stdout.contains(&format!("first {counted} of 6000 matches in plan order")), "{stdout}");
    assert!(err.contains(&format!("the table counts the first {counted} of 6000")), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A second SIGINT (what `timeout -s INT` and an impatient user send) stops at once, with the
/// same summary; an event not started prints no table.
#[test]
fn a_second_ctrl_c_stops_now_with_the_same_summary() {
    // A slow bot (most of its fuel per decision), so that the matches in play are still running
    // when the second signal comes: the first one alone would wait for them.
    let dir = scratch("sigint2");
    std::fs::write(
        dir.join("slow.lua"),
        "function act(obs) local x = 0 for i = 1, 1500000 do x = x + i end return obs.legal[1] end\n",
    )
    .unwrap();
    let text = "[[event]]\nname = \"first\"\ngame = \"blade\"\nseed = 8\ndeals = 3000\nbots = [\"greedy\", \"slow.lua\"]\n\
                [[event]]\nname = \"second\"\ngame = \"ecard\"\nbots = [\"greedy\", \"random\"]\n";
    let file = write(&dir, text);
    let db = dir.join("arena.db");
    let mut child = tournament_until_stored(&file, &db, 2);
    // The second signal goes once the first has been handled: two SIGINTs pending at once are
    // one signal to the kernel.
    let stderr = child.stderr.take().unwrap();
    let (lines, heard) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
            let line = line.unwrap();
            if line.starts_with("stopping: finishing") {
                lines.send(()).ok();
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    interrupt(&child);
    heard.recv_timeout(Duration::from_secs(60)).expect("the first Ctrl-C is handled");
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    let err = reader.join().unwrap();
    assert!(out.status.success(), "{err}");
    assert!(err.contains("stopping now"), "{err}");
    assert!(err.contains("stopped early; run the same command again to resume"), "{err}");
    assert!(err.contains("second: not started, no table"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("== first") && !stdout.contains("== second"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A class: two good bots, a crasher, a syntax error, a `.wasm` that is not
/// WebAssembly and a copy. The bots that do not load forfeit every match with the verdict
/// `load` and are listed with their error; the event plays on; the crasher ranks below every
/// working bot; its 24 crashes give one line and one capsule.
#[test]
fn a_class_with_broken_bots_plays_on_and_faults_never_pay() {
    let dir = scratch("class");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in std::fs::read_dir(root.join("tests/data/class")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    // the two good students hand in the Lost Cities example bot, one of them under another name
    for student in ["alice.lua", "frank.lua"] {
        std::fs::copy(root.join("example_bots/lua/lost-cities_greedy.lua"), dir.join(student)).unwrap();
    }
    let out = arena()
        .args(["tournament", "arena.toml", "--threads", "2", "--json", "out.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("not loaded, forfeits every match: dave.lua: dave.lua:4:"), "{stdout}");
    assert!(stdout.contains("not loaded, forfeits every match: erin.wasm:"), "{stdout}");
    assert!(stdout.contains("ranked by score per match"), "{stdout}");
    // one rating unless asked; the win matrix in rank order, labelled by name
    assert!(!stdout.contains("glicko2") && stdout.contains("rating (95% CI)"), "{stdout}");
    let matrix = stdout.lines().skip_while(|l| !l.starts_with("placed above")).nth(1).expect(&stdout);
    let labels: Vec<&str> = matrix.split_whitespace().collect();
    assert_eq!(labels[3..], ["carol.lua", "dave.lua", "erin.wasm"], "{stdout}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("out.json")).unwrap()).unwrap();
    let ev = &v["events"][0];
    assert_eq!(ev["matches"], 120);
    let order: Vec<&str> =
        ev["standings"].as_array().unwrap().iter().map(|s| s["bot"].as_str().unwrap()).collect();
    assert_eq!(order[3..], ["carol.lua", "dave.lua", "erin.wasm"], "{order:?}");
    for s in ev["standings"].as_array().unwrap() {
        let faulty = !s["faults"].as_object().unwrap().is_empty();
        if faulty {
            // a faulting bot never ends a match ahead on points
            assert!(s["points"].as_f64().unwrap() < 0.0, "{s}");
        }
        if ["dave.lua", "erin.wasm"].contains(&s["bot"].as_str().unwrap()) {
            assert_eq!(s["faults"]["load"], 40, "{s}");
            assert_eq!(s["wins"], 0, "{s}");
        }
    }
    // stderr is not a terminal here: progress is a plain line, the last one at the end
    assert!(err.contains("class 120/120 matches"), "{err}");
    assert!(err.contains("class carol.lua: crash ×24 (first: match"), "{err}");
    assert!(err.contains("class dave.lua: load ×40"), "{err}");
    assert_eq!(
        std::fs::read_dir(dir.join("capsules")).unwrap().count(),
        1,
        "one capsule for carol's one failure"
    );
    let again =
        arena().args(["tournament", "arena.toml", "--ratings", "all"]).current_dir(&dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.contains("glicko2") && stdout.contains("trueskill"), "{stdout}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 matches played now, 120 found"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_repositorys_tournament_files_load_and_every_bot_resolves() {
    // README's first command runs arena.toml; docs/zoo.md is measured with docs/zoo.toml and
    // docs/zoo-targets.toml.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loader = cardarena::play::registry::Loader::new();
    for file in ["arena.toml", "docs/zoo.toml", "docs/zoo-targets.toml"] {
        let config = cardarena::tournament::config::load(&root.join(file), &cardarena::Games::builtin())
            .unwrap_or_else(|e| panic!("{e:#}"));
        assert!(!config.events.is_empty(), "{file}");
        for event in &config.events {
            for bot in &event.bot_paths {
                let game = cardarena::Games::builtin();
                let resolved = game.get(&event.game).unwrap().resolve(&loader, bot);
                resolved.unwrap_or_else(|e| panic!("{file}, event {}: {bot}: {}", event.name, e.chain()));
            }
        }
    }
}

/// `arena timing` (docs/zoo.md's time column) times every bot of every event: each plays the
/// deals from every seat against `greedy`, so a two-player bot on 2 deals makes decisions in 4
/// matches; the JSON names the game's `strong` levels.
#[test]
fn timing_reports_every_bot_with_its_decisions() {
    let dir = scratch("timing");
    let file = write(&dir, "[[event]]\nname = \"b\"\ngame = \"blade\"\nbots = [\"random\", \"strong:1\"]\n");
    let out = arena().args(["timing", file.to_str().unwrap(), "--deals", "2"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let event = &json[0];
    assert_eq!(event["name"], "b");
    assert_eq!(event["deals"], 2);
    assert!(event["strong_default_level"].as_u64().unwrap() <= event["strong_levels"].as_u64().unwrap());
    let bots = event["bots"].as_array().unwrap();
    assert_eq!(bots.iter().map(|b| b["bot"].as_str().unwrap()).collect::<Vec<_>>(), ["random", "strong:1"]);
    for b in bots {
        // Blade asks each seat at least one decision per match
        assert!(b["decisions"].as_u64().unwrap() >= 4, "{b}");
        assert!(b["mean_ms"].as_f64().unwrap() <= b["max_ms"].as_f64().unwrap(), "{b}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Faults group across the rounds of a Swiss event too: one line and one capsule per failure.
#[test]
fn a_crashers_faults_are_one_line_across_swiss_rounds() {
    let dir = scratch("swiss-faults");
    let class = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/class");
    std::fs::copy(class.join("carol.lua"), dir.join("carol.lua")).unwrap();
    let file = write(
        &dir,
        "[[event]]\ngame = \"ecard\"\nformat = \"swiss\"\nrounds = 3\ndeals = 2\nbots = [\"greedy\", \"random\", \"carol.lua\", \"nash\"]\n",
    );
    let out = run(&["tournament", file.to_str().unwrap(), "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("carol.lua: crash ×")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("crash ×12 "), "3 rounds × 2 deals × 2 seats: {err}");
    assert_eq!(std::fs::read_dir(dir.join("capsules")).unwrap().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A second SIGINT (what `timeout -s INT` and a second Ctrl-C send) stops within the decision
/// in progress: the match in play is dropped, not finished and not stored, and the run still
/// prints its summary.
#[test]
fn a_second_sigint_stops_within_the_decision_in_play() {
    let dir = scratch("sigint-now");
    // Each decision spins some 300M Lua instructions (most of a second; under the 3 s backstop);
    // a Lost Cities match has dozens of decisions per seat, so the one in play would go on for
    // a minute.
    std::fs::write(
        dir.join("slow.lua"),
        "function act(obs) local x = 0 for i = 1, 150000000 do x = x + i end return obs.legal[1] end\n",
    )
    .unwrap();
    let text = "[[event]]\ngame = \"lost-cities\"\ndeals = 1\nbots = [\"slow.lua\", \"greedy\"]\n\
                [event.limits]\nfuel_per_decision = 1000000000\nfuel_per_match = 1000000000000\n";
    let file = write(&dir, text);
    let child = arena()
        .args(["tournament", file.to_str().unwrap(), "--threads", "1", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    std::thread::sleep(Duration::from_millis(1500)); // inside the first match
                                                     // SAFETY: `pid` is our own child, still running (it cannot end before its first match does).
    unsafe { libc::kill(pid, libc::SIGINT) };
    std::thread::sleep(Duration::from_millis(300));
    let second = Instant::now();
    unsafe { libc::kill(pid, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let took = second.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(took < Duration::from_secs(4), "the second SIGINT took {took:?} to stop the run: {err}");
    assert!(err.contains("stopping now"), "{err}");
    assert!(err.contains("0 matches played now"), "{err}");
    assert!(err.contains("stopped early; run the same command again to resume"), "{err}");
    // The match cut short is not in the store: a resume plays it from the start.
    assert_eq!(rows(&dir.join("arena.db")), 0);
    std::fs::remove_dir_all(&dir).ok();
}

/// What an embedder's observer heard of a run: the events started (name, matches to play), the
/// matches finished, the times it was told the run ended.
type Told = (Vec<(String, u64)>, u64, u32);

#[derive(Default)]
struct Heard(std::sync::Mutex<Told>);

impl cardarena::tournament::Progress for Heard {
    fn event_started(&self, event: &str, total: u64) {
        self.0.lock().unwrap().0.push((event.to_string(), total));
    }
    fn matches_finished(&self, n: u64) {
        self.0.lock().unwrap().1 += n;
    }
    fn finished(&self) {
        self.0.lock().unwrap().2 += 1;
    }
}

/// A program that runs a tournament through the library is told of each event and every
/// finished match through its own `Progress` (the binary's bar is only one such observer; a Swiss
/// event is announced once per round), and
/// a resumed run, with nothing left to play, starts no event.
#[test]
fn an_embedder_hears_the_runs_progress() {
    use cardarena::tournament::{self, store::Store, RunOptions};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = scratch("progress");
    let toml = write(&dir, SMALL);
    let games = cardarena::Games::builtin();
    let config = tournament::config::load(&toml, &games).unwrap();
    let store = Store::open(&dir.join("t.db")).unwrap();
    for round in 0..2 {
        let heard = Arc::new(Heard::default());
        let opts = RunOptions {
            games: Arc::new(games.clone()),
            threads: 2,
            progress: heard.clone(),
            stop_now: None,
        };
        let result = tournament::run(&config, &store, &opts, &AtomicBool::new(false)).unwrap();
        let (events, matches, finished) = heard.0.lock().unwrap().clone();
        assert_eq!(finished, 1, "round {round}");
        if round == 0 {
            let names: Vec<&str> = config.events.iter().map(|e| e.name.as_str()).collect();
            // A Swiss event starts once per round.
            let mut started: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
            assert_eq!(started.iter().filter(|&&e| e == "lost-cities").count(), 2, "{started:?}");
            started.dedup();
            assert_eq!(started, names);
            assert_eq!(events.iter().map(|(_, n)| n).sum::<u64>(), result.played_now);
            assert_eq!(matches, result.played_now);
            assert!(matches > 0);
        } else {
            assert_eq!((events.len(), matches, result.played_now), (0, 0, 0), "round {round}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
