//! The planted-mistakes measure: does the analysis find a mistake where one was made? A bot
//! plays like `greedy` except at one decision per match, where it plays the action that the
//! analysis' estimator, run on a stream of its own (not the one [`super::analyse`] uses), rates
//! worst; the analysis of the match must mark that decision `?` or `??`, and greedy's own matches
//! must get few marks. Run small by `tests/analyse.rs` and over many deals at the default budgets
//! by `examples/analyse_marks.rs` (docs/tools.md has the rates).

use std::sync::{Arc, Mutex};

use crate::analyse::{analyse, analyse_decision, Analyse};
use crate::bots::bot::{Bot, Fault, GreedyBot};
use crate::games::rng::{derive_seed, Rng, Stream};
use crate::games::{Game, Observation, Seat};
use crate::play::runner::BotEntry;
use crate::play::{Hosted, Match};

/// Where [`Planted`] planted its mistake: the seat's decision count (all its decisions, from 1)
/// and how far below the best its own estimate rated the planted action.
type PlantLog = Arc<Mutex<Option<(usize, f64)>>>;

/// `greedy`, except at its `plant_at`-th decision with a choice.
struct Planted {
    greedy: GreedyBot,
    plant_at: usize,
    choices: usize,
    all: usize,
    seed: u64,
    budget: u32,
    log: PlantLog,
}

impl<G: Hosted + Analyse + crate::bots::Greedy> Bot<G> for Planted {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        self.all += 1;
        let greedy = <GreedyBot as Bot<G>>::act(&mut self.greedy, obs)?;
        if obs.legal().len() < 2 {
            return Ok(greedy);
        }
        self.choices += 1;
        if self.choices != self.plant_at {
            return Ok(greedy);
        }
        let mut rng = Rng::new(derive_seed(&[self.seed, PLANT_STREAM]), Stream::Bot(obs.seat()));
        let d = analyse_decision::<G>(obs, &greedy, 0, self.budget, &mut rng)
            .map_err(|e| Fault::new(crate::bots::bot::Verdict::Crash, e.to_string()))?;
        let sign = if G::FEWER_POINTS_BETTER { -1.0 } else { 1.0 };
        let Some((worst, w)) =
            d.values.iter().min_by(|a, b| (sign * a.1.value).total_cmp(&(sign * b.1.value)))
        else {
            return Ok(greedy);
        };
        let best = d.values.values().map(|e| sign * e.value).fold(f64::NEG_INFINITY, f64::max);
        *self.log.lock().expect("one thread") = Some((self.all, best - sign * w.value));
        Ok(worst.clone())
    }
}

/// Mixed into the match seed for the planting bot's own estimates.
const PLANT_STREAM: u64 = 0x0070_6c61_6e74;

/// The rates of [`measure`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// Deals played.
    pub deals: usize,
    /// Matches whose planted action really loses: its own estimate rates it at least the game's
    /// mistake threshold below the best.
    pub losing: usize,
    /// Of those, the planted decision marked `?` or `??` by the analysis.
    pub found: usize,
    /// The greedy seat's decisions with a choice in the greedy matches.
    pub greedy_decisions: usize,
    /// Of those, marked `?` or `??`.
    pub greedy_marked: usize,
    /// Greedy matches with at least one `?` or `??` for the greedy seat.
    pub greedy_matches_marked: usize,
}

fn entry(name: &str) -> BotEntry {
    BotEntry { name: name.into(), hash: String::new() }
}

/// Over `deals` seeds from `first`, seat 0 analysed at `budget`: a match of `greedy` in every
/// seat (its marks), and the same deal with seat 0 planting a mistake at a decision with a choice
/// picked from the seed.
///
/// # Panics
/// If the analysis of a match it played fails (a bug).
pub fn measure<G: Hosted + Analyse + crate::bots::Greedy>(first: u64, deals: u64, budget: u32) -> Rates {
    let mut rates = Rates::default();
    let seat: Seat = 0;
    let variant = G::variants()[0];
    let greedy_in = |seed: u64, s: Seat| -> Box<dyn Bot<G>> { Box::new(GreedyBot::new(seed, s)) };
    for seed in first..first + deals {
        rates.deals += 1;
        let greedy = (0..G::PLAYERS)
            .fold(Match::<G>::new(variant, seed), |m, s| m.seat_bot(entry("greedy"), greedy_in(seed, s)))
            .play();
        let a = analyse::<G>(&greedy, "greedy", seat, Some(budget)).expect("a match it played analyses");
        let marked = a.decisions.iter().filter(|d| matches!(d.mark, Some("?" | "??"))).count();
        rates.greedy_decisions += a.decisions.len();
        rates.greedy_marked += marked;
        rates.greedy_matches_marked += usize::from(marked > 0);
        if a.decisions.is_empty() {
            continue;
        }
        let log: PlantLog = Arc::default();
        let planted = Planted {
            greedy: GreedyBot::new(seed, seat),
            plant_at: 1 + (derive_seed(&[seed, PLANT_STREAM]) % a.decisions.len() as u64) as usize,
            choices: 0,
            all: 0,
            seed,
            budget,
            log: log.clone(),
        };
        let mut m = Match::<G>::new(variant, seed).seat_bot(entry("planted"), Box::new(planted));
        for s in 1..G::PLAYERS {
            m = m.seat_bot(entry("greedy"), greedy_in(seed, s));
        }
        let replay = m.play();
        let Some((own, estimated)) = *log.lock().expect("one thread") else { continue };
        if estimated < G::MARKS.mistake {
            continue;
        }
        rates.losing += 1;
        let b = analyse::<G>(&replay, "planted", seat, Some(budget)).expect("a match it played analyses");
        let index = (0..replay.decisions.len())
            .find(|&i| replay.decisions[i].seat == seat && replay.seat_decision(i) == Some(own));
        let found =
            b.decisions.iter().any(|d| Some(d.decision) == index && matches!(d.mark, Some("?" | "??")));
        rates.found += usize::from(found);
    }
    rates
}

/// A game's rates, as a line of `examples/analyse_marks.rs` and the tests.
pub fn describe<G: Game>(r: &Rates) -> String {
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    format!(
        "{}: planted mistakes that lose found {}/{} ({:.0}%); greedy decisions marked ? or ?? {}/{} ({:.1}%), matches {}/{} ({:.0}%)",
        G::NAME,
        r.found,
        r.losing,
        pct(r.found, r.losing),
        r.greedy_marked,
        r.greedy_decisions,
        pct(r.greedy_marked, r.greedy_decisions),
        r.greedy_matches_marked,
        r.deals,
        pct(r.greedy_matches_marked, r.deals)
    )
}
