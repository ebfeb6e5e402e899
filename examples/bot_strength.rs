//! The built-in bots' strength figures of docs/games/<game>.md and docs/zoo.md (not a test): each
//! bot of BOTS against each of AGAINST over DEALS duplicate deals of SEED (each deal once with the
//! bot in every seat, the opponent in the others), in every variant of GAME (`VARIANT=name`: one).
//! `cargo run --release --example bot_strength -- GAME [BOTS] [AGAINST] [DEALS] [SEED]`
//! (defaults: `strong`, `greedy,random`, 2000, 2026), e.g. `-- lost-cities strong:0,strong`.
use cardarena::play::duel::duel;
use cardarena::play::Hosted;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let game = arg(0, "blade");
    let bots = arg(1, "strong");
    let against = arg(2, "greedy,random");
    let deals: usize = arg(3, "2000").parse()?;
    let seed: u64 = arg(4, "2026").parse()?;
    let only = std::env::var("VARIANT").ok();
    cardarena::with_game!(game.parse::<cardarena::GameId>()?, G => measure::<G>(&bots, &against, deals, seed, only.as_deref()))?;
    Ok(())
}

fn measure<G: Hosted>(
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
    for name in bots.split(',').chain(against.split(',')) {
        cardarena::bots::bot::builtin::<G>(name, seed, 0).map_err(anyhow::Error::msg)?;
    }
    for variant in variants {
        for a in bots.split(',') {
            for b in against.split(',').filter(|b| *b != a) {
                let t = std::time::Instant::now();
                let d = duel::<G>(variant, a, b, seed, deals);
                let ms = t.elapsed().as_secs_f64() * 1000.0 / (d.seatings * deals) as f64;
                println!("{} {variant}: {a} vs {b}: {d}; {ms:.3} ms per match", G::NAME);
            }
        }
    }
    Ok(())
}
