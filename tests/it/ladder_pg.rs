//! The web ladder on PostgreSQL, end to end: `arena serve --db postgres://…` on a throwaway
//! cluster the test starts, with an `arena worker --group ladder` started on its own in an empty
//! folder (as on another machine: the bots come from the database by hash). Bots uploaded over
//! the API are validated and fill the leaderboard; a person plays a bot over HTTP (the worker's
//! person seat waits for the moves in PostgreSQL); a seat's analysis is asked for on a match
//! page and computed by that worker; a server started again with its own worker
//! processes validates on the same database; `--backup` is refused with what to use instead.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use testkit::ladder::{wait_for, Client, Server};

fn arena() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

const LADDER: &str = "title = \"pg\"\nsame_owner = true\n[[board]]\ngame = \"blade\"\n\
[[board]]\ngame = \"ecard\"\n[matchmaking]\ntick_seconds = 1\njobs_per_tick = 2\n\
[analysis]\nbudget = 50\n";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-ladder-pg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A worker process of the ladder on `url`, in `dir` (killed when dropped).
struct Worker(Child);

impl Worker {
    fn start(url: &str, dir: &Path, name: &str) -> Worker {
        let child = Command::new(arena())
            .args([
                "worker", "--db", url, "--group", "ladder", "--lease", "5", "--poll", "0.2", "--name", name,
            ])
            .args(["--no-wasm-cache"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Worker(child)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn count(c: &mut postgres::Client, sql: &str) -> i64 {
    c.query_one(sql, &[]).unwrap().get(0)
}

#[test]
fn a_ladder_on_postgresql_validates_plays_and_serves_with_a_worker_elsewhere() {
    let Some(pg) = testkit::postgres::cluster("ladder") else { return };
    let url = pg.database("ladder");
    let dir = temp_dir("server");
    std::fs::write(dir.join("ladder.toml"), LADDER).unwrap();

    // --backup is SQLite's: a PostgreSQL ladder is backed up with pg_dump.
    let out = Command::new(arena())
        .args(["serve", "--db", &url, "--backup", "copy.db"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("pg_dump"), "{err}");
    assert!(!dir.join("copy.db").exists());

    // The server plays nothing itself; one worker elsewhere, in a folder without bots.
    let server = Server::start_on(arena(), &dir, &url, 0, 5.0);
    let elsewhere = temp_dir("elsewhere");
    let worker = Worker::start(&url, &elsewhere, "remote-1");
    let mut client = Client::new(&server.url);
    let token = client.admin_token(server.invite.as_deref().expect("a first start prints the admin invite"));
    client.upload(&token, "last", "function act(obs) return obs.legal[#obs.legal] end\n");
    client.upload(&token, "first", "function act(obs) return obs.legal[1] end\n");
    // E-card: both seats decide every round, so the person below is asked.
    let eddie = b"function act(obs) return obs.legal[#obs.legal] end\n-- ecard\n";
    client.upload_file(&token, "ecard", "eddie", "eddie.lua", eddie);
    let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    wait_for("the three versions validated by the remote worker", || {
        (count(&mut c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 3).then_some(())
    });
    wait_for("duplicate sets on the board", || {
        (count(&mut c, "SELECT count(*) FROM matches") >= 2).then_some(())
    });
    let workers: Vec<String> =
        c.query("SELECT DISTINCT worker FROM queue_results", &[]).unwrap().iter().map(|r| r.get(0)).collect();
    assert_eq!(workers, ["remote-1"]);
    let r = client.get("/board/blade/readme");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("first@v1.lua") && r.body.contains("last@v1.lua"), "{}", r.body);
    let bot: i64 = c.query_one("SELECT id FROM bots WHERE name = 'first'", &[]).unwrap().get(0);
    let r = client.get(&format!("/bots/{bot}"));
    assert!(r.body.contains("class=\"state-ready\""), "{}", r.body);

    // A person plays `eddie` in the browser: the remote worker's person seat waits in
    // PostgreSQL for each move made on the page.
    let version: i64 = c
        .query_one("SELECT v.id FROM versions v JOIN bots b ON b.id = v.bot WHERE b.name = 'eddie'", &[])
        .unwrap()
        .get(0);
    client.get("/play");
    let r = client.post("/play", &[("opponent", &format!("{version}/readme")), ("seat", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let game: i64 = c.query_one("SELECT id FROM play_games", &[]).unwrap().get(0);
    client.get(&format!("/play/{game}"));
    let mut moves = 0;
    loop {
        let state = wait_for("the person's turn or the end", || {
            let r = client.get(&format!("/play/{game}/state"));
            let s: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            matches!(s["waiting"].as_str(), Some("you" | "over")).then_some(s)
        });
        if state["waiting"] == "over" {
            assert_eq!(state["state"], "done", "{state}");
            break;
        }
        let n = state["turn"]["n"].as_i64().unwrap().to_string();
        let action = state["turn"]["legal"][0].as_str().unwrap().to_string();
        let r = client.post(&format!("/play/{game}/move"), &[("n", &n), ("action", &action)]);
        assert_eq!(r.status, 303, "{}", r.body);
        moves += 1;
    }
    let asked = count(&mut c, "SELECT count(*) FROM play_turns");
    let summary: Option<String> = c.query_one("SELECT summary FROM play_games", &[]).unwrap().get(0);
    assert!(moves > 0 && asked == moves, "{moves} move(s), {asked} decision(s) put: {summary:?}");
    let replay = client.get(&format!("/play/{game}/replay.json"));
    assert_eq!(replay.status, 200, "{}", replay.body);

    // A seat's analysis asked for on a match page: a row of PostgreSQL's `analyses`, computed
    // by the remote worker between its matches, then drawn by the page's viewer.
    let m: i64 =
        c.query_one("SELECT id FROM matches WHERE game = 'blade' ORDER BY id LIMIT 1", &[]).unwrap().get(0);
    client.get(&format!("/matches/{m}"));
    let r = client.post(&format!("/matches/{m}/analyse"), &[("seat", "0")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = wait_for("the analysis computed by the remote worker", || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let r = client.get(&format!("/matches/{m}?analysis=0"));
        r.body.contains("shows the analysis of seat 0").then_some(r.body)
    });
    assert!(page.contains("\"analysis\":{\"game\":\"blade\""), "{page}");
    let state: String =
        c.query_one("SELECT state FROM analyses WHERE match_id = $1 AND seat = 0", &[&m]).unwrap().get(0);
    assert_eq!(state, "done");

    // Started again with worker processes of its own: they play on the same database.
    drop(worker);
    server.interrupt();
    let server = Server::start_on(arena(), &dir, &url, 1, 5.0);
    assert!(server.invite.is_none(), "the admin is in the database: no second invite");
    // The token made before the restart is still good (it is in the database).
    let client = Client::new(&server.url);
    client.upload(&token, "third", "function act(obs) return obs.legal[1] end\n-- third\n");
    wait_for("the new version validated by the server's worker", || {
        (count(&mut c, "SELECT count(*) FROM versions WHERE state = 'ready'") == 4).then_some(())
    });
    let ours = count(&mut c, "SELECT count(*) FROM queue_results WHERE worker = 'ladder-worker-0'");
    assert!(ours > 0, "the server's own worker played on PostgreSQL");
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(elsewhere);
}
