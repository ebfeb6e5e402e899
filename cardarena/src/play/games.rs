//! A game at run time: [`GameId`], the handle on a game type that the arena passes around by
//! value, and what it tells without the type (name, seats, variants, scoring, schema, built-in
//! bots, card classes). What a game type must be is [`Hosted`]; the list of games a program
//! hosts, and the work done per game, is `cardarena::Games` (`cardarena/src/game_list.rs`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

pub use crate::bots::Hosted;

/// What the arena asks of a game without knowing its type.
trait Meta: Send + Sync {
    fn name(&self) -> &'static str;
    fn players(&self) -> usize;
    fn variants(&self) -> Vec<String>;
    fn about(&self) -> &'static str;
    fn points_are(&self) -> &'static str;
    fn fewer_points_better(&self) -> bool;
    fn event_points(&self, points: &[i64], seat: usize) -> f64;
    fn observation_schema(&self) -> serde_json::Value;
    fn builtin_bots(&self) -> Vec<String>;
    fn has_builtin(&self, name: &str) -> bool;
    fn card_class(&self, card: &str) -> String;
}

/// The [`Meta`] of game type `G` (a zero-sized value).
struct Of<G>(PhantomData<fn() -> G>);

impl<G: Hosted> Meta for Of<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn players(&self) -> usize {
        G::PLAYERS
    }
    fn variants(&self) -> Vec<String> {
        G::variants().iter().map(ToString::to_string).collect()
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn points_are(&self) -> &'static str {
        G::POINTS_ARE
    }
    fn fewer_points_better(&self) -> bool {
        G::FEWER_POINTS_BETTER
    }
    fn event_points(&self, points: &[i64], seat: usize) -> f64 {
        G::event_points(points, seat)
    }
    fn observation_schema(&self) -> serde_json::Value {
        G::observation_schema()
    }
    fn builtin_bots(&self) -> Vec<String> {
        let mut names = vec!["random".to_string()];
        names.extend(G::builtin_bot_names());
        names
    }
    fn has_builtin(&self, name: &str) -> bool {
        crate::bots::bot::builtin::<G>(name, 0, 0).is_ok()
    }
    fn card_class(&self, card: &str) -> String {
        G::card_class(card)
    }
}

/// A game, by value: a handle on a game type, for any type that implements [`Hosted`]
/// (the four built-in games and any other). Two handles are equal when their names are.
#[derive(Clone, Copy)]
pub struct GameId(&'static dyn Meta);

impl GameId {
    /// The game of type `G`.
    pub fn of<G: Hosted>() -> GameId {
        GameId(const { &Of::<G>(PhantomData) })
    }

    /// The contract name (`blade`, `ecard`, `lost-cities`, `intensity`, or the game's own).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The number of seats.
    pub fn players(self) -> usize {
        self.0.players()
    }

    /// The variant names; the first is the default.
    pub fn variants(self) -> Vec<String> {
        self.0.variants()
    }

    /// One line about the game.
    pub fn about(self) -> &'static str {
        self.0.about()
    }

    /// What a seat's event points are.
    pub fn points_are(self) -> &'static str {
        self.0.points_are()
    }

    /// Whether fewer points are better.
    pub fn fewer_points_better(self) -> bool {
        self.0.fewer_points_better()
    }

    /// The word for the game's points in results: "penalty points" where fewer is better,
    /// "points" elsewhere.
    pub fn points_word(self) -> &'static str {
        points_word(self.fewer_points_better())
    }

    /// The heading of a table's points column: "penalty" where fewer is better, "points"
    /// elsewhere.
    pub fn points_heading(self) -> &'static str {
        points_heading(self.fewer_points_better())
    }

    /// The points `seat` earns in an event from a match's points.
    pub fn event_points(self, points: &[i64], seat: usize) -> f64 {
        self.0.event_points(points, seat)
    }

    /// The JSON Schema of the game's observation.
    pub fn observation_schema(self) -> serde_json::Value {
        self.0.observation_schema()
    }

    /// The built-in bots' names (`random` first; `strong:N` written as a range).
    pub fn builtin_bots(self) -> Vec<String> {
        self.0.builtin_bots()
    }

    /// Whether `name` is a built-in bot of this game.
    pub fn has_builtin(self, name: &str) -> bool {
        self.0.has_builtin(name)
    }

    /// The colour class of a card in the web viewer ([`crate::games::view::View::card_class`]).
    pub fn card_class(self, card: &str) -> String {
        self.0.card_class(card)
    }
}

/// "penalty points" where fewer points are better, "points" elsewhere.
pub fn points_word(fewer_points_better: bool) -> &'static str {
    if fewer_points_better {
        "penalty points"
    } else {
        "points"
    }
}

/// "penalty" where fewer points are better, "points" elsewhere (a table's column).
pub fn points_heading(fewer_points_better: bool) -> &'static str {
    if fewer_points_better {
        "penalty"
    } else {
        "points"
    }
}

impl AsRef<str> for GameId {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl PartialEq for GameId {
    fn eq(&self, other: &GameId) -> bool {
        self.name() == other.name()
    }
}

impl Eq for GameId {}

impl Hash for GameId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl PartialOrd for GameId {
    fn partial_cmp(&self, other: &GameId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GameId {
    fn cmp(&self, other: &GameId) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({:?})", self.name())
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a game of the list, with the names that are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}; the games are: {known} (see `arena games`)", known = known.join(", "))]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The games of the list, in its order.
    pub known: Vec<String>,
}

/// Finds a game's `T` by the game's name: the port through which a module of the library asks
/// the list of games (`cardarena::Games`, which sits above it) for the work it does per game.
pub trait Find<T>: Send + Sync + fmt::Debug {
    /// The `T` of game `name`.
    ///
    /// # Errors
    /// `name` is not a game of the list.
    fn find(&self, name: &str) -> Result<T, UnknownGame>;

    /// The names of the games of the list, in its order (for messages).
    fn names(&self) -> Vec<String>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{blade::Blade, intensity::Intensity};

    #[test]
    fn a_handle_tells_its_game_without_the_type() {
        let g = GameId::of::<Intensity>();
        assert_eq!(g.name(), "intensity");
        assert_eq!(g.players(), 4);
        assert!(g.fewer_points_better());
        assert_eq!(g.points_word(), "penalty points");
        assert_eq!(g, GameId::of::<Intensity>());
        assert_ne!(g, GameId::of::<Blade>());
        assert!(GameId::of::<Blade>().has_builtin("strong:2"));
        assert!(!GameId::of::<Blade>().has_builtin("nash"));
        assert_eq!(GameId::of::<Blade>().builtin_bots()[..2], ["random", "greedy"]);
    }
}
