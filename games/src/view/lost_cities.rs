//! How Lost Cities is drawn for a person, after the Ruby Quiz #51 server's board
//! (seed-games.md §3(c)): per suit the opponent's expedition, the whole discard pile and your
//! expedition with their scores, then the deck, the hand and the score. One line per suit.
//!
//! ```text
//! lost-cities (classic): turn 12/200, seat 0 to play
//!   suit  seat 1             pile       seat 0
//!   D     I 3 5       (-12)  4 7        2           (-18)
//!   O     -                  -          -
//!   ...
//!   deck: 33 cards
//!   seat 1 hand: 8 cards, known 5V
//!   seat 0 hand: ID 2D 3D 5D 2O 5O 9J 5V   <- you
//!   score: seat 0 -18, seat 1 -12
//!   last: seat 1 draw deck
//! ```

use super::View;
use crate::lost_cities::{expedition_score, Card, LostCities, LostCitiesObservation, Phase};
use crate::{Game, Seat};

impl View for LostCities {
    fn render_state(&self) -> String {
        let obs = self.observe(0);
        let hands = [0, 1].map(|s| cards(self.hand(s)));
        board(&obs, &hands, None)
    }

    fn render_observation(obs: &LostCitiesObservation) -> String {
        let me = obs.seat;
        let mut hands = [String::new(), String::new()];
        hands[me] = cards(&obs.hand);
        let other = 1 - me;
        let known = &obs.known_hands[other];
        hands[other] = format!(
            "{} cards{}",
            obs.hand_sizes[other],
            if known.is_empty() { String::new() } else { format!(", known {}", cards(known)) }
        );
        board(obs, &hands, Some(me))
    }

    /// The suit letter, the card's last character (`ID`, `10V`).
    fn card_class(card: &str) -> String {
        card.chars().last().map(|c| format!("suit-{c}")).unwrap_or_default()
    }
}

fn cards(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "-".to_string();
    }
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// The values of one suit's cards (`I 3 5`), `-` for none.
fn values(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "-".to_string();
    }
    cards
        .iter()
        .map(|c| match c.number_value() {
            Some(n) => n.to_string(),
            None => "I".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn board(obs: &LostCitiesObservation, hands: &[String; 2], you: Option<Seat>) -> String {
    let status = match (obs.phase, obs.to_move) {
        (Phase::Play, Some(s)) => format!("seat {s} to play"),
        (Phase::Draw, Some(s)) => format!("seat {s} to draw"),
        _ => {
            let [a, b] = obs.scores;
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => format!("over, seat 0 wins {a}:{b}"),
                std::cmp::Ordering::Less => format!("over, seat 1 wins {a}:{b}"),
                std::cmp::Ordering::Equal => format!("over, a draw {a}:{b}"),
            }
        }
    };
    let mut out = format!("lost-cities ({}): turn {}/{}, {status}\n", obs.variant, obs.turn, obs.max_turns);
    let (top, bottom) = match you {
        Some(me) => (1 - me, me),
        None => (1, 0),
    };
    let expedition = |seat: Seat, suit| -> String {
        let cards = obs.expeditions[seat].get(suit).map(Vec::as_slice).unwrap_or(&[]);
        if cards.is_empty() {
            "-".to_string()
        } else {
            format!("{} ({})", values(cards), expedition_score(cards))
        }
    };
    let rows: Vec<[String; 3]> = obs
        .suits
        .iter()
        .map(|&suit| {
            let pile = obs.discards.get(suit).map(Vec::as_slice).unwrap_or(&[]);
            let mut pile = values(pile);
            if obs.discarded_this_turn == Some(suit) {
                pile.push_str(" (just discarded)");
            }
            [expedition(top, suit), pile, expedition(bottom, suit)]
        })
        .collect();
    let w0 = rows.iter().map(|r| r[0].len()).max().unwrap_or(0).max(6);
    let w1 = rows.iter().map(|r| r[1].len()).max().unwrap_or(0).max(4);
    out.push_str(&format!("  suit  {:<w0$}  {:<w1$}  seat {bottom}\n", format!("seat {top}"), "pile"));
    for (suit, row) in obs.suits.iter().zip(&rows) {
        out.push_str(&format!("  {suit}     {:<w0$}  {:<w1$}  {}\n", row[0], row[1], row[2]));
    }
    out.push_str(&format!("  deck: {} cards\n", obs.deck_size));
    for s in [top, bottom] {
        out.push_str(&format!(
            "  seat {s} hand: {}{}\n",
            hands[s],
            if you == Some(s) { "   <- you" } else { "" }
        ));
    }
    out.push_str(&format!("  score: seat 0 {}, seat 1 {}\n", obs.scores[0], obs.scores[1]));
    if let Some(last) = obs.history.last() {
        let card = match (last.card, last.action.to_string().starts_with("draw")) {
            (Some(c), true) => format!(" (picks up {c})"),
            _ => String::new(),
        };
        out.push_str(&format!("  last: seat {} {}{card}\n", last.seat, last.action));
    }
    out
}
