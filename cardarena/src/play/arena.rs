//! [`Arena`]: the arena as a library, for a program that names its bots and wants replays.

use crate::play::limits::LimitsConfig;
use crate::play::registry::{self, Loader};
use crate::play::runner::Replay;
use crate::play::HostError;
use crate::play::{GameId, Hosted, Match};

/// Plays matches between bots named as on the command line: built-ins (`random`, `greedy`,
/// `strong`, `nash`), `.lua`/`.wasm`/`.wat` files, and `legacy:<protocol>:<file>` programs.
/// Programs are loaded (and the sandbox started) on first use; a file that cannot be loaded
/// plays with the verdict `load`, as in a tournament.
#[derive(Default)]
pub struct Arena {
    loader: Loader,
    limits: LimitsConfig,
}

impl Arena {
    /// An arena with the sandbox's default limits.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// An arena whose Lua/WASM bots run under `limits` (on top of the defaults of their kind).
    pub fn with_limits(limits: LimitsConfig) -> Arena {
        Arena { loader: Loader::new(), limits }
    }

    /// Plays one match of `game`'s default variant dealt from `seed`, `bots` in seat order.
    ///
    /// # Errors
    /// See [`Arena::play_variant`].
    pub fn play(&self, game: GameId, seed: u64, bots: &[&str]) -> Result<Replay, HostError> {
        self.play_variant(game, None, seed, bots)
    }

    /// Plays one match of `game` (`variant`: `None` for the default one).
    ///
    /// # Errors
    /// [`HostError::Request`] for an unknown variant, a wrong number of bots or a name that is
    /// not a bot; [`HostError::Host`] if the sandbox cannot start. A bot that fails is not an
    /// error: its verdict is in the replay.
    pub fn play_variant(
        &self,
        game: GameId,
        variant: Option<&str>,
        seed: u64,
        bots: &[&str],
    ) -> Result<Replay, HostError> {
        with_game!(game, G => self.play_game::<G>(variant, seed, bots))
    }

    fn play_game<G: Hosted>(
        &self,
        variant: Option<&str>,
        seed: u64,
        bots: &[&str],
    ) -> Result<Replay, HostError> {
        let variant = registry::variant::<G>(variant)?;
        if bots.len() != G::PLAYERS {
            return Err(HostError::Request(format!(
                "{} is a {}-player game but {} bot(s) were named; name one per seat",
                G::NAME,
                G::PLAYERS,
                bots.len()
            )));
        }
        let sources = bots
            .iter()
            .map(|b| self.loader.resolve_entrant::<G>(b))
            .collect::<Result<Vec<_>, HostError>>()?;
        Ok(sources.iter().fold(Match::<G>::new(variant, seed), |t, s| t.seat(s, &self.limits)).play())
    }
}
