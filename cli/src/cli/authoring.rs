//! Commands for bot authors and teachers: `arena check`, `arena grade`, `arena schema` (and
//! `arena new` in `new.rs`).
//!
//! `check` and `grade` play duplicate deals against reference bots: deal `d` has the seed
//! `deal_seed(--seed, d)` and is played once per seat rotation (the bot in every seat; in
//! Intensity the bot against three copies of the reference). Matches run on a thread pool and
//! are read back in plan order, so the output depends only on the arguments and the bots.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context};
use rayon::prelude::*;

use super::{default_threads, print_out, write_out, LimitArgs, Mismatch};
use cardarena::bots::bot::{content_hash, is_builtin_name, Around, Bot, BUILTIN_BOTS};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{self, BotSource, Lanes, Loader};
use cardarena::play::runner::{decision_place, ordinal, BotEntry, Quiet};
use cardarena::play::Match;
use cardarena::play::{GameId, Hosted};
use cardarena::stats::ratings::{self, Placing};
use cardarena::tournament::grade::{
    self, faults_text, grade_csv, grade_table, plans_against, shell_word, FirstFault, GradeRow, GradeSetup,
    Played, Stats,
};
use cardarena::tournament::schedule::MatchPlan;

pub(super) use super::new::{new_cmd, tutorial_cmd, NewArgs, TutorialArgs};

#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// The bot to check: a .lua, .js, .py, .wasm or .wat file.
    bot: String,
    /// The game.
    #[arg(long)]
    pub(crate) game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// Deals per opponent; each deal is played once per seat rotation.
    #[arg(long, default_value_t = 100)]
    deals: u32,
    /// Seed of the deals.
    #[arg(long, default_value_t = 0, value_parser = super::parse_seed, allow_hyphen_values = true)]
    seed: u64,
    /// The opponents, comma-separated (default: every built-in the game has).
    #[arg(long, value_delimiter = ',', value_parser = super::trimmed)]
    against: Vec<String>,
    /// Worker threads (default: every core); the output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Also analyse the bot's decisions in the first N matches (as `arena analyse`) and list its
    /// most costly situations: phase, what it played, what was better.
    #[arg(long, value_name = "N")]
    analyse: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, clap::Args)]
pub(crate) struct GradeArgs {
    /// The game.
    #[arg(long)]
    pub(crate) game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// The folder of bots: every .lua, .js, .py, .wasm and .wat file directly in it is graded.
    #[arg(long, value_name = "DIR")]
    bots: PathBuf,
    /// Grade the folder's files as legacy stdin/stdout programs of this protocol (`blade`,
    /// `comp1511`; docs/legacy-bots.md).
    #[arg(long, value_name = "PROTOCOL")]
    legacy: Option<String>,
    /// The reference bots every graded bot plays, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "random,greedy", value_parser = super::trimmed)]
    against: Vec<String>,
    /// Deals per reference bot; each deal is played once per seat rotation.
    #[arg(long, default_value_t = 50)]
    deals: u32,
    /// Seed of the deals.
    #[arg(long, default_value_t = 0, value_parser = super::parse_seed, allow_hyphen_values = true)]
    seed: u64,
    /// Write the grades as CSV to this file (`-` for stdout instead of the table).
    #[arg(long, value_name = "OUT")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML report (grades, win matrix, ratings, first faults) to this file.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Where each bot's first fault writes its crash capsule (default: `capsules/` in the
    /// current folder); see `arena repro`.
    #[arg(long, value_name = "DIR", default_value = "capsules")]
    capsules: PathBuf,
    /// Worker threads (default: every core); the output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Also play the graded bots against each other (a round robin on the same deals; in
    /// Intensity at most 35 tables of four): the rating is fitted over these matches too, and
    /// the CSV gains `rr_*` columns.
    #[arg(long)]
    round_robin: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, clap::Args)]
pub(super) struct SchemaArgs {
    /// The game.
    #[arg(long)]
    game: String,
    /// Print the LuaLS annotations (a `---@meta` file) instead of the JSON Schema.
    #[arg(long, conflicts_with_all = ["ts", "python"])]
    lua: bool,
    /// Print TypeScript declarations (a `.d.ts` file, for JavaScript bots' editors) instead of
    /// the JSON Schema.
    #[arg(long, conflicts_with = "python")]
    ts: bool,
    /// Print Python `TypedDict` type hints (for Python bots' editors) instead of the JSON Schema.
    #[arg(long)]
    python: bool,
}

pub(super) fn schema_cmd(args: SchemaArgs, games: &super::GameSet) -> anyhow::Result<()> {
    let game = games.id(&args.game)?;
    print_out(&if args.lua {
        cardarena::schema::lua_annotations(game)
    } else if args.ts {
        cardarena::schema::ts_declarations(game)
    } else if args.python {
        cardarena::schema::python_stubs(game)
    } else {
        cardarena::schema::observation_schema_text(game)
    })
}

// ---- playing ---------------------------------------------------------------------------------

/// Plays `plans` on `threads` threads, each on a sandbox lane of its own (`sources` were
/// resolved by `loader`).
#[allow(clippy::too_many_arguments)]
fn play_plans<G: Hosted>(
    variant: G::Variant,
    loader: &Loader,
    sources: &[BotSource],
    entries: &[BotEntry],
    plans: &[MatchPlan],
    limits: &LimitsConfig,
    threads: usize,
) -> anyhow::Result<Vec<Played>> {
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(8 << 20) // sandboxed guest calls want a few MiB of native stack
        .build()
        .context("cannot start the worker threads")?;
    let bots = Lanes::new(loader.started_sandbox(), sources.to_vec(), threads);
    let played = pool.install(|| {
        plans
            .par_iter()
            .map(|plan| {
                let sources = bots.for_worker(rayon::current_thread_index());
                let (replay, memory, unknown_fields) =
                    play_plan::<G>(variant, sources, entries, plan, limits);
                Played::of(plan, &replay, memory, unknown_fields)
            })
            .collect()
    });
    Ok(played)
}

/// Plays one planned match; returns its replay (with the limits recorded, as capsules want them),
/// each seat's peak memory, and per seat the observation fields it read that do not exist
/// (with the number of decisions that read each).
fn play_plan<G: Hosted>(
    variant: G::Variant,
    sources: &[BotSource],
    entries: &[BotEntry],
    plan: &MatchPlan,
    limits: &LimitsConfig,
) -> (cardarena::Replay, Vec<Option<u64>>, Vec<BTreeMap<String, u64>>) {
    let seen: Vec<Arc<Mutex<BTreeMap<String, u64>>>> = plan.seats.iter().map(|_| Arc::default()).collect();
    let (replay, memory) = plan
        .seats
        .iter()
        .zip(&seen)
        .fold(Match::<G>::new(variant, plan.seed), |t, (&e, seen)| {
            let seen = seen.clone();
            t.seat_wrapped(
                entries[e].clone(),
                &sources[e],
                sources[e].limits(limits).as_ref(),
                move |mut bot| {
                    bot.watch_unknown_fields();
                    let count = move |bot: &dyn Bot<G>| {
                        let keys = bot.unknown_fields();
                        if !keys.is_empty() {
                            let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
                            for key in keys {
                                *seen.entry(key).or_insert(0) += 1;
                            }
                        }
                    };
                    Around::wrap(bot, || Ok(()), count)
                },
            )
        })
        .play_measured(&mut Quiet);
    let unknown =
        seen.iter().map(|s| std::mem::take(&mut *s.lock().unwrap_or_else(|p| p.into_inner()))).collect();
    (replay, memory, unknown)
}

/// The reference bots the game has, from `wanted` (or every built-in when empty).
fn opponents<G: Hosted>(wanted: &[String]) -> anyhow::Result<Vec<String>> {
    if wanted.is_empty() {
        return Ok(BUILTIN_BOTS
            .iter()
            .filter(|n| cardarena::bots::bot::builtin::<G>(n, 0, 0).is_ok())
            .map(|n| n.to_string())
            .collect());
    }
    Ok(wanted.to_vec())
}

// ---- check -----------------------------------------------------------------------------------

pub(crate) fn check_game<G: Hosted>(args: &CheckArgs, games: &cardarena::Games) -> anyhow::Result<()> {
    let variant = registry::variant::<G>(args.variant.as_deref())?;
    if is_builtin_name(&args.bot) || args.bot == registry::HUMAN {
        bail!("arena check takes a bot file (.lua, .js, .py, .wasm or .wat), not {:?}", args.bot);
    }
    if args.deals == 0 {
        bail!("--deals must be at least 1");
    }
    let loader = Loader::new();
    let bot = loader.resolve::<G>(&args.bot)?;
    let opponents = opponents::<G>(&args.against)?;
    let mut sources = vec![bot.clone()];
    for o in &opponents {
        sources.push(loader.resolve::<G>(o).with_context(|| format!("--against {o}"))?);
    }
    let entries: Vec<BotEntry> = sources.iter().map(BotSource::entry).collect();
    let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
    let limits_cfg = args.limits.config();
    let (kind, file) = match &bot {
        BotSource::File { program, .. } => (program.kind().as_str(), args.bot.as_str()),
        BotSource::Legacy { protocol, .. } => (
            protocol.name(),
            cardarena::play::legacy::parse_name(&args.bot).and_then(Result::ok).map_or("", |(_, file)| file),
        ),
        BotSource::Builtin(_) => bail!("arena check takes a bot file, not the built-in {:?}", args.bot),
        BotSource::Failed { error, .. } => bail!("bot {:?} cannot be loaded: {error}", args.bot),
    };
    let limits = bot.limits(&limits_cfg).expect("a bot file has limits");
    let plans =
        plans_against(&[0], &(1..sources.len()).collect::<Vec<_>>(), G::PLAYERS, args.deals, args.seed);
    let threads = args.threads.unwrap_or_else(default_threads);
    let played = play_plans::<G>(variant, &loader, &sources, &entries, &plans, &limits_cfg, threads)?;

    let mut per_opp = vec![Stats::default(); sources.len()];
    for p in &played {
        let seat = p.plan.seats.iter().position(|&e| e == 0).expect("the bot sits at every table");
        let opp = p.plan.seats.iter().copied().find(|&e| e != 0).expect("an opponent");
        per_opp[opp].add(GameId::of::<G>(), p, seat, &names);
    }
    let mut all = Stats::default();
    for s in &per_opp[1..] {
        all.merge(s);
    }
    // One fit over every table; the difference to each opponent has its own interval.
    let placings: Vec<Placing> =
        played.iter().map(|p| Placing::from_ranks(&p.plan.seats, &p.summary.ranks)).collect();
    let fitted = ratings::fit_all(names.len(), &placings);
    let mut out = String::new();
    out.push_str(&format!(
        "check {} ({} {}, hash {}): {} ({variant}), {} deals × {} seatings per opponent, seed {}\n",
        args.bot,
        kind,
        cardarena::tournament::grade::size_text(program_size(file)),
        &entries[0].hash[..12],
        G::NAME,
        args.deals,
        G::PLAYERS,
        args.seed
    ));
    let width = names[1..].iter().map(String::len).max().unwrap_or(8).max(8);
    out.push_str(&format!(
        "\n  {:<width$}  {:>7}  {:>13}  {:>9}  {:>19}  {:>22}  faults\n",
        "opponent",
        "matches",
        "W-D-L",
        GameId::of::<G>().points_heading(),
        "score (95% CI)",
        "rating diff (95% CI)"
    ));
    for (i, s) in per_opp.iter().enumerate().skip(1) {
        let (score, lo, hi) = s.score();
        let d = fitted.difference(0, i);
        let diff = format!("{:+.0} ({:+.0}..{:+.0})", d.rating, d.low, d.high);
        out.push_str(&format!(
            "  {:<width$}  {:>7}  {:>13}  {:>9.1}  {:>5.3} ({:.3}..{:.3})  {:>22}  {}\n",
            names[i],
            s.matches,
            format!("{}-{}-{}", s.wins, s.draws, s.losses),
            s.points,
            score,
            lo,
            hi,
            diff,
            faults_text(s)
        ));
    }
    let (score, lo, hi) = all.score();
    out.push_str(&format!(
        "  {:<width$}  {:>7}  {:>13}  {:>9.1}  {:>5.3} ({:.3}..{:.3})\n",
        "all",
        all.matches,
        format!("{}-{}-{}", all.wins, all.draws, all.losses),
        all.points,
        score,
        lo,
        hi
    ));
    out.push_str(&format!(
        "  (score: 1 = first alone at the table, 0 = last, ties halved; {}: {})\n",
        GameId::of::<G>().points_heading(),
        G::POINTS_ARE
    ));
    let ranks: Vec<u32> = played
        .iter()
        .map(|p| {
            p.summary.ranks[p.plan.seats.iter().position(|&e| e == 0).expect("the bot sits at every table")]
        })
        .collect();
    out.push_str(&placings_text(G::PLAYERS, &ranks));
    out.push('\n');
    if all.faults.is_empty() {
        out.push_str(&format!("verdicts: no faults in {} matches\n", all.matches));
    } else {
        out.push_str(&format!(
            "verdicts: FAULTS {} ({} faults in {} of {} matches)\n",
            faults_text(&all),
            all.fault_total(),
            all.faulted_matches,
            all.matches
        ));
        if let Some(f) = &all.first_fault {
            let at = match f.decision {
                // the match again (the same bytes), to count the bot's own decisions
                Some(d) => {
                    match play_plan::<G>(variant, &sources, &entries, &f.plan, &limits_cfg).0.seat_decision(d)
                    {
                        Some(own) => format!("your {}", decision_place(own, d)),
                        None => format!("decision #{d}"),
                    }
                }
                None => "start (init)".into(),
            };
            out.push_str(&format!("  first: {} at {at}, seat {}: {}\n", f.verdict, f.seat, f.message));
            out.push_str(&format!(
                "  replay it: arena play --game {} --variant {variant} --seed {} --bots {}{}\n",
                G::NAME,
                f.seed,
                shell_word(&f.seat_names.join(",")),
                limit_flags(&args.limits)
            ));
        }
    }
    out.push_str(&cardarena::schema::unknown_fields_text(GameId::of::<G>(), &all.unknown_fields));
    if let Some(n) = args.analyse {
        let mut analyses = Vec::new();
        for p in played.iter().take(n) {
            let seat = p.plan.seats.iter().position(|&e| e == 0).expect("the bot sits at every table");
            // the match again (the same bytes), to analyse the bot's decisions in it
            let replay = play_plan::<G>(variant, &sources, &entries, &p.plan, &limits_cfg).0;
            analyses.push(super::analyse::analyse_any(games, &replay, "check", seat, None)?);
        }
        out.push_str(&super::analyse::situations_text(&analyses));
    }
    match all.fuel_stats() {
        Some((mean, p99, max)) => out.push_str(&format!(
            "fuel per decision: mean {mean:.0}, p99 {p99}, max {max} of {} ({}); per match: max {} of {}\n",
            limits.fuel_per_decision,
            limit_share(max, limits.fuel_per_decision),
            all.fuel_match_max,
            limits.fuel_per_match
        )),
        None => out.push_str("fuel per decision: no decision was metered\n"),
    }
    out.push_str(&all.memory_text(Some(limits.memory_bytes)));
    out.push('\n');
    print_out(&out)?;
    if all.faults.is_empty() {
        Ok(())
    } else {
        // The report is printed; the exit code (1) lets a script or a grader's CI gate on it.
        Err(Mismatch(format!(
            "{} faulted in {} of {} matches (the first fault and a command that replays it are above)",
            args.bot, all.faulted_matches, all.matches
        ))
        .into())
    }
}

/// What W-D-L leaves out at a table of more than two: it counts first places only, where the
/// score counts every place. The bot's places (`ranks`, one per match; tied seats share a
/// rank), from first to last; empty for a two-player game.
fn placings_text(players: usize, ranks: &[u32]) -> String {
    if players <= 2 || ranks.is_empty() {
        return String::new();
    }
    let scores: Vec<String> = (1..=players)
        .map(|p| format!("{} {:.2}", ordinal(p), (players - p) as f64 / (players - 1) as f64))
        .collect();
    let shares: Vec<String> = (1..=players)
        .map(|p| {
            let n = ranks.iter().filter(|&&r| r as usize == p).count();
            format!("{} {:.0}%", ordinal(p), 100.0 * n as f64 / ranks.len() as f64)
        })
        .collect();
    format!(
        "  (W-D-L counts first places only: W = first alone, D = first shared, L = any other place, \
         so a second place is an L; the score counts every place: {}, ties halved)\n  \
         places in all {} matches: {}\n",
        scores.join(", "),
        ranks.len(),
        shares.join(", ")
    )
}

/// How much of a limit the largest use took. The decision that runs out is stopped a little past
/// the limit (the meter is checked between instructions): that is "ran out", never "100.02%".
fn limit_share(used: u64, limit: u64) -> String {
    if used >= limit {
        "ran out: the limit was reached".into()
    } else {
        format!("{:.2}% of the limit at most", 100.0 * used as f64 / limit as f64)
    }
}

/// The limit flags that were given, as command-line text (for the replay command).
fn limit_flags(limits: &LimitArgs) -> String {
    let mut out = String::new();
    for (flag, value) in [
        ("--fuel-per-decision", limits.fuel_per_decision),
        ("--fuel-per-match", limits.fuel_per_match),
        ("--memory-mb", limits.memory_mb),
    ] {
        if let Some(v) = value {
            out.push_str(&format!(" {flag} {v}"));
        }
    }
    out
}

fn program_size(path: &str) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

// ---- grade -----------------------------------------------------------------------------------

fn bot_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder of bots {} (give --bots DIR)", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.with_context(|| format!("cannot read the folder {}", dir.display()))?.path();
        if path.is_file() && cardarena_sandbox::Kind::from_path(&path).is_some() {
            files.push(path);
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    if files.is_empty() {
        bail!("no bot files (.lua, .js, .py, .wasm, .wat) in {}", dir.display());
    }
    Ok(files)
}

/// Why `path`, a symbolic link in the graded folder `dir`, is not graded: it leads out of the
/// folder (a link could otherwise make the grade read, and quote, any file the user can read).
fn link_out_of(dir: &Path, path: &Path) -> Option<anyhow::Error> {
    let is_link = std::fs::symlink_metadata(path).map(|m| m.file_type().is_symlink()).unwrap_or(false);
    if !is_link {
        return None;
    }
    let inside = match (dir.canonicalize(), path.canonicalize()) {
        (Ok(dir), Ok(target)) => target.starts_with(dir),
        _ => false,
    };
    (!inside).then(|| {
        anyhow::anyhow!("a symbolic link out of the graded folder is not graded; copy the bot file into it")
    })
}

/// The content hash of a bot file no bigger than the sandbox accepts, else empty (the size is
/// checked before anything is read).
fn small_file_hash(path: &Path) -> String {
    let limit = cardarena_sandbox::MAX_LUA_SOURCE.max(cardarena_sandbox::MAX_WASM_MODULE) as u64;
    match std::fs::metadata(path) {
        Ok(m) if m.len() <= limit => {
            let mut bytes = Vec::new();
            let read = std::fs::File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes));
            if read.is_ok() && bytes.len() as u64 <= limit {
                content_hash(&bytes)
            } else {
                String::new()
            }
        }
        _ => String::new(),
    }
}

pub(crate) fn grade_game<G: Hosted>(args: &GradeArgs) -> anyhow::Result<()> {
    let variant = registry::variant::<G>(args.variant.as_deref())?;
    if args.deals == 0 {
        bail!("--deals must be at least 1");
    }
    let files = bot_files(&args.bots)?;
    let loader = Loader::new();
    let mut rows: Vec<GradeRow> = Vec::new();
    let mut sources: Vec<BotSource> = Vec::new();
    let mut entries: Vec<BotEntry> = Vec::new();
    let mut row_entrant: Vec<Option<usize>> = Vec::new();
    for path in &files {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let outside = link_out_of(&args.bots, path);
        let refused = outside.is_some();
        let name = match &args.legacy {
            Some(protocol) => {
                format!("{}{protocol}:{}", cardarena::play::legacy::PREFIX, path.to_string_lossy())
            }
            None => path.to_string_lossy().into_owned(),
        };
        let resolved = match outside {
            Some(e) => Err(e),
            None => loader.resolve::<G>(&name).map_err(anyhow::Error::from),
        };
        match resolved {
            Ok(source) => {
                let mut entry = source.entry();
                // The name relative to the folder (a legacy program keeps its protocol), so that
                // replays, capsules and the replay command read the same on every machine.
                entry.name = match &args.legacy {
                    Some(protocol) => format!("{}{protocol}:{file}", cardarena::play::legacy::PREFIX),
                    None => file.clone(),
                };
                row_entrant.push(Some(sources.len()));
                rows.push(GradeRow::new(file, entry.hash.clone(), None));
                sources.push(source);
                entries.push(entry);
            }
            Err(e) => {
                // the message without the folder, so that it reads the same on every machine
                let dir = args.bots.to_string_lossy().into_owned();
                let message = format!("{e:#}").replace(&format!("{dir}/"), "").replace(&dir, "");
                row_entrant.push(None);
                let hash = if refused { String::new() } else { small_file_hash(path) };
                rows.push(GradeRow::new(file, hash, Some(message)));
            }
        }
    }
    let graded = sources.len();
    if args.against.is_empty() {
        bail!("--against names no reference bot");
    }
    for r in &args.against {
        if !is_builtin_name(r) {
            bail!("--against takes built-in bots ({}), not {r:?}", BUILTIN_BOTS.join(", "));
        }
        sources.push(loader.resolve::<G>(r).with_context(|| format!("--against {r}"))?);
        entries.push(BotEntry { name: r.clone(), hash: cardarena::bots::bot::builtin_hash(r) });
    }
    let limits_cfg = args.limits.config();
    let setup = GradeSetup {
        game: GameId::of::<G>(),
        variant: variant.to_string(),
        players: G::PLAYERS,
        against: args.against.clone(),
        deals: args.deals,
        seed: args.seed,
        round_robin: args.round_robin,
    };
    let (plans, against_refs) = setup.plans(graded);
    let threads = args.threads.unwrap_or_else(default_threads);
    let played = play_plans::<G>(variant, &loader, &sources, &entries, &plans, &limits_cfg, threads)?;
    let mut grades =
        grade::grade(&setup, rows, &row_entrant, &entries, &played, against_refs, &limit_flags(&args.limits));
    for row in &mut grades.rows {
        if let Some(f) = row.stats.first_fault.clone() {
            row.capsule =
                first_fault_capsule::<G>(variant, &sources, &entries, &f, &limits_cfg, &args.capsules);
        }
    }
    let csv = grade_csv(&grades.rows, &args.against, args.round_robin);
    if let Some(out) = &args.html {
        let title = format!("cardarena grade: {} ({})", args.bots.display(), G::NAME);
        let folder = args.bots.display().to_string();
        write_out(out, &cardarena::tournament::report::grade_html(&title, &folder, &setup, &grades))?;
    }
    let text = grade_table(&setup, &args.bots.display().to_string(), &grades);
    match &args.csv {
        Some(p) if p == Path::new("-") => print_out(&csv)?,
        Some(p) => {
            write_out(p, &csv)?;
            print_out(&text)?;
        }
        None => print_out(&text)?,
    }
    Ok(())
}

/// Plays the match of a first fault again (it is deterministic) and writes the capsule of that
/// fault into `dir`; `None` (with a warning) when it cannot be written.
fn first_fault_capsule<G: Hosted>(
    variant: G::Variant,
    sources: &[BotSource],
    entries: &[BotEntry],
    first: &FirstFault,
    limits: &LimitsConfig,
    dir: &Path,
) -> Option<PathBuf> {
    let (replay, _, _) = play_plan::<G>(variant, sources, entries, &first.plan, limits);
    let built = cardarena::play::capsule::build::<G>(&replay, None)
        .map_err(|e| eprintln!("warning: no crash capsule: {e:#}"))
        .ok()?;
    let capsule = built.into_iter().find(|c| c.seat == first.seat && c.fault.decision == first.decision)?;
    cardarena::play::capsule::write(&capsule, dir).map_err(|e| eprintln!("warning: {e:#}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_default_check_plays_every_built_in_the_game_has() {
        use cardarena::games::blade::Blade;
        let all = opponents::<Blade>(&[]).unwrap();
        assert_eq!(&all[..2], &["random", "greedy"]);
        assert!(all.iter().all(|n| cardarena::bots::bot::builtin::<Blade>(n, 0, 0).is_ok()));
        assert_eq!(opponents::<Blade>(&["greedy".into()]).unwrap(), vec!["greedy"]);
    }

    #[test]
    fn a_limit_is_never_used_more_than_whole() {
        assert_eq!(limit_share(1_000_200, 1_000_000), "ran out: the limit was reached");
        assert_eq!(limit_share(999_000, 1_000_000), "99.90% of the limit at most");
        assert_eq!(limit_share(250, 1000), "25.00% of the limit at most");
    }
}
