//! `kuhn-arena`, the arena's command line with Kuhn poker added (src/main.rs, one line), used
//! as a person would: a match, a check, a replay verified, a tournament through a PostgreSQL
//! job queue with two worker processes, and a web ladder with a Kuhn leaderboard.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kuhn_arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kuhn-arena"))
}

/// A scratch folder with the example bots of bots/ copied in.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kuhn-arena-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for bot in ["kuhn_rank.lua", "kuhn_king.wat"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("bots").join(bot), dir.join(bot)).unwrap();
    }
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let out = kuhn_arena().args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "kuhn-arena {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every command reaches the outside game: the list of games, a match between Kuhn's own
/// built-in, a Lua bot and a WAT bot, its replay verified, a check, the schema; a built-in
/// Kuhn lacks (`greedy`) is refused with the list of those it has.
#[test]
fn the_command_line_plays_kuhn() {
    let dir = scratch("play");
    assert!(stdout(&run(&dir, &["games"])).contains("kuhn         2 players  variants: standard"));
    let o = run(&dir, &["play", "--game", "kuhn", "--bots", "nash,kuhn_rank.lua", "--seed", "3"]);
    assert!(stdout(&o).contains("seat 1 kuhn_rank.lua: -1 points, rank 2"), "{}", stdout(&o));
    let o = run(
        &dir,
        &["play", "--game", "kuhn", "--bots", "kuhn_king.wat,best-response", "--seed", "5", "--json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["game"], "kuhn");
    assert_eq!(json["seats"][0]["bot"], "kuhn_king.wat");
    assert!(json["seats"][0]["faults"].as_array().unwrap().is_empty(), "{json}");
    run(&dir, &["play", "--game", "kuhn", "--bots", "nash:1/6,kuhn_rank.lua", "--replay", "m.json"]);
    assert!(stdout(&run(&dir, &["replay", "m.json", "--verify"])).contains("identical"));
    assert!(stdout(&run(&dir, &["replay", "m.json", "--as-seat", "1"])).contains("your card"));
    let o = run(&dir, &["check", "kuhn_rank.lua", "--game", "kuhn", "--deals", "20"]);
    assert!(stdout(&o).contains("nash") && stdout(&o).contains("random"), "{}", stdout(&o));
    let schema: serde_json::Value =
        serde_json::from_slice(&run(&dir, &["schema", "--game", "kuhn"]).stdout).unwrap();
    assert!(schema["properties"]["card"].is_object(), "{schema}");
    let o = kuhn_arena()
        .args(["play", "--game", "kuhn", "--bots", "greedy,random"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("kuhn has no built-in bot \"greedy\"") && err.contains("best-response"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

const TOURNAMENT: &str = "[[event]]\nname = \"kuhn\"\ngame = \"kuhn\"\n\
bots = [\"nash\", \"best-response\", \"random\", \"kuhn_rank.lua\", \"kuhn_king.wat\"]\ndeals = 20\nduplicate = true\n";

/// A Kuhn tournament through a throwaway PostgreSQL queue, its matches played by two
/// `kuhn-arena worker` processes: the standings are the local run's, byte for byte.
#[test]
fn a_tournament_through_postgresql_with_two_workers_has_the_local_standings() {
    let Some(pg) = testkit::postgres::cluster("kuhn") else { return };
    let dir = scratch("queue");
    std::fs::write(dir.join("kuhn.toml"), TOURNAMENT).unwrap();
    run(&dir, &["tournament", "kuhn.toml", "--quiet", "--db", "local.db", "--json", "local.json"]);
    let url = pg.database("kuhn");
    run(&dir, &["tournament", "kuhn.toml", "--db", &url, "--enqueue"]);
    let workers: Vec<_> = (0..2)
        .map(|k| {
            kuhn_arena()
                .args(["worker", "--db", &url, "--until-empty", "--name", &format!("w{k}")])
                .current_dir(&dir)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut w in workers {
        assert!(w.wait().unwrap().success());
    }
    run(
        &dir,
        &["tournament", "kuhn.toml", "--quiet", "--db", &url, "--threads", "0", "--json", "queue.json"],
    );
    let local = std::fs::read_to_string(dir.join("local.json")).unwrap();
    assert!(local.contains("\"game\": \"kuhn\"") && local.contains("best-response"), "{local}");
    assert_eq!(std::fs::read_to_string(dir.join("queue.json")).unwrap(), local);
    let mut c = pg.client("kuhn");
    let row = c.query_one("SELECT count(DISTINCT worker) FROM queue_results", &[]).unwrap();
    assert_eq!(row.get::<_, i64>(0), 2, "both workers played");
    std::fs::remove_dir_all(dir).ok();
}

const LADDER: &str = "title = \"Kuhn ladder\"\nsame_owner = true\n[[board]]\ngame = \"kuhn\"\n\
[matchmaking]\ntick_seconds = 1\njobs_per_tick = 2\n";

/// `kuhn-arena serve` with a Kuhn board: two uploaded Lua bots are validated by its worker,
/// meet, and stand on the Kuhn leaderboard; their match pages offer no analysis.
#[test]
fn serve_shows_a_kuhn_leaderboard() {
    use testkit::ladder::{count, db, wait_for, Client, Server};
    let dir = scratch("serve");
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();
    let server = Server::start(Path::new(env!("CARGO_BIN_EXE_kuhn-arena")), &dir, 1, 5.0);
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().expect("the first start prints an invite"));
    let rank = std::fs::read(dir.join("kuhn_rank.lua")).unwrap();
    client.upload_file(&token, "kuhn", "Rank", "rank.lua", &rank);
    let always = b"function act(obs) return obs.legal[#obs.legal] end\n";
    client.upload_file(&token, "kuhn", "Always", "always.lua", always);
    let c = db(&dir);
    wait_for("matches between the two bots", || {
        (count(&c, "SELECT count(*) FROM matches") >= 4).then_some(())
    });
    let page = client.get("/board/kuhn/standard");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Rank") && page.body.contains("Always"), "{}", page.body);
    let index = client.get("/");
    assert!(index.body.contains("/board/kuhn/standard"), "{}", index.body);
    // Kuhn poker has no `Analyse`: its match pages say so, and a request is refused clearly.
    let m = count(&c, "SELECT min(id) FROM matches");
    let page = client.get(&format!("/matches/{m}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("analysis is not available for kuhn"), "{}", page.body);
    assert!(!page.body.contains("Analyse seat"), "{}", page.body);
    let refused = client.post(&format!("/matches/{m}/analyse"), &[("seat", "0")]);
    assert_eq!(refused.status, 422, "{}", refused.body);
    drop(server); // with its workers
    std::fs::remove_dir_all(dir).ok();
}

/// `kuhn-arena bench` finds its own process-baseline program beside it
/// (`kuhn-arena-bench-child`) and measures Kuhn's matches with the four built-in games'.
#[test]
fn bench_runs_with_its_own_baseline_program_and_measures_kuhn() {
    let out = kuhn_arena().args(["bench", "--quick", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    for key in ["matches_kuhn_native", "matches_kuhn_lua", "matches_blade_native", "start_lua_ns"] {
        assert!(v[key].as_f64().is_some_and(|n| n > 0.0), "{key}: {}", v[key]);
    }
}
