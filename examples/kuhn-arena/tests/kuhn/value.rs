//! The anchors: the equilibrium's value −1/18 for the first player (Kuhn 1950; OpenSpiel's
//! `kuhn_poker`), and what the best response to `random` wins, computed exactly over the six
//! deals and measured in matches played by the arena's `Match`.

use cardarena::play::registry::Loader;
use kuhn_arena::bots::{best_response_aggression, nash_aggression, ALPHA_MAX};
use kuhn_arena::exact::{deal_moments, deals, value, Strategy};
use kuhn_arena::game::{Action, Card, KuhnObservation};

use crate::common::{play, seeds_by_deal, stratified_ci95, Seat};

const GAME_VALUE: f64 = -1.0 / 18.0;

/// `random`: bet or call with probability 1/2, whatever the card.
fn random(_: &KuhnObservation) -> f64 {
    0.5
}

/// The α of the family at which the exact values are checked.
const ALPHAS: [f64; 5] = [0.0, 1.0 / 12.0, 1.0 / 6.0, 0.25, ALPHA_MAX];

#[test]
fn every_member_of_the_nash_family_gives_the_first_player_minus_one_eighteenth() {
    for alpha in ALPHAS {
        let nash = move |o: &KuhnObservation| nash_aggression(alpha, o.card, &o.betting);
        let v = value([&nash, &nash]);
        assert!((v - GAME_VALUE).abs() < 1e-12, "α = {alpha}: {v}");
    }
}

#[test]
fn no_strategy_gains_against_the_nash_family() {
    // An equilibrium: against any member, the best pure strategy of either seat gains nothing.
    for alpha in ALPHAS {
        let nash = move |o: &KuhnObservation| nash_aggression(alpha, o.card, &o.betting);
        let (first, _) = best_pure_response(0, &nash);
        let (second, _) = best_pure_response(1, &nash);
        assert!((first - GAME_VALUE).abs() < 1e-12, "α = {alpha}: seat 0 gets {first}");
        assert!((second + GAME_VALUE).abs() < 1e-12, "α = {alpha}: seat 1 gets {second}");
    }
}

/// A decision point of a seat: its card and the betting it faces.
type Point = (Card, Vec<Action>);

/// A seat's decision points: its card and the betting it faces (seat 0: none, check-bet;
/// seat 1: check, bet).
fn decision_points(seat: usize) -> Vec<Point> {
    use Action::*;
    let bettings = if seat == 0 { [vec![], vec![Check, Bet]] } else { [vec![Check], vec![Bet]] };
    Card::ALL.into_iter().flat_map(|c| bettings.clone().map(|b| (c, b))).collect()
}

/// The best of the 64 pure strategies of `seat` (bet or call, or not, at each of its six
/// decision points) against `other` in the other seat: its expected points, and the strategy
/// as the set of decision points where it bets or calls.
fn best_pure_response(seat: usize, other: Strategy) -> (f64, Vec<Point>) {
    let points = decision_points(seat);
    let mut best: Option<(f64, Vec<Point>)> = None;
    for mask in 0u32..1 << points.len() {
        let aggressive: Vec<_> =
            points.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, p)| p.clone()).collect();
        let pure = |o: &KuhnObservation| {
            let here = (o.card, o.betting.clone());
            if aggressive.contains(&here) {
                1.0
            } else {
                0.0
            }
        };
        let v = if seat == 0 { value([&pure, other]) } else { -value([other, &pure]) };
        if best.as_ref().is_none_or(|(b, _)| v > *b + 1e-12) {
            best = Some((v, aggressive));
        }
    }
    best.expect("64 strategies")
}

/// The exact value of the best response to `random` in each seat (by enumeration), and that the
/// `best-response` bot's strategy gets it.
fn best_response_values() -> [f64; 2] {
    let ours = |o: &KuhnObservation| best_response_aggression(o.card, &o.betting);
    [0, 1].map(|seat| {
        let (best, _) = best_pure_response(seat, &random);
        let got = if seat == 0 { value([&ours, &random]) } else { -value([&random, &ours]) };
        assert!((got - best).abs() < 1e-12, "seat {seat}: best-response gets {got}, the best is {best}");
        best
    })
}

#[test]
fn the_best_response_to_random_wins_one_half_first_and_five_twelfths_second() {
    // By hand: first, J bets (−1/2 against −1 checking), Q bets (+1/2 against 0), K bets or
    // checks and calls (+3/2 either way): (−1/2 + 1/2 + 3/2)/3 = 1/2. Second: after a check,
    // bet every card (J −1/2, Q +1/2, K +3/2); facing a bet, call with Q or K and fold the J:
    // (1/2·(−1/2 −1) + 1/2·(1/2 + 0) + 1/2·(3/2 + 2))/3 = 5/12.
    let [first, second] = best_response_values();
    assert!((first - 0.5).abs() < 1e-12, "{first}");
    assert!((second - 5.0 / 12.0).abs() < 1e-12, "{second}");
    // Second, every decision point is reached and none is a tie: the bot's is the one best
    // strategy. (First, the K ties, and the points after a check-bet that the bot's opening bets
    // never reach tie too; the values above are what matter.)
    let (_, second_best) = best_pure_response(1, &random);
    let aggressive: Vec<_> =
        decision_points(1).into_iter().filter(|(c, b)| best_response_aggression(*c, b) == 1.0).collect();
    assert_eq!(second_best, aggressive);
}

/// The matches per deal a stratified measurement needs for the 95% interval's half-width to be
/// at most `half`, when deal `k`'s points have variance `variances[k]`.
fn per_deal_for(variances: &[f64], half: f64) -> usize {
    let k = variances.len() as f64;
    let sum: f64 = variances.iter().sum();
    (1.96f64.powi(2) * sum / (k * k * half * half)).ceil() as usize
}

#[test]
fn nash_against_nash_measures_minus_one_eighteenth_within_a_hundredth() {
    // Each `nash` bot draws its α uniformly from [0, 1/3] per match (only the first player's
    // matters). A deal's points then have variance E[X²] − E[X]², the expectations over α: the
    // moments are polynomials of degree 2 in α, so Simpson's rule on 0, 1/6, 1/3 is exact.
    let variances: Vec<f64> = deals()
        .into_iter()
        .map(|cards| {
            let at = |alpha: f64| {
                let nash = move |o: &KuhnObservation| nash_aggression(alpha, o.card, &o.betting);
                deal_moments(cards, [&nash, &nash])
            };
            let (a, b, c) = (at(0.0), at(ALPHA_MAX / 2.0), at(ALPHA_MAX));
            let simpson = |f: fn(kuhn_arena::exact::Moments) -> f64| (f(a) + 4.0 * f(b) + f(c)) / 6.0;
            simpson(|m| m.square) - simpson(|m| m.mean).powi(2)
        })
        .collect();
    // Half-width 0.0045: an interval that contains −1/18 then lies within ±0.009 of it.
    let per_deal = per_deal_for(&variances, 0.0045);
    eprintln!("deal variances {variances:.4?}: {per_deal} matches per deal");
    let loader = Loader::new();
    let nash = Seat::loaded(&loader, "nash");
    let samples: Vec<Vec<f64>> = seeds_by_deal(per_deal, 1)
        .into_iter()
        .map(|seeds| {
            seeds.into_iter().map(|seed| play(seed, [&nash, &nash]).outcome.points[0] as f64).collect()
        })
        .collect();
    let (mean, half) = stratified_ci95(&samples);
    eprintln!("nash vs nash, seat 0: {mean:.5} ± {half:.5} (exact {GAME_VALUE:.5})");
    assert!((mean - half..=mean + half).contains(&GAME_VALUE), "{mean} ± {half}");
    assert!(
        mean - half >= GAME_VALUE - 0.01 && mean + half <= GAME_VALUE + 0.01,
        "{mean} ± {half} is not within ±0.01 of −1/18"
    );
}

#[test]
fn the_best_response_wins_what_the_exact_computation_says_against_the_arenas_random() {
    // Every seed is played twice, the best response in each seat against the arena's own
    // `random`; a seed's sample is its mean of the two, whose expectation is the mean of the
    // two exact values.
    let [first, second] = best_response_values();
    let exact = (first + second) / 2.0;
    let loader = Loader::new();
    let random = Seat::loaded(&loader, "random");
    let best = Seat::loaded(&loader, "best-response");
    let samples: Vec<Vec<f64>> = seeds_by_deal(400, 1)
        .into_iter()
        .map(|seeds| {
            seeds
                .into_iter()
                .map(|seed| {
                    let a = play(seed, [&best, &random]).outcome.points[0];
                    let b = play(seed, [&random, &best]).outcome.points[1];
                    (a + b) as f64 / 2.0
                })
                .collect()
        })
        .collect();
    let (mean, half) = stratified_ci95(&samples);
    eprintln!("best-response vs random: {mean:.4} ± {half:.4} (exact {exact:.4})");
    assert!((mean - half..=mean + half).contains(&exact), "{mean} ± {half}, exact {exact}");
    assert!(half < 0.05, "an interval this wide ({half}) would not tell");
}

/// Kuhn's built-ins, by each of their names, play every decision with a legal action and no fault.
#[test]
fn the_built_in_bots_reply_with_a_legal_action() {
    let loader = Loader::new();
    let seats = [
        Seat::loaded(&loader, "nash"),
        Seat::loaded(&loader, "best-response"),
        Seat::loaded(&loader, "nash:1/6"),
    ];
    for seed in 0..50 {
        for a in &seats {
            for b in &seats {
                let replay = play(seed, [a, b]);
                assert!(replay.faults.iter().all(Vec::is_empty), "{:?}", replay.faults);
                for d in &replay.decisions {
                    assert!(d.legal.contains(d.played.as_ref().expect("played")));
                }
            }
        }
    }
}
