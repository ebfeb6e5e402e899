//! Presentation for people: how a position and a seat's view are drawn in the terminal
//! (`arena replay`, the `human` bot of `arena play`). Rules never depend on this module.
//!
//! Every game implements [`View`]; the provided methods give a plain rendering that works for any
//! game, and a game overrides them with a readable board.

use serde::Serialize;

use crate::Game;

// One line per game, so that each game's board lives in its own file.
mod blade;
mod ecard;
mod intensity;
mod lost_cities;

/// How a game is drawn for a person.
pub trait View: Game {
    /// The whole position as a spectator sees it (every hidden card shown), a few lines.
    fn render_state(&self) -> String {
        self.summary()
    }

    /// What one seat sees, drawn from its observation alone (so it can show nothing the seat
    /// may not know), a few lines, without the list of legal actions.
    fn render_observation(obs: &Self::Observation) -> String {
        plain_observation(obs)
    }

    /// What the other seats may learn of `action`, once it is played (most games: all of it).
    fn public_action(action: &str) -> String {
        action.to_string()
    }

    /// The colour class of a card in the web replay viewer (its suit or kind, a short CSS-safe
    /// word), from the card as its observation writes it; empty for none.
    fn card_class(card: &str) -> String {
        let _ = card;
        String::new()
    }

    /// The whole position (as [`View::render_state`]) laid out for the web viewer with its
    /// cards as cards; `None` (the default): the viewer shows the text board.
    fn table_of_state(&self) -> Option<Table> {
        None
    }

    /// What one seat sees (as [`View::render_observation`], from its observation alone) laid
    /// out for the web viewer; `None` (the default): the viewer shows the text board.
    fn table_of_observation(obs: &Self::Observation) -> Option<Table> {
        let _ = obs;
        None
    }
}

/// A card as the web viewer draws it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CardSpan {
    /// The card as the observation writes it.
    pub text: String,
    /// Its colour class ([`View::card_class`]).
    pub class: String,
}

impl CardSpan {
    /// The card `text` of game `G`, with its class.
    pub fn of<G: View>(text: String) -> CardSpan {
        CardSpan { class: G::card_class(&text), text }
    }
}

/// A board laid out for the web viewer: lines of text above and below a grid whose cells hold
/// cards (Lost Cities: a row per suit, a column per expedition and the discard pile).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Lines above the grid (who is to move).
    pub head: Vec<String>,
    /// The columns' titles, the rows' labels first.
    pub columns: Vec<String>,
    /// The rows of the grid.
    pub rows: Vec<TableRow>,
    /// Lines below the grid (deck, score, last move).
    pub foot: Vec<String>,
}

/// A row of a [`Table`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableRow {
    /// Its label (first column).
    pub label: CardSpan,
    /// One cell per column after the first.
    pub cells: Vec<TableCell>,
}

/// A cell of a [`TableRow`]: some cards (maybe none) and a short note (a score).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableCell {
    /// The cards, in the order they were laid.
    pub cards: Vec<CardSpan>,
    /// A note after the cards; empty for none.
    pub note: String,
}

/// A game-independent rendering of an observation: one `key: value` line per JSON field, with
/// `legal` left out.
pub fn plain_observation<O: serde::Serialize>(obs: &O) -> String {
    let value = serde_json::to_value(obs).expect("observations serialize");
    let mut out = String::new();
    if let serde_json::Value::Object(map) = value {
        for (key, v) in map {
            if key == "legal" {
                continue;
            }
            out.push_str(&format!("{key}: {v}\n"));
        }
    }
    out
}
