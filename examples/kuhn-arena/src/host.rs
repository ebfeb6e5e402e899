//! What makes Kuhn poker a game the arena hosts, all in this file: a board for people
//! ([`View`]) and the built-in bots by name ([`Hosted`]). Kuhn has no `greedy` bot: the arena
//! does not ask for one.

use cardarena::bots::bot::Bot;
use cardarena::{BotError, Hosted};
use cardarena_games::view::View;
use cardarena_games::{Game, Seat};

use crate::bots::{BestResponse, Nash};
use crate::game::{Action, Kuhn, KuhnObservation};

/// The board of one seat (the other seat's card is not in its observation):
///
/// ```text
/// kuhn: seat 1, your card Q
///   betting: bet (seat 0)
///   pot: 3
/// ```
impl View for Kuhn {
    /// Both cards, the betting and the pot; the result once the hand is over.
    fn render_state(&self) -> String {
        let mut out = format!("kuhn: seat 0 holds {}, seat 1 holds {}\n", self.card(0), self.card(1));
        out.push_str(&betting_lines(self.betting(), self.pot()));
        if let Some(outcome) = self.outcome() {
            let winner = if outcome.points[0] > 0 { 0 } else { 1 };
            out.push_str(&format!("  seat {winner} wins {}\n", outcome.points[winner]));
        }
        out
    }

    fn render_observation(obs: &KuhnObservation) -> String {
        let mut out = format!("kuhn: seat {}, your card {}\n", obs.seat, obs.card);
        out.push_str(&betting_lines(&obs.betting, obs.pot));
        out
    }

    /// The card's name: `jack`, `queen`, `king`.
    fn card_class(card: &str) -> String {
        match card {
            "J" => "jack",
            "Q" => "queen",
            "K" => "king",
            _ => "",
        }
        .to_string()
    }
}

/// The betting, each action with its seat, and the pot.
fn betting_lines(betting: &[Action], pot: i64) -> String {
    let actions: Vec<String> =
        betting.iter().enumerate().map(|(i, a)| format!("{a} (seat {})", i % 2)).collect();
    let actions = if actions.is_empty() { "none yet".to_string() } else { actions.join(", ") };
    format!("  betting: {actions}\n  pot: {pot}\n")
}

/// The names [`builtin_bot`] knows (`nash:ALPHA` stands for every `nash:` with an α).
pub fn builtin_bot_names() -> Vec<String> {
    ["nash", "nash:ALPHA", "best-response"].map(String::from).to_vec()
}

/// Kuhn poker's built-in bot `name` for `seat` of the match with `seed`: `nash` (the equilibrium
/// family, α drawn per match), `nash:ALPHA` (α fixed, in `[0, 1/3]`) and `best-response` (the
/// best response to `random`); see [`crate::bots`]. `None`: not a name of Kuhn's (the arena
/// has `random` for every game); `Some(Err)`: a `nash:` whose α is not in `[0, 1/3]`.
pub fn builtin_bot(name: &str, seed: u64, seat: Seat) -> Option<Result<Box<dyn Bot<Kuhn>>, String>> {
    let boxed = |bot: Nash| -> Box<dyn Bot<Kuhn>> { Box::new(bot) };
    match name {
        "nash" => Some(Ok(boxed(Nash::drawn(seed, seat)))),
        "best-response" => Some(Ok(Box::new(BestResponse))),
        _ => name.strip_prefix("nash:").map(|spec| Nash::named(spec, seed, seat).map(boxed)),
    }
}

/// Kuhn poker, hosted: its built-in bots are [`builtin_bot`]'s.
impl Hosted for Kuhn {
    fn builtin_bot(name: &str, seed: u64, seat: Seat) -> Option<Result<Box<dyn Bot<Kuhn>>, BotError>> {
        builtin_bot(name, seed, seat).map(|bot| {
            bot.map_err(|message| BotError::BadBuiltin {
                name: name.to_string(),
                game: Kuhn::NAME.to_string(),
                message,
            })
        })
    }

    fn builtin_bot_names() -> Vec<String> {
        builtin_bot_names()
    }
}
