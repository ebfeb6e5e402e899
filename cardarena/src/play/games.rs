//! The games the arena hosts: the one list ([`GameId`] and [`with_game!`], side by side), and
//! what a game type must be to be hosted ([`Hosted`]: rules, built-in bots, a board, a schema).
//!
//! Adding a game: its rules (`games/<game>.rs`), bots (`bots/<game>.rs`) and board
//! (`games/view/<game>.rs`), then one line in [`GameId`] and one in [`with_game!`] below;
//! `tests/game_list.rs` fails while a per-game table (docs, schema, tutorial, example bot) lacks it.

use std::fmt;
use std::str::FromStr;

use crate::bots::Greedy;
use crate::games::view::View;
use crate::games::Game;

/// A game the arena hosts, by name: the run-time handle on a game type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Blade ([`crate::games::blade::Blade`]).
    Blade,
    /// E-card ([`crate::games::ecard::Ecard`]).
    Ecard,
    /// Lost Cities ([`crate::games::lost_cities::LostCities`]).
    LostCities,
    /// Intensity ([`crate::games::intensity::Intensity`]).
    Intensity,
}

/// Runs `$body` with `$G` bound to the game type of `$id` (a [`GameId`]).
#[macro_export]
macro_rules! with_game {
    ($id:expr, $G:ident => $body:expr) => {
        match $id {
            $crate::play::games::GameId::Blade => {
                type $G = $crate::games::blade::Blade;
                $body
            }
            $crate::play::games::GameId::Ecard => {
                type $G = $crate::games::ecard::Ecard;
                $body
            }
            $crate::play::games::GameId::LostCities => {
                type $G = $crate::games::lost_cities::LostCities;
                $body
            }
            $crate::play::games::GameId::Intensity => {
                type $G = $crate::games::intensity::Intensity;
                $body
            }
        }
    };
}

impl GameId {
    /// Every game, in a fixed order (`arena games`, the docs).
    pub const ALL: [GameId; 4] = [GameId::Blade, GameId::Ecard, GameId::LostCities, GameId::Intensity];

    /// The contract name (`blade`, `ecard`, `lost-cities`, `intensity`).
    pub fn name(self) -> &'static str {
        with_game!(self, G => G::NAME)
    }

    /// The number of seats.
    pub fn players(self) -> usize {
        with_game!(self, G => G::PLAYERS)
    }

    /// The variant names; the first is the default.
    pub fn variants(self) -> Vec<String> {
        with_game!(self, G => G::variants().iter().map(ToString::to_string).collect())
    }

    /// One line about the game.
    pub fn about(self) -> &'static str {
        with_game!(self, G => G::ABOUT)
    }

    /// What a seat's event points are.
    pub fn points_are(self) -> &'static str {
        with_game!(self, G => G::POINTS_ARE)
    }

    /// Whether fewer points are better.
    pub fn fewer_points_better(self) -> bool {
        with_game!(self, G => G::FEWER_POINTS_BETTER)
    }

    /// The word for the game's points in results: "penalty points" where fewer is better,
    /// "points" elsewhere.
    pub fn points_word(self) -> &'static str {
        if self.fewer_points_better() {
            "penalty points"
        } else {
            "points"
        }
    }

    /// The heading of a table's points column: "penalty" where fewer is better, "points"
    /// elsewhere.
    pub fn points_heading(self) -> &'static str {
        if self.fewer_points_better() {
            "penalty"
        } else {
            "points"
        }
    }

    /// The points `seat` earns in an event from a match's points.
    pub fn event_points(self, points: &[i64], seat: usize) -> f64 {
        with_game!(self, G => G::event_points(points, seat))
    }

    /// The JSON Schema of the game's observation.
    pub fn observation_schema(self) -> serde_json::Value {
        with_game!(self, G => G::observation_schema())
    }

    /// The game of type `G`.
    pub fn of<G: Game>() -> GameId {
        G::NAME.parse().expect("every game type is in the list")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?}; the games are: {known} (see `arena games`)", known = known_games())]
pub struct UnknownGame(pub String);

/// The game names, comma-separated.
pub fn known_games() -> String {
    GameId::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
}

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameId, UnknownGame> {
        GameId::ALL.into_iter().find(|g| g.name() == name).ok_or_else(|| UnknownGame(name.to_string()))
    }
}

/// A game type the arena hosts: rules ([`Game`]), built-in bots ([`Greedy`]), a board for people
/// ([`View`]) and an observation with a JSON Schema. Every arena function over "a game" takes a
/// `G: Hosted`; the four games are hosted through the blanket implementation.
pub trait Hosted: Greedy + View {
    /// The JSON Schema of the observation (docs/schema/, `arena schema`).
    fn observation_schema() -> serde_json::Value;
}

impl<G: Greedy + View> Hosted for G {
    fn observation_schema() -> serde_json::Value {
        let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
        generator.into_root_schema_for::<G::Observation>().to_value()
    }
}
