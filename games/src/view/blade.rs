//! How Blade is drawn for a person: both fields (bolted cards marked `x`), their scores, the
//! hands (a seat's own hand only, in a seat's view), deck counts and the last event.
//!
//! ```text
//! blade (readme): turn, seat 0 to play
//!   seat 1: field 4 3x .......... =  4 | hand 5 cards | deck 6
//!   seat 0: field 6 ............. =  6 | hand 1 2 2 5 7 B M | deck 6   <- you
//!   unseen: 1 1 2 3 3 4 4 5 5 6 6 7 7 B M M
//!   last: seat 1 played B (scores 6:4)
//! ```

use super::View;
use crate::blade::{Blade, BladeObservation, Card, Event, FieldCard, Phase, Source};
use crate::{Game, Seat};

impl View for Blade {
    fn render_state(&self) -> String {
        let obs: Vec<BladeObservation> = (0..2).map(|s| self.observe(s)).collect();
        let hands: [String; 2] = [0, 1].map(|s| cards(self.hand(s)));
        board(&obs[0], &hands, None)
    }

    fn render_observation(obs: &BladeObservation) -> String {
        let seat = obs.seat;
        let mut hands = [String::new(), String::new()];
        hands[seat] = cards(&obs.hand);
        hands[1 - seat] = format!("{} cards", obs.hand_counts[1 - seat]);
        let mut out = board(obs, &hands, Some(seat));
        out.push_str(&format!(
            "  unseen: {}\n",
            if obs.unseen.is_empty() { "-".into() } else { cards(&obs.unseen) }
        ));
        out
    }

    /// Numbers alike; the bolt and the mirror each their own.
    fn card_class(card: &str) -> String {
        match card {
            "B" => "bolt",
            "M" => "mirror",
            _ => "number",
        }
        .to_string()
    }
}

fn cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" ")
}

fn field(field: &[FieldCard]) -> String {
    let text: Vec<String> =
        field.iter().map(|c| format!("{}{}", c.card, if c.valid { "" } else { "x" })).collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text.join(" ")
    }
}

/// The board common to both views; `hands[s]` is what to show for seat `s`'s hand.
fn board(obs: &BladeObservation, hands: &[String; 2], you: Option<Seat>) -> String {
    let status = match (obs.phase, obs.to_act, obs.result) {
        (Phase::Over, _, Some(end)) => match end.winner {
            Some(w) => format!("over, seat {w} wins ({})", end.reason.describe()),
            None => format!("over, a draw ({})", end.reason.describe()),
        },
        (Phase::Setup, Some(s), _) => format!("set-up, seat {s} picks a card from hand"),
        (_, Some(s), _) => format!("turn, seat {s} to play"),
        _ => "over".to_string(),
    };
    let mut out = format!("blade ({}): {status}\n", obs.variant);
    let width = obs.fields.iter().map(|f| field(f).len()).max().unwrap_or(0).max(8);
    for s in [1, 0] {
        out.push_str(&format!(
            "  seat {s}: field {:<width$} = {:>2} | hand {} | deck {}{}\n",
            field(&obs.fields[s]),
            obs.scores[s],
            hands[s],
            obs.deck_counts[s],
            if you == Some(s) { "   <- you" } else { "" }
        ));
    }
    if let Some(last) = obs.history.last() {
        let text = match last {
            Event::Place { seat, card, from: Source::Deck } => {
                format!("seat {seat} set up {card} from the deck")
            }
            Event::Place { seat, card, from: Source::Hand } => format!("seat {seat} set up {card} from hand"),
            Event::Play { seat, card, scores } => {
                format!("seat {seat} played {card} (scores {}:{})", scores[0], scores[1])
            }
            Event::Reinit { score } => format!("both fields at {score}: cleared and set up again"),
        };
        out.push_str(&format!("  last: {text}\n"));
    }
    out
}
