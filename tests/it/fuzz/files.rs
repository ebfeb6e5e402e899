//! Files a user is handed: replays through `arena replay` (load, render, `--as-seat`, and
//! `--verify`), crash capsules through `arena repro`'s loader and reproduction, and arena.toml
//! through the tournament file's loader and its planner. Each case mutates a genuine file (made
//! once per process by playing real matches) by structure or by bytes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cardarena::play::capsule;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::HostError;
use cardarena::replay::verify::VerifyOptions;
use cardarena::replay::view::RenderOptions;
use cardarena::tournament::config;
use cardarena::tournament::schedule;
use cardarena::Games;
use serde_json::Value;

use super::gen::Gen;

/// A Lua bot that plays a random legal action and logs a line.
const STEADY: &str = r#"
function act(obs)
  print("legal " .. #obs.legal)
  return obs.legal[math.random(#obs.legal)]
end
"#;

/// A Lua bot that fails at its third decision, so that its matches leave crash capsules.
const FAILING: &str = r#"
local n = 0
function act(obs)
  n = n + 1
  if n == 3 then error("third decision") end
  return obs.legal[1]
end
"#;

pub struct Corpus {
    /// Where the bot files and the cases' files live.
    pub dir: PathBuf,
    pub replays: Vec<String>,
    pub capsules: Vec<String>,
    pub configs: Vec<String>,
}

/// Made once per process: the same every time (fixed seeds), so a case seed still says it all.
pub fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        // A fixed folder: its path is in the corpus files, so a seed gives the same case in every
        // process (the bot files' content is fixed, so processes sharing it do not disturb it).
        let dir = std::env::temp_dir().join("cardarena-fuzz");
        std::fs::create_dir_all(&dir).expect("the fuzz folder");
        let steady = dir.join("steady.lua");
        let failing = dir.join("failing.lua");
        // Written only when missing or different: another process may be reading them.
        for (path, text) in [(&steady, STEADY), (&failing, FAILING)] {
            if std::fs::read(path).ok().as_deref() != Some(text.as_bytes()) {
                std::fs::write(path, text).unwrap();
            }
        }
        let (steady, failing) = (steady.display().to_string(), failing.display().to_string());
        let mut replays = Vec::new();
        let mut capsules = Vec::new();
        for (game, bots) in [
            ("blade", vec![steady.as_str(), "greedy"]),
            ("blade", vec![failing.as_str(), "random"]),
            ("ecard", vec!["random", steady.as_str()]),
            ("ecard", vec![failing.as_str(), "greedy"]),
            ("lost-cities", vec![steady.as_str(), "greedy"]),
            ("intensity", vec![steady.as_str(), "greedy", failing.as_str(), "random"]),
        ] {
            let game = *Games::builtin().get(game).unwrap();
            let replay = game.play(&Loader::new(), &LimitsConfig::default(), None, 11, &bots).unwrap();
            let found = game.capsules(&replay, None).unwrap();
            capsules.extend(found.iter().map(|c| capsule::encode(c).0));
            replays.push(serde_json::to_string_pretty(&replay).unwrap());
        }
        let mut configs = vec![std::fs::read_to_string(repo("arena.toml")).unwrap()];
        let docs = std::fs::read_to_string(repo("docs/tournament.md")).unwrap();
        for block in docs.split("```toml\n").skip(1) {
            configs.push(block.split("```").next().unwrap().to_string());
        }
        configs.push(format!(
            "[defaults]\nseed = 3\n[defaults.limits]\nmemory_mb = 8\n\n[[event]]\nname = \"g\"\ngame = \"intensity\"\n\
             format = \"gauntlet\"\nchampion = \"greedy\"\nbots = [\"greedy\", \"random\", \"{steady}\", \"{failing}\", \"strong\"]\n\
             deals = 2\nmax_tables = 3\n\n[[event]]\ngame = \"ecard\"\nformat = \"swiss\"\nrounds = 3\nbots = [\"greedy\", \"random\", \"{failing}\"]\n"
        ));
        Corpus { dir, replays, capsules, configs }
    })
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A JSON value a file should not have at that place.
fn strange_value(g: &mut Gen) -> Value {
    match g.below(9) {
        0 => Value::Null,
        1 => Value::from(g.extreme_int()),
        2 => Value::from(u64::MAX - g.below(3) as u64),
        3 => serde_json::json!(*g.pick(&[-0.0, 1e308, 0.5, -1.0])),
        4 => Value::from(g.weird_text(8)),
        5 => Value::from(*g.pick(&[
            "blade",
            "ecard",
            "lost-cities",
            "intensity",
            "readme",
            "greedy",
            "crash",
            "load",
            "",
        ])),
        6 => serde_json::json!([]),
        7 => serde_json::json!({}),
        _ => {
            let mut v = Value::from(1);
            for _ in 0..g.below(200) {
                v = Value::Array(vec![v]);
            }
            v
        }
    }
}

/// The nodes of a JSON value, as paths of keys and indexes.
fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Value::from(i));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                here.push(Value::from(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(k) => &mut v[k.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

/// `text` (JSON) with a few structural edits: a node replaced, removed, duplicated or moved, a
/// number nudged; or, one time in four, a few bytes edited.
pub fn mutate_json(g: &mut Gen, text: &str) -> String {
    if g.one_in(4) {
        return String::from_utf8_lossy(&g.mutate_bytes(text.as_bytes())).into_owned();
    }
    let mut v: Value = serde_json::from_str(text).expect("a corpus file is JSON");
    for _ in 0..1 + g.below(3) {
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        let path = g.pick(&all).clone();
        let other = g.pick(&all).clone();
        let donor = at(&mut v.clone(), &other).clone();
        let (parent, last) = match path.split_last() {
            Some((last, parent)) => (parent.to_vec(), Some(last.clone())),
            None => (Vec::new(), None),
        };
        let node = at(&mut v, &path);
        match g.below(6) {
            0 => *node = strange_value(g),
            1 => *node = donor,
            2 => {
                if let Some(n) = node.as_i64() {
                    *node = Value::from(n.wrapping_add(*g.pick(&[1, -1, 1000, i64::MAX])));
                } else if let Some(n) = node.as_u64() {
                    *node = Value::from(n.wrapping_add(1));
                }
            }
            3 => {
                if let Value::Array(a) = node {
                    if !a.is_empty() {
                        let i = g.below(a.len());
                        let x = a[i].clone();
                        a.insert(g.below(a.len() + 1), x);
                    }
                }
            }
            _ => match (at(&mut v, &parent), last) {
                (Value::Object(o), Some(Value::String(k))) => {
                    o.remove(&k);
                }
                (Value::Array(a), Some(i)) => {
                    a.remove(i.as_u64().unwrap() as usize);
                }
                _ => {}
            },
        }
    }
    serde_json::to_string_pretty(&v).unwrap()
}

/// A file named after the case, in the corpus folder (the same name on both runs of a case,
/// so that messages naming it compare equal).
fn case_file(name: &str, text: &[u8]) -> PathBuf {
    let path = corpus().dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub fn replay_input(seed: u64) -> Vec<u8> {
    file_input(seed, &corpus().replays)
}

/// One of `files` as it is, arbitrary bytes, a JSON value of another shape, or (mostly) the
/// file with its JSON mutated.
fn file_input(seed: u64, files: &[String]) -> Vec<u8> {
    let mut g = Gen::new(seed);
    let text = g.pick(files).clone();
    if g.one_in(20) {
        return text.into_bytes();
    }
    if g.one_in(20) {
        // Arbitrary bytes, or a JSON value of another shape.
        return if g.one_in(2) {
            let n = g.below(256);
            g.bytes(n)
        } else {
            strange_value(&mut g).to_string().into_bytes()
        };
    }
    mutate_json(&mut g, &text).into_bytes()
}

/// A replay through what `arena replay FILE`, `--as-seat N`, `--html` and `--verify` run.
pub fn replay_case(seed: u64) -> Result<String, String> {
    replay_file(&replay_input(seed), seed)
}

pub fn replay_file(bytes: &[u8], seed: u64) -> Result<String, String> {
    let path = case_file(&format!("replay-{seed:016x}.json"), bytes);
    let out = run_replay(&path);
    std::fs::remove_file(&path).ok();
    out
}

fn run_replay(path: &Path) -> Result<String, String> {
    let source = path.display().to_string();
    let replay = match cardarena::play::resim::load_file(path) {
        Ok(r) => r,
        Err(e) => return clear_error(e, &source, "load"),
    };
    let mut out = String::new();
    let game = replay.game.clone();
    let players = replay.bots.len().max(1);
    for opts in [
        RenderOptions { as_seat: None, from: None, to: None },
        RenderOptions { as_seat: Some(replay.seed as usize % players), from: Some(1), to: Some(5) },
    ] {
        // As `arena replay` does: an unknown game's error gets the file's name.
        let shown = Games::builtin()
            .get(&game)
            .map_err(|e| HostError::Request(format!("{source}: {e}")))
            .and_then(|g| g.render(&replay, &source, &opts));
        match shown {
            Ok(text) => out.push_str(&text),
            Err(e) => out.push_str(&clear_error(e, &source, "render")?),
        }
    }
    // `arena replay --html`: the web viewer's frames and its page.
    match Games::builtin().frames(&replay, &source) {
        Ok(f) => out.push_str(&format!(
            "html: {} steps, {} bytes\n",
            f.frames.len(),
            cardarena::replay::viewer::page(&f, None).len()
        )),
        Err(e) => out.push_str(&clear_error(e, &source, "html")?),
    }
    let opts = VerifyOptions { base: path.parent().map(Path::to_path_buf), overrides: Vec::new() };
    let verified = Games::builtin()
        .get(&game)
        .map_err(|e| HostError::Request(format!("{source}: {e}")))
        .and_then(|g| g.verify(&replay, &source, &opts));
    match verified {
        Ok(v) => out.push_str(&format!("verify: identical {}\n{}", v.identical, v.report)),
        Err(e) => out.push_str(&clear_error(e, &source, "verify")?),
    }
    Ok(out)
}

/// An error for a bad file must say something and, at the top, which file it is about.
fn clear_error(e: HostError, source: &str, stage: &str) -> Result<String, String> {
    let text = e.chain();
    if text.trim().is_empty() {
        return Err(format!("{stage}: an empty error"));
    }
    if !text.contains(source) && !text.contains("seat ") {
        return Err(format!("{stage}: the error does not name the file: {text}"));
    }
    Ok(format!("{stage} error: {text}\n"))
}

pub fn capsule_input(seed: u64) -> Vec<u8> {
    file_input(seed, &corpus().capsules)
}

/// A capsule through `arena repro`'s loader, and the reproduction with its recorded bot.
pub fn capsule_case(seed: u64) -> Result<String, String> {
    capsule_file(&capsule_input(seed), seed)
}

pub fn capsule_file(bytes: &[u8], seed: u64) -> Result<String, String> {
    let path = case_file(&format!("capsule-{seed:016x}.json"), bytes);
    let out = run_capsule(&path);
    std::fs::remove_file(&path).ok();
    out
}

fn run_capsule(path: &Path) -> Result<String, String> {
    let source = path.display().to_string();
    let cap = match capsule::load(path) {
        Ok(c) => c,
        Err(e) => return clear_error(e, &source, "load"),
    };
    // The bot as `arena repro` finds it: the recorded path when it is one of the corpus's bots.
    let name = Path::new(&cap.bot.name).file_name().and_then(|n| n.to_str()).unwrap_or("");
    let bot = corpus().dir.join(if name == "steady.lua" { "steady.lua" } else { "failing.lua" });
    let loader = Loader::new();
    let games = Games::builtin();
    let resolved = games
        .get(&cap.game)
        .map_err(HostError::from)
        .and_then(|g| g.resolve(&loader, &bot.display().to_string()));
    let source_bot = match resolved {
        Ok(b) => b,
        Err(e) => return Ok(format!("resolve error: {}\n", e.chain())),
    };
    if !matches!(source_bot, BotSource::File { .. }) {
        return Err("a corpus bot is not a file bot".into());
    }
    match games.reproduce(&cap, &source_bot) {
        Ok(r) => Ok(format!("same failure {}\n{}", r.same_failure, r.report)),
        Err(e) => Ok(format!("reproduce error: {e:#}\n")),
    }
}

pub fn config_input(seed: u64) -> Vec<u8> {
    let mut g = Gen::new(seed);
    let text = g.pick(&corpus().configs).clone();
    mutate_toml(&mut g, &text).into_bytes()
}

/// TOML values a key should not have.
fn strange_toml(g: &mut Gen) -> String {
    match g.below(8) {
        0 => g.extreme_int().to_string(),
        1 => g
            .pick(&["-0", "1e400", "nan", "inf", "0x7fffffff", "1_000", "4294967296", "18446744073709551615"])
            .to_string(),
        2 => format!("{:?}", g.weird_text(6)),
        3 => g.pick(&["true", "[]", "{}", "[[]]", "\"\"", "'''\n'''", "1979-05-27T07:32:00Z"]).to_string(),
        4 => format!(
            "[{}]",
            (0..g.below(6))
                .map(|_| format!(
                    "\"{}\"",
                    g.pick(&["greedy", "random", "strong", "x.lua", "a.wasm", "human"])
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        5 => g
            .pick(&[
                "\"round-robin\"",
                "\"gauntlet\"",
                "\"swiss\"",
                "\"blade\"",
                "\"intensity\"",
                "\"readme\"",
            ])
            .to_string(),
        6 => g.below(100).to_string(),
        _ => g.pick(&["0", "1", "2", "3", "1000000"]).to_string(),
    }
}

const KEYS: &[&str] = &[
    "name",
    "game",
    "variant",
    "bots",
    "format",
    "champion",
    "rounds",
    "deals",
    "seed",
    "duplicate",
    "max_tables",
    "memory_mb",
    "fuel_per_decision",
    "fuel_per_match",
    "wall_ms",
    "bogus",
];

/// `text` (TOML) with line edits: a value replaced, a key renamed, a line dropped, duplicated or
/// moved, a table header added; or a few bytes edited.
pub fn mutate_toml(g: &mut Gen, text: &str) -> String {
    if g.one_in(5) {
        return String::from_utf8_lossy(&g.mutate_bytes(text.as_bytes())).into_owned();
    }
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + g.below(3) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = g.below(lines.len());
        match g.below(7) {
            0 | 1 => {
                if let Some((k, _)) = lines[i].split_once('=') {
                    lines[i] = format!("{}= {}", k, strange_toml(g));
                }
            }
            2 => lines[i] = format!("{} = {}", g.pick(KEYS), strange_toml(g)),
            3 => {
                lines.remove(i);
            }
            4 => {
                let l = lines[i].clone();
                let to = g.below(lines.len() + 1);
                lines.insert(to, l);
            }
            5 => lines.insert(
                i,
                g.pick(&[
                    "[[event]]",
                    "[defaults]",
                    "[event.limits]",
                    "[event.limits.lua]",
                    "[defaults.limits.wasm]",
                    "[x]",
                ])
                .to_string(),
            ),
            _ => lines.insert(i, format!("{} = {}", g.pick(KEYS), strange_toml(g))),
        }
    }
    lines.join("\n")
}

/// An arena.toml through the tournament file's loader, then (when it loads) the planner of
/// every event that is small enough to plan.
pub fn config_case(seed: u64) -> Result<String, String> {
    config_text(&config_input(seed), seed)
}

pub fn config_text(bytes: &[u8], seed: u64) -> Result<String, String> {
    let path = corpus().dir.join(format!("arena-{seed:016x}.toml"));
    let text = String::from_utf8_lossy(bytes);
    let source = path.display().to_string();
    let games = Games::builtin();
    let cfg = match config::parse(&text, &path, &games) {
        Ok(c) => c,
        Err(e) => return clear_error(e, &source, "parse"),
    };
    let mut out = String::new();
    for ev in &cfg.events {
        let players = games.get(&ev.game).map_err(|_| "a loaded event has an unknown game")?.id().players();
        out.push_str(&format!("{ev:?}\n"));
        if ev.deals <= 1000 && ev.bots.len() <= 40 && ev.format != config::Format::Swiss {
            out.push_str(&format!("plan: {} matches\n", schedule::plan(ev, players).len()));
        }
    }
    Ok(out)
}
