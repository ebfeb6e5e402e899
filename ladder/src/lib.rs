//! The web ladder behind `arena serve`: people upload Lua/WASM bots from a browser or
//! `arena submit`, worker processes validate them and play duplicate sets chosen by
//! deterministic matchmaking, and the server shows leaderboards (the tournament's standings),
//! bot pages and matches. docs/ladder.md describes it for organisers and players.
//!
//! - `config`: `ladder.toml`. `db`: the storage, the only module with SQL: the `Store` trait,
//!   `SqliteStore`, the ladder's SQLite database (WAL, one writer), and `PgStore` (feature
//!   `postgres`), the same tables in PostgreSQL.
//! - `auth`: passwords (argon2id), secrets, names, the session store.
//! - `server`: the axum router and its pages (templates in `templates/`, compiled in), over
//!   `views` (each page's view model), `extract` (who is asking: `Page`, `CurrentUser`,
//!   `Admin`, `ApiUser`) and `error` (`AppError`, which the handlers' `?` converts into).
//! - `serve`: the server with its matchmaking and collection loops.
//! - `jobs`: the ladder's work on the job queue (validations, duplicate sets) and taking in
//!   the results.
//! - `matchmaking`: which duplicate sets a tick queues. `board`: standings and charts.
//! - `garage`: a player writes, tries and publishes a bot in the browser (drafts, tries in
//!   the queue's priority lane).
//! - `analysis`: the match page's analyses of a seat, asked for by a visitor, computed by a
//!   worker between its matches and kept.
//! - `play`: a person plays a bot in the browser (the pages, and the worker's side: the
//!   person's seat waits for their moves in the database).
//! - `rate`: rate limits of sign-ins (per name tried and per session), of uploads and of the
//!   API (per account).
//! - `harden`: security headers, the one CSRF check before a form is read, error pages.
//! - `class`: class mode: events with a deadline, graded as `arena grade` grades (`time`: its
//!   UTC deadlines).

pub mod analysis;
pub mod app;
pub mod auth;
pub mod board;
pub mod class;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod garage;
pub mod harden;
pub mod jobs;
pub mod matchmaking;
pub mod play;
pub mod rate;
pub mod serve;
pub mod server;
#[cfg(test)]
mod tests;
pub mod time;
pub mod views;

pub use app::Ladder;
pub use config::LadderConfig;
#[cfg(feature = "postgres")]
pub use db::postgres::PgStore;
pub use db::{Db, SqliteStore, Store};
pub use jobs::{Job, Jobs};

use std::collections::{BTreeMap, BTreeSet};

use cardarena::games::rng::derive_seed;
use db::DbError;
use matchmaking::Entrant;

/// The jobs of matchmaking tick `tick` over every board: who plays follows from the database
/// (players, their matches, ratings) and the tick's seed (derived from the ladder's seed). A
/// board with at least half a tick's duplicate sets of earlier ticks still queued gets none: the
/// workers find its next sets queued before they run out (no idle gap between batches), and the
/// queue holds at most about one and a half ticks' sets per board, however slowly they play.
///
/// # Errors
/// Database errors.
pub fn tick_jobs(db: &Db, config: &LadderConfig, tick: i64) -> Result<Vec<Job>, DbError> {
    // The duplicate sets still queued, per board: a set is its tick and deal seed (one pending
    // row per seat rotation).
    let mut queued: BTreeMap<(String, String), BTreeSet<(i64, u64)>> = BTreeMap::new();
    for p in db.pending()?.into_iter().filter(|p| p.version.is_none()) {
        queued.entry((p.game, p.variant)).or_default().insert((p.tick, p.seed));
    }
    let low_water = (config.jobs_per_tick as usize).div_ceil(2).max(1);
    let mut jobs = Vec::new();
    for (k, b) in config.boards.iter().enumerate() {
        let sets = queued.get(&(b.game.name().to_string(), b.variant.clone())).map_or(0, BTreeSet::len);
        if sets >= low_water {
            continue;
        }
        let players = db.players(b.game.name())?;
        if players.len() < b.game.players() {
            continue;
        }
        let standings = board::standings(db, b)?;
        let mut entrants = Vec::new();
        for (bot, v) in &players {
            let label = jobs::label(&bot.name, v);
            let row = standings.event.standings.iter().find(|r| r.bot == label);
            let recent = db
                .matches_of(&[v.id], matchmaking::RECENT)?
                .into_iter()
                .filter(|m| m.game == b.game.name() && m.variant == b.variant)
                .flat_map(|m| m.seats)
                .filter(|&s| s != v.id)
                .collect();
            entrants.push(Entrant {
                version: v.id,
                owner: bot.owner,
                games: row.map_or(0, |r| r.matches),
                rating: row.map_or(1500.0, |r| r.ci_low),
                recent,
            });
        }
        let seed = derive_seed(&[config.seed, tick as u64, k as u64]);
        jobs.extend(matchmaking::pick(
            b,
            &entrants,
            b.game.players(),
            config.jobs_per_tick,
            config.same_owner,
            seed,
            tick,
        ));
    }
    Ok(jobs)
}

/// The ladder's router: its pages and API (`server`), playing in the browser (`play`), class
/// mode (`class`), with (from the inside out) the form body limit, the CSRF check before a form
/// is read, the rate limits (`rate`; a refused form upload gets the form again), error pages in the layout, sessions, and the security
/// headers (`harden`).
pub fn router(ladder: Ladder) -> axum::Router {
    use axum::middleware::from_fn_with_state;
    let (db, config, _) = ladder.parts();
    let limits = rate::RateLimits::new(config, db.clone());
    let csp = axum::http::HeaderValue::from_str(&harden::content_security_policy())
        .expect("the policy is ASCII without control characters");
    server::routes(&ladder)
        .merge(play::routes())
        .merge(class::routes())
        .merge(garage::routes(&ladder))
        .merge(analysis::routes())
        .layer(axum::extract::DefaultBodyLimit::max(server::FORM_OVERHEAD))
        .layer(from_fn_with_state(ladder.clone(), harden::csrf_first))
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(from_fn_with_state(limits, rate::limit))
        .layer(from_fn_with_state(ladder.clone(), server::form_refused_early))
        .layer(from_fn_with_state(ladder.clone(), harden::error_pages))
        .layer(server::sessions(&ladder))
        .layer(from_fn_with_state(std::sync::Arc::new(csp), harden::security_headers))
        .with_state(ladder)
}
