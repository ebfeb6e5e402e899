//! [`Arena`]: the arena as a library, for a program that names its bots and wants replays.

use crate::game_list::Games;
use crate::play::limits::LimitsConfig;
use crate::play::registry::Loader;
use crate::play::runner::Replay;
use crate::play::HostError;

/// Plays matches between bots named as on the command line: built-ins (`random`, `greedy`,
/// `strong`, `nash`), `.lua`/`.wasm`/`.wat` files, and `legacy:<protocol>:<file>` programs.
/// Programs are loaded (and the sandbox started) on first use; a file that cannot be loaded
/// plays with the verdict `load`, as in a tournament.
#[derive(Default)]
pub struct Arena {
    games: Games,
    loader: Loader,
    limits: LimitsConfig,
}

impl Arena {
    /// An arena of the four built-in games with the sandbox's default limits.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// An arena whose Lua/WASM bots run under `limits` (on top of the defaults of their kind).
    #[must_use]
    pub fn with_limits(self, limits: LimitsConfig) -> Arena {
        Arena { limits, ..self }
    }

    /// An arena of `games` (for example `Games::builtin().with::<MyGame>()`).
    #[must_use]
    pub fn with_games(self, games: Games) -> Arena {
        Arena { games, ..self }
    }

    /// The games this arena plays.
    pub fn games(&self) -> &Games {
        &self.games
    }

    /// Plays one match of `game` (its name, or its [`crate::GameId`]) in its default variant dealt from `seed`, `bots` in seat order.
    ///
    /// # Errors
    /// See [`Arena::play_variant`].
    pub fn play(&self, game: impl AsRef<str>, seed: u64, bots: &[&str]) -> Result<Replay, HostError> {
        self.play_variant(game, None, seed, bots)
    }

    /// Plays one match of `game` (`variant`: `None` for the default one).
    ///
    /// # Errors
    /// [`HostError::UnknownGame`], [`HostError::UnknownVariant`], [`HostError::WrongSeatCount`], or
    /// [`HostError::Bot`] for a name that is not a bot; [`HostError::Host`] if the sandbox cannot
    /// start. A bot that fails (a file that does not load included) is not an error: its verdict
    /// is in the replay.
    pub fn play_variant(
        &self,
        game: impl AsRef<str>,
        variant: Option<&str>,
        seed: u64,
        bots: &[&str],
    ) -> Result<Replay, HostError> {
        self.games.get(game.as_ref())?.play(&self.loader, &self.limits, variant, seed, bots)
    }
}
