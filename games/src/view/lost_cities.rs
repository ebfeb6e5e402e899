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

use super::{CardSpan, Table, TableCell, TableRow, View};
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
        hands[1 - me] = other_hand(obs, me);
        board(obs, &hands, Some(me))
    }

    /// The suit letter, the card's last character (`ID`, `10V`).
    fn card_class(card: &str) -> String {
        card.chars().last().map(|c| format!("suit-{c}")).unwrap_or_default()
    }

    fn table_of_state(&self) -> Option<Table> {
        Some(table(&self.observe(0), None))
    }

    fn table_of_observation(obs: &LostCitiesObservation) -> Option<Table> {
        Some(table(obs, Some(obs.seat)))
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

/// The first line: the variant, the turn and who is to move (or the result).
fn status(obs: &LostCitiesObservation) -> String {
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
    format!("lost-cities ({}): turn {}/{}, {status}", obs.variant, obs.turn, obs.max_turns)
}

/// The seat drawn at the top (the opponent of `you`) and at the bottom.
fn top_and_bottom(you: Option<Seat>) -> (Seat, Seat) {
    match you {
        Some(me) => (1 - me, me),
        None => (1, 0),
    }
}

/// What another seat's hand is to `me`: its size and the cards it is known to hold.
fn other_hand(obs: &LostCitiesObservation, me: Seat) -> String {
    let other = 1 - me;
    let known = &obs.known_hands[other];
    format!(
        "{} cards{}",
        obs.hand_sizes[other],
        if known.is_empty() { String::new() } else { format!(", known {}", cards(known)) }
    )
}

fn score_line(obs: &LostCitiesObservation) -> String {
    format!("score: seat 0 {}, seat 1 {}", obs.scores[0], obs.scores[1])
}

/// The last event (`last: seat 1 draw deck`), if any.
fn last_line(obs: &LostCitiesObservation) -> Option<String> {
    let last = obs.history.last()?;
    let card = match (last.card, last.action.to_string().starts_with("draw")) {
        (Some(c), true) => format!(" (picks up {c})"),
        _ => String::new(),
    };
    Some(format!("last: seat {} {}{card}", last.seat, last.action))
}

/// The board for the web viewer: a row per suit with the top seat's expedition, the discard
/// pile and the bottom seat's expedition as cards, each expedition with its score; the hands
/// are the viewer's own (so a seat's view names only the other hand's size and known cards).
fn table(obs: &LostCitiesObservation, you: Option<Seat>) -> Table {
    let (top, bottom) = top_and_bottom(you);
    let spans = |cards: &[Card]| cards.iter().map(|c| CardSpan::of::<LostCities>(c.to_string())).collect();
    let expedition = |seat: Seat, suit| {
        let cards = obs.expeditions[seat].get(suit).map(Vec::as_slice).unwrap_or(&[]);
        let note = if cards.is_empty() { String::new() } else { format!("{}", expedition_score(cards)) };
        TableCell { cards: spans(cards), note }
    };
    let title =
        |seat: Seat| if you == Some(seat) { format!("seat {seat} (you)") } else { format!("seat {seat}") };
    let rows = obs
        .suits
        .iter()
        .map(|&suit| {
            let pile = obs.discards.get(suit).map(Vec::as_slice).unwrap_or(&[]);
            let note = if obs.discarded_this_turn == Some(suit) { "just discarded" } else { "" };
            TableRow {
                label: CardSpan::of::<LostCities>(suit.to_string()),
                cells: vec![
                    expedition(top, suit),
                    TableCell { cards: spans(pile), note: note.to_string() },
                    expedition(bottom, suit),
                ],
            }
        })
        .collect();
    let mut foot = vec![format!("deck: {} cards", obs.deck_size)];
    if let Some(me) = you {
        foot.push(format!("seat {} hand: {}", 1 - me, other_hand(obs, me)));
    }
    foot.push(score_line(obs));
    foot.extend(last_line(obs));
    Table {
        head: vec![status(obs)],
        columns: vec!["suit".into(), title(top), "discard pile".into(), title(bottom)],
        rows,
        foot,
    }
}

fn board(obs: &LostCitiesObservation, hands: &[String; 2], you: Option<Seat>) -> String {
    let mut out = format!("{}\n", status(obs));
    let (top, bottom) = top_and_bottom(you);
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
    out.push_str(&format!("  {}\n", score_line(obs)));
    if let Some(last) = last_line(obs) {
        out.push_str(&format!("  {last}\n"));
    }
    out
}
