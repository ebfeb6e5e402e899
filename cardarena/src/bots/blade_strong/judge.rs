//! How good Blade's search is as a judge (docs/games/blade.md, "How close to the best"): the
//! measurements behind BENCHMARKS.md's Blade section, as ignored tests (each plays thousands of
//! matches; run in an optimized build, one at a time):
//!
//! `cargo test --release -p cardarena --lib blade_strong::judge -- --ignored --nocapture --test-threads 1`
//!
//! `DEALS=N` sets the duplicate deals (default 2000, seed 2026, readme).

use std::time::Instant;

use super::ismcts::{TreeBot, TreeParams};
use super::{solve, Pos, StrongBot};
use crate::bots::bot::{Bot, Fault, InitInfo};
use crate::games::blade::{Blade, BladeObservation, Card, Event, Source, Variant};
use crate::games::rng::derive_seed;
use crate::games::{Game, Seat};
use crate::play::limits::LimitsConfig;
use crate::play::registry::Loader;
use crate::play::runner::BotEntry;
use crate::play::Match;

const SEED: u64 = 2026;
const VARIANT: Variant = Variant::Readme;
/// Node limit of the perfect-information solves here (far above the bot's own).
const BIG: u32 = 50_000_000;
/// The endgames the oracle corrects: both hands together hold at most this many cards.
const ENDGAME: usize = 12;

fn deals() -> usize {
    std::env::var("DEALS").ok().and_then(|d| d.parse().ok()).unwrap_or(2000)
}

fn example(path: &str) -> String {
    format!("{}/../example_bots/{path}", env!("CARGO_MANIFEST_DIR"))
}

type Make<'a> = &'a dyn Fn(u64, Seat) -> Box<dyn Bot<Blade>>;

/// Per duplicate deal (as `play::duel` deals them), bot `a`'s points minus `b`'s with `a` in
/// seat 0, then in seat 1.
fn pairs(a: Make, b: Make, deals: usize) -> Vec<[i64; 2]> {
    (0..deals)
        .map(|d| {
            let seed = derive_seed(&[SEED, d as u64]);
            let mut out = [0; 2];
            for (a_seat, slot) in out.iter_mut().enumerate() {
                let entry = |n: &str| BotEntry { name: n.to_string(), hash: String::new() };
                let table = (0..2).fold(Match::<Blade>::new(VARIANT, seed), |t, seat| {
                    if seat == a_seat {
                        t.seat_bot(entry("a"), a(seed, seat))
                    } else {
                        t.seat_bot(entry("b"), b(seed, seat))
                    }
                });
                let points = table.play().outcome.points;
                *slot = points[a_seat] - points[1 - a_seat];
            }
            out
        })
        .collect()
}

/// W / D / L, the score with the 95% interval of the mean points difference, and the pairs: the
/// same bot ahead in both seatings, or the same **seat** ahead in both (the deal decided it).
fn report(name: &str, pairs: &[[i64; 2]]) -> (f64, f64) {
    let mut wdl = [0u32; 3];
    for &d in pairs.iter().flatten() {
        wdl[if d > 0 {
            0
        } else if d == 0 {
            1
        } else {
            2
        }] += 1;
    }
    let diffs: Vec<f64> = pairs.iter().map(|p| (p[0] + p[1]) as f64 / 2.0).collect();
    let (mean, half) = crate::stats::ratings::mean_ci95(&diffs).unwrap_or((0.0, 0.0));
    // Points are 2 / 1 / 0: the score is 1/2 + mean difference / 4.
    let score = |m: f64| 50.0 + 25.0 * m;
    let both_a = pairs.iter().filter(|p| p[0] > 0 && p[1] > 0).count();
    let both_b = pairs.iter().filter(|p| p[0] < 0 && p[1] < 0).count();
    let seat0 = pairs.iter().filter(|p| p[0] > 0 && p[1] < 0).count();
    let seat1 = pairs.iter().filter(|p| p[0] < 0 && p[1] > 0).count();
    let n = pairs.len() as f64;
    let rest = pairs.len() - both_a - both_b - seat0 - seat1;
    println!(
        "{name}: {} / {} / {} = {:.2}% ({:.2} .. {:.2}); pairs: a both {both_a}, b both {both_b}, seat 0 both \
         {seat0}, seat 1 both {seat1}, with a draw {rest}: the deal decided {:.1}%",
        wdl[0],
        wdl[1],
        wdl[2],
        score(mean),
        score(mean - half),
        score(mean + half),
        100.0 * (seat0 + seat1) as f64 / n
    );
    (score(mean - half), score(mean + half))
}

fn file_bot(path: &str) -> impl Fn(u64, Seat) -> Box<dyn Bot<Blade>> {
    let source = Loader::new().resolve::<Blade>(&example(path)).expect("the example bot loads");
    move |seed, seat| source.instantiate::<Blade>(seed, seat, &LimitsConfig::default())
}

/// A bot that reports the wall time of each decision.
struct Timed {
    bot: Box<dyn Bot<Blade>>,
    times: std::sync::Arc<std::sync::Mutex<Vec<f64>>>,
}

impl Bot<Blade> for Timed {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        self.bot.init(info)
    }

    fn act(&mut self, obs: &BladeObservation) -> Result<String, Fault> {
        let t = Instant::now();
        let out = self.bot.act(obs);
        self.times.lock().expect("not poisoned").push(t.elapsed().as_secs_f64() * 1000.0);
        out
    }
}

fn times_line(times: &[f64]) -> String {
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let p99 = sorted.get(sorted.len() * 99 / 100).copied().unwrap_or(0.0);
    let max = sorted.last().copied().unwrap_or(0.0);
    format!("{mean:.2} ms mean, {p99:.2} the 99th percentile, {max:.2} the slowest")
}

/// A bot of these measurements by name: `strong`, `tree` (the tree search at the strong default's
/// work), `tree:BUDGET,EXPLORE,POOL`, `oracle` (below), or an example bot's path under
/// `example_bots/`.
fn named(name: &str) -> Box<dyn Fn(u64, Seat) -> Box<dyn Bot<Blade>>> {
    match name {
        "strong" => Box::new(|seed, seat| Box::new(StrongBot::new(seed, seat, None)) as Box<dyn Bot<Blade>>),
        "oracle" => Box::new(|seed, seat| {
            Box::new(Oracle { strong: StrongBot::new(seed, seat, None), seed }) as Box<dyn Bot<Blade>>
        }),
        tree if tree.starts_with("tree") => {
            let spec = tree.strip_prefix("tree:").unwrap_or("250,1.0,100");
            let parts: Vec<f64> =
                spec.split(',').map(|x| x.parse().expect("tree:BUDGET,EXPLORE,POOL")).collect();
            let (budget, params) = (parts[0] as u32, TreeParams { explore: parts[1], pool: parts[2] as u32 });
            Box::new(move |seed, seat| {
                Box::new(TreeBot::new(seed, seat, Some(budget), params)) as Box<dyn Bot<Blade>>
            })
        }
        path => Box::new(file_bot(path)),
    }
}

/// Bot `A` (default `tree`) against each of `OPPONENTS` (default both Monte-Carlo example bots),
/// with `A`'s time per decision and the pairs the deal decided.
#[test]
#[ignore = "thousands of matches: run optimized (module docs)"]
fn duels() {
    let a_name = std::env::var("A").unwrap_or_else(|_| "tree".into());
    let opponents = std::env::var("OPPONENTS")
        .unwrap_or_else(|_| "wasm/blade_montecarlo_rust.wasm,lua/blade_montecarlo.lua".into());
    for opponent in opponents.split(',') {
        let times = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (inner, t2) = (named(&a_name), times.clone());
        let a = move |seed, seat| -> Box<dyn Bot<Blade>> {
            Box::new(Timed { bot: inner(seed, seat), times: t2.clone() })
        };
        let p = pairs(&a, &*named(opponent), deals());
        report(&format!("{a_name} vs {opponent}"), &p);
        println!("  {a_name}: {}", times_line(&times.lock().expect("not poisoned")));
    }
}

/// The true position of a match in progress, rebuilt from the deal and the public history (the
/// decisions are the turns and the set-up picks from hand).
fn true_state(seed: u64, obs: &BladeObservation) -> Blade {
    let mut state = Blade::new(obs.variant, seed);
    for event in &obs.history {
        match *event {
            Event::Play { seat, card, .. } | Event::Place { seat, card, from: Source::Hand } => {
                state.play_unchecked(seat, &crate::games::blade::Action(card));
            }
            _ => {}
        }
    }
    state
}

/// The position of `state` for its mover, every card known.
fn full_pos(state: &Blade) -> Option<Pos> {
    let seat = *state.to_act().first()?;
    let them = 1 - seat;
    let mut hidden: Vec<Card> = state.hand(them).to_vec();
    hidden.extend(state.deck(seat).iter().rev());
    hidden.extend(state.deck(them).iter().rev());
    Pos::from_observation(&state.observe(seat), &hidden)
}

/// The perfect-information value (every card known to both seats, both playing perfectly) of
/// each card of the mover of `pos`, for the mover: +1 win, 0 draw, −1 loss; `None` past the node
/// limit.
fn card_values(pos: &Pos, limit: u32) -> Option<Vec<(u8, i8)>> {
    let mover = pos.mover()?;
    let sign = if mover == 0 { 1 } else { -1 };
    let (moves, n) = pos.moves();
    moves[..n]
        .iter()
        .map(|&card| {
            let mut child = *pos;
            child.play(card);
            let mut nodes = 0;
            solve(&child, -1, 1, &mut nodes, limit).map(|v| (card, sign * v))
        })
        .collect()
}

/// The perfect-information value of the deals (both seats seeing every card, both playing
/// perfectly): how many a seat wins by force, the solve's cost, and how often that seat won the
/// match `strong` played against itself on the deal.
#[test]
#[ignore = "solves thousands of deals: run optimized (module docs)"]
fn perfect_information_values_of_the_deals() {
    let mut counts = [0usize; 4]; // seat 0 wins, draw, seat 1 wins, unsolved
    let start = Instant::now();
    let (mut max_nodes, mut all_nodes, mut agree) = (0, 0u64, 0);
    for d in 0..deals() {
        let seed = derive_seed(&[SEED, d as u64]);
        let mut state = Blade::new(VARIANT, seed);
        let pos = full_pos(&state).expect("a decision opens the match");
        let mut nodes = 0;
        let value = solve(&pos, -1, 1, &mut nodes, BIG);
        counts[match value {
            Some(1) => 0,
            Some(0) => 1,
            Some(_) => 2,
            None => 3,
        }] += 1;
        max_nodes = max_nodes.max(nodes);
        all_nodes += u64::from(nodes);
        let mut bots = [StrongBot::new(seed, 0, None), StrongBot::new(seed, 1, None)];
        while let Some(&seat) = state.to_act().first() {
            let action = bots[seat].act(&state.observe(seat)).expect("an action");
            state.play(seat, &action).expect("legal");
        }
        let points = state.outcome().expect("over").points;
        agree += usize::from(value == Some((points[0] - points[1]).signum() as i8));
    }
    println!(
        "perfect information: seat 0 wins {}, draws {}, seat 1 wins {}, unsolved {} ({:.1} s, {} nodes a deal, \
         at most {max_nodes}); strong against itself: the perfect-information winner won {agree}",
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        start.elapsed().as_secs_f64(),
        all_nodes / deals().max(1) as u64
    );
}

/// The best perfect-information value of `values` and the card among those with it that the
/// playout policy rates best.
fn oracle_card(pos: &Pos, values: &[(u8, i8)]) -> (i8, u8) {
    let best = values.iter().map(|v| v.1).max().expect("a decision has a card");
    let mover = pos.mover().expect("a decision");
    let view = super::unseen_by(pos, mover);
    let card = values
        .iter()
        .filter(|v| v.1 == best)
        .map(|v| (super::rate(pos, v.0, false, Some(&view)), v.0))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .expect("one card has the best value")
        .1;
    (best, card)
}

/// `strong`, corrected by a perfect-information oracle that sees the true deal once both hands
/// together hold at most [`ENDGAME`] cards: where `strong`'s card has a lower perfect-information
/// value than another card, the best-valued card is played instead. It wins every match in which it reaches a position won by force, so its score is a
/// ceiling for what better decisions could gain against the same opponent.
struct Oracle {
    strong: StrongBot,
    seed: u64,
}

impl Bot<Blade> for Oracle {
    fn act(&mut self, obs: &BladeObservation) -> Result<String, Fault> {
        let chosen = self.strong.act(obs)?;
        if obs.hand_counts[0] + obs.hand_counts[1] > ENDGAME {
            return Ok(chosen);
        }
        let state = true_state(self.seed, obs);
        let Some(pos) = full_pos(&state) else { return Ok(chosen) };
        let Some(values) = card_values(&pos, BIG) else { return Ok(chosen) };
        let (best, card) = oracle_card(&pos, &values);
        let mine =
            chosen.parse::<Card>().ok().and_then(|c| values.iter().find(|v| usize::from(v.0) == c.index()));
        Ok(match mine {
            Some(&(_, v)) if v == best => chosen,
            _ => Card::ALL[usize::from(card)].to_string(),
        })
    }
}

/// What one bot's decisions lose, judged by perfect-information solves.
#[derive(Default, Debug)]
struct Audit {
    decisions: u64,
    /// Decisions with two cards or more, solved.
    solved: u64,
    /// The chosen card's perfect-information value below the best card's in the true deal.
    pi_worse: u64,
    pi_loss: f64,
    /// The chosen card below another card in **every** sampled determinization of the seat's
    /// information set (a mistake any search that samples the hidden cards would see).
    dominated: u64,
    dominated_loss: f64,
    /// The chosen card's mean perfect-information value over the sampled determinizations below
    /// the best card's mean (the limit of a determinized search with exact endgames).
    pimc_worse: u64,
    pimc_loss: f64,
}

/// Wraps a bot and audits each of its decisions of at most `cards` cards in both hands.
struct Audited {
    bot: Box<dyn Bot<Blade>>,
    seed: u64,
    cards: usize,
    samples: usize,
    rng: crate::games::rng::Rng,
    audit: std::sync::Arc<std::sync::Mutex<Audit>>,
}

impl Bot<Blade> for Audited {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        self.bot.init(info)
    }

    fn act(&mut self, obs: &BladeObservation) -> Result<String, Fault> {
        let chosen = self.bot.act(obs)?;
        let mut audit = self.audit.lock().expect("not poisoned");
        audit.decisions += 1;
        let small = obs.hand_counts[0] + obs.hand_counts[1] <= self.cards;
        let Ok(card) = chosen.parse::<Card>() else { return Ok(chosen) };
        if obs.legal.len() < 2 || !small {
            return Ok(chosen);
        }
        let state = true_state(self.seed, obs);
        let Some(pos) = full_pos(&state) else { return Ok(chosen) };
        let Some(values) = card_values(&pos, BIG) else { return Ok(chosen) };
        let at = values.iter().position(|v| usize::from(v.0) == card.index()).expect("a legal card");
        // Over the information set: uniform determinizations, every card solved in each.
        let mut hidden = obs.unseen.clone();
        let mut sums = vec![0.0; values.len()];
        let mut dominated_by = vec![true; values.len()];
        for _ in 0..self.samples {
            self.rng.shuffle(&mut hidden);
            let Some(det) = Pos::from_observation(obs, &hidden) else { return Ok(chosen) };
            let Some(v) = card_values(&det, BIG) else { return Ok(chosen) };
            for (i, &(_, x)) in v.iter().enumerate() {
                sums[i] += f64::from(x);
                let gap = f64::from(x) - f64::from(v[at].1);
                dominated_by[i] &= gap > 0.0;
            }
        }
        audit.solved += 1;
        let best = values.iter().map(|v| v.1).max().expect("cards");
        if values[at].1 < best {
            audit.pi_worse += 1;
            audit.pi_loss += f64::from(best - values[at].1) / 2.0;
        }
        if let Some(i) =
            (0..values.len()).filter(|&i| dominated_by[i]).max_by(|&x, &y| sums[x].total_cmp(&sums[y]))
        {
            audit.dominated += 1;
            audit.dominated_loss += (sums[i] - sums[at]) / self.samples as f64 / 2.0;
        }
        let top = sums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if top > sums[at] + 1e-9 {
            audit.pimc_worse += 1;
            audit.pimc_loss += (top - sums[at]) / self.samples as f64 / 2.0;
        }
        Ok(chosen)
    }
}

/// Audits `A` (default `strong`) and the Rust Monte-Carlo bot (`OPPONENTS`: others) in their duel: per bot,
/// how often and how much its cards lose by perfect-information solves in positions of at most
/// `CARDS` cards in both hands (default 20: every decision), over `SAMPLES` determinizations
/// of the information set (default 40).
#[test]
#[ignore = "thousands of solves: run optimized (module docs)"]
fn decision_audit() {
    let env = |k: &str, d: usize| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let (cards, samples) = (env("CARDS", 20), env("SAMPLES", 40));
    let a_name = std::env::var("A").unwrap_or_else(|_| "strong".into());
    let opponents = std::env::var("OPPONENTS").unwrap_or_else(|_| "wasm/blade_montecarlo_rust.wasm".into());
    for opponent in opponents.split(',') {
        let audits = [(); 2].map(|_| std::sync::Arc::new(std::sync::Mutex::new(Audit::default())));
        let wrap = |bot: Box<dyn Bot<Blade>>,
                    seed: u64,
                    seat: Seat,
                    audit: &std::sync::Arc<_>|
         -> Box<dyn Bot<Blade>> {
            let rng = crate::games::rng::Rng::new(
                derive_seed(&[seed, seat as u64, 99]),
                crate::games::rng::Stream::Deal,
            );
            Box::new(Audited { bot, seed, cards, samples, rng, audit: std::sync::Arc::clone(audit) })
        };
        let (first, second) = (named(&a_name), named(opponent));
        let a = |seed, seat| wrap(first(seed, seat), seed, seat, &audits[0]);
        let b = |seed, seat| wrap(second(seed, seat), seed, seat, &audits[1]);
        let p = pairs(&a, &b, deals());
        report(&format!("{a_name} vs {opponent}"), &p);
        let matches = (2 * p.len()) as f64;
        for (name, audit) in [(a_name.as_str(), &audits[0]), (opponent, &audits[1])] {
            let a = audit.lock().expect("not poisoned");
            println!(
                "  {name}: {} decisions, {} audited; worse by perfect information {} ({:.3} results a match), \
                 dominated in every determinization {} ({:.3} a match), worse than exact determinized search {} ({:.3} a match)",
                a.decisions,
                a.solved,
                a.pi_worse,
                a.pi_loss / matches,
                a.dominated,
                a.dominated_loss / matches,
                a.pimc_worse,
                a.pimc_loss / matches
            );
        }
    }
}

/// The oracle's view is the true deal: the state rebuilt from the deal and an observation's
/// history is the engine's own, at every decision of random matches in both variants.
#[test]
fn true_state_is_the_engines_state() {
    for variant in Variant::ALL {
        for seed in 0..40 {
            let mut state = Blade::new(variant, seed);
            let mut rng = crate::games::rng::Rng::new(seed, crate::games::rng::Stream::Bot(0));
            while let Some(&seat) = state.to_act().first() {
                let rebuilt = true_state(seed, &state.observe(1 - seat));
                assert_eq!(rebuilt.summary(), state.summary(), "{variant} seed {seed}");
                assert_eq!(full_pos(&rebuilt), full_pos(&state), "{variant} seed {seed}");
                let legal = state.legal_actions(seat);
                state.play_unchecked(seat, &legal[rng.below(legal.len())]);
            }
        }
    }
}
