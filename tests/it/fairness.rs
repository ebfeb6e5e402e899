//! Faulting never pays (docs/tournament.md): in every game, a bot that faults from a chosen decision on
//! never ranks above the same bot playing on at random from that decision.

use cardarena::bots::bot::{builtin, Bot, Fault, RandomBot, Verdict};
use cardarena::games::blade::Blade;
use cardarena::games::ecard::Ecard;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::games::Game;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::runner::{run_match, BotEntry, MatchSpec, Quiet};
use cardarena::tournament::config::{Event, Format};
use cardarena::tournament::schedule::MatchPlan;
use cardarena::tournament::standings::{self, match_score};
use cardarena::tournament::MatchSummary;
use cardarena::Hosted;

/// Random legal actions; with `fault_from = Some(k)`, a crash at its k-th decision and every
/// one after (as a crashing bot does). The random stream is the built-in `random`'s, so the
/// faulting bot and the one playing on make the same choices up to decision k.
struct RandomFaulting<G: Game> {
    random: RandomBot,
    fault_from: Option<usize>,
    decisions: usize,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Bot<G> for RandomFaulting<G> {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let k = self.decisions;
        self.decisions += 1;
        if self.fault_from.is_some_and(|from| k >= from) {
            return Err(Fault::new(Verdict::Crash, "gave up"));
        }
        Bot::<G>::act(&mut self.random, obs)
    }
}

const DEALS: u64 = 48;

/// Entrant 0 faults, entrant 1 plays on, entrants 2.. are the opponents (`greedy`, then
/// `random`): every deal is played by each of the two at every seat against the same
/// opponents, and the faulting bot faults from decision `deal % 24`.
fn faulting_never_ranks_above_playing_on<G: Hosted>() {
    let opponents: Vec<&str> = ["greedy", "random", "random"][..G::PLAYERS - 1].to_vec();
    let names: Vec<String> = ["faults", "plays-on"]
        .iter()
        .map(|s| s.to_string())
        .chain(opponents.iter().enumerate().map(|(i, o)| format!("{o}{i}")))
        .collect();
    let entries: Vec<BotEntry> =
        names.iter().map(|n| BotEntry { name: n.clone(), hash: n.clone() }).collect();
    let (mut plans, mut summaries) = (Vec::new(), Vec::new());
    for deal in 0..DEALS {
        let seed = 1_000 + deal;
        for seat in 0..G::PLAYERS {
            let mut pair = Vec::new();
            for (entrant, fault_from) in [(0, Some(deal as usize % 24)), (1, None)] {
                // the subject at `seat`, the opponents around it in order
                let mut seats = Vec::new();
                let mut bots: Vec<Box<dyn Bot<G>>> = Vec::new();
                let mut next_opponent = 0;
                for s in 0..G::PLAYERS {
                    if s == seat {
                        seats.push(entrant);
                        bots.push(Box::new(RandomFaulting::<G> {
                            random: RandomBot::new(seed, s),
                            fault_from,
                            decisions: 0,
                            _game: std::marker::PhantomData,
                        }));
                    } else {
                        seats.push(2 + next_opponent);
                        bots.push(builtin::<G>(opponents[next_opponent], seed, s).unwrap());
                        next_opponent += 1;
                    }
                }
                let spec = MatchSpec::<G> {
                    variant: G::variants()[0],
                    seed,
                    entries: seats.iter().map(|&e| entries[e].clone()).collect(),
                };
                let replay = run_match(&spec, &mut bots, &mut Quiet);
                pair.push(MatchSummary::of(&replay));
                plans.push(MatchPlan { round: 0, deal: deal as u32, seed, seats });
            }
            let (faulted, played_on) = (&pair[0], &pair[1]);
            if G::PLAYERS == 2 && !faulted.faults[seat].is_empty() {
                // CONTRACT.md §1 and docs/tournament.md: a forfeit is a loss in every column, never better
                // than the narrowest loss by playing on
                assert_eq!(faulted.ranks[seat], 2, "{} deal {deal} seat {seat}", G::NAME);
                assert!(
                    faulted.points[seat] < faulted.points[1 - seat],
                    "{} deal {deal}: {faulted:?}",
                    G::NAME
                );
                assert!(
                    match_score(&faulted.ranks, seat) <= match_score(&played_on.ranks, seat),
                    "{} deal {deal} seat {seat}",
                    G::NAME
                );
            }
            summaries.extend(pair);
        }
    }
    let event = Event {
        name: "fairness".into(),
        game: G::NAME.into(),
        variant: None,
        bots: names.clone(),
        bot_paths: names.clone(),
        format: Format::RoundRobin,
        champion: None,
        rounds: 1,
        deals: DEALS as u32,
        seed: 0,
        duplicate: true,
        max_tables: 0,
        limits: LimitsConfig::default(),
    };
    let table = standings::compute(
        &event,
        cardarena::GameId::of::<G>(),
        &G::variants()[0].to_string(),
        &entries,
        &plans,
        &summaries,
    );
    let rank = |bot: &str| table.standings.iter().find(|s| s.bot == bot).unwrap().rank;
    assert!(
        rank("faults") > rank("plays-on"),
        "{}: the faulting bot ranks {} and the one playing on {}:\n{}",
        G::NAME,
        rank("faults"),
        rank("plays-on"),
        standings::render(&table, false)
    );
    // and the rating (a fit to the placings only) never puts it above either
    let rating = |bot: &str| table.standings.iter().find(|s| s.bot == bot).unwrap().rating;
    assert!(rating("faults") <= rating("plays-on") + 1e-6, "{}", standings::render(&table, false));
}

#[test]
fn blade_faulting_never_pays() {
    faulting_never_ranks_above_playing_on::<Blade>();
}

#[test]
fn ecard_faulting_never_pays() {
    faulting_never_ranks_above_playing_on::<Ecard>();
}

#[test]
fn lost_cities_faulting_never_pays() {
    faulting_never_ranks_above_playing_on::<LostCities>();
}

#[test]
fn intensity_faulting_never_pays() {
    // Intensity keeps the faulty seat in the game: +5 penalty points and a random move per fault
    faulting_never_ranks_above_playing_on::<Intensity>();
}
