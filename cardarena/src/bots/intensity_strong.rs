//! The Intensity `strong` bot: [`search`](super::search) over determinizations
//! (docs/games/intensity.md, "Built-in bots: strong").
//!
//! - **Inference.** A seat that did not follow the led suit is void in it; the seat on our left
//!   still holds the cards we passed it until it plays them; the rest of the unseen cards are
//!   dealt at random to the other seats, in the numbers they hold, respecting both (a bipartite
//!   matching, so a consistent deal is always found).
//! - **Determinization.** The engine starts only from a deal, so one is made up that reproduces
//!   the observation: each seat's hand after the pass is what it holds plus what it played; the
//!   two passes we did not see (left → across, across → right) are any three cards of the
//!   receiver's hand; then the pass and the tricks are replayed.
//! - **Search.** At the pass, the candidates are the triples of our six most dangerous cards
//!   (greedy's pass ranking; the other seats pass as greedy would); in the tricks every legal card.
//! - **Rollouts** play greedy's rules on the full state.
//! - **Reward** for a seat: `1 - penalty / 17`.

use super::intensity::{choose_pass, choose_play, pass_danger, short, trick_rule, TieBreak};
use super::search::{Determinize, SearchBot, SearchConfig};
use super::Greedy;
use crate::bots::bot::Bot;
use crate::games::intensity::{
    pass_source, pass_target, Action, Card, Intensity, IntensityObservation, Phase, Setup, HAND_SIZE,
    PLAYERS, TOTAL_PENALTY,
};
use crate::games::rng::Rng;
use crate::games::{Game, Seat};

/// How much better (mean reward) than greedy's choice an action must look to be played instead.
pub const MARGIN: f64 = 0.01;

/// The default iterations per decision.
pub const DEFAULT_ITERATIONS: u32 = 120;

/// The most rollout moves a decision may play per iteration of its budget: it binds at the pass
/// and the first tricks, whose candidates are many and rollouts long.
pub const WORK_PER_ITERATION: u64 = 80;

/// `strong:1` … `strong:3`, each rated at least +50 above the one below (docs/zoo.md): budgets
/// between 1 and the default, or above it, rated less than +50 apart.
pub const LEVELS: &[super::Level] = &[
    super::Level { budget: Some(1), random_per_mille: 300 },
    super::Level::search(1),
    super::Level::search(DEFAULT_ITERATIONS),
];
/// The level plain `strong` plays (1-based).
pub const DEFAULT_LEVEL: usize = 3;

/// Cards of our hand whose triples the search considers at the pass.
const PASS_CANDIDATES: usize = 6;

/// The `strong` bot for `seat` of the match with `seed`, with `budget` iterations per decision.
pub fn bot(seed: u64, seat: Seat, budget: Option<u32>) -> Box<dyn Bot<Intensity>> {
    let iterations = budget.unwrap_or(DEFAULT_ITERATIONS);
    let max_work = Some(u64::from(iterations) * WORK_PER_ITERATION);
    let config = SearchConfig { iterations, margin: MARGIN, max_work, halving: true };
    Box::new(SearchBot::<Intensity>::new(seed, seat, config))
}

/// Kuhn's augmenting path from `card`: finds it a slot, moving other cards if need be.
fn augment(
    card: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for slot in 0..owner.len() {
        if seen[slot] || !fits(card, slot) {
            continue;
        }
        seen[slot] = true;
        if owner[slot].is_none_or(|other| augment(other, fits, owner, seen)) {
            owner[slot] = Some(card);
            return true;
        }
    }
    false
}

/// Every trick of the match so far, the current one last: its leader and its cards in order.
fn tricks_so_far(obs: &IntensityObservation) -> impl Iterator<Item = (Seat, &[Card])> {
    obs.tricks.iter().map(|t| (t.leader, &t.cards[..])).chain([(obs.trick.leader, &obs.trick.cards[..])])
}

impl Determinize for Intensity {
    fn determinize(obs: &IntensityObservation, rng: &mut Rng) -> Intensity {
        let me = obs.seat;
        let mut unseen: Vec<Card> =
            Card::all().filter(|c| !obs.hand.contains(c) && !obs.passed.contains(c)).collect();
        let mut played: [Vec<Card>; PLAYERS] = Default::default();
        let mut void = [[false; 5]; PLAYERS];
        for (leader, cards) in tricks_so_far(obs) {
            let Some(led) = cards.first() else { continue };
            for (i, &card) in cards.iter().enumerate() {
                let seat = (leader + i) % PLAYERS;
                played[seat].push(card);
                if card.suit() != led.suit() {
                    void[seat][usize::from(led.suit())] = true;
                }
            }
        }
        unseen.retain(|c| !played.iter().flatten().any(|p| p == c));
        // Current hands: ours; the left seat keeps what we passed it and has not played.
        let mut hands: [Vec<Card>; PLAYERS] = Default::default();
        hands[me] = obs.hand.clone();
        let left = pass_target(me);
        hands[left] = obs.passed.iter().copied().filter(|c| !played[left].contains(c)).collect();
        // Deal the unseen cards to the free places of the other seats, voids respected.
        rng.shuffle(&mut unseen);
        let mut slots: Vec<Seat> = Vec::with_capacity(unseen.len());
        for s in (0..PLAYERS).filter(|&s| s != me) {
            slots.extend(std::iter::repeat_n(s, obs.cards_left[s] - hands[s].len()));
        }
        rng.shuffle(&mut slots);
        let fits = |card: usize, slot: usize| !void[slots[slot]][usize::from(unseen[card].suit())];
        let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
        for card in 0..unseen.len() {
            let mut seen = vec![false; slots.len()];
            let placed = augment(card, &fits, &mut owner, &mut seen);
            debug_assert!(placed, "the real deal is a consistent one");
        }
        for (slot, card) in owner.iter().enumerate() {
            // A card with no place (only if the observation were inconsistent) stays unplaced;
            // from_setup then reports the bad deal.
            if let Some(card) = card {
                hands[slots[slot]].push(unseen[*card]);
            }
        }
        let mut state = if obs.phase == Phase::Pass {
            let setup = Setup { variant: obs.variant, hands: hands.to_vec() };
            Intensity::from_setup(setup).expect("a sampled deal holds every card once")
        } else {
            // Hands after the pass, then the passes: ours and the right seat's are known; the two
            // we did not see are three cards of the receiver's hand after the pass.
            let after: [Vec<Card>; PLAYERS] =
                std::array::from_fn(|s| hands[s].iter().chain(&played[s]).copied().collect());
            let mut passes: [Vec<Card>; PLAYERS] = Default::default();
            passes[me] = obs.passed.clone();
            passes[pass_source(me)] = obs.received.clone();
            for s in [left, pass_target(left)] {
                let mut pool = after[pass_target(s)].clone();
                rng.shuffle(&mut pool);
                pool.truncate(3);
                pool.sort_unstable();
                passes[s] = pool;
            }
            let dealt: Vec<Vec<Card>> = (0..PLAYERS)
                .map(|s| {
                    let received = &passes[pass_source(s)];
                    after[s].iter().filter(|c| !received.contains(c)).chain(&passes[s]).copied().collect()
                })
                .collect();
            let mut state = Intensity::from_setup(Setup { variant: obs.variant, hands: dealt })
                .expect("a sampled deal holds every card once");
            for (s, pass) in passes.iter().enumerate() {
                state.play_unchecked(s, &Action::Pass([pass[0], pass[1], pass[2]]));
            }
            for (leader, cards) in tricks_so_far(obs) {
                for (i, &card) in cards.iter().enumerate() {
                    state.play_unchecked((leader + i) % PLAYERS, &Action::Play(card));
                }
            }
            state
        };
        for (s, &points) in obs.fault_penalties.iter().enumerate() {
            if points != 0 {
                state.add_penalty(s, points);
            }
        }
        state
    }

    fn rollout_action(&self, seat: Seat, rng: &mut Rng) -> Action {
        match self.phase() {
            Phase::Pass => Action::Pass(choose_pass(self.hand(seat), rng)),
            _ => {
                let legal = self.legal_actions(seat);
                let cards: Vec<Card> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Play(c) => Some(*c),
                        Action::Pass(_) => None,
                    })
                    .collect();
                Action::Play(rollout_play(self, seat, &cards, rng))
            }
        }
    }

    fn candidates(&self, observer: Seat) -> Vec<Action> {
        if self.phase() != Phase::Pass {
            return self.legal_actions(observer);
        }
        let hand = self.hand(observer);
        let mut ranked: Vec<Card> = hand.to_vec();
        // Most dangerous first (greedy's ranking); ties by the higher card, so the list depends
        // only on our hand.
        ranked.sort_by_key(|&c| std::cmp::Reverse((pass_danger(c) + short(hand, c), c)));
        ranked.truncate(PASS_CANDIDATES);
        ranked.sort_unstable();
        let mut out = Vec::new();
        for i in 0..ranked.len() {
            for j in i + 1..ranked.len() {
                for k in j + 1..ranked.len() {
                    out.push(Action::Pass([ranked[i], ranked[j], ranked[k]]));
                }
            }
        }
        out
    }

    fn baseline(obs: &IntensityObservation, rng: &mut Rng) -> Option<Action> {
        Some(<Intensity as super::Greedy>::greedy_action(obs, rng))
    }

    fn reward(&self, seat: Seat) -> f64 {
        (1.0 - self.points()[seat] as f64 / TOTAL_PENALTY as f64).max(0.0)
    }
}

/// The rollouts' tie-break: one draw per card, the least (key, draw) wins; no allocation.
struct DrawPerCard;

impl TieBreak for DrawPerCard {
    fn least<K: Ord>(cards: &[Card], rng: &mut Rng, key: impl Fn(Card) -> K) -> Card {
        let mut best: Option<(K, u32, Card)> = None;
        for &c in cards {
            let k = (key(c), rng.next_u32());
            if best.as_ref().is_none_or(|(bk, br, _)| (&k.0, k.1) < (bk, *br)) {
                best = Some((k.0, k.1, c));
            }
        }
        best.expect("at least one card").2
    }
}

/// Greedy's trick rules (cardarena/src/bots/intensity.rs) on a full state, for rollouts.
fn rollout_play(g: &Intensity, seat: Seat, cards: &[Card], rng: &mut Rng) -> Card {
    let trick = g.current_trick().cards;
    let out = !g.hand(seat).contains(&Card::BUFFALO)
        && !trick.contains(&Card::BUFFALO)
        && !g.tricks().iter().any(|t| t.cards.contains(&Card::BUFFALO));
    trick_rule::<DrawPerCard>(&trick, out, cards, rng)
}

const _: () = assert!(HAND_SIZE == 10);

// `Intensity`'s built-in bots: `greedy` from `intensity.rs`, `strong` from this file.
impl Greedy for Intensity {
    /// # Panics
    /// If `obs.legal` is empty (the seat is not to act).
    fn greedy_action(obs: &IntensityObservation, rng: &mut Rng) -> Action {
        let legal: Vec<Action> = obs.legal.iter().filter_map(|s| s.parse().ok()).collect();
        assert!(!legal.is_empty(), "greedy asked to act with no legal action");
        let choice = match obs.phase {
            Phase::Pass => Action::Pass(choose_pass(&obs.hand, rng)),
            _ => {
                let cards: Vec<Card> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Play(c) => Some(*c),
                        Action::Pass(_) => None,
                    })
                    .collect();
                Action::Play(choose_play(obs, &cards, rng))
            }
        };
        if legal.contains(&choice) {
            choice
        } else {
            // Cannot happen with a well-formed observation; stay legal anyway.
            legal[rng.below(legal.len())]
        }
    }

    fn strong_bot(
        seed: u64,
        seat: Seat,
        budget: Option<u32>,
    ) -> Option<Box<dyn crate::bots::bot::Bot<Self>>> {
        Some(bot(seed, seat, budget))
    }

    fn strong_levels() -> &'static [super::Level] {
        LEVELS
    }

    const STRONG_DEFAULT_LEVEL: usize = DEFAULT_LEVEL;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::search::testkit::{play, seating};
    use crate::games::intensity::Variant;

    fn strong(iterations: u32) -> impl Fn(u64, Seat) -> Box<dyn Bot<Intensity>> {
        move |seed, seat| bot(seed, seat, Some(iterations))
    }

    /// A sampled state reproduces the observer's observation exactly (the JSON a bot gets), at
    /// every decision of every seat, with voids and passed cards in play.
    #[test]
    fn sampled_states_show_the_same_observation() {
        for seed in 0..12 {
            let mut bots = seating::<Intensity>(seed, &[(seed % 4) as Seat], strong(6));
            play(Variant::Standard, seed, &mut bots, 4);
        }
    }

    /// Inference (CONTRACT.md §1 intensity: follow suit if able): a seat that showed out of a
    /// suit gets none of it, and the left seat keeps the cards we passed it.
    #[test]
    fn samples_respect_voids_and_passed_cards() {
        let mut checked = 0;
        for seed in 0..40 {
            let mut g = Intensity::new(Variant::Standard, seed);
            let mut rng = Rng::new(seed, crate::games::rng::Stream::Bot(0));
            while !g.is_over() {
                for s in g.to_act() {
                    let obs = g.observe(s);
                    let sample = Intensity::determinize(&obs, &mut rng);
                    for t in obs.tricks.iter() {
                        let led = t.cards[0].suit();
                        for (i, c) in t.cards.iter().enumerate() {
                            let who = (t.leader + i) % PLAYERS;
                            if c.suit() != led {
                                assert!(
                                    sample.hand(who).iter().all(|h| h.suit() != led),
                                    "seat {who} is void"
                                );
                                checked += 1;
                            }
                        }
                    }
                    let left = pass_target(s);
                    let played: Vec<Card> =
                        obs.tricks.iter().flat_map(|t| t.cards).chain(obs.trick.cards.clone()).collect();
                    for c in obs.passed.iter().filter(|c| !played.contains(c)) {
                        assert!(sample.hand(left).contains(c), "{c} passed left is still there");
                    }
                }
                let s = g.to_act()[0];
                let a = g.rollout_action(s, &mut rng);
                g.play_unchecked(s, &a);
            }
        }
        assert!(checked > 50, "the games showed voids");
    }

    #[test]
    fn same_seed_same_actions() {
        let run = |seed| {
            let mut bots = seating::<Intensity>(seed, &[0, 2], strong(6));
            let mut g = Intensity::new(Variant::Standard, seed);
            let mut actions = Vec::new();
            while !g.is_over() {
                let to_act = g.to_act();
                let obs: Vec<_> = to_act.iter().map(|&s| g.observe(s)).collect();
                for (&s, o) in to_act.iter().zip(&obs) {
                    let a = bots[s].act(o).expect("no fault");
                    g.play(s, &a).expect("strong plays legal actions");
                    actions.push(a);
                }
            }
            actions
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }
}
