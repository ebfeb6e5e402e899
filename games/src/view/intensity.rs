//! How Intensity is drawn for a person: the trick in play, the last finished trick, penalty
//! points, cards left, the pass, and the hands (a seat's own hand only, in a seat's view).
//!
//! ```text
//! intensity (standard): trick 4/10, seat 2 to play, calves unbroken
//!   trick: seat 1 led 23 25
//!   last trick: seat 0 led 12 15 18 11, seat 2 took it (+0)
//!   penalties: 3 0 1 7 (faults: 0 0 0 5)
//!   seat 0: 7 cards
//!   seat 1: 10 13 16 20 21 24 44   <- you
//!   ...
//!   you passed 12 13 14 to seat 2, received 33 38 47 from seat 0
//! ```

use super::View;
use crate::intensity::{Card, Intensity, IntensityObservation, Phase, PLAYERS};
use crate::{Game, Seat};

impl View for Intensity {
    /// seed-games.md §4(b): the passed cards are seen only by the seat that receives them.
    fn public_action(action: &str) -> String {
        if action.starts_with("pass ") {
            "passes three cards to its left".to_string()
        } else {
            action.to_string()
        }
    }

    fn render_state(&self) -> String {
        let obs = self.observe(0);
        let hands: Vec<String> = (0..PLAYERS).map(|s| cards(self.hand(s))).collect();
        let mut out = board(&obs, &hands, None);
        for s in 0..PLAYERS {
            let o = self.observe(s);
            if !o.passed.is_empty() {
                out.push_str(&format!("  seat {s} passed {} to seat {}\n", cards(&o.passed), o.pass_to));
            }
        }
        out
    }

    fn render_observation(obs: &IntensityObservation) -> String {
        let me = obs.seat;
        let hands: Vec<String> = (0..PLAYERS)
            .map(|s| if s == me { cards(&obs.hand) } else { format!("{} cards", obs.cards_left[s]) })
            .collect();
        let mut out = board(obs, &hands, Some(me));
        if obs.passed.is_empty() {
            out.push_str(&format!("  you pass 3 cards to seat {}\n", obs.pass_to));
        } else {
            out.push_str(&format!(
                "  you passed {} to seat {}, received {} from seat {}\n",
                cards(&obs.passed),
                obs.pass_to,
                cards(&obs.received),
                obs.receive_from
            ));
        }
        out
    }

    /// The suit (tens digit); the buffalo, 47, is marked on its own.
    fn card_class(card: &str) -> String {
        match card.parse::<u8>().ok().and_then(Card::new) {
            Some(c) if c.is_buffalo() => "buffalo".to_string(),
            Some(c) => format!("suit-{}", c.suit()),
            None => String::new(),
        }
    }
}

fn cards(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "-".to_string();
    }
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

fn joined(xs: &[i64]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

fn board(obs: &IntensityObservation, hands: &[String], you: Option<Seat>) -> String {
    let status = match (obs.phase, obs.turn) {
        (Phase::Pass, _) => "passing 3 cards".to_string(),
        (Phase::Play, Some(s)) => format!(
            "trick {}/10, seat {s} to play, calves {}",
            obs.tricks.len() + 1,
            if obs.calves_broken { "broken" } else { "unbroken" }
        ),
        _ => "over".to_string(),
    };
    let mut out = format!("intensity ({}): {status}\n", obs.variant);
    if obs.phase == Phase::Play {
        out.push_str(&format!("  trick: seat {} led {}\n", obs.trick.leader, cards(&obs.trick.cards)));
    }
    if let Some(t) = obs.tricks.last() {
        out.push_str(&format!(
            "  last trick: seat {} led {}, seat {} took it (+{})\n",
            t.leader,
            cards(&t.cards),
            t.winner,
            t.penalty
        ));
    }
    out.push_str(&format!("  penalties: {}", joined(&obs.penalties)));
    if obs.fault_penalties.iter().any(|&p| p != 0) {
        out.push_str(&format!(" (faults: {})", joined(&obs.fault_penalties)));
    }
    out.push('\n');
    for (s, hand) in hands.iter().enumerate() {
        out.push_str(&format!("  seat {s}: {hand}{}\n", if you == Some(s) { "   <- you" } else { "" }));
    }
    out
}
