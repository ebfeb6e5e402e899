//! The list of games a program hosts: [`Games`], the four built-in games and any game type an
//! embedder adds with [`Games::with`], each with the work the library does per game (an event,
//! a job, a replay's frames, a capsule...). Modules below ask it through
//! [`Find`](crate::play::games::Find), so none of them names a game type.

use std::sync::Arc;

use crate::analyse::{Analyse, Analysis};
use crate::games::{blade::Blade, ecard::Ecard, intensity::Intensity, lost_cities::LostCities, Seat};
use crate::play::capsule::{self, Capsule};
use crate::play::games::{Find, GameId, Hosted, UnknownGame};
use crate::play::limits::LimitsConfig;
use crate::play::registry::{self, BotSource, Loader};
use crate::play::runner::Replay;
use crate::play::{HostError, Match};
use crate::replay::repro::{self, Reproduction};
use crate::replay::verify::{self, Verification, VerifyOptions};
use crate::replay::view::{self, RenderOptions};
use crate::replay::viewer::frames::{self, Frames};
use crate::tournament::queue::worker::JobOps;
use crate::tournament::EventOps;

/// Plays one match of a game: loader, limits, variant, seed, bots.
type PlayMatch = fn(&Loader, &LimitsConfig, Option<&str>, u64, &[&str]) -> Result<Replay, HostError>;

/// One game of a [`Games`] list: its handle and the library's work for it, by game type.
#[derive(Clone, Copy)]
pub struct HostedGame {
    id: GameId,
    event: EventOps,
    job: JobOps,
    play: PlayMatch,
    resolve: fn(&Loader, &str) -> Result<BotSource, HostError>,
    load: fn(&Loader, &str, &[u8]) -> Result<BotSource, HostError>,
    frames: fn(&Replay, &str) -> Result<Frames, HostError>,
    verify: fn(&Replay, &str, &VerifyOptions) -> Result<Verification, HostError>,
    render: fn(&Replay, &str, &RenderOptions) -> Result<String, HostError>,
    capsules: fn(&Replay, Option<&str>) -> Result<Vec<Capsule>, HostError>,
    reproduce: fn(&Capsule, &BotSource) -> Result<Reproduction, HostError>,
    analyse: Option<AnalyseFn>,
}

/// Analyses one seat of a replay (`arena analyse`): replay, its name, seat, budget.
type AnalyseFn = fn(&Replay, &str, Seat, Option<u32>) -> Result<Analysis, HostError>;

impl HostedGame {
    /// Game `G`'s.
    pub fn of<G: Hosted>() -> HostedGame {
        HostedGame {
            id: GameId::of::<G>(),
            event: EventOps::of::<G>(),
            job: JobOps::of::<G>(),
            play: play_match::<G>,
            resolve: |loader, name| loader.resolve::<G>(name),
            load: |loader, name, bytes| loader.load_program::<G>(name, bytes),
            frames: frames::frames_of::<G>,
            verify: verify::verify::<G>,
            render: view::render::<G>,
            capsules: capsule::build::<G>,
            reproduce: repro::reproduce::<G>,
            analyse: None,
        }
    }

    /// The game's handle (name, seats, variants, scoring...).
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The game's name.
    pub fn name(&self) -> &'static str {
        self.id.name()
    }

    /// Plays one match of this game between `bots` (names as on the command line, in seat
    /// order) on `variant` (`None`: the default) dealt from `seed`; a bot file that does not
    /// load plays with the verdict `load`.
    ///
    /// # Errors
    /// An unknown variant, a wrong number of bots, a name that is not a bot, a sandbox that
    /// cannot start.
    pub fn play(
        &self,
        loader: &Loader,
        limits: &LimitsConfig,
        variant: Option<&str>,
        seed: u64,
        bots: &[&str],
    ) -> Result<Replay, HostError> {
        (self.play)(loader, limits, variant, seed, bots)
    }

    /// A bot name resolved for this game ([`Loader::resolve`]).
    ///
    /// # Errors
    /// As [`Loader::resolve`].
    pub fn resolve(&self, loader: &Loader, name: &str) -> Result<BotSource, HostError> {
        (self.resolve)(loader, name)
    }

    /// A program received as bytes, loaded for this game as a queue job's bot is
    /// ([`Loader::load_program`]): a file that does not load is [`BotSource::Failed`] with why.
    ///
    /// # Errors
    /// As [`Loader::load_program`].
    pub fn load(&self, loader: &Loader, name: &str, bytes: &[u8]) -> Result<BotSource, HostError> {
        (self.load)(loader, name, bytes)
    }

    /// The frames of the web viewer for a replay of this game (`file` names it in errors).
    ///
    /// # Errors
    /// The replay is not a consistent match of this game.
    pub fn frames(&self, replay: &Replay, file: &str) -> Result<Frames, HostError> {
        (self.frames)(replay, file)
    }

    /// Plays a replay of this game again and compares ([`verify::verify`]).
    ///
    /// # Errors
    /// As [`verify::verify`].
    pub fn verify(
        &self,
        replay: &Replay,
        file: &str,
        opts: &VerifyOptions,
    ) -> Result<Verification, HostError> {
        (self.verify)(replay, file, opts)
    }

    /// A replay of this game drawn as text ([`view::render`]).
    ///
    /// # Errors
    /// As [`view::render`].
    pub fn render(&self, replay: &Replay, file: &str, opts: &RenderOptions) -> Result<String, HostError> {
        (self.render)(replay, file, opts)
    }

    /// The crash capsules of a finished replay of this game ([`capsule::build`]).
    ///
    /// # Errors
    /// As [`capsule::build`].
    pub fn capsules(&self, replay: &Replay, event: Option<&str>) -> Result<Vec<Capsule>, HostError> {
        (self.capsules)(replay, event)
    }

    /// A capsule of this game fed to `source` again ([`repro::reproduce`]).
    ///
    /// # Errors
    /// As [`repro::reproduce`].
    pub fn reproduce(&self, capsule: &Capsule, source: &BotSource) -> Result<Reproduction, HostError> {
        (self.reproduce)(capsule, source)
    }
}

impl HostedGame {
    /// Whether the game has `arena analyse` (its type implements [`Analyse`]).
    pub fn has_analysis(&self) -> bool {
        self.analyse.is_some()
    }

    /// The analysis of `seat`'s decisions in a replay of this game ([`crate::analyse::analyse`]).
    ///
    /// # Errors
    /// The game has no analysis, or as [`crate::analyse::analyse`].
    pub fn analyse(
        &self,
        replay: &Replay,
        file: &str,
        seat: Seat,
        budget: Option<u32>,
    ) -> Result<Analysis, HostError> {
        let analyse = self.analyse.ok_or_else(|| {
            HostError::Request(format!(
                "{} has no analysis (its game type does not implement cardarena::analyse::Analyse)",
                self.name()
            ))
        })?;
        analyse(replay, file, seat, budget)
    }
}

fn play_match<G: Hosted>(
    loader: &Loader,
    limits: &LimitsConfig,
    variant: Option<&str>,
    seed: u64,
    bots: &[&str],
) -> Result<Replay, HostError> {
    let variant = registry::variant::<G>(variant)?;
    if bots.len() != G::PLAYERS {
        return Err(HostError::WrongSeatCount {
            game: G::NAME.to_string(),
            seats: G::PLAYERS,
            bots: bots.len(),
        });
    }
    let sources =
        bots.iter().map(|b| loader.resolve_entrant::<G>(b)).collect::<Result<Vec<_>, HostError>>()?;
    Ok(sources.iter().fold(Match::<G>::new(variant, seed), |t, s| t.seat(s, limits)).play())
}

/// The games a program hosts, in the order they were added (`arena games` lists them so).
///
/// ```
/// use cardarena::Games;
/// let games = Games::builtin();
/// assert_eq!(games.get("lost-cities").unwrap().id().players(), 2);
/// assert!(games.get("chess").is_err());
/// ```
#[derive(Clone)]
pub struct Games {
    list: Arc<Vec<HostedGame>>,
}

impl Games {
    /// No game.
    pub fn new() -> Games {
        Games { list: Arc::new(Vec::new()) }
    }

    /// The four built-in games: Blade, E-card, Lost Cities, Intensity.
    pub fn builtin() -> Games {
        add_builtin(Games::new())
    }

    /// This list with game `G` added at the end (a game of the same name is replaced, in its
    /// place).
    #[must_use]
    pub fn with<G: Hosted>(self) -> Games {
        let mut list = Arc::unwrap_or_clone(self.list);
        let game = HostedGame::of::<G>();
        match list.iter_mut().find(|g| g.name() == G::NAME) {
            Some(old) => *old = game,
            None => list.push(game),
        }
        Games { list: Arc::new(list) }
    }

    /// This list with game `G` added (as [`Games::with`]) and its `arena analyse`.
    #[must_use]
    pub fn with_analysis<G: Hosted + Analyse>(self) -> Games {
        let mut list = Arc::unwrap_or_clone(self.with::<G>().list);
        if let Some(g) = list.iter_mut().find(|g| g.name() == G::NAME) {
            g.analyse = Some(crate::analyse::analyse::<G>);
        }
        Games { list: Arc::new(list) }
    }

    /// The game named `name`.
    ///
    /// # Errors
    /// No game of the list has that name (the error lists those that do).
    pub fn get(&self, name: &str) -> Result<&HostedGame, UnknownGame> {
        self.list
            .iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGame { name: name.to_string(), known: self.names() })
    }

    /// The games, in order.
    pub fn iter(&self) -> impl Iterator<Item = &HostedGame> {
        self.list.iter()
    }

    /// The games' handles, in order.
    pub fn ids(&self) -> Vec<GameId> {
        self.list.iter().map(HostedGame::id).collect()
    }

    /// The games' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.list.iter().map(|g| g.name().to_string()).collect()
    }

    /// The frames of a replay of any game of the list (`file` names it in errors).
    ///
    /// # Errors
    /// The replay's game is not in the list, or the replay is not a consistent match of it.
    pub fn frames(&self, replay: &Replay, file: &str) -> Result<Frames, HostError> {
        let game = self.get(&replay.game).map_err(|error| HostError::Damaged(format!("{file}: {error}")))?;
        game.frames(replay, file)
    }

    /// A capsule of any game of the list fed to `source` again.
    ///
    /// # Errors
    /// The capsule's game is not in the list, or as [`HostedGame::reproduce`].
    pub fn reproduce(&self, capsule: &Capsule, source: &BotSource) -> Result<Reproduction, HostError> {
        self.get(&capsule.game)?.reproduce(capsule, source)
    }
}

/// A list that games are added to by type: [`Games`], or a layer's own list of per-game work
/// (the command line's), so that [`add_builtin`] is the one list of the built-in games.
pub trait AddGame: Sized {
    /// This list with game `G` added.
    #[must_use]
    fn add<G: Hosted>(self) -> Self;

    /// This list with game `G`, which has an analysis, added (by default as any game).
    #[must_use]
    fn add_analysed<G: Hosted + Analyse>(self) -> Self {
        self.add::<G>()
    }
}

impl AddGame for Games {
    fn add<G: Hosted>(self) -> Games {
        self.with::<G>()
    }

    fn add_analysed<G: Hosted + Analyse>(self) -> Games {
        self.with_analysis::<G>()
    }
}

/// `list` with the four built-in games added, in order: the one line per built-in game.
pub fn add_builtin<L: AddGame>(list: L) -> L {
    list.add_analysed::<Blade>()
        .add_analysed::<Ecard>()
        .add_analysed::<LostCities>()
        .add_analysed::<Intensity>()
}

impl Default for Games {
    fn default() -> Games {
        Games::builtin()
    }
}

/// Two lists are equal when they name the same games in the same order.
impl PartialEq for Games {
    fn eq(&self, other: &Games) -> bool {
        self.names() == other.names()
    }
}

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.list.iter().map(HostedGame::name)).finish()
    }
}

impl Find<GameId> for Games {
    fn find(&self, name: &str) -> Result<GameId, UnknownGame> {
        self.get(name).map(HostedGame::id)
    }
    fn names(&self) -> Vec<String> {
        Games::names(self)
    }
}

impl Find<EventOps> for Games {
    fn find(&self, name: &str) -> Result<EventOps, UnknownGame> {
        self.get(name).map(|g| g.event)
    }
    fn names(&self) -> Vec<String> {
        Games::names(self)
    }
}

impl Find<JobOps> for Games {
    fn find(&self, name: &str) -> Result<JobOps, UnknownGame> {
        self.get(name).map(|g| g.job)
    }
    fn names(&self) -> Vec<String> {
        Games::names(self)
    }
}
