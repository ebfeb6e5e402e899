//! The built-in bots' strength figures of docs/games/<game>.md and docs/zoo.md (not a test): each
//! bot of BOTS against each of AGAINST over DEALS duplicate deals of SEED (each deal once with the
//! bot in every seat, the opponent in the others), in every variant of GAME (`VARIANT=name`: one).
//! `cargo run --release --example bot_strength -- GAME [BOTS] [AGAINST] [DEALS] [SEED]`
//! (defaults: `strong`, `greedy,random`, 2000, 2026), e.g. `-- lost-cities strong:0,strong`.
//! A bot is a built-in name, `strong@N` (the game's strong bot at a budget of N, the learning
//! curves of docs/games/*.md), or a bot file (`.lua`, `.wasm`, `.wat`, e.g. the example bots) run
//! in the sandbox with its default limits.
use cardarena::bots::bot::Around;
use cardarena::bots::Greedy;
use cardarena::play::duel::duel_with;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::Hosted;
use std::sync::{Arc, Mutex};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let game = arg(0, "blade");
    let bots = arg(1, "strong");
    let against = arg(2, "greedy,random");
    let deals: usize = arg(3, "2000").parse()?;
    let seed: u64 = arg(4, "2026").parse()?;
    let only = std::env::var("VARIANT").ok();
    // The built-in games' own strong bots (trait `Greedy`), so the four types by name.
    use cardarena::games::{blade::Blade, ecard::Ecard, intensity::Intensity, lost_cities::LostCities};
    let only = only.as_deref();
    match game.as_str() {
        "blade" => measure::<Blade>(&bots, &against, deals, seed, only),
        "ecard" => measure::<Ecard>(&bots, &against, deals, seed, only),
        "lost-cities" => measure::<LostCities>(&bots, &against, deals, seed, only),
        "intensity" => measure::<Intensity>(&bots, &against, deals, seed, only),
        other => anyhow::bail!("{other:?} is not a built-in game with a strong bot"),
    }
}

/// A bot of the command line: the strong bot at a budget, or a built-in or file the loader knows.
enum Entrant {
    Budget(u32),
    Source(BotSource),
}

impl Entrant {
    fn new<G: Hosted + Greedy>(loader: &Loader, name: &str) -> anyhow::Result<Entrant> {
        if let Some(n) = name.strip_prefix("strong@") {
            let budget: u32 = n.parse().map_err(|e| anyhow::anyhow!("bad budget in {name:?}: {e}"))?;
            G::strong_bot(0, 0, Some(budget))
                .ok_or_else(|| anyhow::anyhow!("{} has no strong bot", G::NAME))?;
            return Ok(Entrant::Budget(budget));
        }
        Ok(Entrant::Source(loader.resolve::<G>(name)?))
    }

    fn bot<G: Hosted + Greedy>(&self, seed: u64, seat: usize) -> Box<dyn cardarena::bots::bot::Bot<G>> {
        match self {
            Entrant::Budget(b) => G::strong_bot(seed, seat, Some(*b)).expect("checked by Entrant::new"),
            Entrant::Source(source) => source.instantiate::<G>(seed, seat, &LimitsConfig::default()),
        }
    }
}

fn measure<G: Hosted + Greedy>(
    bots: &str,
    against: &str,
    deals: usize,
    seed: u64,
    only: Option<&str>,
) -> anyhow::Result<()> {
    let variants: Vec<G::Variant> = match only {
        Some(name) => vec![name.parse()?],
        None => G::variants().to_vec(),
    };
    let loader = Loader::new();
    let mut entrants = Vec::new();
    for name in bots.split(',').chain(against.split(',')) {
        entrants.push((name, Entrant::new::<G>(&loader, name)?));
    }
    for variant in variants {
        for a in bots.split(',') {
            for b in against.split(',').filter(|b| *b != a) {
                // The wall time of each of `a`'s decisions (run on an idle machine, one thread).
                let times = Arc::new(Mutex::new(Vec::<f64>::new()));
                let make = |name: &str, deal_seed: u64, seat: usize| {
                    let (_, e) = entrants.iter().find(|(n, _)| *n == name).expect("every name was resolved");
                    let bot = e.bot::<G>(deal_seed, seat);
                    if name != a {
                        return bot;
                    }
                    let start = Arc::new(Mutex::new(Instant::now()));
                    let (start2, times) = (Arc::clone(&start), Arc::clone(&times));
                    Around::wrap(
                        bot,
                        move || {
                            *start.lock().expect("not poisoned") = Instant::now();
                            Ok(())
                        },
                        move |_| {
                            let ms = start2.lock().expect("not poisoned").elapsed().as_secs_f64() * 1000.0;
                            times.lock().expect("not poisoned").push(ms);
                        },
                    )
                };
                let t = Instant::now();
                let d = duel_with::<G>(variant, a, b, seed, deals, make);
                let ms = t.elapsed().as_secs_f64() * 1000.0 / (d.seatings * deals) as f64;
                let times = times.lock().expect("not poisoned");
                let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
                let max = times.iter().copied().fold(0.0, f64::max);
                println!(
                    "{} {variant}: {a} vs {b}: {d}; {ms:.3} ms per match; {a}: {mean:.3} ms per decision, {max:.3} the slowest",
                    G::NAME
                );
            }
        }
    }
    Ok(())
}
