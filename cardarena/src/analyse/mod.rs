//! `arena analyse`: where a match was lost, decision by decision, from what the seat could know.
//!
//! For each decision of one seat in a replay (with more than one legal action), every legal
//! action gets an expected value with its standard error, estimated from **that seat's
//! observation at the decision only**: the hidden cards are drawn from the information set by the
//! game's determinizer (the strong bot's), weighted as its search weights them, and each action is
//! played out in every sampled world with the search's rollout policy (all actions of one world
//! from one rollout seed: common random numbers); E-card, whose only hidden information is the
//! opponent's simultaneous choice, is valued exactly against the `nash` equilibrium
//! ([`Analyse`] per game in `games.rs`). The replay's hidden cards are never read: the analysis
//! of a decision is a function of the seat's observation, the replay seed, the seat and the
//! decision index (the property test `tests/analyse.rs` changes the hidden cards and requires
//! the same output).
//!
//! Values are in the game's points: two-player games the seat's final points minus the
//! opponent's (higher is better), Intensity the seat's penalty points (lower is better). The
//! **loss** of a decision is how much worse the chosen action's value is than the best one's;
//! it is marked `?!` (inaccuracy), `?` (mistake) or `??` (blunder) when it reaches the game's
//! [`Marks`] thresholds **and** is at least twice the standard error of the paired difference
//! (chosen against best, over the same samples), so that noise alone is rarely marked.
//!
//! Deterministic: each decision draws from its own stream, seeded from the replay seed, the seat
//! and the decision index, so the output is the same bytes at any thread count (decisions are
//! analysed in parallel with rayon and collected in order; no hash maps).

mod games;
pub mod planted;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rayon::prelude::*;
use serde::{Deserialize, Deserializer, Serialize};

use crate::bots::search::Determinize;
use crate::games::rng::{derive_seed, Rng, Stream};
use crate::games::{Game, Observation, Outcome, Seat};
use crate::play::resim::walk;
use crate::play::runner::{decision_place, ordinal, Replay};
use crate::play::HostError;

/// The loss thresholds of the marks, in the game's points (documented in docs/tools.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marks {
    /// `?!`: an inaccuracy.
    pub inaccuracy: f64,
    /// `?`: a mistake.
    pub mistake: f64,
    /// `??`: a blunder.
    pub blunder: f64,
}

impl Marks {
    /// The mark of `loss` whose paired standard error is `se` (`None`: no mark).
    pub fn mark(&self, loss: f64, se: f64) -> Option<&'static str> {
        if loss < 2.0 * se {
            return None;
        }
        if loss >= self.blunder {
            Some("??")
        } else if loss >= self.mistake {
            Some("?")
        } else if loss >= self.inaccuracy {
            Some("?!")
        } else {
            None
        }
    }
}

/// The samples of one decision: per sample its weight and one value per action.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Each sample's weight (the opponent model's likelihood; 1 when the game has none).
    pub weights: Vec<f64>,
    /// Each sample's value of every action, in the order of the actions asked for.
    pub values: Vec<Vec<f64>>,
}

impl Samples {
    /// Adds one sample.
    pub fn push(&mut self, weight: f64, values: Vec<f64>) {
        self.weights.push(weight);
        self.values.push(values);
    }

    /// The weighted mean and its standard error of `f` over the samples (self-normalized
    /// importance weights: `se = √Σ wᵢ²(xᵢ − x̄)² / Σ wᵢ`; 0 for one sample).
    fn estimate(&self, f: impl Fn(&[f64]) -> f64) -> Estimate {
        let total: f64 = self.weights.iter().sum();
        if self.values.is_empty() || total <= 0.0 {
            return Estimate { value: 0.0, se: 0.0 };
        }
        let xs: Vec<f64> = self.values.iter().map(|v| f(v)).collect();
        let mean = xs.iter().zip(&self.weights).map(|(x, w)| x * w).sum::<f64>() / total;
        let var = xs.iter().zip(&self.weights).map(|(x, w)| (w * (x - mean)).powi(2)).sum::<f64>();
        Estimate { value: mean, se: var.sqrt() / total }
    }
}

/// A game the analysis can judge: it values a seat's actions from its observation.
pub trait Analyse: Game {
    /// Samples per decision when no budget is given (within 2 s a match per seat on one core).
    const DEFAULT_BUDGET: u32;
    /// The marks' thresholds.
    const MARKS: Marks;

    /// The actions to value: every legal one by default; a game with very many (the 120
    /// Intensity passes) may value the search's candidates. The chosen action is always added.
    /// Must depend on the observation only.
    fn actions(obs: &Self::Observation, rng: &mut Rng) -> Vec<Self::Action> {
        let _ = rng;
        obs.legal().iter().filter_map(|s| s.parse().ok()).collect()
    }

    /// `budget` samples of the values of `actions` for `obs`'s seat, from `obs` and `rng` alone.
    fn sample(obs: &Self::Observation, actions: &[Self::Action], budget: u32, rng: &mut Rng) -> Samples;
}

/// The value of a finished game for `seat`: two-player, its points minus the opponent's; else
/// its points.
pub fn seat_value(outcome: &Outcome, seat: Seat) -> f64 {
    match outcome.points.as_slice() {
        [a, b] => (if seat == 0 { a - b } else { b - a }) as f64,
        points => points[seat] as f64,
    }
}

/// [`Analyse::sample`] for a game with a [`Determinize`]r: each sample is a determinization in
/// which every action is played and the game finished by the rollout policy from one seed.
pub fn determinized<G: Determinize>(
    obs: &G::Observation,
    actions: &[G::Action],
    budget: u32,
    rng: &mut Rng,
) -> Samples {
    let seat = obs.seat();
    let mut out = Samples::default();
    for _ in 0..budget.max(1) {
        let state = G::determinize(obs, rng);
        let seed = rng.next_u64();
        let values = actions
            .iter()
            .map(|action| {
                let mut world = state.clone();
                world.play_unchecked(seat, action);
                let mut playout = Rng::new(seed, Stream::Bot(seat));
                while let Some(&s) = world.to_act().first() {
                    let next = world.rollout_action(s, &mut playout);
                    world.play_unchecked(s, &next);
                }
                world.outcome().map_or(0.0, |o| seat_value(&o, seat))
            })
            .collect();
        out.push(1.0, values);
    }
    out
}

/// A value with its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The expected value, in the game's points.
    pub value: f64,
    /// Its standard error.
    pub se: f64,
}

/// The analysis of one decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The match-wide decision index (the replay's and the capsules' numbering).
    pub decision: usize,
    /// The action played.
    pub chosen: String,
    /// The action with the best value.
    pub best: String,
    /// How much worse the chosen action is than the best (≥ 0, in the game's points).
    pub loss: f64,
    /// `?!`, `?`, `??` or none.
    #[serde(deserialize_with = "mark_of")]
    pub mark: Mark,
    /// Every valued action's estimate, by action.
    pub values: BTreeMap<String, Estimate>,
    /// The seat's own count of the decision (1 for its first); not in the JSON.
    #[serde(skip)]
    pub own: usize,
    /// The standard error of the loss (paired over the samples); not in the JSON.
    #[serde(skip)]
    pub loss_se: f64,
    /// The observation's `phase` field, where it has one (`play`, `draw`, `pass`...); not in the
    /// JSON.
    #[serde(skip)]
    pub phase: Option<String>,
}

/// The analysis of one seat's decisions in a match. Its JSON (`arena analyse --json`, what the
/// web ladder keeps) reads back as it was, but for the fields not in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The game's name.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// The seat analysed.
    pub seat: Seat,
    /// Its decisions with a choice, in match order.
    pub decisions: Vec<Decision>,
    /// The sum of the losses.
    pub total_loss: f64,
    /// Whether fewer points are better (Intensity); not in the JSON.
    #[serde(skip)]
    pub fewer_better: bool,
}

/// A decision's mark: `?!`, `?`, `??` or none. (Named, so that the derived `Deserialize` does
/// not take the `&'static str` for text borrowed from the input.)
pub type Mark = Option<&'static str>;

/// A mark read back: one of the three, or none.
fn mark_of<'de, D: Deserializer<'de>>(d: D) -> Result<Mark, D::Error> {
    match Option::<String>::deserialize(d)?.as_deref() {
        None => Ok(None),
        Some(m) => ["?!", "?", "??"]
            .into_iter()
            .find(|k| *k == m)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("{m:?} is not a mark (?!, ? or ??)"))),
    }
}

/// Runs `f` (an analysis) with its parallel work on one thread of its own, so that it takes one
/// core as a match does (a queue worker's analyses, between its matches). The result is the
/// same at any thread count.
///
/// # Errors
/// The thread cannot be started.
pub fn on_one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, HostError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| HostError::Host(format!("cannot start the analysis thread: {e}")))?;
    Ok(pool.install(f))
}

/// Mixed into the replay seed for the analysis' streams.
const ANALYSE_STREAM: u64 = 0x0061_6e61_6c79_7365;

/// The stream of decision `decision` of `seat` in the match with `seed`.
pub fn decision_rng(seed: u64, seat: Seat, decision: usize) -> Rng {
    Rng::new(derive_seed(&[seed, ANALYSE_STREAM, seat as u64, decision as u64]), Stream::Arena)
}

/// Values `obs`'s actions and judges `chosen` (the action played, one of `obs.legal()`).
/// `rng` is the decision's own stream ([`decision_rng`]).
pub fn analyse_decision<G: Analyse>(
    obs: &G::Observation,
    chosen: &str,
    decision: usize,
    budget: u32,
    rng: &mut Rng,
) -> Result<Decision, HostError> {
    let chosen_action: G::Action = chosen.parse().map_err(|e| {
        HostError::Damaged(format!("decision #{decision}: the played action {chosen:?} does not parse: {e}"))
    })?;
    let mut actions = G::actions(obs, rng);
    if !actions.contains(&chosen_action) {
        actions.push(chosen_action.clone());
    }
    let samples = G::sample(obs, &actions, budget, rng);
    let sign = if G::FEWER_POINTS_BETTER { -1.0 } else { 1.0 };
    let estimates: Vec<Estimate> = (0..actions.len()).map(|i| samples.estimate(|v| v[i])).collect();
    let c = actions.iter().position(|a| *a == chosen_action).expect("the chosen action is valued");
    // The best: the highest (lowest, fewer better) mean; ties to the earlier action.
    let mut b = 0;
    for (i, e) in estimates.iter().enumerate() {
        if sign * e.value > sign * estimates[b].value {
            b = i;
        }
    }
    let paired = samples.estimate(|v| sign * (v[b] - v[c]));
    let loss = paired.value.max(0.0);
    let best = if loss > 0.0 { actions[b].to_string() } else { chosen.to_string() };
    let values = actions.iter().map(ToString::to_string).zip(estimates).collect();
    Ok(Decision {
        decision,
        chosen: chosen.to_string(),
        best,
        loss,
        mark: G::MARKS.mark(loss, paired.se),
        values,
        own: 0,
        loss_se: paired.se,
        phase: None,
    })
}

/// Analyses every decision with a choice of `seat` in `replay` (`source` names it in errors),
/// with `budget` samples per decision (`None`: the game's default).
///
/// # Errors
/// The replay is not a consistent match of `G`, or `seat` is not one of its seats.
pub fn analyse<G: Analyse>(
    replay: &Replay,
    source: &str,
    seat: Seat,
    budget: Option<u32>,
) -> Result<Analysis, HostError> {
    if seat >= G::PLAYERS {
        return Err(HostError::Request(format!(
            "--seat {seat}: {} has seats 0 to {}",
            G::NAME,
            G::PLAYERS - 1
        )));
    }
    let budget = budget.unwrap_or(G::DEFAULT_BUDGET).max(1);
    let played = walk::<G>(replay, source)?;
    // The seat's decisions with a choice: (decision index, observation, played action).
    let mut todo = Vec::new();
    for point in &played.points {
        for (k, &s) in point.seats.iter().enumerate() {
            let index = point.first + k;
            let Some(action) = &replay.decisions[index].played else { continue };
            if s != seat {
                continue;
            }
            let obs = point.before.observe(seat);
            if obs.legal().len() >= 2 {
                todo.push((index, obs, action.clone()));
            }
        }
    }
    let mut decisions = todo
        .par_iter()
        .map(|(index, obs, action)| {
            let mut rng = decision_rng(replay.seed, seat, *index);
            let mut d = analyse_decision::<G>(obs, action, *index, budget, &mut rng)
                .map_err(|e| HostError::Damaged(format!("{source}: {e}")))?;
            let json = serde_json::to_value(obs).map_err(|e| HostError::Host(e.to_string()))?;
            d.phase = json.get("phase").and_then(|p| p.as_str()).map(str::to_string);
            Ok(d)
        })
        .collect::<Result<Vec<Decision>, HostError>>()?;
    for d in &mut decisions {
        d.own = replay.seat_decision(d.decision).unwrap_or(0);
    }
    let total_loss = decisions.iter().map(|d| d.loss).sum();
    Ok(Analysis {
        game: replay.game.clone(),
        variant: replay.variant.clone(),
        seat,
        decisions,
        total_loss,
        fewer_better: G::FEWER_POINTS_BETTER,
    })
}

impl Analysis {
    /// The worst `n` decisions by loss (ties: the earlier), worst first.
    pub fn worst(&self, n: usize) -> Vec<&Decision> {
        let mut order: Vec<&Decision> = self.decisions.iter().filter(|d| d.loss > 0.0).collect();
        order.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.decision.cmp(&b.decision)));
        order.truncate(n);
        order
    }

    /// The JSON of `arena analyse --json`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an analysis serializes") + "\n"
    }

    /// The text report of `arena analyse`: one line per decision, its actions' values, and the
    /// summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let better = if self.fewer_better { "lower is better" } else { "higher is better" };
        let _ = writeln!(
            out,
            "{} ({}), seat {}: each action's expected value in points ({better}) ± standard error",
            self.game, self.variant, self.seat
        );
        for d in &self.decisions {
            let mark = d.mark.unwrap_or("");
            let _ = write!(
                out,
                "{:>16}  {:<8} {mark:<2}",
                format!("#{} ({})", d.decision, ordinal(d.own)),
                d.chosen
            );
            if d.loss > 0.0 {
                let _ = write!(out, "  loss {:.2} ± {:.2}, best {}", d.loss, d.loss_se, d.best);
            }
            out.push('\n');
            let mut values: Vec<(&String, &Estimate)> = d.values.iter().collect();
            let sign = if self.fewer_better { 1.0 } else { -1.0 };
            values.sort_by(|a, b| (sign * a.1.value).total_cmp(&(sign * b.1.value)).then(a.0.cmp(b.0)));
            let line: Vec<String> =
                values.iter().map(|(a, e)| format!("{a} {:.2}±{:.2}", e.value, e.se)).collect();
            let _ = writeln!(out, "{:>18}{}", "", line.join("  "));
        }
        let count = |m: &str| self.decisions.iter().filter(|d| d.mark == Some(m)).count();
        let _ = writeln!(
            out,
            "\n{} decisions with a choice, total expected loss {:.2} points; {} ??, {} ?, {} ?!",
            self.decisions.len(),
            self.total_loss,
            count("??"),
            count("?"),
            count("?!")
        );
        for d in self.worst(3) {
            let _ = writeln!(
                out,
                "  worst: {}: played {}, {} was better by {:.2}{}",
                decision_place(d.own, d.decision),
                d.chosen,
                d.best,
                d.loss,
                d.mark.map(|m| format!(" {m}")).unwrap_or_default()
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_needs_the_threshold_and_twice_the_standard_error() {
        let m = Marks { inaccuracy: 1.0, mistake: 2.0, blunder: 4.0 };
        assert_eq!(m.mark(0.5, 0.0), None);
        assert_eq!(m.mark(1.0, 0.1), Some("?!"));
        assert_eq!(m.mark(2.5, 0.1), Some("?"));
        assert_eq!(m.mark(4.0, 0.0), Some("??"));
        // Large but noisy: no mark.
        assert_eq!(m.mark(4.0, 2.5), None);
    }

    #[test]
    fn weighted_estimates_and_their_errors() {
        let mut s = Samples::default();
        for (w, x) in [(1.0, 1.0), (1.0, 3.0), (2.0, 2.0)] {
            s.push(w, vec![x, 2.0 * x]);
        }
        let e = s.estimate(|v| v[0]);
        assert_eq!(e.value, 2.0);
        // √(1² · 1 + 1² · 1 + 0) / 4
        assert!((e.se - 2f64.sqrt() / 4.0).abs() < 1e-12);
        assert_eq!(s.estimate(|v| v[1] - v[0]).value, 2.0);
        let mut one = Samples::default();
        one.push(1.0, vec![5.0]);
        assert_eq!(one.estimate(|v| v[0]), Estimate { value: 5.0, se: 0.0 });
        assert_eq!(Samples::default().estimate(|v| v[0]), Estimate { value: 0.0, se: 0.0 });
    }

    #[test]
    fn the_json_reads_back_as_it_was_on_one_thread_too() {
        let replay = crate::Arena::new()
            .play(crate::GameId::of::<crate::games::ecard::Ecard>(), 5, &["greedy", "random"])
            .unwrap();
        let game = crate::Games::builtin();
        let game = game.get("ecard").unwrap();
        let a = game.analyse(&replay, "m.json", 0, None).unwrap();
        assert!(!a.decisions.is_empty());
        let json = a.to_json();
        let back: Analysis = serde_json::from_str(&json).unwrap();
        // (serde_json reads a float to within its last bit.)
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(1.0);
        assert_eq!(back.decisions.len(), a.decisions.len());
        for (d, e) in back.decisions.iter().zip(&a.decisions) {
            assert_eq!((d.decision, &d.chosen, &d.best, d.mark), (e.decision, &e.chosen, &e.best, e.mark));
            assert!(close(d.loss, e.loss));
            assert_eq!(d.values.keys().collect::<Vec<_>>(), e.values.keys().collect::<Vec<_>>());
            for (v, w) in d.values.values().zip(e.values.values()) {
                assert!(close(v.value, w.value) && close(v.se, w.se), "{v:?} {w:?}");
            }
        }
        assert_eq!((back.seat, &back.game, &back.variant), (a.seat, &a.game, &a.variant));
        let one = on_one_thread(|| game.analyse(&replay, "m.json", 0, None)).unwrap().unwrap();
        assert_eq!(one.to_json(), json);
        // A mark that is none of the three is refused.
        let d = r#"{"decision":1,"chosen":"a","best":"a","loss":0.0,"mark":"!!","values":{}}"#;
        let e = serde_json::from_str::<Decision>(d).unwrap_err().to_string();
        assert!(e.contains("\"!!\" is not a mark"), "{e}");
        let d = d.replace("\"!!\"", "\"??\"");
        assert_eq!(serde_json::from_str::<Decision>(&d).unwrap().mark, Some("??"));
    }
}
