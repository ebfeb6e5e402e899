//! How E-card is drawn for a person: round and play, each seat's side and remaining cards
//! (public in E-card), the score, this round's plays and the last finished round. A card chosen
//! but not yet revealed is never shown.
//!
//! ```text
//! ecard (readme): round 3/12, play 2 of at most 3
//!   seat 0: emperor E C C C   score 1   <- you
//!   seat 1: slave   S C C C   score 5
//!   this round: CC
//!   round 2: CC SE, seat 1 (slave) +5
//! ```

use super::View;
use crate::ecard::{Card, Ecard, EcardObservation, Phase, RoundRecord, Side};
use crate::Game;

impl View for Ecard {
    fn render_state(&self) -> String {
        board(&self.observe(0), None)
    }

    fn render_observation(obs: &EcardObservation) -> String {
        board(obs, Some(obs.seat))
    }

    /// The card's name: `emperor`, `citizen`, `slave`.
    fn card_class(card: &str) -> String {
        match card {
            "E" => "emperor",
            "C" => "citizen",
            "S" => "slave",
            _ => "",
        }
        .to_string()
    }
}

fn letters(cards: &[Card]) -> String {
    cards.iter().map(|c| c.letter()).collect::<Vec<_>>().join(" ")
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Emperor => "emperor",
        Side::Slave => "slave",
    }
}

fn plays(plays: &[[Card; 2]]) -> String {
    plays.iter().map(|[a, b]| format!("{}{}", a.letter(), b.letter())).collect::<Vec<_>>().join(" ")
}

fn round_line(r: &RoundRecord) -> String {
    let result = match r.winner {
        Some(w) => format!("seat {w} ({}) +{}", side_name(r.side(w)), r.points[w]),
        None => "drawn".to_string(),
    };
    format!("round {}: {}, {result}", r.round, plays(&r.plays))
}

/// Drawn from seat `obs.seat`'s observation; everything in it is public except the open choice,
/// which the observation does not hold.
fn board(obs: &EcardObservation, you: Option<usize>) -> String {
    let me = obs.seat;
    let mut out = match obs.phase {
        Phase::Over => {
            let verdict = match obs.scores[0].cmp(&obs.scores[1]) {
                std::cmp::Ordering::Greater => "seat 0 wins",
                std::cmp::Ordering::Less => "seat 1 wins",
                std::cmp::Ordering::Equal => "a draw",
            };
            format!("ecard ({}): over, {verdict} {}:{}\n", obs.variant, obs.scores[0], obs.scores[1])
        }
        Phase::Play => format!(
            "ecard ({}): round {}/{}, play {} of at most {}\n",
            obs.variant, obs.round, obs.rounds, obs.play, obs.max_plays
        ),
    };
    if obs.phase == Phase::Play {
        for s in 0..2 {
            let (side, hand) =
                if s == me { (obs.side, &obs.hand) } else { (obs.opponent_side, &obs.opponent_hand) };
            out.push_str(&format!(
                "  seat {s}: {:<7} {:<9} score {}{}\n",
                side_name(side),
                letters(hand),
                obs.scores[s],
                if you == Some(s) { "   <- you" } else { "" }
            ));
        }
        if !obs.plays.is_empty() {
            out.push_str(&format!("  this round: {}\n", plays(&obs.plays)));
        }
    } else if let Some(s) = you {
        out.push_str(&format!("  you are seat {s}\n"));
    }
    if let Some(last) = obs.history.last() {
        out.push_str(&format!("  {}\n", round_line(last)));
    }
    out
}
