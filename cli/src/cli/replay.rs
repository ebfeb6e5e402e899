//! `arena replay` (show, `--as-seat`, `--html`, `--verify`, `--db`) and `arena repro`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::print_out;
use cardarena::games::Seat;
use cardarena::play::capsule;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::replay::verify::VerifyOptions;
use cardarena::replay::view::RenderOptions;
use cardarena::replay::viewer;
use cardarena::tournament::store::Store;

/// A check that ran and found a difference (exit code 1, as `cmp` and `diff` do); errors that
/// stop a command from running are exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Mismatch(pub String);

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arena play --game blade --bots greedy,example_bots/lua/blade_random.lua --replay m.json
  arena replay m.json                     every decision, with the board after each
  arena replay m.json --as-seat 1         only what seat 1 saw
  arena replay m.json --html m.html       a web page to step through (works offline)
  arena replay m.json --html s1.html --as-seat 1   a page with only what seat 1 saw
  arena replay m.json --html m.html --analyse 0    the page with seat 0's analysis strip
  arena replay m.json --verify            run the bots again: exit 0 identical, 1 differs
  arena replay --db arena.db --list       the matches a tournament stored, with their ids
  arena replay --db arena.db 17           match 17 of the tournament (or: arena replay arena.db#17)

Replay files are described by `arena docs replay`.")]
pub(super) struct ReplayArgs {
    /// A replay file (written by `arena play --replay`), or with --db a match id.
    #[arg(value_name = "FILE|ID")]
    target: Option<String>,
    /// Read the match from this tournament database (the argument is then the match id).
    #[arg(long, value_name = "DB")]
    db: Option<PathBuf>,
    /// With --db: list the stored matches (id, event, bots, points, faults) instead.
    #[arg(long, requires = "db")]
    list: bool,
    /// With --list: only this event's matches.
    #[arg(long, requires = "list")]
    event: Option<String>,
    /// Show only what seat N saw: its observations, its own moves, nothing hidden from it.
    #[arg(long, value_name = "N")]
    as_seat: Option<Seat>,
    /// Show decisions from index K on.
    #[arg(long, value_name = "K")]
    from: Option<usize>,
    /// Show decisions up to index K (inclusive).
    #[arg(long, value_name = "K")]
    to: Option<usize>,
    /// Write a self-contained web page (slider, ←/→ keys, `#step=N` links, each seat's point
    /// of view, fault badges, the replay to download) to OUT instead of printing the match; with
    /// --as-seat N the page holds only what seat N saw.
    #[arg(long, value_name = "OUT", conflicts_with_all = ["from", "to", "verify"])]
    html: Option<PathBuf>,
    /// With --html: analyse seat N's decisions (as `arena analyse`) and draw them as a strip
    /// under the slider, each step's actions with their values.
    #[arg(long, value_name = "N", requires = "html")]
    analyse: Option<Seat>,
    /// Play the match again with the same bots (checked by content hash), seed and limits, and
    /// compare every reply, fuel count, log line and fault; name the first decision that differs.
    #[arg(long, conflicts_with_all = ["as_seat", "from", "to"])]
    verify: bool,
    /// With --verify: use this file for seat N instead of the recorded path (repeatable).
    #[arg(long = "bot", value_name = "N=PATH", requires = "verify")]
    bots: Vec<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Exit code: 0 the same failure was reproduced (or, with --bot, the run finished),
1 the recorded bot no longer fails as recorded, 2 an error. Capsules: `arena docs replay`.")]
pub(super) struct ReproArgs {
    /// A crash capsule (written beside the replay or database when a bot faults).
    capsule: PathBuf,
    /// Run this bot file instead of the one recorded (e.g. a fixed version): a different content
    /// hash is only a warning. For a legacy bot's capsule, a .wasm file speaks the recorded
    /// protocol.
    #[arg(long, value_name = "PATH")]
    bot: Option<PathBuf>,
}

pub(super) fn replay_cmd(args: ReplayArgs, games: &super::GameSet) -> anyhow::Result<()> {
    if args.list {
        let db = args.db.as_deref().expect("clap: --list requires --db");
        return print_out(&list(db, args.event.as_deref())?);
    }
    let Some(target) = &args.target else {
        bail!("name a replay file, or --db DB and a match id (`arena replay --db DB --list` lists them)");
    };
    // `arena.db#17` is short for `--db arena.db 17`.
    let hashed = match (&args.db, target.rsplit_once('#')) {
        (None, Some((db, id))) if Path::new(db).is_file() && !Path::new(target).is_file() => {
            Some((PathBuf::from(db), id.to_string()))
        }
        _ => None,
    };
    let (db, target) = match hashed {
        Some((db, id)) => (Some(db), id),
        None => (args.db.clone(), target.clone()),
    };
    let target = &target;
    let (replay, source, base) = match &db {
        Some(db) => {
            let id: i64 = target.parse().map_err(|_| {
                anyhow::anyhow!("with --db, {target:?} should be a match id (a number); see --list")
            })?;
            (
                cardarena::tournament::store::load_replay(db, id)?,
                format!("{} match {id}", db.display()),
                parent(db),
            )
        }
        None => {
            let path = Path::new(target);
            (cardarena::play::resim::load_file(path)?, path.display().to_string(), parent(path))
        }
    };
    if let Some(out) = &args.html {
        let mut frames = games.lib().frames(&replay, &source)?;
        let mut text = Some(serde_json::to_string_pretty(&replay)? + "\n");
        if let Some(seat) = args.as_seat {
            if seat >= frames.players {
                bail!("--as-seat {seat}: {} has seats 0 to {}", frames.game, frames.players - 1);
            }
            frames = frames.for_seat(seat);
            // The replay holds every hand: a page for one seat does not offer it.
            text = None;
        }
        if let (Some(a), Some(s)) = (args.analyse, args.as_seat) {
            if a != s {
                // Seat a's values name its legal actions (its cards): not for seat s's page.
                bail!("--analyse {a} with --as-seat {s}: a page for one seat can carry only that seat's analysis");
            }
        }
        let analysis = match args.analyse {
            Some(seat) => Some(super::analyse::analyse_any(games.lib(), &replay, &source, seat, None)?),
            None => None,
        };
        std::fs::write(out, viewer::page_analysed(&frames, text.as_deref(), analysis))
            .with_context(|| format!("cannot write the replay page {}", out.display()))?;
        return print_out(&format!(
            "wrote {} ({} decisions); open it in a browser\n",
            out.display(),
            replay.decisions.len()
        ));
    }
    if args.verify {
        let mut overrides = Vec::new();
        for b in &args.bots {
            let (seat, path) = b
                .split_once('=')
                .and_then(|(s, p)| Some((s.parse::<Seat>().ok()?, p.to_string())))
                .with_context(|| format!("--bot {b:?}: write SEAT=PATH, e.g. --bot 1=bots/mine.lua"))?;
            overrides.push((seat, path));
        }
        let opts = VerifyOptions { base, overrides };
        let v = games.get(&replay.game).with_context(|| source.clone())?.verify(&replay, &source, &opts)?;
        print_out(&v.report)?;
        if !v.identical {
            return Err(Mismatch(format!("{source} does not verify (see above)")).into());
        }
        return Ok(());
    }
    let opts = RenderOptions { as_seat: args.as_seat, from: args.from, to: args.to };
    print_out(&games.get(&replay.game).with_context(|| source.clone())?.render(&replay, &source, &opts)?)
}

fn parent(path: &Path) -> Option<PathBuf> {
    path.parent().map(|p| if p.as_os_str().is_empty() { PathBuf::from(".") } else { p.to_path_buf() })
}

fn list(db: &Path, event: Option<&str>) -> anyhow::Result<String> {
    if !db.is_file() {
        bail!("no results database {} (a tournament writes <file>.db beside its arena.toml)", db.display());
    }
    let store = Store::open(db)?;
    let rows = store.list(event)?;
    let mut out =
        format!("{:>6}  {:<16} {:<40} {:<14} faults\n", "id", "event", "bots (seat order)", "points");
    for (id, event, s) in &rows {
        let bots: Vec<&str> = s.bots.iter().map(|b| b.name.as_str()).collect();
        let points: Vec<String> = s.points.iter().map(|p| p.to_string()).collect();
        let faults: Vec<String> = s
            .faults
            .iter()
            .enumerate()
            .flat_map(|(seat, fs)| fs.iter().map(move |v| format!("seat {seat} {v}")))
            .collect();
        out.push_str(&format!(
            "{id:>6}  {event:<16} {:<40} {:<14} {}\n",
            bots.join(", "),
            points.join(" "),
            if faults.is_empty() { "-".to_string() } else { faults.join(", ") }
        ));
    }
    if rows.is_empty() {
        out.push_str("(no matches)\n");
    } else {
        out.push_str("(points: each game's own, in seat order; in Intensity they are penalty points, fewer is better)\n");
    }
    Ok(out)
}

pub(super) fn repro_cmd(args: ReproArgs, games: &super::GameSet) -> anyhow::Result<()> {
    let cap = capsule::load(&args.capsule)?;
    let loader = Loader::new();
    // A legacy bot's capsule names `legacy:<protocol>:<file>`: the file is looked for, and a
    // plain --bot path speaks the recorded protocol.
    let (protocol, recorded) = match cardarena::play::legacy::parse_name(&cap.bot.name) {
        Some(parsed) => {
            let (protocol, file) = parsed.with_context(|| args.capsule.display().to_string())?;
            (Some(protocol), file)
        }
        None => (None, cap.bot.name.as_str()),
    };
    let path = match &args.bot {
        Some(p) => p.display().to_string(),
        None => find_recorded(recorded, &args.capsule).with_context(|| {
            format!(
                "the capsule's bot {recorded} is not found (from the current folder or beside the capsule folder); give its path with --bot PATH"
            )
        })?,
    };
    let name = match protocol {
        Some(p) if cardarena::play::legacy::parse_name(&path).is_none() => {
            format!("{}{}:{path}", cardarena::play::legacy::PREFIX, p.name())
        }
        _ => path.clone(),
    };
    let game = games.get(&cap.game).with_context(|| args.capsule.display().to_string())?;
    let source = game.resolve(&loader, &name)?;
    if !matches!(source, BotSource::File { .. } | BotSource::Legacy { .. }) {
        bail!("{path} is a built-in bot; repro runs bot files (Lua, WASM, legacy), so play the match again with `arena replay <file> --verify` instead");
    }
    let hash = source.entry().hash;
    let mut out = format!(
        "capsule {}: seat {} ({}) in {} ({}), seed {}, fault {} at {}\n",
        args.capsule.display(),
        cap.seat,
        cap.bot.name,
        cap.game,
        cap.variant,
        cap.seed,
        cap.fault.verdict,
        cap.fault.decision.map(|d| format!("decision #{d}")).unwrap_or_else(|| "start".into())
    );
    if hash != cap.bot.hash {
        let what = if args.bot.is_some() { "the bot given" } else { "the recorded file" };
        out.push_str(&format!(
            "warning: {path} ({what}) is not the bot of the capsule (hash {}, capsule {}): showing what it does now\n",
            cardarena::play::runner::prefix(&hash, 12),
            cardarena::play::runner::prefix(&cap.bot.hash, 12)
        ));
    }
    let r = game.reproduce(&cap, &source)?;
    out.push_str(&r.report);
    print_out(&out)?;
    if !r.same_failure && args.bot.is_none() {
        return Err(
            Mismatch(format!("{path} does not fail as recorded in {}", args.capsule.display())).into()
        );
    }
    Ok(())
}

/// The recorded bot path: from the current folder, else from the capsule folder's parent (where
/// the replay or database was) or the capsule folder itself.
fn find_recorded(name: &str, capsule: &Path) -> Option<String> {
    if Path::new(name).is_file() {
        return Some(name.to_string());
    }
    let dir = capsule.parent()?;
    [dir.parent(), Some(dir)]
        .into_iter()
        .flatten()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}
