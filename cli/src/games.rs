//! The games of the command line ([`Games`]): the library's list ([`cardarena::Games`]) and, per game, the
//! commands that work on a game type (`play`, `sprt`, `check`, `grade`, `timing`, `bench`'s
//! match rates). [`Games::with`] adds a game to both, so every command knows it.

use cardarena::{GameId, Hosted, HostedGame, UnknownGame};

use crate::cli::{Commands, GameSet};

impl cardarena::AddGame for Games {
    fn add<G: Hosted>(self) -> Games {
        self.with::<G>()
    }

    fn add_analysed<G: Hosted + cardarena::analyse::Analyse>(self) -> Games {
        self.with_analysis::<G>()
    }
}

/// The games every command of the binary knows.
#[derive(Clone)]
pub struct Games {
    lib: cardarena::Games,
    commands: Vec<(&'static str, Commands)>,
}

impl Games {
    /// The four built-in games.
    pub fn builtin() -> Games {
        cardarena::add_builtin(Games { lib: cardarena::Games::new(), commands: Vec::new() })
    }

    /// These games and `G` (a game of the same name is replaced).
    #[must_use]
    pub fn with<G: Hosted>(self) -> Games {
        let mut commands = self.commands;
        let c = Commands::of::<G>();
        match commands.iter_mut().find(|(n, _)| *n == G::NAME) {
            Some(old) => old.1 = c,
            None => commands.push((G::NAME, c)),
        }
        Games { lib: self.lib.with::<G>(), commands }
    }

    /// These games and `G` with its `arena analyse` (a game of the same name is replaced).
    #[must_use]
    pub fn with_analysis<G: Hosted + cardarena::analyse::Analyse>(self) -> Games {
        let games = self.with::<G>();
        Games { lib: games.lib.with_analysis::<G>(), commands: games.commands }
    }

    /// The library's list of the same games.
    pub fn lib(&self) -> &cardarena::Games {
        &self.lib
    }

    /// The game named `name`.
    ///
    /// # Errors
    /// No game has that name.
    pub fn get(&self, name: &str) -> Result<&HostedGame, UnknownGame> {
        self.lib.get(name)
    }

    /// The game named `name`'s handle.
    ///
    /// # Errors
    /// No game has that name.
    pub fn id(&self, name: &str) -> Result<GameId, UnknownGame> {
        self.lib.get(name).map(HostedGame::id)
    }

    /// The games as the command line's modules see them.
    pub(crate) fn set(&self) -> GameSet<'_> {
        GameSet { lib: &self.lib, commands: &self.commands }
    }
}
