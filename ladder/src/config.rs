//! `ladder.toml`: what a ladder plays and who may join.
//!
//! ```toml
//! title = "Room 101 ladder"   # shown on every page
//! register = "invite"         # "invite" (an invite code is needed) or "open"
//! same_owner = false          # may two bots of one owner meet? (default false)
//! public_url = "https://ladder.example.org"  # how people reach it (invite links; https: Secure cookies)
//!
//! [[board]]                   # one leaderboard per game and variant; default: every game's first variant
//! game = "blade"
//! variant = "readme"          # optional, the game's first variant
//!
//! [matchmaking]
//! tick_seconds = 10           # how often new matches are queued
//! jobs_per_tick = 4           # duplicate sets queued per board per tick
//! seed = 1                    # the ladder's seed (tick seeds derive from it)
//!
//! [upload]
//! max_bytes = 262144          # largest bot file
//! per_minute = 6              # uploads per account (all its tokens and sessions) per minute
//!
//! [login]
//! per_minute = 10             # sign-in and registration tries per name tried, and per browser session
//!
//! [api]
//! per_minute = 120            # API calls per account, all its tokens (any /api/ route)
//!
//! [garage]                    # writing and trying bots in the browser
//! per_minute = 20             # tries per account per minute
//! class_per_minute = 120      # tries of all accounts together per minute
//! [analysis]                  # the match page's analyses of a seat
//! per_minute = 4              # analyses asked for per account per minute
//! budget = 500                # samples per decision (default: each game's, as `arena analyse`)
//!
//! [play]                      # people playing bots in the browser
//! move_seconds = 300          # how long a bot waits for a person's move; then they forfeit
//!
//! [limits]                    # the sandbox limits of every match (as arena.toml's [limits])
//! fuel_per_decision = 5000000
//! ```
//!
//! Unknown keys and bad values are errors naming the file, the key and the line.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use cardarena::play::games::GameId;
use cardarena::play::limits::LimitsConfig;
use cardarena::ConfigError as Invalid;

/// A `ladder.toml` that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read ladder file {}: {source}", file.display())]
    Read {
        /// The file.
        file: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not valid: it names the file, the line and the field.
    #[error(transparent)]
    Invalid(#[from] cardarena::ConfigError),
}

/// Who may create an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Register {
    /// Only with an invite code made by an admin.
    Invite,
    /// Anyone who opens the register page.
    Open,
}

/// One leaderboard: a game and one of its variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The game.
    pub game: GameId,
    /// The variant's name.
    pub variant: String,
}

/// A checked `ladder.toml`.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderConfig {
    /// The games the ladder knows (its boards are of these): the four built-in games unless
    /// the program that serves it adds its own.
    pub games: cardarena::Games,
    /// Shown on every page.
    pub title: String,
    /// Who may register.
    pub register: Register,
    /// Whether two bots of one owner may meet.
    pub same_owner: bool,
    /// The leaderboards, in file order.
    pub boards: Vec<Board>,
    /// Seconds between matchmaking ticks.
    pub tick_seconds: u64,
    /// Duplicate sets queued per board per tick.
    pub jobs_per_tick: u32,
    /// The ladder's seed.
    pub seed: u64,
    /// Largest bot file, in bytes.
    pub max_bytes: usize,
    /// Uploads per account (all its tokens and sessions) per minute.
    pub uploads_per_minute: u32,
    /// Sign-in and registration tries per minute, per name tried and per browser session.
    pub login_per_minute: u32,
    /// API calls per account (all its tokens) per minute.
    pub api_per_minute: u32,
    /// Garage tries per account per minute.
    pub tries_per_minute: u32,
    /// Garage tries of every account together per minute (a class pressing "try" at once).
    pub class_tries_per_minute: u32,
    /// Analyses asked for per account per minute (the match page's "Analyse seat N").
    pub analyses_per_minute: u32,
    /// Samples per decision of an analysis (`None`: each game's default).
    pub analysis_budget: Option<u32>,
    /// Sandbox limits of every match.
    pub limits: LimitsConfig,
    /// Seconds a bot waits for a person's move in the browser before the person forfeits.
    pub move_seconds: u64,
    /// How people reach the ladder (behind a reverse proxy: its https address); `arena serve
    /// --url` overrides it, and without either it is `http://BIND`.
    pub public_url: Option<String>,
}

impl Default for LadderConfig {
    fn default() -> LadderConfig {
        LadderConfig::of(&cardarena::Games::builtin())
    }
}

impl LadderConfig {
    /// The default configuration of a ladder of `games`: a board for each game's default
    /// variant.
    pub fn of(games: &cardarena::Games) -> LadderConfig {
        LadderConfig {
            games: games.clone(),
            title: "cardarena ladder".into(),
            register: Register::Invite,
            same_owner: false,
            boards: games
                .ids()
                .into_iter()
                .map(|game| Board { game, variant: game.variants()[0].clone() })
                .collect(),
            tick_seconds: 10,
            jobs_per_tick: 4,
            seed: 1,
            max_bytes: 256 * 1024,
            uploads_per_minute: 6,
            login_per_minute: 10,
            api_per_minute: 120,
            tries_per_minute: 20,
            class_tries_per_minute: 120,
            analyses_per_minute: 4,
            analysis_budget: None,
            limits: LimitsConfig::default(),
            move_seconds: 300,
            public_url: None,
        }
    }

    /// The game named `name`.
    ///
    /// # Errors
    /// The ladder knows no such game.
    pub fn game(&self, name: &str) -> Result<GameId, cardarena::UnknownGame> {
        self.games.get(name).map(cardarena::HostedGame::id)
    }

    /// The boards of `game`.
    pub fn boards_of(&self, game: GameId) -> impl Iterator<Item = &Board> {
        self.boards.iter().filter(move |b| b.game == game)
    }

    /// Whether `game` has a board.
    pub fn has_game(&self, game: GameId) -> bool {
        self.boards_of(game).next().is_some()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    title: Option<String>,
    register: Option<Register>,
    same_owner: Option<bool>,
    public_url: Option<Spanned<String>>,
    #[serde(default)]
    board: Vec<RawBoard>,
    matchmaking: Option<RawMatchmaking>,
    upload: Option<RawUpload>,
    login: Option<RawPerMinute>,
    api: Option<RawPerMinute>,
    analysis: Option<RawAnalysis>,
    limits: Option<LimitsConfig>,
    play: Option<RawPlay>,
    garage: Option<RawGarage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGarage {
    per_minute: Option<Spanned<u32>>,
    class_per_minute: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlay {
    move_seconds: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    game: Spanned<String>,
    variant: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchmaking {
    tick_seconds: Option<Spanned<u64>>,
    jobs_per_tick: Option<u32>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUpload {
    max_bytes: Option<Spanned<usize>>,
    per_minute: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnalysis {
    per_minute: Option<Spanned<u32>>,
    budget: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPerMinute {
    per_minute: Option<Spanned<u32>>,
}

/// Reads and checks a ladder file.
///
/// # Errors
/// The file cannot be read, is not TOML, has unknown keys or bad values.
pub fn load(path: &Path, games: &cardarena::Games) -> Result<LadderConfig, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| ConfigError::Read { file: path.to_path_buf(), source })?;
    parse_with(&text, path, games)
}

/// Checks a ladder file's text (`path` names it in errors), for the four built-in games.
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, path: &Path) -> Result<LadderConfig, ConfigError> {
    parse_with(text, path, &cardarena::Games::builtin())
}

/// Checks a ladder file's text (`path` names it in errors) for a ladder of `games`.
///
/// # Errors
/// As [`load`].
pub fn parse_with(text: &str, path: &Path, games: &cardarena::Games) -> Result<LadderConfig, ConfigError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| ConfigError::from(Invalid::toml(path, text, &e)))?;
    let at = |span: std::ops::Range<usize>, message: String| {
        ConfigError::from(Invalid::at(path, text, span.start, message))
    };
    let mut config = LadderConfig::of(games);
    if let Some(title) = raw.title {
        config.title = title;
    }
    config.register = raw.register.unwrap_or(config.register);
    config.same_owner = raw.same_owner.unwrap_or(false);
    if let Some(u) = raw.public_url {
        let url = u.get_ref().trim_end_matches('/');
        let host = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")).unwrap_or("");
        if host.is_empty() || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(at(
                u.span(),
                format!(
                    "`public_url = {:?}` is not an address: write it as https://HOST[:PORT][/PATH]",
                    u.get_ref()
                ),
            ));
        }
        config.public_url = Some(url.to_string());
    }
    if !raw.board.is_empty() {
        config.boards.clear();
    }
    for b in raw.board {
        let game: GameId = config.game(b.game.get_ref()).map_err(|e| {
            at(
                b.game.span(),
                format!("`game = {:?}` is not a game (one of: {})", b.game.get_ref(), e.known.join(", ")),
            )
        })?;
        let variants = game.variants();
        let variant = match b.variant {
            None => variants[0].clone(),
            Some(v) if variants.contains(v.get_ref()) => v.into_inner(),
            Some(v) => {
                return Err(at(
                    v.span(),
                    format!(
                        "`variant = {:?}` is not a variant of {} (variants: {})",
                        v.get_ref(),
                        game.name(),
                        variants.join(", ")
                    ),
                ))
            }
        };
        let board = Board { game, variant };
        if config.boards.contains(&board) {
            return Err(at(
                b.game.span(),
                format!(
                    "the board {} {} is listed twice; remove one [[board]]",
                    board.game.name(),
                    board.variant
                ),
            ));
        }
        config.boards.push(board);
    }
    if let Some(m) = raw.matchmaking {
        if let Some(t) = m.tick_seconds {
            if *t.get_ref() == 0 {
                return Err(at(t.span(), "`tick_seconds` must be at least 1".into()));
            }
            config.tick_seconds = t.into_inner();
        }
        config.jobs_per_tick = m.jobs_per_tick.unwrap_or(config.jobs_per_tick);
        config.seed = m.seed.unwrap_or(config.seed);
    }
    if let Some(u) = raw.upload {
        if let Some(m) = u.max_bytes {
            if !(1..=16 << 20).contains(m.get_ref()) {
                return Err(at(
                    m.span(),
                    format!("`max_bytes` must be between 1 and 16777216 (16 MiB), not {}", m.get_ref()),
                ));
            }
            config.max_bytes = m.into_inner();
        }
        if let Some(p) = u.per_minute {
            if *p.get_ref() == 0 {
                return Err(at(p.span(), "`per_minute` must be at least 1".into()));
            }
            config.uploads_per_minute = p.into_inner();
        }
    }
    if let Some(m) = raw.play.and_then(|p| p.move_seconds) {
        if !(1..=86_400).contains(m.get_ref()) {
            return Err(at(
                m.span(),
                format!("`move_seconds` must be between 1 and 86400 (a day), not {}", m.get_ref()),
            ));
        }
        config.move_seconds = m.into_inner();
    }
    let analysis = raw.analysis.map(|a| {
        config.analysis_budget = a.budget.as_ref().map(|b| *b.get_ref());
        (a.budget, RawPerMinute { per_minute: a.per_minute })
    });
    if let Some(b) = analysis.as_ref().and_then(|(b, _)| b.as_ref()) {
        if !(1..=1_000_000).contains(b.get_ref()) {
            return Err(at(
                b.span(),
                format!("[analysis] `budget` must be between 1 and 1000000, not {}", b.get_ref()),
            ));
        }
    }
    for (section, raw, field) in [
        ("login", raw.login, &mut config.login_per_minute),
        ("api", raw.api, &mut config.api_per_minute),
        ("analysis", analysis.map(|(_, p)| p), &mut config.analyses_per_minute),
    ] {
        if let Some(p) = raw.and_then(|r| r.per_minute) {
            if *p.get_ref() == 0 {
                return Err(at(p.span(), format!("[{section}] `per_minute` must be at least 1",)));
            }
            *field = p.into_inner();
        }
    }
    if let Some(g) = raw.garage {
        for (name, value, field) in [
            ("per_minute", g.per_minute, &mut config.tries_per_minute),
            ("class_per_minute", g.class_per_minute, &mut config.class_tries_per_minute),
        ] {
            if let Some(p) = value {
                if *p.get_ref() == 0 {
                    return Err(at(p.span(), format!("[garage] `{name}` must be at least 1")));
                }
                *field = p.into_inner();
            }
        }
    }
    config.limits = raw.limits.unwrap_or_default();
    Ok(config)
}
