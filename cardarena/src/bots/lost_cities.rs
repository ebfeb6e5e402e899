//! The greedy Lost Cities bot: a one-ply rule list over the observation (docs/games/lost-cities.md,
//! "Greedy bot"), after the priorities of `chikinn/lost-cities:players/BROB_POLICY.md` and James
//! Edward Gray II's `risk_player.rb` (seed-games.md §3(e)).
//!
//! Play phase, first rule that applies:
//! 1. extend a started expedition with its lowest playable hand card when the *gap* (cards still
//!    obtainable between the expedition's top and that card) is small; the smallest gap wins. The
//!    allowed gap grows as the deck runs out, and near the end any extension is taken;
//! 2. start a new expedition when the hand holds enough of that suit (sum of its numbers plus a
//!    share of the higher unseen cards, with time left to play them), led by an investment while
//!    the deck is still long;
//! 3. otherwise discard the card that costs least to lose: cards neither side can use first
//!    (below both players' tops), never a card the opponent's started expedition can take when
//!    there is another choice, and weak unstarted suits before strong ones.
//!
//! Draw phase: the top of a discard pile that extends one of our started expeditions with a small
//! gap, else the deck; on the last deck card, draw a pile (stall) when behind or level, the deck
//! when ahead.

use crate::games::lost_cities::{can_extend, Action, Card, LostCitiesObservation, Source, Suit};
use crate::games::rng::Rng;
use crate::games::Seat;

/// The knobs that tell `greedy` from the stronger heuristic of the `strong` bot
/// (docs/tutorial/lost-cities/step5.lua explains and measures each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Lead a new expedition with an investment (and add another) while the deck holds at least
    /// this many cards.
    pub invest_deck: usize,
    /// With at most this many own plays left and more playable cards than plays, play the most
    /// valuable ones (0: off).
    pub last_plays: usize,
    /// With at most this many deck cards and more playable cards than turns, draw from a pile to
    /// make the game last longer (0: off).
    pub stall_deck: usize,
}

impl Policy {
    /// The built-in `greedy`.
    pub const GREEDY: Policy = Policy { invest_deck: 24, last_plays: 0, stall_deck: 0 };
    /// Tutorial step 5's rules: bolder investments, best last plays, stalling.
    pub const STEP5: Policy = Policy { invest_deck: 12, last_plays: 4, stall_deck: 10 };
}

/// What the bot knows about the position, as read from the observation.
struct View<'a> {
    obs: &'a LostCitiesObservation,
    me: Seat,
    opp: Seat,
    policy: Policy,
}

impl<'a> View<'a> {
    fn new(obs: &'a LostCitiesObservation, policy: Policy) -> View<'a> {
        View { obs, me: obs.seat, opp: 1 - obs.seat, policy }
    }

    fn expedition(&self, seat: Seat, suit: Suit) -> &[Card] {
        self.obs.expeditions[seat].get(suit).map_or(&[], |e| e.as_slice())
    }

    fn pile(&self, suit: Suit) -> &[Card] {
        self.obs.discards.get(suit).map_or(&[], |p| p.as_slice())
    }

    /// The number a new card must beat on `seat`'s expedition: `None` if unstarted, 1 if only
    /// investments lie there.
    fn floor(&self, seat: Seat, suit: Suit) -> Option<u8> {
        let exp = self.expedition(seat, suit);
        if exp.is_empty() {
            None
        } else {
            Some(exp.iter().rev().find_map(|c| c.number_value()).unwrap_or(1))
        }
    }

    fn started(&self, seat: Seat, suit: Suit) -> bool {
        !self.expedition(seat, suit).is_empty()
    }

    /// Whether the number card `n` of `suit` is already in an expedition (lost to us for good).
    fn in_expedition(&self, suit: Suit, n: u8) -> bool {
        let card = Card::number(suit, n);
        (0..2).any(|s| self.expedition(s, suit).contains(&card))
    }

    fn in_hand(&self, card: Card) -> bool {
        self.obs.hand.contains(&card)
    }

    /// Number cards of `suit` we have not seen: in the opponent's hand or in the deck.
    fn unseen_numbers(&self, suit: Suit) -> impl Iterator<Item = u8> + '_ {
        (2..=10u8).filter(move |&n| {
            let card = Card::number(suit, n);
            !self.in_hand(card) && !self.in_expedition(suit, n) && !self.pile(suit).contains(&card)
        })
    }

    /// Cards of `suit` strictly between `low` and `high` that we could still have played: not in
    /// an expedition and not in our hand (a discard pile card can still be drawn).
    fn gap(&self, suit: Suit, low: u8, high: u8) -> usize {
        (low.saturating_add(1)..high)
            .filter(|&n| !self.in_expedition(suit, n) && !self.in_hand(Card::number(suit, n)))
            .count()
    }

    /// Our remaining turns if both seats keep drawing from the deck.
    fn my_turns_left(&self) -> usize {
        self.obs.deck_size.div_ceil(2)
    }

    /// The largest gap worth accepting to extend an expedition now.
    fn gap_allowance(&self) -> usize {
        match self.obs.deck_size {
            0..=8 => usize::MAX,
            9..=16 => 4,
            17..=28 => 2,
            _ => 1,
        }
    }

    fn hand_of(&self, suit: Suit) -> impl Iterator<Item = Card> + '_ {
        self.obs.hand.iter().copied().filter(move |c| c.suit == suit)
    }

    /// The extension cost of playing `card` on our expedition (lower is better), or `None` if it
    /// is not playable there or the expedition is unstarted.
    fn extension_cost(&self, card: Card) -> Option<usize> {
        let floor = self.floor(self.me, card.suit)?;
        if !can_extend(self.expedition(self.me, card.suit), card) {
            return None;
        }
        match card.number_value() {
            // Another investment on investments only: worth it while there is time to build.
            None => Some(if self.obs.deck_size >= self.policy.invest_deck { 0 } else { 6 }),
            Some(n) => Some(self.gap(card.suit, floor, n)),
        }
    }

    /// How good starting `suit` now would be, from our hand: the sum of our numbers plus a share
    /// of the higher unseen cards we may still draw, minus the 20 the expedition costs.
    fn start_potential(&self, suit: Suit) -> Option<i64> {
        let numbers: Vec<u8> = self.hand_of(suit).filter_map(|c| c.number_value()).collect();
        let lowest = *numbers.first()?;
        let sum: i64 = numbers.iter().map(|&n| i64::from(n)).sum();
        if numbers.len() > self.my_turns_left() {
            return None;
        }
        let later: i64 = self.unseen_numbers(suit).filter(|&n| n > lowest).map(i64::from).sum();
        let share = (self.obs.deck_size as i64).min(40);
        let expected = later * share / 120; // up to a third of the unseen higher cards
        let enough = numbers.len() >= 3 || sum >= 14;
        enough.then_some(sum + expected - 20)
    }

    /// Hand cards that fit one of our started expeditions.
    fn playable(&self) -> impl Iterator<Item = Card> + '_ {
        self.obs
            .hand
            .iter()
            .copied()
            .filter(|c| self.started(self.me, c.suit) && can_extend(self.expedition(self.me, c.suit), *c))
    }

    /// The last plays (`Policy::last_plays`): with few plays left and more playable number cards
    /// than plays, the most valuable ones (number × the expedition's multiplier), lowest of its
    /// suit first (any set of cards of a suit can be played in ascending order).
    fn last_play(&self) -> Option<Card> {
        let plays = self.my_turns_left();
        if plays > self.policy.last_plays {
            return None;
        }
        let mut candidates: Vec<(i64, Card)> = self
            .playable()
            .filter_map(|c| {
                let n = i64::from(c.number_value()?);
                let multiplier =
                    1 + self.expedition(self.me, c.suit).iter().filter(|e| e.is_investment()).count() as i64;
                Some((n * multiplier, c))
            })
            .collect();
        if candidates.is_empty() || candidates.len() < plays {
            return None;
        }
        candidates.sort_by_key(|&(value, _)| std::cmp::Reverse(value)); // stable: hand order on ties
        let chosen: Vec<Card> = candidates.iter().take(plays).map(|&(_, c)| c).collect();
        self.obs.hand.iter().copied().find(|c| chosen.contains(c))
    }

    /// What losing `card` by discarding it costs us, plus what it would give the opponent.
    fn discard_cost(&self, card: Card) -> i64 {
        let suit = card.suit;
        let number = card.number_value().map_or(0, i64::from);
        let mine = self.floor(self.me, suit);
        let theirs = self.floor(self.opp, suit);
        let dead_for_me = mine.is_some() && !can_extend(self.expedition(self.me, suit), card);
        let usable_by_them = theirs.is_some() && can_extend(self.expedition(self.opp, suit), card);

        let keep = if dead_for_me {
            0
        } else if mine.is_some() {
            20 + number
        } else {
            let sum: i64 = self.hand_of(suit).filter_map(|c| c.number_value()).map(i64::from).sum();
            if card.is_investment() && self.obs.deck_size < 24 {
                1
            } else {
                2 + sum / 3
            }
        };
        let feed = if usable_by_them {
            let multiplier =
                1 + self.expedition(self.opp, suit).iter().filter(|c| c.is_investment()).count() as i64;
            30 + number * multiplier
        } else if theirs.is_none() {
            number / 2
        } else {
            0
        };
        keep + feed
    }
}

/// Picks uniformly among the actions with the best (lowest) key.
fn best_by<K: Ord>(actions: &[Action], rng: &mut Rng, key: impl Fn(&Action) -> Option<K>) -> Option<Action> {
    let keyed: Vec<(K, Action)> = actions.iter().filter_map(|a| key(a).map(|k| (k, *a))).collect();
    let best = keyed.iter().map(|(k, _)| k).min()?;
    let ties: Vec<Action> = keyed.iter().filter(|(k, _)| k == best).map(|(_, a)| *a).collect();
    rng.choose(&ties).copied()
}

fn choose_play(view: &View, legal: &[Action], rng: &mut Rng) -> Option<Action> {
    // 0. (Policy::last_plays) The most valuable last plays.
    if let Some(card) = view.last_play() {
        return Some(Action::Play(card));
    }
    // 1. Extend a started expedition with its lowest playable card, smallest gap first.
    let extension = best_by(legal, rng, |a| match *a {
        Action::Play(card) => {
            let lowest = view
                .obs
                .hand
                .iter()
                .find(|c| c.suit == card.suit && can_extend(view.expedition(view.me, card.suit), **c));
            if lowest != Some(&card) {
                return None;
            }
            view.extension_cost(card)
        }
        _ => None,
    });
    if let Some(Action::Play(card)) = extension {
        if view.extension_cost(card).is_some_and(|cost| cost <= view.gap_allowance()) {
            return extension;
        }
    }

    // 2. Start the most promising new expedition, if any is promising enough.
    let start = best_by(legal, rng, |a| match *a {
        Action::Play(card) if !view.started(view.me, card.suit) => {
            let potential = view.start_potential(card.suit)?;
            if potential < 2 {
                return None;
            }
            let invest = potential >= 2 && view.obs.deck_size >= view.policy.invest_deck;
            let first = if invest {
                view.hand_of(card.suit).next()
            } else {
                view.hand_of(card.suit).find(|c| !c.is_investment())
            };
            (first == Some(card)).then_some(-potential)
        }
        _ => None,
    });
    if start.is_some() {
        return start;
    }

    // 3. Discard the cheapest card to lose, unless every discard hurts more than the extension.
    let discard = best_by(legal, rng, |a| match *a {
        Action::Discard(card) => Some(view.discard_cost(card)),
        _ => None,
    });
    match (discard, extension) {
        (Some(Action::Discard(card)), Some(ext)) if view.discard_cost(card) >= 20 => Some(ext),
        (Some(d), _) => Some(d),
        (None, ext) => ext,
    }
}

fn choose_draw(view: &View, legal: &[Action], rng: &mut Rng) -> Option<Action> {
    let piles: Vec<Action> =
        legal.iter().copied().filter(|a| matches!(a, Action::Draw(Source::Pile(_)))).collect();
    if view.obs.deck_size == 1 && !piles.is_empty() {
        let [mine, theirs] = [view.obs.scores[view.me], view.obs.scores[view.opp]];
        if mine <= theirs {
            // Stall: taking the last deck card would end the game behind.
            return best_by(&piles, rng, |a| match *a {
                Action::Draw(Source::Pile(suit)) => {
                    let top = *view.pile(suit).last()?;
                    Some(view.extension_cost(top).unwrap_or(100))
                }
                _ => None,
            });
        }
        return Some(Action::Draw(Source::Deck));
    }
    let pickup = best_by(&piles, rng, |a| match *a {
        Action::Draw(Source::Pile(suit)) => {
            let top = *view.pile(suit).last()?;
            let cost = view.extension_cost(top)?;
            (top.number_value().is_some() && cost <= view.gap_allowance().min(2)).then_some(cost)
        }
        _ => None,
    });
    if pickup.is_some() {
        return pickup;
    }
    // (Policy::stall_deck) More to play than turns left: take a pile card, the deck does not
    // shrink; our suit's card first, one the opponent wants taken away from it.
    if view.obs.deck_size <= view.policy.stall_deck
        && !piles.is_empty()
        && view.playable().count() > view.my_turns_left()
    {
        return best_by(&piles, rng, |a| match *a {
            Action::Draw(Source::Pile(suit)) => {
                let top = *view.pile(suit).last()?;
                let mut key = 50i64;
                if view.started(view.me, suit) && can_extend(view.expedition(view.me, suit), top) {
                    key = 0;
                }
                if view.started(view.opp, suit) && can_extend(view.expedition(view.opp, suit), top) {
                    key -= 10 + top.number_value().map_or(0, i64::from);
                }
                Some(key)
            }
            _ => None,
        });
    }
    Some(Action::Draw(Source::Deck))
}

/// The rule list of this module with `policy`'s knobs (`Policy::GREEDY` is the `greedy` bot).
pub(crate) fn policy_action(obs: &LostCitiesObservation, policy: Policy, rng: &mut Rng) -> Action {
    let legal: Vec<Action> = obs.legal.iter().filter_map(|s| s.parse().ok()).collect();
    let view = View::new(obs, policy);
    let drawing = legal.iter().any(|a| matches!(a, Action::Draw(_)));
    let choice = if drawing { choose_draw(&view, &legal, rng) } else { choose_play(&view, &legal, rng) };
    match choice.filter(|a| legal.contains(a)) {
        Some(action) => action,
        None => *rng.choose(&legal).expect("a policy is only asked when there is a legal action"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::Greedy;
    use crate::games::lost_cities::{LostCities, Variant};
    use crate::games::rng::Stream;
    use crate::games::Game;

    /// Wins, draws, losses of greedy and the total points of each side.
    #[derive(Debug, Default)]
    struct Tally {
        wins: u32,
        draws: u32,
        losses: u32,
        greedy_points: i64,
        random_points: i64,
    }

    impl Tally {
        fn matches(&self) -> u32 {
            self.wins + self.draws + self.losses
        }

        fn win_rate(&self) -> f64 {
            f64::from(self.wins) / f64::from(self.matches())
        }

        fn mean_difference(&self) -> f64 {
            (self.greedy_points - self.random_points) as f64 / f64::from(self.matches())
        }

        fn report(&self) -> String {
            let n = f64::from(self.matches());
            format!(
                "{} matches, W/D/L {}/{}/{}, mean points {:.1} vs {:.1} (difference {:+.1})",
                self.matches(),
                self.wins,
                self.draws,
                self.losses,
                self.greedy_points as f64 / n,
                self.random_points as f64 / n,
                self.mean_difference(),
            )
        }
    }

    fn greedy_vs_random(variant: Variant, seeds: std::ops::Range<u64>) -> Tally {
        let mut tally = Tally::default();
        for seed in seeds {
            for greedy_seat in 0..2 {
                let mut g = LostCities::new(variant, seed);
                let mut rngs = [Rng::new(seed, Stream::Bot(0)), Rng::new(seed, Stream::Bot(1))];
                while let Some(&seat) = g.to_act().first() {
                    let action = if seat == greedy_seat {
                        LostCities::greedy_action(&g.observe(seat), &mut rngs[seat]).to_string()
                    } else {
                        let legal = g.legal_strings(seat);
                        legal[rngs[seat].below(legal.len())].clone()
                    };
                    g.play(seat, &action).expect("bots play legal actions");
                }
                let points = g.outcome().expect("over").points;
                let (mine, theirs) = (points[greedy_seat], points[1 - greedy_seat]);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => tally.wins += 1,
                    std::cmp::Ordering::Equal => tally.draws += 1,
                    std::cmp::Ordering::Less => tally.losses += 1,
                }
                tally.greedy_points += mine;
                tally.random_points += theirs;
            }
        }
        tally
    }

    #[test]
    fn greedy_beats_random_classic() {
        // 500 seeds × both seat orders = 1000 matches, fixed seeds: deterministic.
        let t = greedy_vs_random(Variant::Classic, 0..500);
        eprintln!("lost-cities classic greedy vs random: {}", t.report());
        assert_eq!(t.matches(), 1000);
        assert!(t.win_rate() >= 0.95, "{}", t.report());
        assert!(t.mean_difference() >= 50.0, "{}", t.report());
    }

    #[test]
    fn greedy_beats_random_six_suits() {
        let t = greedy_vs_random(Variant::SixSuits, 0..100);
        eprintln!("lost-cities six-suits greedy vs random: {}", t.report());
        assert!(t.win_rate() >= 0.95, "{}", t.report());
        assert!(t.mean_difference() >= 50.0, "{}", t.report());
    }

    #[test]
    fn greedy_takes_a_useful_discard_and_extends_with_the_smallest_gap() {
        // Seat 0 started D with 3D; seat 1 discards 4D: greedy draws it, then plays it.
        use crate::games::lost_cities::Setup;
        let parse =
            |s: &str| -> Vec<Card> { s.split_whitespace().map(|c| c.parse().expect("card")).collect() };
        let hand0 = parse("3D 8D 2O 5O 7J 9J 10V 4M");
        let hand1 = parse("4D 2M 3M 5M 6M 7M 8M 9M");
        let mut rest = Variant::Classic.full_deck();
        for c in hand0.iter().chain(&hand1) {
            let i = rest.iter().position(|r| r == c).expect("in deck");
            rest.remove(i);
        }
        // Seat 0's first draw is 6O (the investment first in canonical order would be discarded).
        let six_o = Card::number(Suit::Ocean, 6);
        rest.retain(|c| *c != six_o);
        rest.insert(0, six_o);
        let setup = Setup { variant: Variant::Classic, hands: [hand0, hand1], deck: rest };
        let mut g = LostCities::from_setup(setup).expect("valid");
        let mut rng = Rng::new(1, Stream::Bot(0));
        g.play(0, "play 3D").expect("legal");
        g.play(0, "draw deck").expect("legal");
        g.play(1, "discard 4D").expect("legal");
        g.play(1, "draw deck").expect("legal");
        // 8D leaves a gap of four obtainable cards (4..7): not yet.
        let play = LostCities::greedy_action(&g.observe(0), &mut rng).to_string();
        assert_ne!(play, "play 8D");
        g.play(0, &play).expect("legal");
        // 4D on the pile extends D with no gap: take it.
        assert_eq!(LostCities::greedy_action(&g.observe(0), &mut rng).to_string(), "draw D");
        g.play(0, "draw D").expect("legal");
        g.play(1, "discard 2M").expect("legal");
        g.play(1, "draw deck").expect("legal");
        assert_eq!(LostCities::greedy_action(&g.observe(0), &mut rng).to_string(), "play 4D");
    }
}
