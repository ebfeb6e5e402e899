//! Built-in native bots: `random` (uniform over legal, seeded) and `greedy` (a one-ply heuristic
//! per game). They see exactly what a sandboxed bot sees: the seat's observation, nothing more.

use crate::bots::bot::Bot;
use crate::games::rng::Rng;
use crate::games::view::View;
use crate::games::Seat;
use crate::play::error::BotError;

pub mod bot;
pub mod error;

// One line per game; the lines between keep the games' branches from touching each other.
mod blade;
pub(crate) mod blade_strong;
// --
mod ecard;
pub(crate) mod ecard_nash;
// --
mod intensity;
mod intensity_strong;
// --
mod lost_cities;
mod lost_cities_strong;
// --
pub mod search;

/// A game type the arena hosts: rules ([`Game`](crate::games::Game)), a board for people
/// ([`View`], whose provided methods draw any game plainly), an observation with a JSON Schema,
/// and optionally built-in bots of its own. Every arena function over a game takes a
/// `G: Hosted`; a game outside the arena's crates implements it the same way (docs/embedding.md).
pub trait Hosted: View {
    /// This game's own built-in bot `name` for `seat` of the match with `seed` (every game also
    /// has `random`, which the arena provides): `None` if `name` is not one of this game's
    /// built-ins, `Some(Err(_))` if it is but cannot be built as asked (a level out of range:
    /// [`BotError::BadLevel`]; a game's own reason: [`BotError::BadBuiltin`]).
    fn builtin_bot(name: &str, seed: u64, seat: Seat) -> Option<Result<Box<dyn Bot<Self>>, BotError>> {
        let _ = (name, seed, seat);
        None
    }

    /// The names [`Hosted::builtin_bot`] answers, for messages and listings (`random` aside).
    fn builtin_bot_names() -> Vec<String> {
        Vec::new()
    }

    /// How many levels `strong:1` … `strong:N` the game's `strong` bot has, and which of them
    /// plain `strong` plays (`arena timing`, docs/zoo.md); `None`: no such levels.
    fn builtin_levels() -> Option<(usize, usize)> {
        None
    }

    /// The JSON Schema of the observation (docs/schema/, `arena schema`).
    fn observation_schema() -> serde_json::Value {
        let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
        generator.into_root_schema_for::<Self::Observation>().to_value()
    }
}

/// The built-in bots of a game with a [`Greedy`] heuristic: `greedy`, and `nash`, `strong` and
/// `strong:N` where the game has them (what the four built-in games answer for
/// [`Hosted::builtin_bot`]).
pub fn greedy_builtins<G: Greedy>(
    name: &str,
    seed: u64,
    seat: Seat,
) -> Option<Result<Box<dyn Bot<G>>, BotError>> {
    match name {
        "greedy" => Some(Ok(Box::new(bot::GreedyBot::new(seed, seat)))),
        "nash" => G::nash_bot(seed, seat).map(Ok),
        "strong" => strong_level::<G>(seed, seat, G::STRONG_DEFAULT_LEVEL).map(Ok),
        _ => {
            let n = name.strip_prefix("strong:")?;
            let levels = G::strong_levels().len();
            if levels == 0 {
                return None;
            }
            match n.parse::<usize>().ok().filter(|l| (1..=levels).contains(l)) {
                Some(level) => strong_level::<G>(seed, seat, level).map(Ok),
                None => Some(Err(BotError::BadLevel {
                    name: name.to_string(),
                    game: G::NAME.to_string(),
                    levels,
                    default: G::STRONG_DEFAULT_LEVEL,
                })),
            }
        }
    }
}

/// The names [`greedy_builtins`] answers for game `G`.
pub fn greedy_builtin_names<G: Greedy>() -> Vec<String> {
    let mut names = vec!["greedy".to_string()];
    if G::nash_bot(0, 0).is_some() {
        names.push("nash".into());
    }
    let levels = G::strong_levels().len();
    if levels > 0 {
        names.push("strong".into());
        names.push(format!("strong:1 to strong:{levels}"));
    }
    names
}

/// `impl Hosted for $game` with the built-in bots of its [`Greedy`] implementation: the one
/// line by which each of the four built-in games is hosted.
macro_rules! hosted_by_greedy {
    ($game:ty) => {
        impl $crate::bots::Hosted for $game {
            fn builtin_bot(
                name: &str,
                seed: u64,
                seat: $crate::games::Seat,
            ) -> Option<Result<Box<dyn $crate::bots::bot::Bot<Self>>, $crate::BotError>> {
                $crate::bots::greedy_builtins::<Self>(name, seed, seat)
            }

            fn builtin_bot_names() -> Vec<String> {
                $crate::bots::greedy_builtin_names::<Self>()
            }

            fn builtin_levels() -> Option<(usize, usize)> {
                let levels = <Self as $crate::bots::Greedy>::strong_levels().len();
                (levels > 0).then_some((levels, <Self as $crate::bots::Greedy>::STRONG_DEFAULT_LEVEL))
            }
        }
    };
}

// The four built-in games, hosted with their greedy, nash and strong bots.
hosted_by_greedy!(crate::games::blade::Blade);
hosted_by_greedy!(crate::games::ecard::Ecard);
hosted_by_greedy!(crate::games::lost_cities::LostCities);
hosted_by_greedy!(crate::games::intensity::Intensity);

/// A game's `greedy` bot: a sensible one-ply heuristic that decides from the observation alone.
pub trait Greedy: crate::games::Game {
    /// The greedy choice for this observation; must be one of `obs.legal()`.
    /// `rng` is the bot's own seeded stream, for tie-breaks.
    fn greedy_action(obs: &Self::Observation, rng: &mut Rng) -> Self::Action;

    /// The game's `strong` bot (search over the hidden information), for `seat` of the match with
    /// `seed`; `budget` is its search budget in iterations (`None`: the game's default; on the
    /// command line `strong:N` picks a level of [`Greedy::strong_levels`]). `None` if the game
    /// has no strong bot yet.
    fn strong_bot(seed: u64, seat: Seat, budget: Option<u32>) -> Option<Box<dyn Bot<Self>>> {
        let _ = (seed, seat, budget);
        None
    }

    /// The levels `strong:1` … `strong:N` of the game's strong bot, weakest first (empty: no
    /// strong bot). Each level is measured to rate above the one below (docs/zoo.md).
    fn strong_levels() -> &'static [Level] {
        &[]
    }

    /// Which level (1-based, into [`Greedy::strong_levels`]) plain `strong` plays.
    const STRONG_DEFAULT_LEVEL: usize = 1;

    /// The game's `nash` bot (an exact equilibrium strategy), where the game has one.
    fn nash_bot(seed: u64, seat: Seat) -> Option<Box<dyn Bot<Self>>> {
        let _ = (seed, seat);
        None
    }
}

/// One level of a game's `strong` bot: the search budget it gets and how often it plays a
/// uniformly random legal action instead of the search's (the lowest levels' handicap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The budget passed to [`Greedy::strong_bot`] (`None`: the game's default).
    pub budget: Option<u32>,
    /// Decisions in a thousand played at random instead of by the search.
    pub random_per_mille: u32,
}

impl Level {
    /// The search at `budget`, no handicap.
    pub const fn search(budget: u32) -> Level {
        Level { budget: Some(budget), random_per_mille: 0 }
    }
}

/// A strong bot that plays a uniformly random legal action in `random_per_mille` of its
/// decisions (drawn from a stream of its own).
pub struct Handicap<G: crate::games::Game> {
    inner: Box<dyn Bot<G>>,
    rng: Rng,
    random_per_mille: u32,
}

impl<G: crate::games::Game> Handicap<G> {
    /// `inner` with `level`'s handicap, for `seat` of the match with `seed`.
    pub fn new(inner: Box<dyn Bot<G>>, seed: u64, seat: Seat, random_per_mille: u32) -> Handicap<G> {
        let rng = Rng::new(
            crate::games::rng::derive_seed(&[seed, HANDICAP_STREAM]),
            crate::games::rng::Stream::Bot(seat),
        );
        Handicap { inner, rng, random_per_mille }
    }
}

/// Mixed into the match seed for the handicap's own stream.
const HANDICAP_STREAM: u64 = 0x006c_6576_656c;

impl<G: crate::games::Game> Bot<G> for Handicap<G> {
    fn init(&mut self, info: &crate::bots::bot::InitInfo) -> Result<(), crate::bots::bot::Fault> {
        self.inner.init(info)
    }

    fn act(&mut self, obs: &G::Observation) -> Result<String, crate::bots::bot::Fault> {
        use crate::games::Observation;
        // Both draws every decision, so the stream does not depend on the inner bot.
        let roll = self.rng.below(1000) as u32;
        let pick = self.rng.below(obs.legal().len().max(1));
        if roll < self.random_per_mille && !obs.legal().is_empty() {
            return Ok(obs.legal()[pick].clone());
        }
        self.inner.act(obs)
    }
}

/// The strong bot of level `level` (1-based) of game `G`, or `None` if there is no such level.
pub fn strong_level<G: Greedy>(seed: u64, seat: Seat, level: usize) -> Option<Box<dyn Bot<G>>> {
    let l = *G::strong_levels().get(level.checked_sub(1)?)?;
    let inner = G::strong_bot(seed, seat, l.budget)?;
    Some(if l.random_per_mille == 0 {
        inner
    } else {
        Box::new(Handicap::new(inner, seed, seat, l.random_per_mille))
    })
}

#[cfg(test)]
mod level_tests {
    //! The levels of `strong` as names. Their strength (each level above the one below, on
    //! fixed deals) is held by tests/it/strength.rs; the ratings on many more deals are measured
    //! by `scripts/zoo.sh` (docs/zoo.md).

    use super::*;

    /// Plain `strong` is the default level, and a level out of range is refused with the range.
    #[test]
    fn strong_is_the_default_level_and_bad_levels_are_refused() {
        use crate::games::blade::Blade;
        assert_eq!(
            Blade::strong_levels()[Blade::STRONG_DEFAULT_LEVEL - 1].budget,
            Some(blade_strong::DEFAULT_BUDGET)
        );
        let n = Blade::strong_levels().len();
        let err =
            crate::bots::bot::builtin::<Blade>(&format!("strong:{}", n + 1), 0, 0).err().expect("refused");
        assert!(err.to_string().contains(&format!("strong:1 to strong:{n}")), "{err}");
        assert!(
            matches!(&err, BotError::BadLevel { name, game, levels, default }
                if name == &format!("strong:{}", n + 1) && game == "blade" && *levels == n
                    && *default == Blade::STRONG_DEFAULT_LEVEL),
            "{err:?}"
        );
        assert!(matches!(
            crate::bots::bot::builtin::<Blade>("strong:0", 0, 0).err(),
            Some(BotError::BadLevel { .. })
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::bots::bot::{builtin, Bot};
    use crate::games::blade::Blade;
    use crate::games::Game;

    /// `testkit::blade_observation` (the benchmarks' observation) is where two built-in `random`
    /// bots really are at the eighth decision of Blade seed 7.
    #[test]
    fn the_benchmark_observation_is_the_random_bots_eighth() {
        let mut state = Blade::new(Blade::variants()[0], 7);
        let mut bots: Vec<Box<dyn Bot<Blade>>> =
            (0..2).map(|s| builtin::<Blade>("random", 7, s).unwrap()).collect();
        let mut last = None;
        for _ in 0..8 {
            let Some(&seat) = state.to_act().first() else { break };
            let obs = state.observe(seat);
            let action = bots[seat].act(&obs).unwrap();
            last = Some(serde_json::to_string(&obs).unwrap());
            state.play(seat, &action).unwrap();
        }
        let expected = serde_json::to_string(&crate::games::testkit::blade_observation()).unwrap();
        assert_eq!(last.unwrap(), expected);
    }
}
