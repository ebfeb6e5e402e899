//! What a worker process does with a ladder job: validate an uploaded version, or play a
//! duplicate set (one deal, every seat rotation) and store its matches by key. Runs in
//! `arena worker` processes, never on the web server's threads.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::config::LadderConfig;
use super::db::{Db, DbError, Version};
use crate::games::rng::derive_seed;
use crate::play::games::GameId;
use crate::play::registry::{self, BotSource, Loader};
use crate::play::{Hosted, Match};
use crate::tournament::schedule::rotations;
use crate::tournament::store::pack;
use crate::tournament::MatchSummary;
use crate::with_game;

/// A unit of work for a worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Job {
    /// Check an uploaded version: it loads, and plays a smoke match per variant of its game on
    /// the ladder against `random` without a fault.
    Validate {
        /// The version's id.
        version: i64,
    },
    /// One deal of `game`/`variant` dealt from `seed`, played with the seats in every rotation
    /// of `versions` (a duplicate set).
    Play {
        /// Game.
        game: String,
        /// Variant.
        variant: String,
        /// Deal seed.
        seed: u64,
        /// The matchmaking tick that made it.
        tick: i64,
        /// Version ids in first-seat order.
        versions: Vec<i64>,
    },
}

impl Job {
    /// The job's key: the same job always has the same key, so a queue can refuse a duplicate.
    pub fn key(&self) -> String {
        match self {
            Job::Validate { version } => format!("validate:{version}"),
            Job::Play { game, variant, seed, versions, .. } => {
                let ids: Vec<String> = versions.iter().map(ToString::to_string).collect();
                format!("play:{game}:{variant}:{seed}:{}", ids.join(","))
            }
        }
    }
}

/// One validation check: a variant's smoke match (or the load).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// What was checked (`load`, or `smoke match <variant>`).
    pub what: String,
    /// Whether it passed.
    pub ok: bool,
    /// The verdict (`load`, `fuel`, `crash`, ...) when it failed.
    pub verdict: Option<String>,
    /// What happened.
    pub message: String,
}

/// A job that could not be done: the host's failure (the database, the sandbox), never a bot's
/// (a bot's failure is a verdict stored with the version or the match).
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// The ladder database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The job names something that is not in the database, or the host cannot run it.
    #[error("{0}")]
    Host(String),
}

/// A worker's state: the database, the ladder's settings, the loaded programs by content hash.
pub struct Worker {
    db: Arc<Db>,
    config: LadderConfig,
    loader: Loader,
    files: PathBuf,
    loaded: BTreeMap<(String, String), BotSource>,
}

impl Worker {
    /// A worker on `db`; bot files are written (by content hash) under `<db>.bots/` for the
    /// loader.
    pub fn new(db: Arc<Db>, config: LadderConfig) -> Worker {
        let mut files = db.path().as_os_str().to_owned();
        files.push(".bots");
        Worker { db, config, loader: Loader::new(), files: files.into(), loaded: BTreeMap::new() }
    }

    /// Does one job. Running a job twice is harmless: a validation writes the same verdicts,
    /// a duplicate set's matches are stored once by key.
    ///
    /// # Errors
    /// [`WorkError`]: the host's failure; the job may be retried.
    pub fn run(&mut self, job: &Job) -> Result<(), WorkError> {
        match job {
            Job::Validate { version } => self.validate(*version),
            Job::Play { game, variant, seed, tick, versions } => {
                let id: GameId = game
                    .parse()
                    .map_err(|e: crate::play::games::UnknownGame| WorkError::Host(e.to_string()))?;
                with_game!(id, G => self.play::<G>(variant, *seed, *tick, versions))
            }
        }
    }

    fn version(&self, id: i64) -> Result<(Version, String, String), WorkError> {
        let v = self
            .db
            .version(id)?
            .ok_or_else(|| WorkError::Host(format!("no version {id} in the ladder database")))?;
        let bot = self
            .db
            .bot(v.bot)?
            .ok_or_else(|| WorkError::Host(format!("no bot {} in the ladder database", v.bot)))?;
        let label = format!("{}@v{}", bot.name, v.number);
        Ok((v, bot.game, label))
    }

    /// The loaded program of a version (its file written under its content hash first), named
    /// `<bot>@v<N>` in replays; a file the sandbox refuses is `Failed` with the loader's message.
    fn source<G: Hosted>(&mut self, v: &Version, label: &str) -> Result<BotSource, WorkError> {
        let cache_key = (G::NAME.to_string(), v.hash.clone());
        if let Some(s) = self.loaded.get(&cache_key) {
            return Ok(renamed(s.clone(), label));
        }
        let bytes = self
            .db
            .file(&v.hash)?
            .ok_or_else(|| WorkError::Host(format!("no file {} in the ladder database", v.hash)))?;
        std::fs::create_dir_all(&self.files)
            .map_err(|e| WorkError::Host(format!("cannot create {}: {e}", self.files.display())))?;
        let path = self.files.join(format!("{}.{}", v.hash, v.lang));
        if !path.is_file() {
            std::fs::write(&path, &bytes)
                .map_err(|e| WorkError::Host(format!("cannot write {}: {e}", path.display())))?;
        }
        let name = path.to_string_lossy().into_owned();
        let source = match self.loader.resolve::<G>(&name) {
            Ok(s) => s,
            Err(e) if e.downcast_ref::<registry::SandboxStart>().is_some() => {
                return Err(WorkError::Host(format!("{e:#}")))
            }
            Err(e) => BotSource::Failed {
                name: label.to_string(),
                hash: v.hash.clone(),
                error: format!("{e:#}").replace(&name, label),
            },
        };
        self.loaded.insert(cache_key, source.clone());
        Ok(renamed(source, label))
    }

    fn validate(&mut self, id: i64) -> Result<(), WorkError> {
        let (v, game, label) = self.version(id)?;
        let gid: GameId =
            game.parse().map_err(|e: crate::play::games::UnknownGame| WorkError::Host(e.to_string()))?;
        let checks = with_game!(gid, G => self.checks::<G>(&v, &label))?;
        let ready = !checks.is_empty() && checks.iter().all(|c| c.ok);
        self.db.set_validation(id, ready, &serde_json::to_string(&checks).expect("checks serialize"))?;
        Ok(())
    }

    fn checks<G: Hosted>(&mut self, v: &Version, label: &str) -> Result<Vec<Check>, WorkError> {
        let source = self.source::<G>(v, label)?;
        if let Some(error) = source.load_error() {
            return Ok(vec![Check {
                what: "load".into(),
                ok: false,
                verdict: Some("load".into()),
                message: error.to_string(),
            }]);
        }
        let mut checks = vec![Check {
            what: "load".into(),
            ok: true,
            verdict: None,
            message: "loaded; ABI checked".into(),
        }];
        let random = BotSource::Builtin("random".into());
        let variants: Vec<String> =
            self.config.boards_of(GameId::of::<G>()).map(|b| b.variant.clone()).collect();
        for variant in variants {
            let parsed =
                registry::variant::<G>(Some(&variant)).map_err(|e| WorkError::Host(format!("{e:#}")))?;
            let seed = derive_seed(&[u64::from_str_radix(&v.hash[..16], 16).unwrap_or(0)]);
            let what = format!("smoke match {variant} against random, in every seat");
            let mut decisions = 0;
            let mut fault = None;
            // The bot in each seat in turn (seat k), `random` in the others.
            for k in 0..G::PLAYERS {
                let table = (0..G::PLAYERS).fold(Match::<G>::new(parsed, seed), |t, s| {
                    t.seat(if s == k { &source } else { &random }, &self.config.limits)
                });
                let replay = table.play();
                decisions += replay.decisions.iter().filter(|d| d.seat == k).count();
                if let Some(f) = replay.faults[k].first() {
                    fault = Some(f.clone());
                    break;
                }
            }
            checks.push(match fault {
                None => Check {
                    what,
                    ok: true,
                    verdict: None,
                    message: format!("{decisions} decisions, no fault"),
                },
                Some(f) => Check {
                    what,
                    ok: false,
                    verdict: Some(f.verdict.name().to_string()),
                    message: f.message.clone(),
                },
            });
        }
        Ok(checks)
    }

    fn play<G: Hosted>(
        &mut self,
        variant: &str,
        seed: u64,
        tick: i64,
        versions: &[i64],
    ) -> Result<(), WorkError> {
        if versions.len() != G::PLAYERS {
            return Err(WorkError::Host(format!(
                "a {} table has {} seats, the job names {} versions",
                G::NAME,
                G::PLAYERS,
                versions.len()
            )));
        }
        let parsed = registry::variant::<G>(Some(variant)).map_err(|e| WorkError::Host(format!("{e:#}")))?;
        let mut sources = Vec::new();
        for &id in versions {
            let (v, _, label) = self.version(id)?;
            sources.push(self.source::<G>(&v, &label)?);
        }
        let table: Vec<usize> = (0..versions.len()).collect();
        let limits = serde_json::to_string(&self.config.limits).expect("limits serialize");
        for seats in rotations(&table, 0, true) {
            let ids: Vec<i64> = seats.iter().map(|&k| versions[k]).collect();
            let hashes: Vec<String> = seats.iter().map(|&k| sources[k].entry().hash).collect();
            let key = match_key(G::NAME, variant, seed, &hashes, &limits);
            let replay = seats
                .iter()
                .fold(Match::<G>::new(parsed, seed), |t, &k| t.seat(&sources[k], &self.config.limits))
                .play();
            let summary = MatchSummary::of(&replay);
            let packed = pack(&summary, &replay);
            self.db.insert_match(
                &key,
                G::NAME,
                variant,
                seed,
                &ids,
                packed.summary(),
                packed.replay(),
                tick,
            )?;
        }
        Ok(())
    }
}

/// The key of a ladder match: everything that decides it (the arena version, game, variant,
/// seed, every seat's content hash, the limits), hashed.
pub fn match_key(game: &str, variant: &str, seed: u64, hashes: &[String], limits: &str) -> String {
    let text = format!("{}|{game}|{variant}|{seed}|{}|{limits}", env!("CARGO_PKG_VERSION"), hashes.join(","));
    crate::bots::bot::content_hash(text.as_bytes())
}

fn renamed(source: BotSource, label: &str) -> BotSource {
    match source {
        BotSource::File { program, .. } => BotSource::File { name: label.to_string(), program },
        BotSource::Failed { hash, error, .. } => BotSource::Failed { name: label.to_string(), hash, error },
        other => other,
    }
}
