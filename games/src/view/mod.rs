//! Presentation for people: how a position and a seat's view are drawn in the terminal
//! (`arena replay`, the `human` bot of `arena play`). Rules never depend on this module.
//!
//! Every game implements [`View`]; the provided methods give a plain rendering that works for any
//! game, and a game overrides them with a readable board.

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
