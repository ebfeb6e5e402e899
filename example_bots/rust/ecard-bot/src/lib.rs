//! An example E-card bot: it learns how often the opponent shows its special card and plays
//! the best reply (the same idea as `example_bots/lua/ecard_greedy.lua`).
//!
//! The belief is one number `p`: the chance that the opponent shows its special card (E or S)
//! when it could still show a Citizen. It is estimated from every play in the observation
//! (`history` and the current round's `plays`), starting from a prior of 1/3. Given `p`, the
//! value of each card is the expected points of the round (ours minus theirs) when we also
//! play best in the round's later plays: an exact recursion over at most `max_plays` plays.
//!
//! Against a uniformly random opponent (`p` = 1/2) the Emperor side keeps its Emperor back and
//! the Slave side plays its Slave at once.

use cardarena_bot::ecard::{Card, Observation, Side};
use cardarena_bot::{Bot, InitInfo, Rng};

const PRIOR_P: f64 = 1.0 / 3.0;
const PRIOR_WEIGHT: f64 = 3.0;

#[derive(Default)]
struct BestReply {
    rng: Rng,
}

impl Bot for BestReply {
    type Observation = Observation;

    fn init(&mut self, info: &InitInfo) {
        self.rng = Rng::new(info.seed ^ info.seat as u64);
    }

    fn act(&mut self, obs: &Observation) -> String {
        let (shown, chances) = count_opponent(obs);
        let round = Round {
            p: (shown + PRIOR_P * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT),
            side: obs.side,
            their_special: obs.opponent_side.special(),
            max_plays: obs.max_plays,
        };
        let citizens = |hand: &[Card]| hand.iter().filter(|&&c| c == Card::Citizen).count();
        let (mine, theirs) = (citizens(&obs.hand), citizens(&obs.opponent_hand));

        let values: Vec<(&String, f64)> = obs
            .legal
            .iter()
            .map(|action| {
                let card = if action == "C" { Card::Citizen } else { obs.side.special() };
                (action, round.value(card, obs.play, mine, theirs))
            })
            .collect();
        let best = values.iter().map(|&(_, v)| v).fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<&String> = values.iter().filter(|&&(_, v)| v > best - 1e-9).map(|&(a, _)| a).collect();
        match self.rng.choose(&top) {
            Some(action) => (*action).clone(),
            None => obs.legal[0].clone(),
        }
    }
}

cardarena_bot::export_bot!(BestReply);

/// The opponent model and the round's parameters.
struct Round {
    /// The chance the opponent shows its special card while it holds a Citizen.
    p: f64,
    side: Side,
    their_special: Card,
    max_plays: usize,
}

impl Round {
    /// Our points from a decisive play (ours, theirs), or `None` for a Citizen draw.
    fn points(&self, mine: Card, theirs: Card) -> Option<f64> {
        use Card::*;
        let slave_side_wins = match (mine, theirs) {
            (Citizen, Citizen) => return None,
            (Slave, Emperor) | (Emperor, Slave) => true,
            _ => false, // a Citizen beats the Slave, the Emperor beats a Citizen
        };
        let winner = if slave_side_wins { Side::Slave } else { Side::Emperor };
        let points = winner.win_points() as f64;
        Some(if winner == self.side { points } else { -points })
    }

    /// Expected round points if we play `card` at `play` holding `mine` Citizens against
    /// `theirs`, then play best.
    fn value(&self, card: Card, play: usize, mine: usize, theirs: usize) -> f64 {
        let p = if theirs == 0 { 1.0 } else { self.p };
        let special = self.points(card, self.their_special).unwrap_or(0.0);
        let citizen = match self.points(card, Card::Citizen) {
            Some(v) => v,
            None if play >= self.max_plays => 0.0, // the last play drew: the round is drawn
            None => self.best(play + 1, mine - 1, theirs - 1),
        };
        p * special + (1.0 - p) * citizen
    }

    fn best(&self, play: usize, mine: usize, theirs: usize) -> f64 {
        let special = self.value(self.side.special(), play, mine, theirs);
        if mine == 0 {
            special
        } else {
            special.max(self.value(Card::Citizen, play, mine, theirs))
        }
    }
}

/// How often the opponent showed its special card when it still held a Citizen, out of how
/// many such plays.
fn count_opponent(obs: &Observation) -> (f64, f64) {
    let opp = 1 - obs.seat;
    let rounds = obs.history.iter().map(|r| r.plays.as_slice()).chain([obs.plays.as_slice()]);
    let (mut shown, mut chances) = (0.0, 0.0);
    for plays in rounds {
        // Before play i (from 1) the opponent has used i - 1 of its 4 Citizens.
        for pair in plays.iter().take(4) {
            chances += 1.0;
            if pair[opp] != Card::Citizen {
                shown += 1.0;
            }
        }
    }
    (shown, chances)
}
