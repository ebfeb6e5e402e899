//! Pure game rules: one module per game, all with the same shape (the [`Game`] trait).
//!
//! **Invariant:** nothing in this crate does I/O, reads the clock, spawns threads, touches the
//! sandbox, or draws randomness from anything but [`crate::rng::Rng`] seeded from the match seed.
//! A game is a plain value: `deal` a [`Game::Setup`] from a seed, turn it into a state with
//! `from_setup`, then ask `to_act`, `legal_actions`, `play`, `observe` and `outcome`.
//!
//! Simultaneous decisions (E-card plays, the Intensity pass) are modelled the OpenSpiel way: while
//! one is open, [`Game::to_act`] lists every seat that has not chosen yet; a seat's choice is held
//! back, invisible to every observation, until the last seat has chosen, and then all are resolved
//! at once. The match runner builds every seat's observation before it asks any bot, so no bot can
//! learn from the order of the replies.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::Serialize;

// One line per game; the lines between keep the games' branches from touching each other.
pub mod blade;
// --
pub mod ecard;
// --
pub mod intensity;
// --
pub mod lost_cities;
// --
pub mod json;
// --
pub mod rng;
// --
pub mod testkit;
// --
pub mod view;

/// A seat at the table, `0..PLAYERS`. Seat 0 is the first player named on the command line.
pub type Seat = usize;

/// The end of a match: points and ranks per seat, in seat order.
///
/// `points` are the game's own score (see each game's docs: Blade 2/1/0, E-card round points,
/// Lost Cities expedition score, Intensity penalty points, where fewer is better). `ranks` are
/// 1 for the best; tied seats share the better rank (1, 1, 3, 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The game's own score per seat.
    pub points: Vec<i64>,
    /// Placing per seat, 1 = best; ties share the better rank.
    pub ranks: Vec<u32>,
}

impl Outcome {
    /// Ranks from per-seat keys where a *larger* key is better (competition ranking, "1224").
    pub fn ranks_from_keys(keys: &[i64]) -> Vec<u32> {
        keys.iter().map(|k| 1 + keys.iter().filter(|other| *other > k).count() as u32).collect()
    }

    /// An outcome whose ranks follow the points, larger being better.
    pub fn higher_wins(points: Vec<i64>) -> Outcome {
        let ranks = Outcome::ranks_from_keys(&points);
        Outcome { points, ranks }
    }

    /// The outcome of a two-player match forfeited by the seats in `faulty`, from the points as
    /// they stand: one faulty seat loses and keeps at most its opponent's points − 1, so that a
    /// fault never scores better than the narrowest loss by playing on; both faulty is a draw
    /// (CONTRACT.md §1) on the lower of the two scores.
    pub fn two_player_forfeit(mut points: Vec<i64>, faulty: &[Seat]) -> Outcome {
        assert_eq!(points.len(), 2, "a two-player outcome");
        match faulty {
            [seat] => {
                let (s, o) = (*seat, 1 - *seat);
                points[s] = points[s].min(points[o] - 1);
            }
            _ => {
                let low = points[0].min(points[1]);
                points = vec![low, low];
            }
        }
        Outcome::higher_wins(points)
    }

    /// An outcome whose ranks follow the points, smaller being better (Intensity penalties).
    pub fn lower_wins(points: Vec<i64>) -> Outcome {
        let keys: Vec<i64> = points.iter().map(|p| -p).collect();
        let ranks = Outcome::ranks_from_keys(&keys);
        Outcome { points, ranks }
    }
}

/// What the arena does when a bot faults (crash, limit exceeded, illegal or unreadable reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultPolicy {
    /// Two-player games: the match ends at once and the faulty bot loses; both faulty is a draw.
    Forfeit,
    /// Intensity: the seat takes this many penalty points and the arena plays a seeded random
    /// legal action for it; the bot stays in the game.
    PenaltyAndRandomMove(i64),
}

/// An action that is not legal for that seat now. The state is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal action {action:?} for seat {seat}: {reason}")]
pub struct IllegalAction {
    /// The seat that tried.
    pub seat: Seat,
    /// The action as it was given.
    pub action: String,
    /// Why it is not legal (for the bot author).
    pub reason: String,
}

/// A [`Game::Setup`] that is not a valid start position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid setup: {0}")]
pub struct SetupError(pub String);

/// A string that is not an action of this game's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is not an action of {game}: {expected}")]
pub struct ParseActionError {
    /// The game whose notation was expected.
    pub game: &'static str,
    /// What was given.
    pub input: String,
    /// What would have been accepted.
    pub expected: &'static str,
}

/// A name that is not a variant of this game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no variant {input:?} (variants: {known})")]
pub struct UnknownVariant {
    /// The game.
    pub game: &'static str,
    /// What was given.
    pub input: String,
    /// The variants it has, comma-separated.
    pub known: String,
}

/// What every observation has, whatever the game (CONTRACT.md §2).
pub trait Observation: Serialize + schemars::JsonSchema + Clone + Debug + Send + Sync + 'static {
    /// The seat this observation is for.
    fn seat(&self) -> Seat;
    /// Every legal action string for this seat now, in the game's documented order
    /// (empty when the seat has nothing to decide).
    fn legal(&self) -> &[String];

    /// Appends the observation's JSON (what a WASM bot receives) to `out`: exactly the bytes of
    /// `serde_json::to_writer(out, self)`. A game may write them by hand with [`json::JsonOut`]
    /// (`tests/it/observations.rs` holds every game's encoder to serde_json's bytes).
    ///
    /// # Errors
    /// The value has no JSON form (serde_json's error).
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        serde_json::to_writer(out, self)
    }
}

/// A game's rules. Implementors write the required methods; the provided ones are final.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// The variants, spelled as in CONTRACT.md by `Display`/`FromStr`.
    type Variant: Copy + Eq + Debug + Display + FromStr<Err = UnknownVariant> + Send + Sync + 'static;
    /// One action, written and parsed in the contract's notation by `Display`/`FromStr`.
    type Action: Clone + Eq + Debug + Display + FromStr<Err = ParseActionError> + Send + Sync;
    /// A start position written out in full (every card's place), unchecked.
    type Setup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// What one seat sees (CONTRACT.md §2), serialized as the JSON a bot receives.
    type Observation: Observation;

    /// The game's name in the contract (`blade`, `ecard`, `lost-cities`, `intensity`).
    const NAME: &'static str;
    /// Number of seats.
    const PLAYERS: usize;
    /// What happens when a bot faults.
    const FAULT_POLICY: FaultPolicy;
    /// One line about the game, for `arena games`.
    const ABOUT: &'static str;
    /// What a seat's points in an event are (see [`Game::event_points`]), for legends and JSON.
    const POINTS_ARE: &'static str;
    /// Whether fewer points are better (Intensity's penalty points).
    const FEWER_POINTS_BETTER: bool = false;

    /// The points a seat earns in an event from a match's [`Outcome::points`]: the game's own
    /// score by default.
    fn event_points(points: &[i64], seat: Seat) -> f64 {
        points[seat] as f64
    }

    /// Every variant; the first is the default.
    fn variants() -> &'static [Self::Variant];

    /// Shuffles and deals a start position for `variant` from `seed` (stream [`crate::rng::Stream::Deal`]).
    fn deal(variant: Self::Variant, seed: u64) -> Self::Setup;

    /// Checks a setup and makes it a state.
    ///
    /// # Errors
    /// If the setup is not a valid start position (wrong cards, wrong counts).
    fn from_setup(setup: Self::Setup) -> Result<Self, SetupError>;

    /// The variant being played.
    fn variant(&self) -> Self::Variant;

    /// The seats that must decide now (several during a simultaneous decision, each listed until it
    /// has chosen), in seat order. Empty when the match is over.
    fn to_act(&self) -> Vec<Seat>;

    /// The legal actions of `seat` now, in the game's documented order; empty if it is not to act.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// Plays an action taken from `legal_actions(seat)`.
    ///
    /// # Panics
    /// May panic, or corrupt the state, if the action is not legal. Use [`Game::play`] on input
    /// that has not been checked.
    fn play_unchecked(&mut self, seat: Seat, action: &Self::Action);

    /// What `seat` sees now, with `legal` filled in if it is to act.
    fn observe(&self, seat: Seat) -> Self::Observation;

    /// The result once the match is over, `None` before.
    fn outcome(&self) -> Option<Outcome>;

    /// The outcome of a two-player match that ends because the seats in `faulty` faulted: a faulty
    /// seat loses in every column, both faulty is a draw. `points` never favour a faulty seat:
    /// see [`Outcome::two_player_forfeit`] (Blade: the tournament points of a win/loss/draw).
    fn forfeit(&self, faulty: &[Seat]) -> Outcome;

    /// Adds penalty points to a seat (only for [`FaultPolicy::PenaltyAndRandomMove`] games).
    ///
    /// # Panics
    /// In games whose fault policy is [`FaultPolicy::Forfeit`].
    fn add_penalty(&mut self, seat: Seat, points: i64) {
        let _ = (seat, points);
        panic!("{} has no penalty points", Self::NAME);
    }

    /// A short, human-readable, spectator's (all-seeing) account of the position, one or a few
    /// lines, for the `arena play` game log.
    fn summary(&self) -> String;

    // ---- provided ----

    /// Deals from `seed` and starts the match.
    fn new(variant: Self::Variant, seed: u64) -> Self {
        Self::from_setup(Self::deal(variant, seed)).expect("a dealt setup is always valid")
    }

    /// Whether the match is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal actions of `seat` as contract strings.
    fn legal_strings(&self, seat: Seat) -> Vec<String> {
        self.legal_actions(seat).iter().map(|a| a.to_string()).collect()
    }

    /// Plays `action` for `seat` after checking it.
    ///
    /// # Errors
    /// If the string does not parse, or the action is not legal for `seat` now; the state is
    /// left unchanged.
    fn play(&mut self, seat: Seat, action: &str) -> Result<(), IllegalAction> {
        let illegal = |reason: String| IllegalAction { seat, action: action.to_string(), reason };
        if !self.to_act().contains(&seat) {
            return Err(illegal(format!("seat {seat} is not to act")));
        }
        let parsed: Self::Action = action.parse().map_err(|e: ParseActionError| illegal(e.to_string()))?;
        if !self.legal_actions(seat).contains(&parsed) {
            return Err(illegal("not among the legal actions".to_string()));
        }
        self.play_unchecked(seat, &parsed);
        Ok(())
    }
}

/// Formats the variant list of a game for error messages.
pub fn variant_list<V: Display>(all: &[V]) -> String {
    all.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}
