//! The Intensity `greedy` bot: the standard Hearts-like rules of thumb (seed-games.md §4(e)),
//! decided from the observation alone.
//!
//! - **Pass**: the buffalo (47), then 49 and 48, then high calves, then high cards, favouring
//!   short suits (to make a void for dumping). A card's danger is its units digit, +5 for a calf,
//!   +4 for a non-calf of a suit of at most 3 cards in the hand; 47/48/49 come first.
//! - **Lead**: the lowest safe card: least units digit, never a calf if avoidable (+10), never
//!   the buffalo (+30), nor 48/49 while the buffalo is still out (+20).
//! - **Follow**: dump the buffalo under a 48/49 if possible; if last on a clean trick, shed the
//!   highest card (never the buffalo); otherwise duck with the highest card that still loses; if
//!   every card wins, take it with the highest card when last, the lowest otherwise (never the
//!   buffalo if avoidable).
//! - **Void**: dump the buffalo, then 48/49 while the buffalo is out, then the highest calf, then
//!   the card with the highest units digit.
//!
//! Ties are broken with the bot's own seeded stream.

use crate::games::intensity::{Card, IntensityObservation};
use crate::games::rng::Rng;

/// How much we want to be rid of a card before the tricks start.
pub(super) fn pass_danger(card: Card) -> u32 {
    match card.number() {
        47 => 100,
        49 => 91,
        48 => 90,
        _ => u32::from(card.rank()) + if card.is_calf() { 5 } else { 0 },
    }
}

/// The three most dangerous cards, ascending (ties: random).
/// A bonus for passing a card of a short suit (at most 3 cards, not calves): voids let us dump.
pub(super) fn short(hand: &[Card], c: Card) -> u32 {
    let n = hand.iter().filter(|h| h.suit() == c.suit()).count();
    if n <= 3 && !c.is_calf() {
        4
    } else {
        0
    }
}

pub(super) fn choose_pass(hand: &[Card], rng: &mut Rng) -> [Card; 3] {
    let mut ranked: Vec<(u32, u32, Card)> =
        hand.iter().map(|&c| (pass_danger(c) + short(hand, c), rng.next_u32(), c)).collect();
    ranked.sort_by(|a, b| b.cmp(a));
    let mut pick = [ranked[0].2, ranked[1].2, ranked[2].2];
    pick.sort_unstable();
    pick
}

/// Whether the buffalo is still in somebody else's hand.
fn buffalo_out(obs: &IntensityObservation) -> bool {
    let seen = obs.hand.iter().chain(&obs.trick.cards).chain(obs.tricks.iter().flat_map(|t| &t.cards));
    !seen.into_iter().any(|c| c.is_buffalo())
}

/// How a trick rule chooses among the cards with the least key. Both ways draw from the bot's
/// own stream; they differ only in how, so each bot keeps its own (seeded, reproducible) play.
pub(super) trait TieBreak {
    /// The card of `cards` with the least `key`, ties broken with `rng`.
    fn least<K: Ord>(cards: &[Card], rng: &mut Rng, key: impl Fn(Card) -> K) -> Card;
}

/// `greedy`'s tie-break: uniform over the tied cards.
pub(super) struct UniformTies;

impl TieBreak for UniformTies {
    fn least<K: Ord>(cards: &[Card], rng: &mut Rng, key: impl Fn(Card) -> K) -> Card {
        let best = cards.iter().map(|&c| key(c)).min().expect("at least one card");
        let ties: Vec<Card> = cards.iter().copied().filter(|&c| key(c) == best).collect();
        ties[rng.below(ties.len())]
    }
}

pub(super) fn choose_play(obs: &IntensityObservation, cards: &[Card], rng: &mut Rng) -> Card {
    trick_rule::<UniformTies>(&obs.trick.cards, buffalo_out(obs), cards, rng)
}

/// The trick rules of thumb (module docs: lead, follow, void) for the trick so far, given whether
/// the buffalo is still in another hand; shared by `greedy` and the `strong` bot's rollouts.
pub(super) fn trick_rule<T: TieBreak>(trick: &[Card], out: bool, cards: &[Card], rng: &mut Rng) -> Card {
    let Some(led) = trick.first() else {
        // Lead low and safe.
        return T::least(cards, rng, |c| {
            let mut score = u32::from(c.rank());
            if c.is_calf() {
                score += 10;
            }
            if c.is_buffalo() {
                score += 30;
            }
            if out && c.number() >= 48 {
                score += 20;
            }
            score
        });
    };
    let follows = cards.iter().all(|c| c.suit() == led.suit());
    if !follows {
        // Void: dump the worst card.
        return T::least(cards, rng, |c| {
            let dump = if c.is_buffalo() {
                300
            } else if out && c.number() >= 48 {
                200
            } else if c.is_calf() {
                100 + u32::from(c.rank())
            } else {
                u32::from(c.rank())
            };
            std::cmp::Reverse((dump, c.number()))
        });
    }
    let winning = trick.iter().filter(|c| c.suit() == led.suit()).max().copied().unwrap_or(*led);
    let last = trick.len() == 3;
    let clean = trick.iter().all(|c| c.penalty() == 0);
    if cards.contains(&Card::BUFFALO) && Card::BUFFALO < winning {
        return Card::BUFFALO;
    }
    // Never the buffalo if avoidable (a hand of only the buffalo has nothing else).
    let highest_safe = cards.iter().copied().filter(|c| !c.is_buffalo()).max();
    let highest = highest_safe.unwrap_or_else(|| *cards.iter().max().expect("a card"));
    if last && clean {
        return highest;
    }
    if let Some(duck) = cards.iter().copied().filter(|&c| c < winning).max() {
        return duck;
    }
    if last {
        highest
    } else {
        cards.iter().copied().filter(|c| !c.is_buffalo()).min().unwrap_or(cards[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Greedy;
    use crate::games::intensity::{Action, Intensity};
    use crate::games::rng::Stream;
    use crate::games::{Game, Seat};

    /// One match: `greedy_seat` plays greedy, the others uniform random over `legal_strings`
    /// (each with `Rng::new(seed, Stream::Bot(seat))`). Returns the outcome's points and ranks.
    fn greedy_vs_random(seed: u64, greedy_seat: Seat) -> (Vec<i64>, Vec<u32>) {
        let mut g = Intensity::new(crate::games::intensity::Variant::Standard, seed);
        let mut rngs: Vec<Rng> = (0..4).map(|s| Rng::new(seed, Stream::Bot(s))).collect();
        while !g.is_over() {
            // Everybody to act decides from the same state, then all choices are applied.
            let choices: Vec<(Seat, String)> = g
                .to_act()
                .into_iter()
                .map(|s| {
                    let obs = g.observe(s);
                    let action = if s == greedy_seat {
                        Intensity::greedy_action(&obs, &mut rngs[s]).to_string()
                    } else {
                        obs.legal[rngs[s].below(obs.legal.len())].clone()
                    };
                    assert!(obs.legal.contains(&action), "{action} not legal");
                    (s, action)
                })
                .collect();
            for (s, a) in choices {
                g.play(s, &a).expect("legal");
            }
        }
        let out = g.outcome().expect("over");
        (out.points, out.ranks)
    }

    #[test]
    fn greedy_beats_three_random_players() {
        // 1000 matches: seeds 0..250, greedy in each seat in turn.
        let (mut n, mut greedy_pts, mut random_pts, mut greedy_rank, mut random_rank) =
            (0, 0i64, 0i64, 0u32, 0u32);
        let mut places = [0u32; 5];
        let (mut shared, mut alone_first) = (0, 0);
        for seed in 0..250u64 {
            for seat in 0..4 {
                let (points, ranks) = greedy_vs_random(seed, seat);
                n += 1;
                greedy_pts += points[seat];
                greedy_rank += ranks[seat];
                places[ranks[seat] as usize] += 1;
                if ranks.iter().filter(|&&r| r == ranks[seat]).count() > 1 {
                    shared += 1;
                } else if ranks[seat] == 1 {
                    alone_first += 1;
                }
                for s in (0..4).filter(|&s| s != seat) {
                    random_pts += points[s];
                    random_rank += ranks[s];
                }
            }
        }
        let g_pen = greedy_pts as f64 / n as f64;
        let r_pen = random_pts as f64 / (3 * n) as f64;
        let g_rank = greedy_rank as f64 / n as f64;
        let r_rank = random_rank as f64 / (3 * n) as f64;
        println!(
            "intensity greedy vs 3 random, {n} games: greedy mean penalty {g_pen:.3}, mean place \
             {g_rank:.3} (places 1/2/3/4: {}/{}/{}/{}); random mean penalty {r_pen:.3}, mean place \
             {r_rank:.3}",
            places[1], places[2], places[3], places[4]
        );
        println!(
            "  first alone: {alone_first}; places shared with a tied seat: {shared}; greedy total {greedy_pts}, random total \
             {random_pts}"
        );
        assert_eq!(n, 1000);
        assert!(g_pen < 0.5 * r_pen, "greedy {g_pen} vs random {r_pen}");
        assert!(g_rank < r_rank - 0.8, "greedy place {g_rank} vs random {r_rank}");
    }

    #[test]
    fn greedy_passes_the_buffalo_high_cards_and_short_suits() {
        // seed-games.md §4(e): pass 47, 48, 49 and high calves.
        let hand: Vec<Card> =
            [10, 11, 23, 35, 39, 41, 47, 48, 49, 12].iter().map(|&n| Card::new(n).unwrap()).collect();
        let mut rng = Rng::new(1, Stream::Bot(0));
        let pick = choose_pass(&hand, &mut rng).map(Card::number);
        assert_eq!(pick, [47, 48, 49]);
        let hand: Vec<Card> =
            [10, 11, 23, 35, 39, 41, 47, 42, 29, 12].iter().map(|&n| Card::new(n).unwrap()).collect();
        // 39 (9 + 5 for a calf) and 29 (9 + 4 for the two-card 2x suit) go with the buffalo.
        assert_eq!(choose_pass(&hand, &mut rng).map(Card::number), [29, 39, 47]);
    }

    #[test]
    fn greedy_follows_suit_dumps_the_buffalo_and_leads_safe() {
        let mut g = Intensity::new(crate::games::intensity::Variant::Standard, 3);
        let mut rng = Rng::new(3, Stream::Bot(0));
        // Play the whole game greedily in all seats, checking each choice against the heuristic.
        while !g.is_over() {
            for s in g.to_act() {
                let obs = g.observe(s);
                let a = Intensity::greedy_action(&obs, &mut rng);
                if let (Action::Play(c), Some(led)) = (a, obs.trick.cards.first()) {
                    let follows = obs.hand.iter().any(|h| h.suit() == led.suit());
                    if follows {
                        assert_eq!(c.suit(), led.suit());
                    } else if obs.hand.contains(&Card::BUFFALO) {
                        assert_eq!(c, Card::BUFFALO, "a void seat dumps the buffalo");
                    }
                }
                if let (Action::Play(c), None) = (a, obs.trick.cards.first()) {
                    if obs.hand.iter().any(|h| !h.is_calf() && h.number() < 47) {
                        assert!(!c.is_calf() && !c.is_buffalo(), "lead {c} with {:?}", obs.hand);
                    }
                }
                g.play(s, &a.to_string()).unwrap();
            }
        }
    }
}
